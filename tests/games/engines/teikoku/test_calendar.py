"""The calendar: six phases a season, turns from the first player, the token passing left, seasons and years,
and what each season allows (rulebook "Seasons: The Winds of War", "The Seasons", "Change of Year")."""

from __future__ import annotations

from games.engines.teikoku.rules import PHASES
from tests.games.engines.teikoku.tables import (
    ENGINE,
    FOUR,
    FUJIWARA,
    MINAMOTO,
    TAIRA,
    THREE,
    TOKUGAWA,
    advance,
    end_turn,
    new_game,
    refused,
)


def test_it_goes_round_the_table_in_each_phase_from_the_first_player():
    """ "The first player handles their Troop Movements, then each other player does so, and then the first
    player handles their Port engagements and so on.\""""
    state = new_game(FOUR)
    seen = []
    for _ in range(6 * 4):
        seen.append((state["phase"], state["turn"]["seat"]))
        state = end_turn(state)
    assert seen == [(phase, seat) for phase in PHASES for seat in (0, 1, 2, 3)]
    assert state["season"] == "spring"


def test_it_lets_only_the_player_on_turn_end_it():
    state = new_game(FOUR)
    error = refused(state, {"type": "end_turn", "seat": MINAMOTO})
    assert error.code == "teikoku.not_your_turn" and error.params == {"seat": 1, "turn": 0, "phase": "movement"}
    assert "Fujiwara's turn" in error.message


def test_it_passes_the_first_player_token_one_seat_left_each_season():
    """ "At the end of each season the first player marker is passed one seat to the left." The clans' notes:
    Tokugawa "become[s] the first player in the third season during summer"; Taira "in autumn".\""""
    state = new_game(FOUR)
    firsts = {}
    for season in ("winter", "spring", "summer", "autumn"):
        state = advance(state, "movement", season)
        firsts[season] = state["first_player"]
        assert state["turn"]["seat"] == state["first_player"]
    assert firsts == {"winter": FUJIWARA, "spring": MINAMOTO, "summer": TOKUGAWA, "autumn": TAIRA}
    state = advance(state, "movement", "winter", year=2)
    assert state["first_player"] == FUJIWARA


def test_it_turns_autumn_into_winter_of_the_next_year():
    """ "If the Autumn Season has ended, change the season to winter again and increase the season counter D4
    by 1\""""
    state = advance(new_game(THREE), "refresh", "autumn")
    for _ in range(3):  # the three players' Refresh turns close Autumn
        assert (state["year"], state["season"]) == (1, "autumn")
        state = end_turn(state)
    assert (state["year"], state["season"], state["phase"]) == (2, "winter", "movement")
    assert state["first_player"] == 4 % 3  # four seasons later, one seat past Fujiwara


def test_it_shows_each_seasons_rule():
    """ "Winter = Players Cannot Attack Any Other Players / Spring = Players Draw +1 Card and Hand Limits Are +1
    This Round / Summer = The Port Is Closed ... / Autumn = Players May Banish 1 Card From Their Hand\""""
    state = new_game(FOUR)
    rules = {}
    for season in ("winter", "spring", "summer", "autumn"):
        state = advance(state, "movement", season)
        rules[season] = ENGINE.hint(state)["season_rules"]
    assert not rules["winter"]["attacks_on_players"] and rules["spring"]["attacks_on_players"]
    assert (rules["spring"]["draw"], rules["spring"]["hand_limit"]) == (6, 8)
    assert (rules["winter"]["draw"], rules["winter"]["hand_limit"]) == (5, 7)
    assert not rules["summer"]["port_open"] and rules["summer"]["attacks_on_players"]
    assert rules["autumn"]["autumn_banish"] and not rules["summer"]["autumn_banish"]
    assert rules["autumn"]["text"] == "Players may banish 1 card from their hand during movement."


def test_it_lets_each_player_banish_one_card_during_autumn_movement_only():
    """ "Autumn = Players May Banish 1 Card From Their Hand During Movement\""""
    state = new_game(FOUR)
    assert refused(state, {"type": "banish", "seat": FUJIWARA}).code == "teikoku.not_autumn"
    state = advance(state, "movement", "autumn")
    seat = state["turn"]["seat"]
    assert "banish" in ENGINE.hint(state)["moves"]
    state = ENGINE.apply(state, {"type": "banish", "seat": seat})
    assert "banish" not in ENGINE.hint(state)["moves"]
    assert refused(state, {"type": "banish", "seat": seat}).code == "teikoku.banish_used"
    state = end_turn(state)
    state = ENGINE.apply(state, {"type": "banish", "seat": state["turn"]["seat"]})  # the next player may too
    state = advance(state, "port")
    assert refused(state, {"type": "banish", "seat": state["turn"]["seat"]}).code == "teikoku.wrong_phase"


def test_it_never_returns_to_a_concluded_phase():
    """ "once an action phase is concluded, players may not return to that phase until the cycle begins again
    next season\""""
    state = advance(new_game(FOUR, units_deck=5), "war", "spring")
    error = refused(state, {"type": "bounty", "seat": state["turn"]["seat"], "blood": 3})
    assert error.code == "teikoku.wrong_phase" and error.params["phase"] == "port"


def test_it_names_whose_turn_it_is_and_the_order_of_play_in_the_hint():
    state = advance(new_game(FOUR), "war", "summer", seat=FUJIWARA)
    hint = ENGINE.hint(state)
    assert (hint["first_player"], hint["to_move"], hint["turn_order"]) == (TOKUGAWA, FUJIWARA, [2, 3, 0, 1])
    assert (hint["season_name"], hint["phase_name"], hint["year"]) == ("Summer", "War", 1)
