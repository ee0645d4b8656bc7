"""One test per ruling of docs/rules/shitenno.md (1-13, and the engine's own A1-A9)."""

from __future__ import annotations

import pytest

from games.engines.base import IllegalMove
from games.engines.shitenno import final_count
from tests.games.engines.shitenno.tables import (
    ENGINE,
    EVEN_YEAR_EXAMPLE,
    HONDA,
    II,
    SAKAI,
    SAKAKIBARA,
    SETUP,
    after_even_year_example,
    odd_year,
    play,
)

# Sakakibara plays first (Daimyō), then Ii (Shōmyō), Sakai (Sensei), Honda (Hatamoto).
TITLES = {SAKAKIBARA: "daimyo", II: "shomyo", SAKAI: "sensei", HONDA: "hatamoto"}


def place(seat: int, province: str, bonus: str | None = "exchange", next_troop: str | None = "samurai", **payment):
    move = {"type": "place", "seat": seat, "province": province, "payment": payment}
    if bonus:
        move["bonus"] = bonus
    if next_troop:
        move["next_troop"] = next_troop
    return move


def end_turn(seat: int, golden: dict | None = None) -> dict:
    return {"type": "end_turn", "seat": seat, "golden": golden}


def test_it_asks_a_large_province_for_3_of_its_troops_and_a_small_one_for_2_plus_the_gate_troop():  # ruling 1
    state = odd_year(TITLES, hands={})
    provinces = ENGINE.hint(state)["provinces"]
    assert provinces["kanto"]["requirement"] == {"samurai": 3, "bushi": 1}
    assert provinces["chubu"]["requirement"] == {"shinobi": 2, "bushi": 1}
    assert provinces["hokkaido"]["requirement"] == {"sohei": 3}  # its gate shows another Sōhei


def test_it_asks_one_more_troop_of_the_provinces_own_type_when_no_tile_is_left():  # ruling 1
    state = odd_year(
        TITLES,
        hands={},
        gates={"kyushu": {"tiles": 0, "top": None}},
        board={"kyushu": [[SAKAI, "simple"]] * 3},
    )
    assert ENGINE.hint(state)["provinces"]["kyushu"]["requirement"] == {"bushi": 3}


def test_it_lets_kokus_pay_the_first_free_position_and_loses_the_surplus():  # ruling 2
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [3, 3]}})
    state = play(state, place(SAKAKIBARA, "kanto", kokus=[3, 3]))  # 6 for a cost of 5
    assert state["hands"][SAKAKIBARA]["kokus"] == [] and state["board"]["kanto"] == [[SAKAKIBARA, "simple"]]


def test_it_does_not_mix_troops_and_kokus_in_one_payment():  # ruling 2
    state = odd_year(TITLES, hands={SAKAKIBARA: {"troops": {"samurai": 3}, "kokus": [1]}})
    with pytest.raises(IllegalMove, match="all troops or all kokus"):
        ENGINE.apply(state, place(SAKAKIBARA, "kanto", troops=["samurai"] * 3, kokus=[1]))


def test_it_never_splits_a_card_and_loses_the_unused_troop_of_a_double():  # ruling 3
    state = odd_year(TITLES, hands={SAKAKIBARA: {"troops": {"samurai": 3, "bushi+sohei": 1}}})
    state = play(state, place(SAKAKIBARA, "kanto", troops=["samurai"] * 3 + ["bushi+sohei"]))
    assert state["hands"][SAKAKIBARA]["troops"] == {}  # the Sōhei is gone with its card
    assert state["discard"] == {"samurai": 3, "bushi+sohei": 1}


def test_it_scores_the_position_plus_2_for_the_daimyo_and_1_for_the_shomyo():  # ruling 4
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [3, 2]}, II: {"kokus": [3, 3]}, SAKAI: {"kokus": [3]}})
    state = play(state, place(SAKAKIBARA, "kanto", kokus=[3, 2]), end_turn(SAKAKIBARA))
    state = play(state, place(II, "kanto", kokus=[3, 3]), end_turn(II))
    state = play(state, place(SAKAI, "kyushu", kokus=[3]))
    assert ENGINE.score(state) == [0, 7, 3, 7]  # Honda, Sakakibara 5+2, Sakai 3, Ii 6+1
    assert state["hands"][SAKAKIBARA]["tiles"]["exchange"] == 1  # the top tile, bonus face up


