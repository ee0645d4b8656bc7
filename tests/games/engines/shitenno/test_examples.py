"""The rulebook's worked examples, replayed move by move through the engine."""

from __future__ import annotations

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


def test_it_replays_the_even_year_example_lot_by_lot():
    state = ENGINE.initial_state(SETUP)
    hint = ENGINE.hint(state)
    assert hint["to_move"] == HONDA and hint["moves"] == ["draw"]
    assert hint["sharing"]["draw"] == {"troops": 8, "kokus": 4}  # "8 Troop cards and 4 Koku cards"

    draw, lot_1, refuse_1, accept_1, lot_2, refuse_2, refuse_3, split, choose = EVEN_YEAR_EXAMPLE
    state = play(state, draw)
    assert ENGINE.hint(state)["sharing"]["hierarchy"] == ["daimyo", "shomyo", "sensei", "hatamoto"]

    state = play(state, lot_1)
    assert ENGINE.hint(state)["to_move"] == SAKAKIBARA  # offered to the next title: the Shōmyō
    state = play(state, refuse_1)
    assert ENGINE.hint(state)["to_move"] == SAKAI  # "Honda offers it to Sakai"
    state = play(state, accept_1)
    assert state["hands"][SAKAI]["kokus"] == [1, 1]
    assert state["hands"][SAKAI]["troops"] == {"sohei": 1, "shinobi": 1}

    state = play(state, lot_2)
    assert ENGINE.hint(state)["to_move"] == SAKAKIBARA
    state = play(state, refuse_2)
    assert ENGINE.hint(state)["to_move"] == II  # "(since Sakai has already taken a lot)"
    state = play(state, refuse_3)
    assert state["hands"][HONDA]["troops"] == {"samurai": 2, "bushi": 1}  # "Honda takes the lot."
    assert state["sharing"]["tairo"] == SAKAKIBARA  # the next player without a lot becomes Tairō
    assert ENGINE.hint(state)["moves"] == ["split"]  # two players without a lot remain

    state = play(state, split)
    assert ENGINE.hint(state)["to_move"] == II and ENGINE.hint(state)["moves"] == ["choose"]
    state = play(state, choose)

    # "Honda ... becomes Hatamoto, Sakakibara ... Daimyō, Sakai ... Sensei, and Ii ... Shōmyō."
    assert state["titles"] == ["hatamoto", "daimyo", "sensei", "shomyo"]
    assert state["hands"][II]["troops"] == {"bushi": 1, "shinobi": 1} and state["hands"][II]["kokus"] == [3]
    assert state["hands"][SAKAKIBARA]["troops"] == {"samurai": 1} and state["hands"][SAKAKIBARA]["kokus"] == [2]
    assert state["phase"] == "provinces" and state["year"] == 3
    assert state["turn"]["order"] == [SAKAKIBARA, II, SAKAI, HONDA]  # the new order of the turn


def test_it_describes_the_even_year_example_in_words():
    state = ENGINE.initial_state(SETUP)
    words = []
    for move in EVEN_YEAR_EXAMPLE:
        words.append(ENGINE.describe(state, move))
        state = ENGINE.apply(state, move)
    assert words[1] == ("Year 2 — Honda offers Sakakibara a lot: Sōhei, Shinobi, Koku 1, Koku 1 and the Sensei tile")
    assert words[6] == "Year 2 — Ii refuses the lot; refused by all, Honda keeps it"
    assert words[8].startswith("Year 2 — Ii chooses lot B (Bushi, Shinobi, Koku 3 and the Shōmyō tile)")


TITLES_AFTER_EXAMPLE = {SAKAKIBARA: "daimyo", II: "shomyo", SAKAI: "sensei", HONDA: "hatamoto"}


def odd_year_example_table() -> dict:
    """The odd year of the rulebook: Kantō untouched (Bushi on its gate, Sōhei beneath), Chūbu with two
    kamons and a Bushi tile left, Hokkaidō with only its last position free."""
    return odd_year(
        TITLES_AFTER_EXAMPLE,
        hands={
            SAKAKIBARA: {"troops": {"samurai": 3, "bushi+sohei": 1}},
            II: {"troops": {"shinobi": 1, "bushi": 1}, "kokus": [1, 1, 1, 1, 2]},
            SAKAI: {"troops": {"samurai": 1}},
            HONDA: {"troops": {"sohei": 2}},
        },
        board={
            "chubu": [[SAKAI, "simple"], [HONDA, "simple"]],
            "hokkaido": [[SAKAI, "simple"], [SAKAKIBARA, "simple"], [SAKAI, "simple"]],
        },
        gates={"chubu": {"tiles": 1, "top": "bushi"}, "hokkaido": {"tiles": 0, "top": None}},
    )


