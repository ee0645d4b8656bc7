"""Moves that count cards and record the table, without moving treasure: acquiring from the Port, cards
leaving a deck, the Autumn banish, a player's land being empty (fortified), and dice rolled for the log."""

from __future__ import annotations

from games.engines.teikoku.calendar import require_turn
from games.engines.teikoku.checks import boolean, dice, illegal, integer, invalid, one_of, text
from games.engines.teikoku.rules import DECK_NAMES, DECKS, MAX_UNITS_DECK, clan_name, season_rules
from games.engines.teikoku.treasure import ROLLERS, refill_port_row, require_port_card, require_port_open

ACQUIRE: dict = {"required": {}}


def acquire(state: dict, move: dict) -> None:
    """ "To acquire a card from the center row, a player must spend Gold from their hand equal to the Gold
    value of the card"; the Units deck refills the row. The site records the card leaving, not its gold."""
    require_turn(state, move["seat"], "port", "acquiring from the Port")
    require_port_open(state, "acquiring from the Port")
    require_port_card(state, "acquiring")
    refill_port_row(state)


CARDS_LEAVE = {"required": {"deck": one_of(DECKS), "count": integer(1, MAX_UNITS_DECK), "note": text(required=True)}}


def cards_leave(state: dict, move: dict) -> None:
    """Cards leaving a deck other than by commerce, trade or the Port row (a card's effect), as the players
    count them: the attrition victory watches every deck's counter."""
    deck, count = move["deck"], move["count"]
    left = state["decks"][deck]
    if count > left:
        raise illegal(
            f"The {DECK_NAMES[deck]} deck holds {left} card{'' if left == 1 else 's'}; {count} cannot leave it.",
            "deck_overdraw",
            deck=deck,
            available=left,
            asked=count,
        )
    state["decks"][deck] -= count


BANISH: dict = {"required": {}}


def banish(state: dict, move: dict) -> None:
    """ "Autumn = Players May Banish 1 Card From Their Hand During Movement" (free: no Pit fee is named)."""
    who = move["seat"]
    require_turn(state, who, "movement", "the Autumn banish")
    if not season_rules(state["season"])["autumn_banish"]:
        raise illegal(
            "Only in Autumn may a player banish a card during movement.", "not_autumn", season=state["season"]
        )
    if state["turn"]["banished"]:
        raise illegal(f"{clan_name(state, who)} has already banished a card this Autumn.", "banish_used", seat=who)
    state["turn"]["banished"] = True


FORTIFY = {"required": {"fortified": boolean}}


def fortify(state: dict, move: dict) -> None:
    """ "If a player has no cards slotted in any of their 4 land slots, that player cannot be attacked by enemies
    and is considered fortified": the player (seat) records whether their land is empty."""
    state["fortified"][move["seat"]] = move["fortified"]


def check_roll(value: object, field: str) -> list[int]:
    """One to four six-sided dice (a D6 for an entrenched slot or the Port's middle slot, 2D6...)."""
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise invalid(
            f'"{field}" must list the 1 to 4 dice rolled, e.g. [3, 5].',
            "wrong_type",
            field=field,
            expected="list of 1 to 4 dice",
        )
    return dice(len(value))(value, field)


ROLL = {"required": {"dice": check_roll}, "optional": {"rolled_by": one_of(ROLLERS), "note": text(required=False)}}


def roll(state: dict, move: dict) -> None:
    """A roll kept in the log for the table to see; it moves nothing."""
