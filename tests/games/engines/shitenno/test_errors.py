"""Moves the engine refuses, with the sentence a player reads; a refused move changes nothing."""

from __future__ import annotations

import json

import pytest

from games.engines import UnknownGame, get_engine
from games.engines.base import IllegalMove, InvalidMove, MoveError
from tests.games.engines.shitenno.tables import (
    ENGINE,
    EVEN_YEAR_EXAMPLE,
    HONDA,
    II,
    SAKAI,
    SAKAKIBARA,
    SETUP,
    odd_year,
    play,
)

TITLES = {SAKAKIBARA: "daimyo", II: "shomyo", SAKAI: "sensei", HONDA: "hatamoto"}


def refused(state: dict, move: dict) -> MoveError:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(MoveError) as error:
        ENGINE.apply(state, move)
    assert json.dumps(state, sort_keys=True) == before  # the input state is untouched
    return error.value


def kanto(seat: int, **payment) -> dict:
    return {
        "type": "place",
        "seat": seat,
        "province": "kanto",
        "payment": payment,
        "bonus": "exchange",
        "next_troop": "sohei",
    }


@pytest.fixture
def odd() -> dict:
    return odd_year(
        TITLES,
        hands={
            SAKAKIBARA: {"troops": {"samurai": 2, "bushi": 1, "sohei": 1}, "kokus": [1, 2, 2]},
            II: {"kokus": [3]},
        },
    )


def test_it_says_whose_turn_it_is(odd):
    error = refused(odd, {"type": "end_turn", "seat": HONDA})
    assert isinstance(error, IllegalMove) and error.message == "It is Sakakibara's turn, not Honda's."


def test_it_names_the_troops_a_province_needs_and_those_paid(odd):
    odd["hands"][SAKAKIBARA]["troops"]["samurai"] = 2
    error = refused(odd, kanto(SAKAKIBARA, troops=["samurai", "samurai", "bushi"]))
    assert error.message == "Kantō needs 3 Samurai and 1 Bushi; you paid 2 Samurai and 1 Bushi."


def test_it_names_the_koku_cost_and_the_kokus_paid(odd):
    error = refused(odd, kanto(SAKAKIBARA, kokus=[1, 2]))
    assert error.message == "Kantō's 1st position costs 5 kokus; you paid 3."


def test_it_refuses_cards_the_player_does_not_hold(odd):
    error = refused(odd, kanto(SAKAKIBARA, troops=["samurai", "samurai", "samurai", "bushi"]))
    assert error.message == (
        "Sakakibara cannot pay Samurai, Samurai, Samurai, Bushi: they hold 1 Bushi, 2 Samurai, 1 Sōhei "
        "and 0 hidden cards."
    )
    error = refused(odd, kanto(SAKAKIBARA, kokus=[3, 2]))
    assert error.message == "Sakakibara cannot pay koku cards [2, 3]: they hold 1, 2, 2."


def test_it_refuses_bonus_tiles_the_player_does_not_hold(odd):
    error = refused(
        odd,
        kanto(
            SAKAKIBARA,
            troops=["samurai", "samurai", "bushi"],
            bonuses=[{"tile": "plus_one", "on": "samurai"}],
        ),
    )
    assert error.message == "Sakakibara has 0 +1 tiles; the payment uses 1."


def test_it_refuses_the_hatamoto_to_anyone_but_the_hatamoto(odd):
    error = refused(odd, kanto(SAKAKIBARA, troops=["samurai", "samurai", "bushi"], hatamoto="samurai"))
    assert error.message == "Only the Hatamoto may use the Hatamoto tile; Sakakibara is Daimyō."


def test_it_refuses_malformed_moves(odd):
    assert isinstance(refused(odd, {"type": "dance", "seat": 0}), InvalidMove)
    assert refused(odd, {"type": "place", "seat": SAKAKIBARA, "province": "edo", "payment": {}}).message == (
        "Unknown province 'edo'; provinces are kanto, kansai, shikoku, tohoku, chugoku, chubu, hokkaido, kyushu."
    )
    error = refused(odd, kanto(SAKAKIBARA, troops=["sohei+bushi"]))
    assert isinstance(error, InvalidMove)
    assert error.message == "Unknown troop card 'sohei+bushi'; did you mean 'bushi+sohei'?"
    assert isinstance(refused(odd, {"type": "end_turn", "seat": "0"}), InvalidMove)


