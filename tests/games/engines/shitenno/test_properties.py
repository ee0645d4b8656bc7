"""Properties of whole legal games, played at random through hint() by a simulated table."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import MoveError, replay
from games.engines.shitenno.board import KAMONS_BY_PLAYERS, PROVINCES
from games.engines.shitenno.simulation import ENGINE, random_legal_game

games = st.tuples(st.integers(0, 10**6), st.sampled_from([2, 3, 4]))
few = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states_of(setup: dict, moves: list[dict]) -> list[dict]:
    states = [ENGINE.initial_state(setup)]
    for move in moves:
        states.append(ENGINE.apply(states[-1], move))
    return states


@few
@given(games)
def test_it_keeps_every_kamon_on_the_board_or_in_a_stock(game):
    setup, moves = random_legal_game(*game)
    n = len(setup["players"])
    for state in states_of(setup, moves):
        on_board = sum(len(kamons) for kamons in state["board"].values())
        assert on_board + sum(state["stock"]) == KAMONS_BY_PLAYERS[n] * n


@few
@given(games)
def test_it_keeps_favour_equal_to_the_sum_of_its_parts(game):
    setup, moves = random_legal_game(*game)
    states = states_of(setup, moves)
    for state in states[:-1]:
        for seat, scored in enumerate(state["scored"]):
            by_position = sum(
                PROVINCES[p].positions[i]
                for p, kamons in state["board"].items()
                for i, (owner, _) in enumerate(kamons)
                if owner == seat
            )
            assert scored["positions"] == by_position
            assert ENGINE.score(state)[seat] == scored["positions"] + scored["title_bonus"]
    end = states[-1]
    for row in ENGINE.outcome(end).details["breakdown"]:
        parts = ("positions", "title_bonus", "kokus", "exchange_tiles", "plus_one_tiles", "majority_points")
        assert row["total"] == sum(row[key] for key in parts) == ENGINE.score(end)[row["seat"]]


@few
@given(games)
def test_it_reaches_the_same_state_when_the_log_is_replayed_and_never_mutates_its_input(game):
    setup, moves = random_legal_game(*game)
    state = ENGINE.initial_state(setup)
    for move in moves:
        before = json.dumps(state, sort_keys=True)
        state_after = ENGINE.apply(state, move)
        assert json.dumps(state, sort_keys=True) == before
        assert json.loads(json.dumps(state_after)) == state_after  # JSON through and through
        state = state_after
    assert replay(ENGINE, setup, moves) == state


@few
@given(games)
def test_it_counts_the_same_end_whatever_the_order_of_placements_within_a_turn(game):
    setup, moves = random_legal_game(*game)
    final = ENGINE.outcome(replay(ENGINE, setup, moves)).to_json()
    for i in range(len(moves) - 1):
        a, b = moves[i], moves[i + 1]
        if a["type"] == b["type"] == "place" and a["province"] != b["province"]:
            swapped = moves[:i] + [b, a] + moves[i + 2 :]
            try:
                state = replay(ENGINE, setup, swapped)
            except MoveError:
                continue  # the second placement used the tile the first one won
            assert ENGINE.outcome(state).to_json() == final


def test_it_plays_complete_games_from_any_seed():
    for seed in range(5):
        for players in (2, 3, 4):
            setup, moves = random_legal_game(seed, players)
            outcome = ENGINE.outcome(replay(ENGINE, setup, moves))
            assert outcome.termination in ("kamon_stock_empty", "koku_deck_exhausted")
            assert sorted(p.rank for p in outcome.placings) == list(range(1, players + 1))
