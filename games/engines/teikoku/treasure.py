"""Treasure movements: port bounty, port attacks, raids, commerce, trade, pit fees, card effects, corrections.

Bounty, raids, commerce, trade and pit fees only move treasure between players and the Port; only card
effects and corrections bring treasure in from the supply (outside the game) or send it back, and
`state["created"]` keeps their net total, so players + Port = set-up total + created, always.
"No player or Port may ever have negative treasure or grant more treasure than it owns to any attacker."
"""

from __future__ import annotations

from games.engines.base import IllegalMove
from games.engines.teikoku.calendar import require_turn
from games.engines.teikoku.checks import dice, holder, illegal, integer, one_of, seat, text
from games.engines.teikoku.rules import (
    BATTLE_CUBES,
    DECK_NAMES,
    MAX_AMOUNT,
    MAX_BLOOD,
    PIT_FEE,
    SPECIAL_DECKS,
    TRANSACTIONS_PER_TURN,
    clan_name,
    holder_name,
    season_rules,
)

ROLLERS = ("table", "site")  # real dice at the table, or the site's dice roller


def available_bounty(state: dict) -> int:
    """Port treasure a player may gain now; treasure paid in this or last season waits for a port phase."""
    port = state["port"]
    return max(0, port["treasure"] - port["paid_this_season"] - port["paid_last_season"])


def holdings(state: dict, who: int | str) -> int | None:
    """Treasure a treasury holds; None for the supply, which never runs out."""
    if who == "port":
        return state["port"]["treasure"]
    if who == "supply":
        return None
    return state["treasure"][who]


def overdraw(state: dict, who: int | str, available: int, asked: int, what: str) -> IllegalMove:
    name = holder_name(state, who)
    return illegal(
        f"{name[0].upper()}{name[1:]} has {available} treasure available; {what} needs {asked}.",
        "overdraw",
        holder=who,
        available=available,
        asked=asked,
    )


def move_treasure(state: dict, source: int | str, target: int | str, amount: int, *, paid_in: bool) -> None:
    """Move `amount` (mutates `state`). `paid_in`: treasure paid to the Port is bounty only from the next
    season's port phase ("Players may not gain bounty from the Port until Phase 2 of the following season")."""
    if source == "port":
        port = state["port"]
        port["treasure"] -= amount
        # What leaves the Port leaves its available bounty first, then the treasure still waiting.
        excess = port["paid_this_season"] + port["paid_last_season"] - port["treasure"]
        if excess > 0:
            from_last = min(excess, port["paid_last_season"])
            port["paid_last_season"] -= from_last
            port["paid_this_season"] -= excess - from_last
    elif source == "supply":
        state["created"] += amount
    else:
        state["treasure"][source] -= amount
    if target == "port":
        state["port"]["treasure"] += amount
        if paid_in:
            state["port"]["paid_this_season"] += amount
    elif target == "supply":
        state["created"] -= amount
    else:
        state["treasure"][target] += amount


def require_port_open(state: dict, action: str) -> None:
    if not season_rules(state["season"])["port_open"]:
        raise illegal(
            f'Summer: the Port is closed, so no {action}. "Players Cannot Attack or Acquire From Port".',
            "port_closed",
            action=action,
            season=state["season"],
        )


def refill_port_row(state: dict) -> None:
    """A Port card has gone: "the next card from the Units deck immediately fills the right-most slot"."""
    state["port_row"] -= 1
    if state["decks"]["units"] > 0:
        state["decks"]["units"] -= 1
        state["port_row"] += 1


def require_port_card(state: dict, action: str) -> None:
    if state["port_row"] == 0:
        raise illegal(f"No card is left in the Port row for {action}.", "port_row_empty", action=action)


# --- phase 2, the Port ------------------------------------------------------------------------------------


BOUNTY = {"required": {"blood": integer(0, MAX_BLOOD)}, "optional": {"amount": integer(0, MAX_AMOUNT)}}


def bounty(state: dict, move: dict) -> None:
    """ "the player acquires a Bounty of treasure up to the Blood value of the defeated card, but limited to no
    more than the total amount of Treasure presently available at the Port"; the defeated card goes to the Pit
    and the Units deck refills the row. Without "amount", the player takes all the bounty allowed."""
    who = move["seat"]
    require_turn(state, who, "port", "a port bounty")
    require_port_open(state, "attack on a Port card")
    require_port_card(state, "an attack")
    available = available_bounty(state)
    amount = move.get("amount", min(move["blood"], available))
    if amount > move["blood"]:
        raise illegal(
            f"A bounty is at most the defeated card's blood value ({move['blood']}), not {amount}.",
            "bounty_above_blood",
            blood=move["blood"],
            asked=amount,
        )
    if amount > available:
        raise overdraw(state, "port", available, amount, "this bounty")
    move_treasure(state, "port", who, amount, paid_in=False)
    refill_port_row(state)


PORT_ATTACK = {"required": {"blood": integer(1, MAX_BLOOD)}}


def port_attack(state: dict, move: dict) -> None:
    """ "If the Units deck ever becomes empty the Port is undefended ... Players may attack the port treasury
    directly and take Treasure equal to the blood value of their attacks", never more than it holds."""
    who = move["seat"]
    require_turn(state, who, "port", "an attack on the Port's treasury")
    require_port_open(state, "attack on the Port")
    if state["decks"]["units"] > 0:
        raise illegal(
            f"The Port's treasury can be attacked only once the Units deck is empty; it holds "
            f"{state['decks']['units']} card{'' if state['decks']['units'] == 1 else 's'}.",
            "port_defended",
            units=state["decks"]["units"],
        )
    move_treasure(state, "port", who, min(move["blood"], available_bounty(state)), paid_in=False)