def test_it_refuses_a_bonus_face_that_cannot_be_left(odd):
    odd["tiles_taken"]["bushi"]["exchange"] = 2
    error = refused(odd, kanto(SAKAKIBARA, kokus=[1, 2, 2]))
    assert error.message == "Both Bushi tiles with the Exchange bonus have already been taken."


def test_it_refuses_a_revealed_troop_face_that_cannot_be_left(odd):
    odd["tiles_taken"]["sohei"] = {"exchange": 2, "plus_one": 2, "card_taking": 1}
    error = refused(odd, kanto(SAKAKIBARA, kokus=[1, 2, 2]))  # the sixth Sōhei tile is on Hokkaidō's gate
    assert error.message == "All 6 Sōhei tiles are already taken or on show."


def test_it_refuses_a_draw_of_the_wrong_size_or_of_cards_that_are_gone():
    state = ENGINE.initial_state(SETUP)
    error = refused(state, {"type": "draw", "seat": HONDA, "troops": ["samurai"], "kokus": [1]})
    assert error.message == "The Tairō's draw is troop cards: 8, koku cards: 4; the move has 1 and 1."
    error = refused(
        state, {"type": "draw", "seat": HONDA, "troops": ["samurai"] * 7 + ["bushi"], "kokus": [1, 2, 3, 3]}
    )
    assert error.message.startswith("Samurai cannot be drawn: 6 such cards exist")
    state["koku_deck"]["3"] = 1
    error = refused(
        state, {"type": "draw", "seat": HONDA, "troops": ["bushi"] * 4 + ["sohei"] * 4, "kokus": [1, 2, 3, 3]}
    )
    assert error.message == "The koku deck holds only 1 card worth 3."


def test_it_refuses_a_split_that_leaves_cards_over():
    state = play(ENGINE.initial_state(SETUP), *EVEN_YEAR_EXAMPLE[:7])
    error = refused(
        state,
        {
            "type": "split",
            "seat": SAKAKIBARA,
            "lots": [
                {"troops": ["samurai"], "kokus": [2], "hierarchy": "daimyo"},
                {"troops": ["bushi"], "hierarchy": "shomyo"},
            ],
        },
    )
    assert error.message == "The two lots share out every remaining card; Shinobi, Koku 3 would be left over."


def test_it_refuses_an_offer_of_a_hierarchy_tile_already_given():
    state = play(ENGINE.initial_state(SETUP), *EVEN_YEAR_EXAMPLE[:4])
    error = refused(state, {"type": "offer", "seat": HONDA, "hierarchy": "sensei"})
    assert error.message == "The Sensei hierarchy tile is already in a lot."


def test_it_refuses_moves_after_the_game_is_over(odd):
    odd["stock"][SAKAKIBARA] = 0
    state = play(odd, *({"type": "end_turn", "seat": seat} for seat in (SAKAKIBARA, II, SAKAI, HONDA)))
    assert refused(state, {"type": "end_turn", "seat": SAKAKIBARA}).message == "The game is over."


def test_it_refuses_setups_that_cannot_be():
    with pytest.raises(IllegalMove, match="2 to 4 players"):
        ENGINE.initial_state({**SETUP, "players": [{"general": "ii"}]})
    with pytest.raises(IllegalMove, match="Only 6 bonus tiles show a Bushi"):
        ENGINE.initial_state({**SETUP, "gates": dict.fromkeys(SETUP["gates"], "bushi")})
    with pytest.raises(InvalidMove, match="one title per general"):
        ENGINE.initial_state({**SETUP, "titles": {"honda": "daimyo"}})


def test_it_registers_the_engine_by_slug():
    assert get_engine("shitenno").name == "Shitennō"
    with pytest.raises(UnknownGame):
        get_engine("go")
    with pytest.raises(KeyError):
        get_engine("go")
