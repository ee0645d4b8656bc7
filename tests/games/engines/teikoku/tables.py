"""Tables for the Teikoku tests: the rulebook's clans at 4, 3 and 2 players, and helpers to play to a phase."""

from __future__ import annotations

import json

import pytest

from games.engines.base import MoveError
from games.engines.teikoku import TeikokuEngine

ENGINE = TeikokuEngine()
FUJIWARA, MINAMOTO, TOKUGAWA, TAIRA = 0, 1, 2, 3

FOUR = {
    "clans": ["fujiwara", "minamoto", "tokugawa", "taira"],
    "units_deck": 30,
    "chosen_specials": ["yakuza", "ninja", "elements", "market"],
}
THREE = {"clans": ["fujiwara", "minamoto", "tokugawa"], "units_deck": 30, "chosen_specials": ["ninja"] * 3}
TWO = {"clans": ["fujiwara", "minamoto"], "units_deck": 30, "chosen_specials": ["yakuza", "market"]}


def new_game(setup: dict | None = None, **variants) -> dict:
    return ENGINE.initial_state({**(setup or FOUR), **variants})


def play(state: dict, *moves: dict) -> dict:
    for move in moves:
        state = ENGINE.apply(state, move)
    return state


def end_turn(state: dict) -> dict:
    return ENGINE.apply(state, {"type": "end_turn", "seat": state["turn"]["seat"]})


def advance(state: dict, phase: str, season: str | None = None, year: int | None = None, seat: int | None = None):
    """End turns until the given phase (of the given season and year) and, if named, that seat's turn."""
    for _ in range(10_000):
        if (
            state["phase"] == phase
            and (season is None or state["season"] == season)
            and (year is None or state["year"] == year)
            and (seat is None or state["turn"]["seat"] == seat)
        ):
            return state
        state = end_turn(state)
    raise AssertionError("never reached")


def with_treasure(state: dict, treasure: list[int], port: int | None = None) -> dict:
    """The same table with the treasure counts given (set as a table that got there would have them)."""
    state = json.loads(json.dumps(state))
    state["treasure"] = list(treasure)
    if port is not None:
        state["port"]["treasure"] = port
    return state


def refused(state: dict, move: object, kind: type[MoveError] = MoveError) -> MoveError:
    """The error a move raises; the state given is left untouched."""
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(kind) as error:
        ENGINE.apply(state, move)
    assert json.dumps(state, sort_keys=True) == before
    assert error.value.message and error.value.code.startswith("teikoku.")
    return error.value


def total_treasure(state: dict) -> int:
    return sum(state["treasure"]) + state["port"]["treasure"]
