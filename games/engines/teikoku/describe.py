"""The log's sentences: one sentence per move, from the state before it and the state after it.

Each is a Phrase: English words for the API, and a code with parameters (seasons, phases and decks by their
slugs, clans by name) that the site says in the reader's language (games/plugins/teikoku/phrases.py).
"""

from __future__ import annotations

from games.engines.base import Phrase
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


def holder_phrase(state: dict, holder: int | str) -> Phrase:
    """A treasury in words: a clan (by name), the Port or the supply."""
    if holder == "port":
        return Phrase(holder_name(state, holder), "teikoku.holder.port")
    if holder == "supply":
        return Phrase(holder_name(state, holder), "teikoku.holder.supply")
    clan = clan_name(state, int(holder))  # a clan's seat: the holders are checked before they are named
    return Phrase(clan, "teikoku.clan", clan=clan)


def _sentence(before: dict, after: dict, move: dict) -> Phrase:  # noqa: C901, PLR0911 (one branch per move)
    kind, seat = move["type"], move["seat"]
    who = clan_name(before, seat)
    if kind == "end_turn":
        return Phrase(
            f"{who} ends their {PHASE_NAMES[before['phase']]} turn.",
            "teikoku.describe.end_turn",
            clan=who,
            phase=before["phase"],
        )
    if kind == "bounty":
        gain = _gain(before, after, seat)
        return Phrase(
            f"{who} defeats a Port card of blood {move['blood']} and takes {gain} treasure of bounty from the Port.",
            "teikoku.describe.bounty",
            clan=who,
            blood=move["blood"],
            treasure=gain,
        )
    if kind == "acquire":
        left = after["decks"]["units"]
        return Phrase(
            f"{who} acquires a card from the Port ({left} left in the Units deck).",
            "teikoku.describe.acquire",
            clan=who,
            left=left,
        )
    if kind == "port_attack":
        taken = _gain(before, after, seat)
        return Phrase(
            f"{who} attacks the Port's treasury with {move['blood']} blood and takes {taken} treasure.",
            "teikoku.describe.port_attack",
            clan=who,
            blood=move["blood"],
            treasure=taken,
        )
    if kind == "raid":
        by_table = move.get("rolled_by", "table") == "table"
        rolled = " at the table" if by_table else " by the site"
        dice = "+".join(str(d) for d in move["dice"])
        total = sum(move["dice"]) + move["cubes"]
        gain = _gain(before, after, seat)
        defender = clan_name(before, move["defender"])
        return Phrase(
            f"{who} raids {defender}: 2D6 rolled{rolled} {dice} + {move['cubes']} unused "
            f"battle cube(s) = {total}; {who} takes {gain} treasure.",
            "teikoku.describe.raid_table" if by_table else "teikoku.describe.raid_site",
            clan=who,
            defender=defender,
            dice=dice,
            cubes=move["cubes"],
            total=total,
            treasure=gain,
        )
    if kind in ("commerce", "trade"):
        # counted from the turn before the move: a purchase that empties the last deck ends the game, and then no
        # turn is left after it to read the count from
        done = before["turn"]["transactions"] + 1
        count = f"transaction {done} of {TRANSACTIONS_PER_TURN}"
        deck = DECK_NAMES[move["deck"]]
        if kind == "commerce":
            cost = before["special_card_cost"][seat]
            return Phrase(
                f"{who} buys a {deck} card for {cost} treasure, paid to the Port ({count}).",
                "teikoku.describe.commerce",
                clan=who,
                deck=move["deck"],
                cost=cost,
                done=done,
                limit=TRANSACTIONS_PER_TURN,
            )
        return Phrase(
            f"{who} trades a special card for a {deck} card ({count}).",
            "teikoku.describe.trade",
            clan=who,
            deck=move["deck"],
            done=done,
            limit=TRANSACTIONS_PER_TURN,
        )
    if kind == "pit_fee":
        fee = PIT_FEE * move["cards"]
        cards = f"{move['cards']} card{'' if move['cards'] == 1 else 's'}"
        return Phrase(
            f"{who} banishes {cards} to the Pit and pays {fee} treasure to the Port.",
            "teikoku.describe.pit_fee",
            clan=who,
            cards=move["cards"],
            fee=fee,
        )
    if kind == "banish":
        return Phrase(f"{who} banishes a card from their hand (Autumn).", "teikoku.describe.banish", clan=who)
    if kind in ("card_effect", "correction"):
        source, target = holder_phrase(before, move["from"]), holder_phrase(before, move["to"])
        amount = f"{move['amount']} treasure from {source} to {target}"
        note = f" ({move['note']})" if move.get("note") else ""
        params = {"clan": who, "amount": move["amount"], "source": source, "target": target}
        if note:
            params["note"] = move["note"]
        if kind == "card_effect":
            return Phrase(
                f"{move['card']}, played by {who}: {amount}{note}.",
                "teikoku.describe.card_effect_note" if note else "teikoku.describe.card_effect",
                card=move["card"],
                **params,
            )
        return Phrase(
            f"Correction entered by {who}: {amount}{note}.",
            "teikoku.describe.correction_note" if note else "teikoku.describe.correction",
            **params,
        )
    if kind == "cards_leave":
        left = after["decks"][move["deck"]]
        return Phrase(
            f"{move['count']} {'card leaves' if move['count'] == 1 else 'cards leave'} the "
            f"{DECK_NAMES[move['deck']]} deck ({move['note']}); {left} left.",
            "teikoku.describe.cards_leave",
            count=move["count"],
            deck=move["deck"],
            note=move["note"],
            left=left,
        )
    if kind == "fortify":
        if move["fortified"]:
            return Phrase(f"{who}'s land holds no card: {who} is fortified.", "teikoku.describe.fortified", clan=who)
        return Phrase(
            f"{who}'s land holds cards again: {who} is no longer fortified.", "teikoku.describe.unfortified", clan=who
        )
    by_table = move.get("rolled_by", "table") == "table"
    rolled = "at the table" if by_table else "by the site"
    dice = ", ".join(str(d) for d in move["dice"])
    text = f"{who} rolls {dice} {rolled}"
    if move.get("note"):
        return Phrase(
            f"{text} ({move['note']}).",
            "teikoku.describe.roll_table_note" if by_table else "teikoku.describe.roll_site_note",
            clan=who,
            dice=dice,
            note=move["note"],
        )
    return Phrase(
        f"{text}.", "teikoku.describe.roll_table" if by_table else "teikoku.describe.roll_site", clan=who, dice=dice
    )


def describe_phrase(before: dict, after: dict, move: dict) -> Phrase:
    when = Phrase(
        f"Year {before['year']}, {SEASON_NAMES[before['season']]}, {PHASE_NAMES[before['phase']]}",
        "teikoku.describe.when",
        year=before["year"],
        season=before["season"],
        phase=before["phase"],
    )
    said = _sentence(before, after, move)
    text = f"{when}: {said}"
    phrase = Phrase(text, "teikoku.describe.move", when=when, move=said)
    end = after["end"]
    if end and not before["end"]:
        names = [clan_name(after, s) for s in end["winners"]]
        if len(names) > 1:
            won = Phrase(
                f"{' and '.join(names)} share the victory by {end['termination']}.",
                "teikoku.describe.shared_victory",
                clans=names,
                termination=end["termination"],
            )
        else:
            won = Phrase(
                f"{names[0]} wins by {end['termination']}.",
                "teikoku.describe.victory",
                clan=names[0],
                termination=end["termination"],
            )
        phrase = Phrase(f"{text} {won}", "teikoku.describe.move_and_end", when=when, move=said, end=won)
    return phrase


def describe(before: dict, after: dict, move: dict) -> str:
    return describe_phrase(before, after, move).text
