"""The log's sentences: one English sentence per move, from the state before it and the state after it."""

from __future__ import annotations

from games.engines.teikoku.rules import (
    DECK_NAMES,
    PHASE_NAMES,
    PIT_FEE,
    SEASON_NAMES,
    TRANSACTIONS_PER_TURN,
    clan_name,
    holder_name,
)


def _gain(before: dict, after: dict, seat: int) -> int:
    return after["treasure"][seat] - before["treasure"][seat]


def _sentence(before: dict, after: dict, move: dict) -> str:
    kind, seat = move["type"], move["seat"]
    who = clan_name(before, seat)
    if kind == "end_turn":
        return f"{who} ends their {PHASE_NAMES[before['phase']]} turn."
    if kind == "bounty":
        return (
            f"{who} defeats a Port card of blood {move['blood']} and takes {_gain(before, after, seat)} treasure "
            "of bounty from the Port."
        )
    if kind == "acquire":
        return f"{who} acquires a card from the Port ({after['decks']['units']} left in the Units deck)."
    if kind == "port_attack":
        taken = _gain(before, after, seat)
        return f"{who} attacks the Port's treasury with {move['blood']} blood and takes {taken} treasure."
    if kind == "raid":
        rolled = " at the table" if move.get("rolled_by", "table") == "table" else " by the site"
        dice = "+".join(str(d) for d in move["dice"])
        return (
            f"{who} raids {clan_name(before, move['defender'])}: 2D6 rolled{rolled} {dice} + {move['cubes']} unused "
            f"battle cube(s) = {sum(move['dice']) + move['cubes']}; {who} takes {_gain(before, after, seat)} treasure."
        )
    if kind in ("commerce", "trade"):
        count = f"transaction {after['turn']['transactions'] if after['turn'] else '?'} of {TRANSACTIONS_PER_TURN}"
        deck = DECK_NAMES[move["deck"]]
        if kind == "commerce":
            cost = before["special_card_cost"][seat]
            return f"{who} buys a {deck} card for {cost} treasure, paid to the Port ({count})."
        return f"{who} trades a special card for a {deck} card ({count})."
    if kind == "pit_fee":
        fee = PIT_FEE * move["cards"]
        return f"{who} banishes {move['cards']} card(s) to the Pit and pays {fee} treasure to the Port."
    if kind == "banish":
        return f"{who} banishes a card from their hand (Autumn)."
    if kind in ("card_effect", "correction"):
        source, target = holder_name(before, move["from"]), holder_name(before, move["to"])
        amount = f"{move['amount']} treasure from {source} to {target}"
        note = f" ({move['note']})" if move.get("note") else ""
        if kind == "card_effect":
            return f"{move['card']}, played by {who}: {amount}{note}."
        return f"Correction entered by {who}: {amount}{note}."
    if kind == "cards_leave":
        return (
            f"{move['count']} card(s) leave the {DECK_NAMES[move['deck']]} deck ({move['note']}); "
            f"{after['decks'][move['deck']]} left."
        )
    if kind == "fortify":
        if move["fortified"]:
            return f"{who}'s land holds no card: {who} is fortified."
        return f"{who}'s land holds cards again: {who} is no longer fortified."
    rolled = "at the table" if move.get("rolled_by", "table") == "table" else "by the site"
    note = f" ({move['note']})" if move.get("note") else ""
    return f"{who} rolls {', '.join(str(d) for d in move['dice'])} {rolled}{note}."


def describe(before: dict, after: dict, move: dict) -> str:
    when = f"Year {before['year']}, {SEASON_NAMES[before['season']]}, {PHASE_NAMES[before['phase']]}: "
    sentence = when + _sentence(before, after, move)
    end = after["end"]
    if end and not before["end"]:
        names = " and ".join(clan_name(after, s) for s in end["winners"])
        verb = "share the victory" if len(end["winners"]) > 1 else "wins"
        sentence += f" {names} {verb} by {end['termination']}."
    return sentence