def test_it_uses_a_bonus_tile_once_and_lets_two_act_on_one_card():  # ruling 5
    hands = {SAKAKIBARA: {"troops": {"bushi+sohei": 2 - 1}, "tiles": {"exchange": 1, "plus_one": 1}}}
    state = odd_year(
        TITLES,
        hands=hands,
        board={"hokkaido": [[SAKAI, "simple"]] * 3},
        gates={"hokkaido": {"tiles": 0, "top": None}},
    )
    move = place(
        SAKAKIBARA,
        "hokkaido",
        None,
        None,
        troops=["bushi+sohei"],
        bonuses=[{"tile": "exchange", "from": "bushi", "to": "sohei"}, {"tile": "plus_one", "on": "sohei"}],
    )
    state = play(state, move)
    assert state["hands"][SAKAKIBARA]["tiles"] == {"exchange": 0, "plus_one": 0, "card_taking": 0}


def test_it_exchanges_a_koku_card_of_any_value_for_a_troop_and_a_troop_for_a_koku():  # ruling 5
    hands = {
        SAKAKIBARA: {"troops": {"samurai": 3}, "kokus": [3], "tiles": {"exchange": 1}},
        II: {"kokus": [1, 1], "troops": {"sohei": 1}, "tiles": {"exchange": 1}},
    }
    state = odd_year(TITLES, hands=hands)
    state = play(
        state,
        place(
            SAKAKIBARA,
            "kanto",
            troops=["samurai"] * 3,
            kokus=[3],
            bonuses=[{"tile": "exchange", "from": 3, "to": "bushi"}],
        ),
        end_turn(SAKAKIBARA),
    )
    state = play(
        state,
        place(
            II,
            "chugoku",
            "plus_one",
            "bushi",
            kokus=[1, 1],
            troops=["sohei"],
            bonuses=[{"tile": "exchange", "from": "sohei", "to": "koku"}],
        ),
    )
    assert state["board"]["chugoku"] == [[II, "simple"]]  # 1 + 1 + the Sōhei made a koku = 3


def test_it_adds_one_to_a_koku_being_played_with_a_plus_one_tile():  # ruling 5
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [2, 2], "tiles": {"plus_one": 1}}})
    state = play(state, place(SAKAKIBARA, "kanto", kokus=[2, 2], bonuses=[{"tile": "plus_one", "on": "koku"}]))
    assert state["hands"][SAKAKIBARA]["tiles"]["plus_one"] == 0


def test_it_lets_card_taking_draw_a_hidden_or_a_shown_card_during_ones_turn():  # ruling 5
    state = odd_year(TITLES, hands={SAKAKIBARA: {"tiles": {"card_taking": 2}}})
    deck = state["troop_deck"]
    state = play(state, {"type": "take_card", "seat": SAKAKIBARA, "card": None})
    state = play(state, {"type": "take_card", "seat": SAKAKIBARA, "card": "sohei"})
    hand = state["hands"][SAKAKIBARA]
    assert (hand["hidden"], hand["troops"], hand["tiles"]["card_taking"]) == (1, {"sohei": 1}, 0)
    assert state["troop_deck"] == deck - 2


def test_it_lets_the_hatamoto_stand_in_for_a_troop_once_per_turn_with_a_plus_one():  # ruling 6
    hands = {HONDA: {"troops": {"samurai": 2}, "tiles": {"plus_one": 1}}}
    state = odd_year(TITLES, hands=hands)
    state = play(state, end_turn(SAKAKIBARA), end_turn(II), end_turn(SAKAI))
    assert ENGINE.hint(state)["turn"]["hatamoto_available"] is True
    state = play(
        state,
        place(
            HONDA,
            "kanto",
            troops=["samurai", "samurai"],
            hatamoto="bushi",
            bonuses=[{"tile": "plus_one", "on": "samurai"}],
        ),
    )
    assert state["turn"]["hatamoto_used"] and not ENGINE.hint(state)["turn"]["hatamoto_available"]
    with pytest.raises(IllegalMove, match="only once per turn"):
        ENGINE.apply(state, place(HONDA, "chugoku", hatamoto="samurai"))


