"""Teikoku's set-up (rulebook "Starting Game Setup", "The 3 Player Variant", "2 Player Variant",
"Adjusting The Game - Rule Variants"), read from what the players enter, and the state's JSON layout.

Set-up, as the site sends it:

    {"clans": ["fujiwara", "minamoto", "tokugawa"],     seats in playing order (clockwise from Fujiwara)
     "units_deck": 27,                                   cards left in the Units deck once the 3 Port cards
                                                         are face up (not printed in the rulebook: counted)
     "chosen_specials": ["ninja", "market", "ninja"],    the deck each player's opening special card came from
     # variants, all optional:
     "special_deck_size": 8,                             cards in each special deck, 1..20 (8; 4 with 2 players)
     "starting_treasure": 25,                            each player's (and each absent player's, for the Port)
     "aggression_target": 50 or [60, 50, 40],            one target, or one per seat as a handicap
     "special_card_cost": 5 or [5, 5, 4],                one cost, or one per seat as a handicap
     "years": 3}                                         3, or 4 for the long game

The state (one JSON dict):

    rules_version       str
    clans               [clan per seat]
    treasure            [treasure per seat]
    targets             [aggression target per seat]
    special_card_cost   [cost of a special card per seat]
    port                {"treasure": int, "paid_this_season": int, "paid_last_season": int}
                        treasure paid in is not bounty until the next season's port phase
    decks               {"yakuza": n, "ninja": n, "elements": n, "market": n, "units": n}
    port_row            Port cards face up (3, fewer once the Units deck cannot refill the row)
    years               3 or 4
    year, season, phase 1.., "winter".."autumn", "movement".."refresh"
    first_player        seat holding the first-player token
    turn                {"seat": whose turn in this phase, "transactions": commerce+trade this turn,
                         "banished": Autumn banish used this turn} or None once the game is over
    raided              seats whose treasury was raided this season
    fortified           [bool per seat]: the player's land holds no card, as the players recorded it
    created             treasure brought into (+) or taken out of (-) the game by card effects and corrections
    end                 None, or {"termination": "aggression" | "attrition" | "longevity", "winners": [seats]}
"""

from __future__ import annotations

from typing import Any

from games.engines.teikoku.checks import illegal, integer, invalid, one_of, read_fields, type_name
from games.engines.teikoku.rules import (
    AGGRESSION_TARGET,
    CLAN_NAMES,
    CLANS,
    CLANS_BY_PLAYERS,
    DECK_NAMES,
    DECKS,
    DECKS_EMPTY_FOR_ATTRITION,
    MAX_TREASURE_SETTING,
    MAX_UNITS_DECK,
    PORT_ROW,
    RULES_VERSION,
    SPECIAL_CARD_COST,
    SPECIAL_DECK_MAX,
    SPECIAL_DECK_SIZE,
    SPECIAL_DECKS,
    STARTING_TREASURE,
    YEARS,
)


def _list_of(check: Any, length: int) -> Any:
    def read(value: Any, field: str) -> list:
        if not isinstance(value, list):
            raise invalid(
                f'"{field}" must be a list with one entry per seat.',
                "wrong_type",
                field=field,
                expected="list",
                got=type_name(value),
            )
        if len(value) != length:
            raise invalid(
                f'"{field}" must have one entry per seat ({length}), not {len(value)}.',
                "wrong_length",
                field=field,
                expected=length,
                got=len(value),
            )
        return [check(v, f"{field}[{i}]") for i, v in enumerate(value)]

    return read


def _per_seat(check: Any, length: int) -> Any:
    """One value for every seat, or a list of one value per seat (a handicap)."""
    as_list = _list_of(check, length)

    def read(value: Any, field: str) -> list:
        return as_list(value, field) if isinstance(value, list) else [check(value, field)] * length

    return read


