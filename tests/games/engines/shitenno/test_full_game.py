"""A whole game played to its end, and the final count for tables that did not enter every move."""

from __future__ import annotations

import json
import random

from games.engines.base import replay
from games.engines.shitenno import deal_titles, final_count
from games.engines.shitenno.board import PROVINCES
from games.engines.shitenno.simulation import ENGINE, random_legal_game


def test_it_plays_a_three_player_game_to_the_end_and_breaks_the_tie_for_second_by_title():
    setup, moves = random_legal_game(16, 3)  # Sakakibara, Ii, Sakai
    state = replay(ENGINE, setup, moves)
    outcome = ENGINE.outcome(state)
    assert outcome.termination == "kamon_stock_empty" and 0 in state["stock"]
    assert state["titles"] == ["hatamoto", "shomyo", "daimyo"]  # the last year's titles

    assert [(p.seat, p.rank, p.score) for p in outcome.placings] == [(0, 1, 90), (2, 2, 62), (1, 3, 62)]
    assert outcome.placings[0].tiebreak is None
    # Sakai (Daimyō) and Ii (Shōmyō) both end on 62: "the order of the Titles in the last year" decides.
    assert outcome.placings[1].tiebreak == "tied on 62 favour; last year's titles decide (Daimyō > Shōmyō)"

    for row in outcome.details["breakdown"]:
        seat = row["seat"]
        hand = state["hands"][seat]
        assert row["positions"] == sum(
            PROVINCES[p].positions[i]
            for p, kamons in state["board"].items()
            for i, (owner, _) in enumerate(kamons)
            if owner == seat
        )
        assert row["kokus"] == sum(hand["kokus"]) and row["plus_one_tiles"] == hand["tiles"]["plus_one"]
        weights = {
            p: sum(2 if face == "golden" else 1 for owner, face in kamons if owner == seat)
            for p, kamons in state["board"].items()
        }
        for province in row["majorities"]:
            assert weights[province] == max(outcome.details["majorities"][province]["weights"])
    assert sum(len(row["majorities"]) for row in outcome.details["breakdown"]) == 8
    assert json.loads(json.dumps(outcome.to_json())) == outcome.to_json()
    assert ENGINE.hint(state)["moves"] == [] and ENGINE.hint(state)["to_move"] is None


def test_it_counts_a_table_that_entered_only_the_end():
    outcome = final_count(
        {
            "generals": ["honda", "sakai", "ii"],
            "titles": {"honda": "shomyo", "sakai": "hatamoto", "ii": "daimyo"},
            "favour": [40, 44, 38],
            "provinces": {
                "kanto": [{"seat": 0, "face": "simple"}, {"seat": 1, "face": "simple"}],
                "tohoku": [
                    {"seat": 2, "face": "golden"},
                    {"seat": 1, "face": "simple"},
                    {"seat": 1, "face": "simple"},
                ],
            },
            "kokus": [[3], [], [2]],
            "troops": [[], ["bushi+sohei"], ["hidden"]],
            "tiles": [{"plus_one": 1}, {"exchange": 2}, {"exchange": 1, "card_taking": 1}],
            "termination": "koku_deck_exhausted",
        }
    )
    honda, sakai, ii = outcome.details["breakdown"]
    assert honda["majorities"] == ["kanto"]  # tied 1-1; Honda's kamon stands further left
    assert "furthest left" in outcome.details["majorities"]["kanto"]["tiebreak"]
    assert ii["majorities"] == ["tohoku"]  # a golden kamon against two simple: tied 2-2, Ii further left
    assert (honda["total"], sakai["total"], ii["total"]) == (40 + 3 + 1 + 6, 44 + 2, 38 + 2 + 1 + 6)
    assert [(p.seat, p.score, p.tiebreak is not None) for p in outcome.placings] == [
        (0, 50, False),
        (2, 47, False),
        (1, 46, False),
    ]
    assert outcome.termination == "koku_deck_exhausted"


def test_it_deals_one_title_to_each_general_from_a_seeded_generator():
    titles = deal_titles(["honda", "ii", "sakai"], random.Random(3))
    assert set(titles) == {"honda", "ii", "sakai"} and len(set(titles.values())) == 3
    assert titles == deal_titles(["honda", "ii", "sakai"], random.Random(3))