def test_it_allows_at_most_2_kamons_a_year_in_the_same_or_different_provinces():  # ruling 7
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [3, 2, 3, 3, 1]}})
    state = play(state, place(SAKAKIBARA, "kanto", kokus=[3, 2]), place(SAKAKIBARA, "kanto", kokus=[3, 3]))
    assert [seat for seat, _ in state["board"]["kanto"]] == [SAKAKIBARA, SAKAKIBARA]
    assert "place" not in ENGINE.hint(state)["moves"]
    with pytest.raises(IllegalMove, match="cannot place now"):
        ENGINE.apply(state, place(SAKAKIBARA, "kyushu", kokus=[1]))


def test_it_lets_the_sensei_turn_one_of_his_kamons_golden_at_the_end_of_his_turn():  # ruling 8
    state = odd_year(TITLES, hands={}, board={"kanto": [[SAKAI, "simple"], [II, "simple"]]})
    state = play(state, end_turn(SAKAKIBARA))
    with pytest.raises(IllegalMove, match="Only the Sensei"):
        ENGINE.apply(state, end_turn(II, {"province": "kanto", "position": 2}))
    state = play(state, end_turn(II))
    assert ENGINE.hint(state)["turn"]["golden"] == [{"province": "kanto", "position": 1}]
    before = ENGINE.score(state)
    state = play(state, end_turn(SAKAI, {"province": "kanto", "position": 1}))
    assert state["board"]["kanto"][0] == [SAKAI, "golden"] and ENGINE.score(state) == before


def test_it_splits_in_two_lots_at_once_with_two_players():  # ruling 9
    setup = {
        "players": [{"general": "ii"}, {"general": "sakai"}],
        "titles": {"ii": "sensei", "sakai": "daimyo"},
        "gates": SETUP["gates"],
    }
    state = ENGINE.initial_state(setup)
    assert ENGINE.hint(state)["to_move"] == 1  # Sakai, the higher title, is the Tairō
    state = play(
        state,
        {"type": "draw", "seat": 1, "troops": ["samurai", "bushi", "sohei", "shinobi"], "kokus": [1, 2]},
    )
    assert ENGINE.hint(state)["moves"] == ["split"]
    state = play(
        state,
        {
            "type": "split",
            "seat": 1,
            "lots": [
                {
                    "troops": ["samurai", "bushi", "sohei", "shinobi"],
                    "kokus": [1, 2],
                    "hierarchy": "hatamoto",
                },
                {"hierarchy": "shomyo"},
            ],
        },
    )  # a lot may hold no card at all
    state = play(state, {"type": "choose", "seat": 0, "lot": 1})
    assert state["titles"] == ["shomyo", "hatamoto"]  # the Daimyō and Sensei titles are held by nobody
    assert ENGINE.hint(state)["to_move"] == 0


def test_it_makes_the_next_player_without_a_lot_tairo_when_all_refuse():  # ruling 9
    state = play(ENGINE.initial_state(SETUP), *EVEN_YEAR_EXAMPLE[:7])
    assert state["sharing"]["lots"][HONDA] == "hatamoto" and state["sharing"]["tairo"] == SAKAKIBARA


def test_it_reshuffles_the_discards_when_the_troop_deck_runs_out():  # ruling 10
    state = after_even_year_example()
    state["troop_deck"], state["discard"] = 1, {"samurai": 5}
    state["hands"][SAKAKIBARA]["tiles"]["card_taking"] = 2
    state = play(state, {"type": "take_card", "seat": SAKAKIBARA, "card": None})
    state = play(state, {"type": "take_card", "seat": SAKAKIBARA, "card": "samurai"})
    assert state["troop_deck"] == 4 and state["discard"] == {}