def _clans(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or not value:
        raise invalid(
            f'"{field}" must list the clans in playing order, e.g. ["fujiwara", "minamoto", "tokugawa"].',
            "wrong_type",
            field=field,
            expected="list of clans",
        )
    if len(value) > len(CLANS):
        raise illegal(
            f"Teikoku is played by 2 to 4 players, not {len(value)}.",
            "setup.players",
            players=len(value),
            low=2,
            high=4,
        )
    return [one_of(CLANS)(v, f"{field}[{i}]") for i, v in enumerate(value)]


def initial_state(setup: Any) -> dict:
    if not isinstance(setup, dict):
        raise invalid("The set-up must be an object with clans, units_deck and chosen_specials.", "not_an_object")
    if "clans" not in setup:
        raise invalid("The set-up needs clans.", "missing_field", fields=["clans"])
    clans = _clans(setup["clans"], "clans")
    n = len(clans)
    if n < 2:
        raise illegal(f"Teikoku is played by 2 to 4 players, not {n}.", "setup.players", players=n, low=2, high=4)
    expected = list(CLANS_BY_PLAYERS[n])
    if clans != expected:
        # "The Fujiwara Clan Player begins the game with the first player token and game play continues
        # clockwise": the rulebook numbers the clans Player 1 to Player 4 in that order.
        raise illegal(
            f"With {n} players the clans are, in playing order, {', '.join(CLAN_NAMES[c] for c in expected)}.",
            "setup.clans",
            players=n,
            clans=expected,
        )
    read = read_fields(
        setup,
        "The set-up",
        {
            "clans": lambda v, f: clans,
            "units_deck": integer(0, MAX_UNITS_DECK),
            "chosen_specials": _list_of(one_of(SPECIAL_DECKS), n),
        },
        {
            "special_deck_size": integer(1, SPECIAL_DECK_MAX),
            "starting_treasure": integer(0, MAX_TREASURE_SETTING),
            "aggression_target": _per_seat(integer(1, MAX_TREASURE_SETTING), n),
            "special_card_cost": _per_seat(integer(0, MAX_TREASURE_SETTING), n),
            "years": integer(YEARS, YEARS + 1),
        },
    )
    size = read.get("special_deck_size", SPECIAL_DECK_SIZE[n])
    starting = read.get("starting_treasure", STARTING_TREASURE)
    targets = read.get("aggression_target", [AGGRESSION_TARGET] * n)
    for seat, target in enumerate(targets):
        if target <= starting:
            raise illegal(
                f"{CLAN_NAMES[clans[seat]]}'s aggression target ({target}) must be above the starting "
                f"treasure ({starting}), or the game would be won before it starts.",
                "setup.target_too_low",
                seat=seat,
                target=target,
                starting_treasure=starting,
            )
    decks = {deck: size for deck in SPECIAL_DECKS}
    for deck in read["chosen_specials"]:
        if decks[deck] == 0:
            raise illegal(
                f"The {DECK_NAMES[deck]} deck has only {size} card{'' if size == 1 else 's'}: "
                "the players cannot all choose from it.",
                "setup.deck_too_small",
                deck=deck,
                size=size,
            )
        decks[deck] -= 1
    decks["units"] = read["units_deck"]
    empty = [deck for deck in DECKS if decks[deck] == 0]
    if len(empty) >= DECKS_EMPTY_FOR_ATTRITION:
        raise illegal(
            f"The {' and '.join(DECK_NAMES[d] for d in empty)} decks would be empty before play begins, "
            "so the game would end by attrition at once.",
            "setup.decks_empty",
            decks=empty,
        )
    return {
        "rules_version": RULES_VERSION,
        "clans": clans,
        "treasure": [starting] * n,
        "targets": targets,
        "special_card_cost": read.get("special_card_cost", [SPECIAL_CARD_COST] * n),
        # "the 25 Treasure that would normally go to Player 4 instead starts as available bounty in the
        # port": each absent player's starting treasure (0 / 25 / 50 by default).
        "port": {"treasure": starting * (4 - n), "paid_this_season": 0, "paid_last_season": 0},
        "decks": decks,
        "port_row": PORT_ROW,
        "years": read.get("years", YEARS),
        "year": 1,
        "season": "winter",
        "phase": "movement",
        "first_player": 0,
        "turn": {"seat": 0, "transactions": 0, "banished": False},
        "raided": [],
        "fortified": [False] * n,
        "created": 0,
        "end": None,
    }
