"""Arbitrary JSON thrown at initial_state and apply: only the engine's own errors (with a code) may come out."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import MoveError
from tests.games.engines.samurai_empires.tables import (
    ENGINE,
    SEEDING,
    multiplayer,
    random_legal_game,
    solo_setup,
    solo_table,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
KEYS = [
    "mode",
    "players",
    "board",
    "seed",
    "seeding",
    "turn_order",
    "type",
    "era",
    "scores",
    "region",
    "space",
    "destroyed",
    "armies",
    "castles",
    "regions",
    "name",
    "training_ground",
]
near_json = st.recursive(
    json_values,
    lambda children: st.dictionaries(st.sampled_from(KEYS), children, max_size=5),
    max_leaves=25,
)
fuzz = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def mid_game(phase: str) -> dict:
    """A solo table played on (by the simulated table) until `phase`."""
    setup, moves = random_legal_game(2)
    state = ENGINE.initial_state(setup)
    for move in moves:
        state = ENGINE.apply(state, move)
        if state["phase"] == phase and state["era"] == 2:
            return state
    raise AssertionError(phase)


TABLES = [ENGINE.initial_state(multiplayer(3)), solo_table(), mid_game("resolution"), mid_game("era_score")]


def only_move_errors(call, *args) -> None:
    try:
        result = call(*args)
    except MoveError as error:
        assert error.message and error.code.startswith("samurai_empires.")
    else:
        json.dumps(result)


@fuzz
@given(st.one_of(json_values, near_json))
def test_initial_state_refuses_arbitrary_json_with_its_own_errors(setup):
    only_move_errors(ENGINE.initial_state, setup)


@fuzz
@given(st.sampled_from(range(len(TABLES))), st.one_of(json_values, near_json))
def test_apply_refuses_arbitrary_json_with_its_own_errors(table, move):
    before = json.dumps(TABLES[table], sort_keys=True)
    only_move_errors(ENGINE.apply, TABLES[table], move)
    assert json.dumps(TABLES[table], sort_keys=True) == before


@fuzz
@given(
    st.sampled_from(["era_score", "final_score", "place", "report", "resolve"]),
    st.dictionaries(st.sampled_from(KEYS), st.one_of(json_values, near_json), max_size=4),
)
def test_typed_moves_with_arbitrary_fields_are_refused_with_its_own_errors(kind, fields):
    for table in TABLES:
        only_move_errors(ENGINE.apply, table, {**fields, "type": kind})


def paths(value, prefix=()):
    """Every place in a JSON value, as a path of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from paths(child, prefix + (i,))


def replaced(value, path, new):
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


SETUPS = [multiplayer(5), solo_setup(seeding=SEEDING), solo_setup()]
SETUP_PATHS = [(i, p) for i, setup in enumerate(SETUPS) for p in paths(setup)]


@fuzz
@given(st.sampled_from(SETUP_PATHS), st.one_of(json_values, st.sampled_from([True, False, 1.0, 10**30, "a\x00", ""])))
def test_a_set_up_with_any_one_value_replaced_is_accepted_or_refused_with_its_own_errors(where, value):
    index, path = where
    only_move_errors(ENGINE.initial_state, replaced(SETUPS[index], path, value))
