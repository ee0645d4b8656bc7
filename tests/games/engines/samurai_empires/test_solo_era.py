"""The solo era end, the player's own entries and the solo victory ('ERA END', 'GAME END', 'Have more points
than the two houses combined at the end of the game, and you will become the Emperor of Japan!')."""

from __future__ import annotations

import random

import pytest

from games.engines.base import IllegalMove, InvalidMove
from tests.games.engines.samurai_empires.tables import (
    ENGINE,
    REGION_NAMES,
    era,
    final,
    influence,
    play,
    random_legal_move,
    solo_table,
)

NOTHING = {}


def to_phase(state: dict, phase: str, seed: int = 3) -> dict:
    """Play the table on (AIs, random player choices, blank era rows) until `phase`."""
    rng = random.Random(seed)
    while state["phase"] != phase:
        move = random_legal_move(rng, state)
        if move["type"] == "era_score":
            move = era(state["era"], [NOTHING] * 3)
        state = ENGINE.apply(state, move)
    return state


def ai_final(position: int = 0) -> dict:
    return {"influence": influence(position), "resource_points": 0}


def test_a_round_of_planning_is_3_tokens_each_then_2():
    # 'the player and the AI's place 3 Order tokens in the first round and 2 Order tokens in the second round.'
    state = to_phase(solo_table(), "resolution")
    assert state["solo"]["placed"] == [3, 3, 3]
    assert ENGINE.hint(state)["solo"]["tokens_per_round"] == 3
    state = to_phase(state, "planning")
    state = to_phase(state, "resolution")
    assert state["solo"]["round"] == 2 and state["solo"]["placed"] == [2, 2, 2]


def test_the_ais_harvest_at_era_end_and_their_action_points_reach_the_sheet():
    # '1. Harvest Food and Bushido for the player and the AI's.'
    state = to_phase(solo_table(), "era_score")
    ais = state["solo"]["ais"]
    points = [ais["yellow"]["points"], ais["blue"]["points"]]
    after = play(state, era(1, [NOTHING] * 3))
    assert [row["actions"] for row in after["sheet"]["eras"][0][1:]] == points
    assert ENGINE.hint(after)["totals"][1:] == points
    assert after["phase"] == "planning" and after["era"] == 2 and after["solo"]["round"] == 1
    assert all(len(stack) == 0 for spaces in after["solo"]["spaces"].values() for stack in spaces)


def test_the_era_score_orders_the_next_era_lowest_first():
    state = to_phase(solo_table(), "era_score")
    state["solo"]["ais"]["yellow"]["points"] = state["solo"]["ais"]["blue"]["points"] = 0
    after = play(state, era(1, [{"shrines": 5}, {"shrines": 2}, NOTHING]))
    assert after["turn_order"] == [2, 1, 0]
    assert "Turn order for era 2: Blue AI, Yellow AI, Aiko." in after["last"]
    assert "Aiko 5 against the AIs' 2 together." in after["last"]  # the solo victory's count at each era end


def test_the_ais_train_nothing():
    state = to_phase(solo_table(), "era_score")
    with pytest.raises(IllegalMove) as error:
        play(state, era(1, [NOTHING, {"sieges": 1}, NOTHING]))
    assert error.value.code == "samurai_empires.no_archers"
    with pytest.raises(IllegalMove) as error:
        play(state, era(1, [NOTHING, NOTHING, {"trained": {"elites": 1}}]))
    assert error.value.code == "samurai_empires.no_training_ground"


def test_the_player_wins_only_with_more_points_than_both_ais_together():
    state = to_phase(solo_table(), "final_score")
    ais = sum(ENGINE.hint(state)["totals"][1:])
    player = ENGINE.hint(state)["totals"][0]
    need = ais - player  # resource points that bring the player level with the two AIs
    assert 0 <= need < 999
    level = play(
        state,
        final(
            [
                {"influence": influence(0), "resources": {"bushido": 0, "food": 0}, "resource_points": need},
                ai_final(),
                ai_final(),
            ]
        ),
    )
    outcome = ENGINE.outcome(level)
    assert outcome.termination == "solo_defeat" and outcome.details["won"] is False  # a tie is not 'more'
    ahead = play(
        state,
        final(
            [
                {"influence": influence(0), "resources": {"bushido": 0, "food": 0}, "resource_points": need + 1},
                ai_final(),
                ai_final(),
            ]
        ),
    )
    outcome = ENGINE.outcome(ahead)
    assert outcome.termination == "solo_victory" and outcome.placings[0].rank == 1
    assert ENGINE.score(ahead) == [ais + 1] and outcome.details["ais"] == ais


def test_the_ais_resources_at_the_end_are_the_ones_the_site_counted():
    state = to_phase(solo_table(), "final_score")
    with pytest.raises(InvalidMove):
        play(
            state,
            final(
                [
                    {"influence": influence(0), "resources": {"bushido": 0, "food": 0}, "resource_points": 0},
                    {**ai_final(), "resources": {"bushido": 0, "food": 0}},
                    ai_final(),
                ]
            ),
        )
    over = play(
        state,
        final(
            [
                {"influence": influence(0), "resources": {"bushido": 0, "food": 0}, "resource_points": 0},
                ai_final(),
                ai_final(),
            ]
        ),
    )
    assert over["sheet"]["final"][1]["resources"] == state["solo"]["ais"]["yellow"]["resources"]


def test_the_player_reports_their_own_armies_and_castles():
    state = play(
        solo_table(),
        {"type": "report", "armies": {"Kanto Capital": 3, "Tohoku Shrine": 1}, "castles": ["Tohoku South"]},
    )
    assert state["solo"]["player"] == {"armies": {"Kanto Capital": 3, "Tohoku Shrine": 1}, "castles": ["Tohoku South"]}
    for bad in ({"Osaka": 1}, {"Kanto Capital": False}, {"Kanto Capital": 0.0}, {"Kanto Capital": 10**20}):
        with pytest.raises(InvalidMove):
            play(state, {"type": "report", "armies": bad})
    with pytest.raises(IllegalMove):
        play(state, {"type": "report", "armies": {f"{r} Capital": 5 for r in REGION_NAMES}})


def test_the_player_resolves_their_token_and_says_what_they_destroyed():
    state = to_phase(solo_table(), "resolution")
    while ENGINE.hint(state)["to_move"] != 0:
        state = play(state, {"type": "ai_step"})
    blue = state["solo"]["ais"]["blue"]["armies"]
    province = next(iter(blue))
    after = play(state, {"type": "resolve", "destroyed": {"blue": {province: 1}}})
    assert after["solo"]["ais"]["blue"]["armies"].get(province, 0) == blue[province] - 1
    with pytest.raises(InvalidMove):
        play(state, {"type": "resolve", "destroyed": {"blue": {province: blue[province] + 1}}})
