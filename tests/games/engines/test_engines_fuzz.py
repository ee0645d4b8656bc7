"""Every registered engine against arbitrary JSON (issue 14): only InvalidMove or IllegalMove escapes.

The site hands an engine whatever a body held, so `initial_state` and `apply` must turn any JSON value
(any depth up to 50, any types, NUL characters, numbers far beyond a table's) into a precise error,
never a TypeError, KeyError, RecursionError or OverflowError. The tests run per registered engine (and Pile,
the test-only game); the legal games they mutate are each game's own (tests/games/every_game.py: its demo game,
or `legal_game(seed)` in its tests), so a game added later needs no line here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove, InvalidMove
from tests.games import every_game

# Mutating real set-ups and moves (each game's legal games) reaches deep into the rules, where arbitrary JSON
# alone would stop at the first check.
ENGINES = sorted(every_game.SLUGS)
GAMES_PER_ENGINE = 3
fuzz = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


@functools.cache
def legal_games(slug: str) -> list[tuple[dict, list[dict], list[dict]]]:
    """A few legal games of the engine, each with the state before every move (computed once)."""
    engine, games = every_game.engine(slug), []
    for seed in range(GAMES_PER_ENGINE):
        setup, moves = every_game.legal_game(slug, seed)
        states = [engine.initial_state(setup)]
        for move in moves:
            states.append(engine.apply(states[-1], move))
        games.append((setup, moves, states))
    return games


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([0, 1, -1, 2**31, 2**63, 10**400, -(10**400)])
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from([0.0, 1.0, 1e308, -1e308])
    | st.text(max_size=20)
    | st.sampled_from(["\x00", "a\x00b", "²", "\u200b", "\u202egeneral", "", "hidden", "koku"])
)


def _nested(value: object, depth: int, kinds: list[bool]) -> object:
    for as_list in kinds[:depth]:
        value = [value] if as_list else {"k": value}
    return value


json_values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=20,
)
# Deep values too: up to 50 levels of lists and objects around any value.
any_json = json_values | st.builds(
    _nested, json_values, st.integers(1, 50), st.lists(st.booleans(), min_size=50, max_size=50)
)


def _paths(value: object, prefix: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value that a mutation may replace."""
    paths = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            paths += _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            paths += _paths(child, (*prefix, i))
    return paths


def _replaced(value: object, path: tuple, new: object) -> object:
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    parent = copy
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = new
    return copy


def _retyped(value: object) -> st.SearchStrategy:
    """Near misses of a value: the same value in a list or an object, as a float, as text, a bool, with a NUL."""
    near = [[value], {"value": value}, True, False, None, "\x00", 10**400, -1]
    if isinstance(value, int) and not isinstance(value, bool):
        near += [float(value), value + 0.5, str(value), -value, 2**63]
    if isinstance(value, str):
        near += [value + "\x00", value.upper(), value + "²", "\u202e" + value]
    return st.sampled_from(near)


@st.composite
def mutations(draw, value: object) -> object:
    """`value` with one place replaced by a near miss or arbitrary JSON, or a key added or taken away."""
    how = draw(st.sampled_from(["retype", "retype", "replace", "add", "remove"]))
    paths = _paths(value)
    path = draw(st.sampled_from(paths))
    if how == "retype":
        return _replaced(value, path, draw(_retyped(_at(value, path))))
    if how == "replace":
        return _replaced(value, path, draw(any_json))
    dicts = [p for p in paths if isinstance(_at(value, p), dict)]
    if not dicts:
        return _replaced(value, path, draw(any_json))
    where = draw(st.sampled_from(dicts))
    target = dict(_at(value, where))
    if how == "add":
        target[draw(st.sampled_from(["junk", "gloden", "seat", "type", "\x00", "lot"]))] = draw(any_json)
    elif target:
        target.pop(draw(st.sampled_from(sorted(target))))
    return _replaced(value, where, target)


def _at(value: object, path: tuple) -> object:
    for step in path:
        value = value[step]
    return value


def _refused(slug: str, call: Callable[[], object]) -> None:
    """`call` must raise the engine's own error: a sentence and a rule code of its game. (A call that returned
    would have been taken as a legal set-up or move.)"""
    with pytest.raises((InvalidMove, IllegalMove)) as refused:
        call()
    assert isinstance(refused.value.message, str) and refused.value.message
    assert refused.value.code.startswith(f"{slug}."), refused.value.code


def _refused_or_accepted(slug: str, call: Callable[[], object]) -> None:
    """A mutation may leave a legal set-up or move (an optional key taken away, 2 for 2): then the answer is a
    JSON state; anything else is refused as `_refused` says."""
    try:
        answer = call()
    except (InvalidMove, IllegalMove) as exc:
        assert isinstance(exc.message, str) and exc.message
        assert exc.code.startswith(f"{slug}."), exc.code
    else:
        json.dumps(answer, allow_nan=False)


def _frozen(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("slug", ENGINES)
def test_every_engine_has_legal_games_that_end(slug):
    for _setup, moves, states in legal_games(slug):
        assert moves and every_game.engine(slug).outcome(states[-1]) is not None


@pytest.mark.parametrize("slug", ENGINES)
@fuzz
@given(setup=any_json)
def test_it_refuses_any_json_as_a_set_up_with_a_move_error(slug, setup):
    _refused(slug, lambda: every_game.engine(slug).initial_state(setup))


@pytest.mark.parametrize("slug", ENGINES)
@fuzz
@given(data=st.data())
def test_a_mutated_set_up_is_refused_with_a_move_error_or_makes_a_json_state(slug, data):
    setup, _moves, _states = data.draw(st.sampled_from(legal_games(slug)))
    _refused_or_accepted(slug, lambda: every_game.engine(slug).initial_state(data.draw(mutations(setup))))


@pytest.mark.parametrize("slug", ENGINES)
@fuzz
@given(data=st.data(), move=any_json)
def test_it_refuses_any_json_as_a_move_with_a_move_error(slug, data, move):
    _setup, _moves, states = data.draw(st.sampled_from(legal_games(slug)))
    state = data.draw(st.sampled_from(states))
    before = _frozen(state)
    _refused(slug, lambda: every_game.engine(slug).apply(state, move))
    assert _frozen(state) == before  # the table as it was


@pytest.mark.parametrize("slug", ENGINES)
@fuzz
@given(data=st.data())
def test_a_mutated_legal_move_is_refused_with_a_move_error_or_makes_a_json_state(slug, data):
    """The next legal move with one value replaced, a field added or one taken away."""
    _setup, moves, states = data.draw(st.sampled_from(legal_games(slug)))
    at = data.draw(st.integers(0, len(moves) - 1))
    move = data.draw(mutations(moves[at]))
    before = _frozen(states[at])
    _refused_or_accepted(slug, lambda: every_game.engine(slug).apply(states[at], move))
    assert _frozen(states[at]) == before  # refused or not, the state it was applied to is untouched
