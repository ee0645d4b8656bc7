"""Arbitrary JSON thrown at initial_state() and apply(): nested up to 50 deep, NUL characters, huge numbers,
floats. Only InvalidMove or IllegalMove may escape, and a refused move changes nothing."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import IllegalMove, InvalidMove
from games.engines.teikoku.moves import MOVES
from games.engines.teikoku.random_game import ENGINE, random_legal_game
from tests.games.engines.teikoku.tables import FOUR, THREE, TWO

WORDS = [
    "type",
    "seat",
    "blood",
    "amount",
    "defender",
    "dice",
    "cubes",
    "rolled_by",
    "deck",
    "cards",
    "card",
    "from",
    "to",
    "note",
    "count",
    "fortified",
    "clans",
    "units_deck",
    "chosen_specials",
    "special_deck_size",
    "starting_treasure",
    "aggression_target",
    "special_card_cost",
    "years",
    "port",
    "supply",
    "ninja",
    "units",
    "fujiwara",
    "minamoto",
    "tokugawa",
    "taira",
    *MOVES,
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(-(10**400), 10**400),
    st.floats(),
    st.text(max_size=12),
    st.text(alphabet="\x00\x01ab\u202e\ud7ff\U0010ffff", max_size=6),
    st.sampled_from(WORDS),
)
keys = st.one_of(st.sampled_from(WORDS), st.text(max_size=6))
json_values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4), max_leaves=25
)


def nest(depth: int, leaf: object, as_dict: bool) -> object:
    for _ in range(depth):
        leaf = {"type": leaf} if as_dict else [leaf]
    return leaf


deep = st.builds(nest, st.integers(0, 50), scalars, st.booleans())
anything = st.one_of(json_values, deep)
move_like = st.builds(
    lambda kind, seat, extra: {"type": kind, "seat": seat, **extra},
    st.one_of(st.sampled_from(list(MOVES)), anything),
    st.one_of(st.integers(-1, 4), anything),
    st.dictionaries(keys, anything, max_size=5),
)
setup_like = st.builds(
    lambda base, extra: {**base, **extra},
    st.sampled_from([FOUR, THREE, TWO, {}]),
    st.dictionaries(keys, anything, max_size=4),
)
fuzz = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

STATES = []
for seed, players in ((1, 2), (2, 3), (3, 4)):
    setup, moves = random_legal_game(random.Random(seed), players)
    state = ENGINE.initial_state(setup)
    STATES.append(state)
    for move in moves:
        state = ENGINE.apply(state, move)
        STATES.append(state)


@fuzz
@given(st.one_of(anything, setup_like))
def test_it_answers_any_json_set_up_with_a_state_or_a_move_error(setup):
    try:
        state = ENGINE.initial_state(setup)
    except (InvalidMove, IllegalMove) as error:
        assert error.message and error.code.startswith("teikoku.")
        json.dumps(error.params)
        return
    assert json.loads(json.dumps(state)) == state


@fuzz
@given(st.integers(0, len(STATES) - 1), st.one_of(anything, move_like))
def test_it_answers_any_json_move_with_a_state_or_a_move_error(index, move):
    state = STATES[index]
    before = json.dumps(state, sort_keys=True)
    try:
        after = ENGINE.apply(state, move)
    except (InvalidMove, IllegalMove) as error:
        assert error.message and error.code.startswith("teikoku.")
        json.dumps(error.params)
    else:
        assert json.loads(json.dumps(after)) == after
    assert json.dumps(state, sort_keys=True) == before
