"""Set-up by player count and the agreed variants (rulebook "Starting Game Setup", "The 3 Player Variant",
"2 Player Variant", "Adjusting The Game - Rule Variants")."""

from __future__ import annotations

import pytest

from games.engines.base import Engine, IllegalMove, InvalidMove
from games.engines.teikoku import TeikokuEngine
from games.engines.teikoku.rules import PORT_TREASURE
from tests.games.engines.teikoku.tables import ENGINE, FOUR, THREE, TWO, new_game


def refused_setup(setup: object, kind: type) -> Exception:
    with pytest.raises(kind) as error:
        ENGINE.initial_state(setup)
    assert error.value.code.startswith("teikoku.") and error.value.message
    return error.value


def test_it_is_an_engine_for_2_to_4_players_counting_treasure():
    engine = TeikokuEngine()
    assert isinstance(engine, Engine)
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == ("teikoku", "Teikoku", 2, 4)
    assert engine.score_unit == "treasure" and engine.rules_version


def test_it_starts_four_players_with_25_treasure_each_and_an_empty_port():
    """ "Each Player begins the game with 25 Treasure. In a 4-player game the port begins the game with 0
    Treasure"; "Include 8 cards in each deck.\""""
    state = new_game(FOUR)
    assert state["treasure"] == [25, 25, 25, 25]
    assert state["port"]["treasure"] == PORT_TREASURE[4] == 0
    # each player chose 1 special card from a deck before play: 8 - 1 in each deck here
    assert state["decks"] == {"yakuza": 7, "ninja": 7, "elements": 7, "market": 7, "units": 30}
    assert ENGINE.score(state) == [25, 25, 25, 25]


def test_it_gives_the_missing_fourth_players_treasure_to_the_port_with_three_players():
    """ "the 25 Treasure that would normally go to Player 4 instead starts as available bounty in the port\""""
    state = new_game(THREE)
    assert state["clans"] == ["fujiwara", "minamoto", "tokugawa"]
    assert state["treasure"] == [25, 25, 25] and state["port"]["treasure"] == 25
    assert ENGINE.hint(state)["port"]["bounty"] == 25  # available, not waiting
    assert state["decks"]["ninja"] == 5 and state["decks"]["yakuza"] == 8


def test_it_plays_two_players_without_taira_and_tokugawa_with_50_in_the_port_and_decks_of_4():
    """ "Remove the Taira and Tokugawa clans"; "the Port starts with 50 Treasure"; "Special Decks start with only
    4 cards in each\""""
    state = new_game(TWO)
    assert state["clans"] == ["fujiwara", "minamoto"]
    assert state["port"]["treasure"] == 50
    assert state["decks"] == {"yakuza": 3, "ninja": 4, "elements": 4, "market": 3, "units": 30}


def test_it_gives_fujiwara_the_first_player_token_in_winter_of_year_1():
    """ "The Fujiwara Clan Player begins the game with the first player token"; "All games begin during
    winter\""""
    state = new_game(FOUR)
    assert (state["first_player"], state["turn"]["seat"]) == (0, 0)
    assert (state["year"], state["season"], state["phase"]) == (1, "winter", "movement")
    assert state["port_row"] == 3  # "The game begins with 3 cards ... face up in the Port row"


def test_it_refuses_clans_out_of_the_rulebooks_order_or_count():
    """ "The Taira clan is only played in a four-player game.\""""
    taira = refused_setup({**THREE, "clans": ["fujiwara", "minamoto", "taira"]}, IllegalMove)
    assert taira.code == "teikoku.setup.clans"
    assert refused_setup({**TWO, "clans": ["minamoto", "fujiwara"]}, IllegalMove).code == "teikoku.setup.clans"
    solo = refused_setup({**TWO, "clans": ["fujiwara"], "chosen_specials": ["ninja"]}, IllegalMove)
    assert solo.code == "teikoku.setup.players"  # "Please, put the game away."
    five = refused_setup({**FOUR, "clans": [*FOUR["clans"], "fujiwara"]}, IllegalMove)
    assert five.code == "teikoku.setup.players"