# --- phase 3, War -----------------------------------------------------------------------------------------


def raid_fields(players: int) -> dict:
    return {
        "required": {"defender": seat(players), "dice": dice(2), "cubes": integer(0, BATTLE_CUBES)},
        "optional": {"rolled_by": one_of(ROLLERS)},
    }


def raid_total(move: dict) -> int:
    return sum(move["dice"]) + move["cubes"]


def raid(state: dict, move: dict) -> None:
    """ "the attacker may loot the vault by rolling 2D6 + 1 for each unused Battle Cubes"; "a defending Player
    may only be forced to pay Treasure up to the amount they have in their treasury at that time"."""
    attacker, defender = move["seat"], move["defender"]
    require_turn(state, attacker, "war", "a raid")
    if not season_rules(state["season"])["attacks_on_players"]:
        raise illegal('Winter: "Players Cannot Attack Any Other Players", so no raid.', "winter_truce", season="winter")
    if defender == attacker:
        raise illegal(f"{clan_name(state, attacker)} cannot raid their own treasury.", "raid_self", seat=attacker)
    if defender in state["raided"]:
        raise illegal(
            f"{clan_name(state, defender)}'s treasury has already been raided this season: "
            '"only one Player may raid the Treasury of an enemy in a season".',
            "already_raided",
            defender=defender,
        )
    if state["fortified"][defender]:
        raise illegal(
            f'{clan_name(state, defender)} has no card slotted and is fortified: "that player cannot be '
            'attacked by enemies".',
            "fortified",
            defender=defender,
        )
    move_treasure(state, defender, attacker, min(raid_total(move), state["treasure"][defender]), paid_in=False)
    state["raided"].append(defender)


# --- phase 4, Commerce --------------------------------------------------------------------------------------


DECK_CHOICE = {"required": {"deck": one_of(SPECIAL_DECKS)}}


def _transaction(state: dict, who: int, action: str) -> int:
    require_turn(state, who, "commerce", action)
    done = state["turn"]["transactions"]
    if done >= TRANSACTIONS_PER_TURN:
        raise illegal(
            f'{clan_name(state, who)} has made {done} commerce and trade transactions this turn: "There is a '
            f'hard limit of {TRANSACTIONS_PER_TURN} Commerce and Trade transactions per player per turn".',
            "transactions_used",
            seat=who,
            limit=TRANSACTIONS_PER_TURN,
        )
    return who


def _draw_special(state: dict, deck: str) -> None:
    if state["decks"][deck] == 0:
        raise illegal(f"The {DECK_NAMES[deck]} deck is empty.", "deck_empty", deck=deck)
    state["decks"][deck] -= 1
    state["turn"]["transactions"] += 1


def commerce(state: dict, move: dict) -> None:
    """ "each player may spend 5 Treasure to acquire a special card"; "Treasure spent by any player during
    Commerce is placed in the Port treasure stash" (cost varied per player when the players agreed)."""
    who = _transaction(state, move["seat"], "commerce")
    cost = state["special_card_cost"][who]
    if state["treasure"][who] < cost:
        raise overdraw(state, who, state["treasure"][who], cost, "a special card")
    _draw_special(state, move["deck"])
    move_treasure(state, who, "port", cost, paid_in=True)


def trade(state: dict, move: dict) -> None:
    """ "Trade any unspent Special cards by banishing them ... to obtain a different special card from the same
    special deck or another special deck. No treasure is necessary to complete a Trade.\""""
    _transaction(state, move["seat"], "a trade")
    _draw_special(state, move["deck"])


PIT = {"required": {"cards": integer(1, 99)}}


def pit_fee(state: dict, move: dict) -> None:
    """ "Each card being banished costs 2 Treasure as a Pit fee, with the treasure being added to the Port
    bounty.\""""
    who = move["seat"]
    require_turn(state, who, "commerce", "banishing to the Pit")
    fee = PIT_FEE * move["cards"]
    if state["treasure"][who] < fee:
        cards = f"{move['cards']} card{'' if move['cards'] == 1 else 's'}"
        raise overdraw(state, who, state["treasure"][who], fee, f"the Pit fee for {cards}")
    move_treasure(state, who, "port", fee, paid_in=True)


# --- any time: card effects and corrections ---------------------------------------------------------------


def transfer_fields(players: int, *, note_required: bool) -> dict:
    fields = {"from": holder(players), "to": holder(players), "amount": integer(1, MAX_AMOUNT)}
    if note_required:
        return {"required": {**fields, "note": text(required=True)}}
    return {"required": {**fields, "card": text(required=True)}, "optional": {"note": text(required=False)}}


def _check_transfer(state: dict, move: dict, what: str) -> None:
    source, target, amount = move["from"], move["to"], move["amount"]
    if source == target:
        raise illegal(
            f"{what[0].upper()}{what[1:]} moves treasure between two different treasuries.",
            "same_treasury",
            holder=source,
        )
    held = holdings(state, source)
    if held is not None and held < amount:
        raise overdraw(state, source, held, amount, what)


def card_effect(state: dict, move: dict) -> None:
    """A card's "When Played" or "While Slotted" effect on treasure (e.g. Tunnels), with the amount the
    players read on the card; treasure paid to the Port this way waits a season like any payment."""
    _check_transfer(state, move, f"the {move['card']} effect")
    move_treasure(state, move["from"], move["to"], move["amount"], paid_in=True)


def correction(state: dict, move: dict) -> None:
    """A fix of the ledger, with its reason; it restates what should have been, so treasure it puts in the
    Port is bounty at once."""
    _check_transfer(state, move, "this correction")
    move_treasure(state, move["from"], move["to"], move["amount"], paid_in=False)
