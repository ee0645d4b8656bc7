"""The engine as the site sees it: the Engine protocol, whole games replayed, every move described."""

from __future__ import annotations

import json

from games.engines.base import Engine, replay
from tests.games.engines.samurai_empires.tables import ENGINE, random_legal_game


def test_it_offers_the_engine_protocol():
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.slug, ENGINE.name, ENGINE.min_players, ENGINE.max_players, ENGINE.score_unit) == (
        "samurai_empires",
        "Small Samurai Empires",
        1,
        5,
        "victory points",
    )


def test_a_whole_game_of_each_kind_is_described_move_by_move_and_its_states_are_json():
    for setup, moves in (random_legal_game(11, "multiplayer", 4), random_legal_game(11, "solo")):
        state = ENGINE.initial_state(setup)
        for move in moves:
            words = ENGINE.describe(state, move)
            assert words.startswith(f"Era {state['era']} — ") and words.endswith(".")
            state = ENGINE.apply(state, move)
            assert json.loads(json.dumps(state)) == state
            json.dumps(ENGINE.hint(state))
        assert state == replay(ENGINE, setup, moves)
        outcome = ENGINE.outcome(state)
        assert outcome is not None and json.dumps(outcome.to_json())
        assert [p.score for p in outcome.placings if p.seat == 0] == ENGINE.score(state)[:1]


def test_the_solo_hint_says_who_moves_and_what_the_ai_did():
    setup, moves = random_legal_game(5, "solo")
    state = ENGINE.initial_state(setup)
    hint = ENGINE.hint(state)
    assert hint["to_move"] == 1 and hint["last"] is None and hint["solo"]["ais"]["yellow"]["deck"] == 8
    assert hint["army_types"]["archer"].startswith("Archer (1 Bushido)")
    state = ENGINE.apply(state, moves[0])
    hint = ENGINE.hint(state)
    assert hint["last"].startswith("Yellow AI draws") and hint["to_move"] == 2
    assert hint["solo"]["ais"]["yellow"]["deck"] == 7 and len(hint["solo"]["ais"]["yellow"]["board"]) == 1