def test_it_takes_the_units_decks_size_from_the_players():
    """The rulebook does not print the Units deck's size: the players count it."""
    assert refused_setup({k: v for k, v in FOUR.items() if k != "units_deck"}, InvalidMove).code == (
        "teikoku.missing_field"
    )
    assert new_game(FOUR, units_deck=12)["decks"]["units"] == 12


def test_it_varies_the_starting_treasure_and_the_ports_share_with_it():
    """ "Players may agree to increase or decrease the length of the game by adjusting how much Treasure each
    player starts with\""""
    state = new_game(THREE, starting_treasure=30)
    assert state["treasure"] == [30, 30, 30] and state["port"]["treasure"] == 30
    assert new_game(TWO, starting_treasure=20)["port"]["treasure"] == 40


def test_it_sets_the_aggression_target_for_all_or_per_player_as_a_handicap():
    """ "the world champion ... may need to acquire 60 treasure for victory, while the 11 year old novice may
    only be required to obtain 40\""""
    assert new_game(THREE)["targets"] == [50, 50, 50]
    assert new_game(THREE, aggression_target=45)["targets"] == [45, 45, 45]
    assert new_game(THREE, aggression_target=[60, 50, 40])["targets"] == [60, 50, 40]
    low = refused_setup({**THREE, "aggression_target": [60, 25, 40]}, IllegalMove)
    assert low.code == "teikoku.setup.target_too_low" and low.params["seat"] == 1
    assert refused_setup({**THREE, "aggression_target": [60, 50]}, InvalidMove).code == "teikoku.wrong_length"


def test_it_sizes_the_special_decks_by_agreement_up_to_20():
    """ "increasing the deck sizes anywhere up to the full decks of 20 cards in each\""""
    assert new_game(FOUR, special_deck_size=20)["decks"]["market"] == 19
    assert refused_setup({**FOUR, "special_deck_size": 21}, InvalidMove).code == "teikoku.out_of_range"
    crowded = refused_setup({**TWO, "special_deck_size": 1, "chosen_specials": ["ninja", "ninja"]}, IllegalMove)
    assert crowded.code == "teikoku.setup.deck_too_small"


def test_it_refuses_a_set_up_that_would_end_by_attrition_before_play():
    """ "When any 2 of the 5 decks becomes empty the game ends\""""
    empty = refused_setup({**TWO, "special_deck_size": 1, "units_deck": 0}, IllegalMove)
    assert empty.code == "teikoku.setup.decks_empty"
    assert new_game(TWO, units_deck=0)["decks"]["units"] == 0  # one empty deck is allowed


def test_it_plays_a_4th_year_when_agreed():
    """ "Players seeking a longer game may agree in advance to play a 4th year as well.\""""
    assert new_game(FOUR)["years"] == 3 and new_game(FOUR, years=4)["years"] == 4
    assert refused_setup({**FOUR, "years": 5}, InvalidMove).code == "teikoku.out_of_range"


def test_it_varies_the_cost_of_special_cards_per_player():
    """ "altering the cost of special cards from 5 to a higher or lower cost on a per player basis\""""
    assert new_game(THREE)["special_card_cost"] == [5, 5, 5]
    assert new_game(THREE, special_card_cost=[6, 5, 4])["special_card_cost"] == [6, 5, 4]


@pytest.mark.parametrize(
    "setup",
    [
        None,
        [],
        "teikoku",
        {},
        {**FOUR, "units_deck": True},
        {**FOUR, "units_deck": 1.5},
        {**FOUR, "units_deck": "30"},
        {**FOUR, "units_deck": 10**40},
        {**FOUR, "units_deck": -1},
        {**FOUR, "chosen_specials": ["ninja"]},
        {**FOUR, "chosen_specials": ["eta"] * 4},
        {**FOUR, "clans": ["fujiwara\x00", "minamoto", "tokugawa", "taira"]},
        {**FOUR, "house_rule": 1},
        {**FOUR, "aggression_target": False},
        {**FOUR, "clans": "fujiwara"},
    ],
)
def test_it_refuses_malformed_set_ups_with_a_sentence(setup):
    refused_setup(setup, InvalidMove)