def test_it_ends_the_game_after_the_odd_year_that_follows_the_koku_deck_running_out():  # rulings 10, 11
    state = after_even_year_example()
    state["koku_deck"] = {"1": 1, "2": 0, "3": 0}
    for seat in state["turn"]["order"]:
        state = play(state, end_turn(seat))
    assert ENGINE.hint(state)["sharing"]["draw"] == {"troops": 8, "kokus": 1}  # what is left
    state = play(
        state,
        {
            "type": "draw",
            "seat": SAKAKIBARA,
            "troops": ["samurai"] * 0
            + ["sohei+sohei"]
            + [
                "bushi+bushi",
                "samurai+samurai",
                "shinobi+shinobi",
                "samurai+bushi",
                "samurai+sohei",
                "samurai+shinobi",
                "bushi+shinobi",
            ],
            "kokus": [1],
        },
    )
    assert state["last_year"] is True
    state = play(
        state,
        {"type": "offer", "seat": SAKAKIBARA, "hierarchy": "daimyo"},
        {"type": "accept", "seat": II},
        {"type": "offer", "seat": SAKAKIBARA, "hierarchy": "shomyo"},
        {"type": "accept", "seat": SAKAI},
    )
    state = play(
        state,
        {
            "type": "split",
            "seat": SAKAKIBARA,
            "lots": [
                {"troops": state["sharing"]["table"]["troops"], "kokus": [1], "hierarchy": "sensei"},
                {"hierarchy": "hatamoto"},
            ],
        },
        {"type": "choose", "seat": HONDA, "lot": 0},
    )
    for seat in state["turn"]["order"]:
        assert ENGINE.outcome(state) is None
        state = play(state, end_turn(seat))
    assert ENGINE.outcome(state).termination == "koku_deck_exhausted"


def test_it_ends_the_game_at_the_end_of_an_odd_year_in_which_a_stock_emptied():  # ruling 11
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [3, 3]}})
    state["stock"][SAKAKIBARA] = 1
    state = play(state, place(SAKAKIBARA, "kanto", kokus=[3, 3]), end_turn(SAKAKIBARA), end_turn(II))
    assert ENGINE.outcome(state) is None  # not before the end of the year
    state = play(state, end_turn(SAKAI), end_turn(HONDA))
    assert ENGINE.outcome(state).termination == "kamon_stock_empty"


def end(**overrides) -> dict:
    base = {
        "generals": ["honda", "ii"],
        "titles": {"honda": "sensei", "ii": "daimyo"},
        "favour": [{"positions": 20, "title_bonus": 0}, {"positions": 18, "title_bonus": 4}],
        "provinces": {},
        "kokus": [[], []],
        "troops": [[], []],
        "tiles": [{}, {}],
    }
    return base | overrides


def test_it_counts_kokus_and_the_exchange_and_plus_one_tiles_left_at_the_end():  # ruling 12
    outcome = final_count(
        end(
            kokus=[[1, 2, 3], []],
            troops=[["samurai"], []],
            tiles=[{"exchange": 2, "plus_one": 1, "card_taking": 1}, {"exchange": 1}],
        )
    )
    honda, ii = outcome.details["breakdown"]
    assert (honda["kokus"], honda["exchange_tiles"], honda["plus_one_tiles"]) == (
        6,
        1,
        1,
    )  # one troop to exchange
    assert ii["exchange_tiles"] == 0  # no troop card: the Exchange tile gives nothing
    assert honda["total"] == 20 + 6 + 1 + 1