def test_it_replays_the_odd_year_example_with_every_figure():
    state = odd_year_example_table()
    assert ENGINE.hint(state)["provinces"]["kanto"] == {
        "position": 1,
        "value": 5,
        "requirement": {"samurai": 3, "bushi": 1},
        "koku_cost": 5,
        "tiles_left": 3,
        "top_tile": "bushi",
    }

    # Sakakibara discards 3 Samurai and a Bushi+Sōhei ("the Sōhei will not be used"): 5 points (+2 Daimyō).
    sakakibara_kanto = {
        "type": "place",
        "seat": SAKAKIBARA,
        "province": "kanto",
        "payment": {"troops": ["samurai", "samurai", "samurai", "bushi+sohei"]},
        "bonus": "exchange",
        "next_troop": "sohei",  # "he shows that the following Tile is a Sōhei"
    }
    assert ENGINE.describe(state, sakakibara_kanto).endswith("+7; takes an Exchange tile, revealing a Sōhei")
    state = play(state, sakakibara_kanto)
    assert state["board"]["kanto"] == [[SAKAKIBARA, "simple"]]
    assert state["scored"][SAKAKIBARA] == {"positions": 5, "title_bonus": 2}
    assert ENGINE.score(state)[SAKAKIBARA] == 7
    assert state["hands"][SAKAKIBARA]["tiles"]["exchange"] == 1
    # "A player may then take control of Kantō by discarding 3 Samurai cards, and one Sōhei."
    assert ENGINE.hint(state)["provinces"]["kanto"]["requirement"] == {"samurai": 3, "sohei": 1}
    state = play(state, {"type": "end_turn", "seat": SAKAKIBARA})

    # Ii discards 6 Kokus (4 simple and one double) for Kantō's second position: 6 points (+1 Shōmyō).
    ii_kanto = {
        "type": "place",
        "seat": II,
        "province": "kanto",
        "payment": {"kokus": [1, 1, 1, 1, 2]},
        "bonus": "plus_one",
        "next_troop": "shinobi",
    }
    assert ENGINE.describe(state, ii_kanto).startswith(
        "Year 3 — Ii takes Kantō 2nd position for 6 kokus (Koku 1, Koku 1, Koku 1, Koku 1, Koku 2): +7"
    )
    state = play(state, ii_kanto)
    assert state["board"]["kanto"][1] == [II, "simple"]
    assert ENGINE.score(state)[II] == 7
    assert state["hands"][II]["tiles"]["plus_one"] == 1

    # Ii then takes Chūbu's 3rd position with a Shinobi card, the +1 tile just won, and a Bushi card.
    assert ENGINE.hint(state)["provinces"]["chubu"]["requirement"] == {"shinobi": 2, "bushi": 1}
    ii_chubu = {
        "type": "place",
        "seat": II,
        "province": "chubu",
        "payment": {"troops": ["shinobi", "bushi"], "bonuses": [{"tile": "plus_one", "on": "shinobi"}]},
        "bonus": "exchange",
    }
    state = play(state, ii_chubu)
    assert state["board"]["chubu"][2] == [II, "simple"]
    assert state["scored"][II] == {"positions": 12, "title_bonus": 2}  # 6 + 6, and 1 + 1 as Shōmyō
    assert ENGINE.score(state)[II] == 14  # 7 and 7
    assert state["hands"][II]["tiles"] == {"exchange": 1, "plus_one": 0, "card_taking": 0}
    assert state["hands"][II]["kokus"] == [] and state["hands"][II]["troops"] == {}
    state = play(state, {"type": "end_turn", "seat": II})

    state = play(state, {"type": "end_turn", "seat": SAKAI})  # "Sakai decides to pass."
    assert ENGINE.hint(state)["to_move"] == HONDA


def test_it_replays_hondas_hokkaido_with_exchange_and_plus_one_on_a_bushi_sohei_card():
    # The deck has a single Bushi+Sōhei card, and the example has Sakakibara discard it before Honda
    # plays one; so Honda's turn is replayed on its own table, where he holds that card.
    state = odd_year(
        TITLES_AFTER_EXAMPLE,
        hands={HONDA: {"troops": {"bushi+sohei": 1}, "tiles": {"exchange": 1, "plus_one": 1}}},
        board={"hokkaido": [[SAKAI, "simple"], [SAKAKIBARA, "simple"], [SAKAI, "simple"]]},
        gates={"hokkaido": {"tiles": 0, "top": None}},
    )
    for seat in (SAKAKIBARA, II, SAKAI):
        state = play(state, {"type": "end_turn", "seat": seat})
    # "only the last position is available": 3 Sōhei, the last one being the province's own.
    assert ENGINE.hint(state)["provinces"]["hokkaido"] == {
        "position": 4,
        "value": 9,
        "requirement": {"sohei": 3},
        "koku_cost": 9,
        "tiles_left": 0,
        "top_tile": None,
    }
    honda_hokkaido = {
        "type": "place",
        "seat": HONDA,
        "province": "hokkaido",
        "payment": {
            "troops": ["bushi+sohei"],
            "bonuses": [
                {"tile": "exchange", "from": "bushi", "to": "sohei"},
                {"tile": "plus_one", "on": "sohei"},
            ],
        },
    }
    state = play(state, honda_hokkaido)
    assert state["board"]["hokkaido"][3] == [HONDA, "simple"]
    assert ENGINE.score(state)[HONDA] == 9  # the Hatamoto scores no title bonus
    assert state["hands"][HONDA]["tiles"] == {
        "exchange": 0,
        "plus_one": 0,
        "card_taking": 0,
    }  # "no Bonus Tile"
