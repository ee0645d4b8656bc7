"""Malformed set-ups and moves: each answered with an InvalidMove (or IllegalMove for a rule break) carrying a
code and a sentence, and a refused move changes nothing."""

from __future__ import annotations

import copy
import json

import pytest

from games.engines.base import IllegalMove, InvalidMove, MoveError
from tests.games.engines.samurai_empires.tables import ENGINE, SOLO_BOARD, era, multiplayer, solo_setup


def refused(state: dict, move: object) -> MoveError:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(MoveError) as error:
        ENGINE.apply(state, move)
    assert json.dumps(state, sort_keys=True) == before
    assert error.value.message and error.value.code.startswith("samurai_empires.")
    return error.value


BAD_VALUES = [True, 1.0, 10**30, -1, "2", None]


@pytest.mark.parametrize("value", BAD_VALUES)
def test_it_refuses_a_count_that_is_not_a_small_whole_number(value):
    state = ENGINE.initial_state(multiplayer(2))
    error = refused(state, era(1, [{"shrines": value}, {}]))
    assert isinstance(error, InvalidMove)
    assert error.code in ("samurai_empires.not_an_int", "samurai_empires.out_of_range")


@pytest.mark.parametrize("value", BAD_VALUES)
def test_it_refuses_a_region_value_that_is_not_a_small_whole_number(value):
    setup = multiplayer(2)
    setup["board"] = copy.deepcopy(setup["board"])
    setup["board"]["regions"][0]["values"][0] = value
    with pytest.raises(InvalidMove):
        ENGINE.initial_state(setup)


def test_it_refuses_unknown_fields_anywhere():
    state = ENGINE.initial_state(multiplayer(2))
    assert refused(state, {**era(1, [{}, {}]), "seat": 0}).code == "samurai_empires.unknown_field"
    assert refused(state, era(1, [{"bonus": 3}, {}])).code == "samurai_empires.unknown_field"
    with pytest.raises(InvalidMove) as error:
        ENGINE.initial_state({**multiplayer(2), "colour": "red"})
    assert error.value.code == "samurai_empires.unknown_field"


@pytest.mark.parametrize("name", ["", "a\x00b", "x" * 61, 5, None])
def test_it_refuses_names_with_nul_or_of_the_wrong_size(name):
    setup = multiplayer(2)
    setup["players"] = [{"name": name}, {"name": "Ren"}]
    with pytest.raises(InvalidMove) as error:
        ENGINE.initial_state(setup)
    assert error.value.code in ("samurai_empires.bad_text", "samurai_empires.not_text")


def test_it_refuses_a_note_with_nul():
    state = ENGINE.initial_state(multiplayer(2))
    assert refused(state, era(1, [{"other": [{"points": 1, "note": "a\x00"}]}, {}])).code == "samurai_empires.bad_text"
    assert refused(state, era(1, [{"other": [{"points": 1}]}, {}])).code == "samurai_empires.missing_field"


@pytest.mark.parametrize("move", [None, [], "era_score", 3, {"type": "fly"}, {"type": None}, {}])
def test_it_refuses_what_is_not_a_move(move):
    assert isinstance(refused(ENGINE.initial_state(multiplayer(2)), move), InvalidMove)


@pytest.mark.parametrize("setup", [None, [], {}, {"mode": "solo"}, {"mode": "duel", "players": [], "board": {}}])
def test_it_refuses_what_is_not_a_set_up(setup):
    with pytest.raises(InvalidMove):
        ENGINE.initial_state(setup)


def test_it_needs_the_entry_count_to_match_the_players():
    state = ENGINE.initial_state(multiplayer(3))
    assert refused(state, era(1, [{}, {}])).code == "samurai_empires.bad_length"


def test_a_board_has_4_regions_or_5_with_the_new_region():
    setup = multiplayer(2)
    setup["board"] = {"regions": setup["board"]["regions"][:3]}
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(setup)
    assert error.value.code == "samurai_empires.region_count"


def test_a_region_has_one_capital_and_a_shrine():
    setup = multiplayer(2)
    setup["board"] = copy.deepcopy(setup["board"])
    setup["board"]["regions"][1]["provinces"][2]["kind"] = "capital"
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(setup)
    assert error.value.code == "samurai_empires.region_provinces"


def test_province_and_region_names_are_unique():
    setup = multiplayer(2)
    setup["board"] = copy.deepcopy(setup["board"])
    setup["board"]["regions"][1]["name"] = "Tohoku"
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(setup)
    assert error.value.code == "samurai_empires.duplicate_name"


def test_the_solo_board_needs_what_the_ais_play_with():
    for field, code in (
        ("order_tokens", "not_an_object"),
        ("destiny_deck", "not_an_object"),
        ("seed_tokens", "not_an_object"),
    ):
        board = {k: v for k, v in SOLO_BOARD.items() if k != field}
        with pytest.raises(InvalidMove) as error:
            ENGINE.initial_state(solo_setup(board=board))
        assert error.value.code == f"samurai_empires.{code}"
    with pytest.raises(IllegalMove) as error:  # 'Shuffle the rest of the Order tokens (8)'
        ENGINE.initial_state(
            solo_setup(board={**SOLO_BOARD, "order_tokens": {"attack": 3, "harvest": 2, "recruit": 2, "castle": 2}})
        )
    assert error.value.code == "samurai_empires.order_tokens"
    no_spaces = copy.deepcopy(SOLO_BOARD)
    del no_spaces["regions"][0]["spaces"]
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(solo_setup(board=no_spaces))
    assert error.value.code == "samurai_empires.spaces_missing"


@pytest.mark.parametrize("seed", [None, True, 1.5, -1, 2**63, "7"])
def test_the_solo_seed_is_a_whole_number_the_site_drew(seed):
    with pytest.raises(InvalidMove):
        ENGINE.initial_state(solo_setup(seed=seed))


def test_the_solo_mode_is_one_player():
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state({**solo_setup(), "players": [{"name": "Aiko"}, {"name": "Ren"}]})
    assert error.value.code == "samurai_empires.solo_players"


def test_solo_moves_are_refused_at_a_multiplayer_table():
    state = ENGINE.initial_state(multiplayer(2))
    assert refused(state, {"type": "ai_step"}).code == "samurai_empires.not_now"
    with pytest.raises(IllegalMove) as error:
        ENGINE.initial_state(multiplayer(2, seed=3))
    assert error.value.code == "samurai_empires.solo_only"