def test_it_gives_6_per_majority_golden_weighing_2_and_the_leftmost_kamon_breaking_ties():  # ruling 12
    outcome = final_count(
        end(
            provinces={
                "kanto": [{"seat": 1, "face": "simple"}, {"seat": 0, "face": "golden"}],  # Honda 2 against 1
                "kyushu": [
                    {"seat": 1, "face": "simple"},
                    {"seat": 0, "face": "simple"},
                ],  # tie: Ii, further left
                "chubu": [],
            }
        )
    )
    majorities = outcome.details["majorities"]
    assert majorities["kanto"]["winner"] == 0 and majorities["kanto"]["tiebreak"] is None
    assert majorities["kyushu"]["winner"] == 1 and "furthest left" in majorities["kyushu"]["tiebreak"]
    assert majorities["chubu"]["winner"] is None  # nobody scores an empty province
    assert [row["majority_points"] for row in outcome.details["breakdown"]] == [6, 6]


def test_it_makes_the_most_favoured_general_win_and_breaks_ties_by_last_years_titles():  # ruling 13
    outcome = final_count(end())  # 20 each; Ii was Daimyō, Honda Sensei
    assert [(p.seat, p.rank, p.score) for p in outcome.placings] == [(1, 1, 22), (0, 2, 20)]
    outcome = final_count(end(favour=[22, 22]))
    assert [p.seat for p in outcome.placings] == [1, 0]
    assert outcome.placings[0].tiebreak == "tied on 22 favour; last year's titles decide (Daimyō > Sensei)"
    assert outcome.placings[1].tiebreak == outcome.placings[0].tiebreak


# --- rulings added in docs/rules/shitenno.md ---------------------------------------------------------


def test_it_refuses_a_payment_with_a_troop_card_that_is_not_needed():  # ruling A1
    state = odd_year(TITLES, hands={SAKAKIBARA: {"troops": {"samurai": 4, "bushi": 1}}})
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(state, place(SAKAKIBARA, "kanto", troops=["samurai"] * 4 + ["bushi"]))
    assert error.value.message == (
        "The Samurai card is not needed: Kantō's 1st position is paid without it. Take it out of the payment."
    )


def test_it_accepts_more_kokus_than_the_cost_even_when_a_card_could_stay_in_hand():  # rulings 2 and A1
    # "You may take control of a Province by discarding more Kokus than necessary, but the surplus is lost."
    state = odd_year(TITLES, hands={SAKAKIBARA: {"kokus": [3, 2, 1]}})
    move = place(SAKAKIBARA, "kanto", kokus=[3, 2, 1])  # 6 for a cost of 5, though 3 + 2 would do
    assert "for 6 kokus, 1 lost (Koku 3, Koku 2, Koku 1): +7" in ENGINE.describe(state, move)
    state = play(state, move)
    assert state["hands"][SAKAKIBARA]["kokus"] == [] and state["board"]["kanto"] == [[SAKAKIBARA, "simple"]]
    assert state["scored"][SAKAKIBARA] == {"positions": 5, "title_bonus": 2}  # the surplus scores nothing


def test_it_names_the_koku_card_left_over_when_a_koku_is_exchanged_into_a_troop():  # ruling A1
    hands = {SAKAKIBARA: {"troops": {"samurai": 3}, "kokus": [3, 3, 1], "tiles": {"exchange": 1}}}
    state = odd_year(TITLES, hands=hands)
    move = place(
        SAKAKIBARA,
        "kanto",
        troops=["samurai"] * 3,
        kokus=[3, 3, 1],
        bonuses=[{"tile": "exchange", "from": 1, "to": "bushi"}],
    )
    with pytest.raises(IllegalMove) as error:  # the troops pay; the two Koku 3 cards are the ones not needed
        ENGINE.apply(state, move)
    assert error.value.message == (
        "The Koku 3 card is not needed: Kantō's 1st position is paid without it. Take it out of the payment."
    )


def test_it_refuses_a_troop_card_and_its_exchange_tile_that_a_koku_payment_does_not_need():  # ruling A1
    hands = {SAKAKIBARA: {"troops": {"samurai": 1}, "kokus": [3, 3], "tiles": {"exchange": 1, "plus_one": 1}}}
    state = odd_year(TITLES, hands=hands)
    with pytest.raises(IllegalMove) as error:
        ENGINE.apply(
            state,
            place(
                SAKAKIBARA,
                "kanto",
                kokus=[3, 3],
                troops=["samurai"],
                bonuses=[{"tile": "exchange", "from": "samurai", "to": "koku"}],
            ),
        )
    assert error.value.message == (
        "The Samurai card and the Exchange tile are not needed: Kantō's 1st position is paid without them. "
        "Take them out of the payment."
    )
    with pytest.raises(IllegalMove, match="^The \\+1 tile is not needed"):  # a tile is kept, not lost
        ENGINE.apply(state, place(SAKAKIBARA, "kanto", kokus=[3, 3], bonuses=[{"tile": "plus_one", "on": "koku"}]))


