"""Properties of whole legal games played at random through hint() (games/engines/teikoku/random_game.py)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines.base import replay
from games.engines.teikoku.random_game import ENGINE, random_legal_game
from games.engines.teikoku.treasure import available_bounty

games = st.tuples(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
some = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states_of(setup: dict, moves: list[dict]) -> list[dict]:
    states = [ENGINE.initial_state(setup)]
    for move in moves:
        states.append(ENGINE.apply(states[-1], move))
    return states


@some
@given(games)
def test_it_conserves_treasure_except_for_card_effects_and_corrections(game):
    """Bounties, raids, commerce, trade and pit fees only move treasure between players and the Port; the total
    changes only by card effects and corrections, each logged with its reason."""
    setup, moves = random_legal_game(random.Random(game[0]), game[1])
    states = states_of(setup, moves)
    start = sum(states[0]["treasure"]) + states[0]["port"]["treasure"]
    for before, move, after in zip(states[:-1], moves, states[1:], strict=True):
        total = sum(after["treasure"]) + after["port"]["treasure"]
        assert total == start + after["created"]
        if move["type"] in ("card_effect", "correction"):
            assert move["card" if move["type"] == "card_effect" else "note"]  # its reason is in the log
        else:
            assert after["created"] == before["created"]


@some
@given(games)
def test_it_never_lets_treasure_or_a_deck_go_below_zero(game):
    setup, moves = random_legal_game(random.Random(game[0]), game[1])
    for state in states_of(setup, moves):
        assert min(state["treasure"]) >= 0 and state["port"]["treasure"] >= 0
        assert 0 <= available_bounty(state) <= state["port"]["treasure"]
        assert min(state["port"]["paid_this_season"], state["port"]["paid_last_season"]) >= 0
        assert min(state["decks"].values()) >= 0 and 0 <= state["port_row"] <= 3


@some
@given(games)
def test_it_replays_the_log_to_the_same_state_and_never_mutates_its_input(game):
    setup, moves = random_legal_game(random.Random(game[0]), game[1])
    state = ENGINE.initial_state(setup)
    for move in moves:
        before = json.dumps(state, sort_keys=True)
        after = ENGINE.apply(state, move)
        assert json.dumps(state, sort_keys=True) == before
        assert json.loads(json.dumps(after)) == after  # JSON through and through
        assert ENGINE.describe(state, move)  # every logged move has its sentence
        state = after
    assert replay(ENGINE, setup, moves) == state


@some
@given(games)
def test_it_ends_every_game_with_the_victory_its_state_shows(game):
    setup, moves = random_legal_game(random.Random(game[0]), game[1])
    states = states_of(setup, moves)
    assert all(ENGINE.outcome(state) is None for state in states[:-1])
    end = states[-1]
    outcome = ENGINE.outcome(end)
    winners = outcome.details["winners"]
    treasure = end["treasure"]
    if outcome.termination == "aggression":
        assert all(treasure[s] >= end["targets"][s] for s in winners)
    else:
        assert {treasure[s] for s in winners} == {max(treasure)}
        assert len(winners) == treasure.count(max(treasure))  # ties share the victory
    if outcome.termination == "attrition":
        assert len(outcome.details["empty_decks"]) >= 2
    if outcome.termination == "longevity":
        assert (end["year"], end["season"], end["phase"]) == (end["years"], "autumn", "refresh")
    assert [p.rank for p in outcome.placings if p.seat in winners] == [1] * len(winners)
    assert all(p.tiebreak.endswith(f"victory by {outcome.termination}") for p in outcome.placings if p.rank == 1)


@some
@given(games)
def test_it_offers_in_the_hint_only_moves_that_are_open(game):
    setup, moves = random_legal_game(random.Random(game[0]), game[1])
    for state in states_of(setup, moves)[:-1]:
        hint = ENGINE.hint(state)
        assert hint["to_move"] == state["turn"]["seat"] and hint["moves"][0] == "end_turn"
        limits = hint["limits"]
        if "raid" in hint["moves"]:
            for defender in limits["raid"]["defenders"]:
                move = {
                    "type": "raid",
                    "seat": hint["to_move"],
                    "defender": defender["seat"],
                    "dice": [6, 6],
                    "cubes": 4,
                }
                assert ENGINE.apply(state, move)["treasure"][defender["seat"]] == (
                    state["treasure"][defender["seat"]] - defender["max_loot"]
                )
        if "bounty" in hint["moves"]:
            move = {"type": "bounty", "seat": hint["to_move"], "blood": 999}
            assert ENGINE.apply(state, move)["treasure"][hint["to_move"]] == (
                state["treasure"][hint["to_move"]] + limits["bounty"]["max"]
            )


def test_it_plays_complete_games_from_any_seed_and_player_count():
    seen = set()
    for seed in range(40):
        for players in (2, 3, 4):
            setup, moves = random_legal_game(random.Random(seed), players)
            outcome = ENGINE.outcome(replay(ENGINE, setup, moves))
            seen.add(outcome.termination)
            assert len(outcome.placings) == players
    assert seen == {"aggression", "attrition", "longevity"}