def test_it_numbers_the_first_year_2_so_odd_years_are_odd():  # ruling A2
    state = ENGINE.initial_state(SETUP)
    assert state["year"] == 2 and ENGINE.hint(state)["phase"] == "sharing"
    assert after_even_year_example()["year"] == 3


def test_it_allows_card_taking_only_in_ones_own_odd_year_turn():  # ruling A3
    state = play(ENGINE.initial_state(SETUP), EVEN_YEAR_EXAMPLE[0])
    state["hands"][HONDA]["tiles"]["card_taking"] = 1
    with pytest.raises(IllegalMove, match="cannot take card now"):
        ENGINE.apply(state, {"type": "take_card", "seat": HONDA, "card": None})


def test_it_refuses_a_hidden_card_that_cannot_exist():  # ruling A4
    state = odd_year(TITLES, hands={SAKAKIBARA: {"hidden": 1}, II: {"troops": {"bushi+sohei": 1}}})
    with pytest.raises(IllegalMove, match="Bushi\\+Sōhei cannot be in Sakakibara's hidden cards"):
        ENGINE.apply(state, place(SAKAKIBARA, "tohoku", troops=["bushi+sohei"]))


def test_it_reshuffles_when_the_draw_needs_more_than_the_pile():  # ruling A5
    state = ENGINE.initial_state(SETUP)
    state["troop_deck"], state["discard"] = 3, {"bushi": 5}
    state = play(state, {"type": "draw", "seat": HONDA, "troops": ["bushi"] * 4 + ["sohei"] * 4, "kokus": [1] * 4})
    assert state["troop_deck"] == 0 and state["discard"] == {}


def test_it_offers_lots_down_the_titles_from_the_tairo():  # ruling A7
    state = play(ENGINE.initial_state(SETUP), EVEN_YEAR_EXAMPLE[0])
    state = play(state, {"type": "offer", "seat": HONDA, "hierarchy": "daimyo"}, {"type": "refuse", "seat": SAKAKIBARA})
    assert ENGINE.hint(state)["to_move"] == SAKAI
    state = play(state, {"type": "refuse", "seat": SAKAI}, {"type": "refuse", "seat": II})
    assert state["sharing"]["tairo"] == SAKAKIBARA and ENGINE.hint(state)["moves"] == ["offer"]
    state = play(state, {"type": "offer", "seat": SAKAKIBARA, "hierarchy": "shomyo"})
    assert ENGINE.hint(state)["to_move"] == SAKAI


def test_it_counts_a_hidden_card_as_one_troop_for_an_exchange_tile_at_the_end():  # ruling A8
    outcome = final_count(end(troops=[["hidden"], ["samurai+bushi"]], tiles=[{"exchange": 2}, {"exchange": 2}]))
    assert [row["exchange_tiles"] for row in outcome.details["breakdown"]] == [1, 2]


def test_it_loses_the_other_troop_of_a_double_turned_half_into_a_koku():  # ruling A9
    hands = {SAKAKIBARA: {"troops": {"bushi+sohei": 1}, "kokus": [3, 1], "tiles": {"exchange": 1}}}
    state = odd_year(TITLES, hands=hands)
    state = play(
        state,
        place(
            SAKAKIBARA,
            "kanto",
            kokus=[3, 1],
            troops=["bushi+sohei"],
            bonuses=[{"tile": "exchange", "from": "bushi", "to": "koku"}],
        ),
    )
    assert state["board"]["kanto"] == [[SAKAKIBARA, "simple"]]
