"""Standings: placement points and the tie-breakers, on constructed seasons."""

from fractions import Fraction

import pytest

from leagues.standings import (
    Entry,
    Game,
    competition_ranks,
    game_points,
    place_points,
    points_text,
    season_tie_breakers,
    standings,
    validate_rules,
)


def game(*ranks, scores=None):
    """game(("a", 1), ("b", 2)) with optional scores by player."""
    scores = scores or {}
    return Game(tuple(Entry(p, r, scores.get(p)) for p, r in ranks))


def table(games, **kw):
    return [(row.player, row.position, row.separated_by) for row in standings(games, **kw)]


@pytest.mark.parametrize(
    ("scheme", "count", "points"),
    [
        ("3-2-1-0", 4, [3, 2, 1, 0]),
        ("3-2-1-0", 3, [3, 1.5, 0]),
        ("3-2-1-0", 2, [3, 0]),
        ("7-5-3-1", 4, [7, 5, 3, 1]),
        ("7-5-3-1", 3, [7, 4, 1]),
        ("percent", 4, [100, 100 * 2 / 3, 100 / 3, 0]),
        ("percent", 3, [100, 50, 0]),
    ],
)
def test_it_gives_the_preset_points(scheme, count, points):
    assert place_points(scheme, count) == pytest.approx(points)


def test_it_shares_tied_places():
    points = game_points(game(("a", 1), ("b", 1), ("c", 3), ("d", 4)), "3-2-1-0")
    assert points == {"a": 2.5, "b": 2.5, "c": 1, "d": 0}


def test_it_uses_custom_points():
    assert game_points(game(("a", 1), ("b", 2)), "custom", {"2": [5, 1]}) == {"a": 5, "b": 1}


def test_it_orders_by_points_first():
    games = [game(("a", 1), ("b", 2), ("c", 3), ("d", 4))]
    assert table(games) == [("a", 1, ""), ("b", 2, "points"), ("c", 3, "points"), ("d", 4, "points")]


def test_it_breaks_a_points_tie_on_wins():
    # a and c: 3 + 0 = 3 with one win each; b: 1.5 + 1.5 = 3 with none.
    games = [game(("a", 1), ("b", 2), ("c", 3)), game(("c", 1), ("b", 2), ("a", 3))]
    rows = table(games, tie_breakers=["points", "wins", "countback"])
    assert rows == [("a", 1, ""), ("c", 1, ""), ("b", 3, "wins")]


def test_it_breaks_on_count_back_of_second_places():
    # custom points make a (two seconds) and b (two thirds) level on points, with no wins.
    custom = {"4": [4, 2, 2, 0]}
    games = [
        game(("x", 1), ("a", 2), ("b", 3), ("y", 4)),
        game(("y", 1), ("a", 2), ("b", 3), ("x", 4)),
    ]
    rows = table(games, scheme="custom", custom=custom, tie_breakers=["points", "wins", "countback"])
    assert rows == [("x", 1, ""), ("y", 1, ""), ("a", 3, "wins"), ("b", 4, "countback")]


def test_it_breaks_on_opponents_points():
    # a and b each win one 2-player game; a beat strong c, b beat weak d.
    games = [
        game(("a", 1), ("c", 2)),
        game(("c", 1), ("e", 2)),
        game(("c", 1), ("e", 2)),
        game(("b", 1), ("d", 2)),
    ]
    rows = table(games, tie_breakers=["points", "opponents_points"])
    positions = {player: (pos, reason) for player, pos, reason in rows}
    assert positions["c"][0] == 1
    assert positions["a"] == (2, "points")
    assert positions["b"] == (3, "opponents_points")


def test_it_uses_head_to_head_only_for_exactly_two():
    games = [game(("b", 1), ("a", 2)), game(("a", 1), ("c", 2)), game(("c", 1), ("b", 2))]
    # all three level on 3 points and one win each: head-to-head cannot apply to three
    rows = table(games, tie_breakers=["points", "wins", "head_to_head"])
    assert {r[1] for r in rows} == {1}
    two = [game(("b", 1), ("a", 2)), game(("a", 1), ("c", 2)), game(("b", 1), ("c", 2)), game(("a", 1), ("c", 2))]
    # a and b: 6 points each; b beat a head to head
    rows = table(two, tie_breakers=["points", "head_to_head"])
    assert rows[:2] == [("b", 1, ""), ("a", 2, "head_to_head")]


def test_it_breaks_on_average_score_margin():
    games = [
        game(("a", 1), ("b", 1), scores={"a": 10, "b": 10}),
        game(("a", 1), ("c", 2), scores={"a": 30, "c": 10}),
        game(("b", 1), ("d", 2), scores={"b": 15, "d": 10}),
    ]
    rows = table(games, tie_breakers=["points", "wins", "margin"])
    assert rows[:2] == [("a", 1, ""), ("b", 2, "margin")]


def test_it_follows_the_seasons_order_of_tie_breakers():
    # a and b are level on points and wins; only a margin tie-breaker puts b ahead.
    games = [
        game(("a", 1), ("b", 1), scores={"a": 0, "b": 0}),
        game(("a", 1), ("x", 2), scores={"a": 11, "x": 10}),
        game(("b", 2), ("y", 1), scores={"b": 9, "y": 10}),
        game(("b", 1), ("z", 2), scores={"b": 50, "z": 0}),
        game(("a", 2), ("z", 1), scores={"a": 9, "z": 10}),
    ]
    assert table(games, tie_breakers=["points", "wins"])[:2] == [("a", 1, ""), ("b", 1, "")]
    assert table(games, tie_breakers=["points", "margin"])[:2] == [("b", 1, ""), ("a", 2, "margin")]


def test_it_leaves_players_short_of_min_games_unranked():
    games = [game(("a", 1), ("b", 2)), game(("a", 1), ("c", 2))]
    rows = standings(games, min_games=2)
    assert [(r.player, r.ranked, r.position) for r in rows] == [("a", True, 1), ("b", False, None), ("c", False, None)]


def test_it_shares_a_position_when_level_on_everything():
    rows = table([game(("a", 1), ("b", 1))])
    assert rows == [("a", 1, ""), ("b", 1, "")]


def test_it_validates_rules():
    assert validate_rules(scheme="3-2-1-0", custom={}, tie_breakers=["points", "wins"]) == {}
    assert "points_scheme" in validate_rules(scheme="9-9", custom={}, tie_breakers=[])
    assert "custom_points" in validate_rules(scheme="custom", custom={"3": [1, 2]}, tie_breakers=[])
    assert "tie_breakers" in validate_rules(scheme="percent", custom={}, tie_breakers=["luck"])


def test_ranks_are_competition_ranks():
    assert competition_ranks([1, 1, 2]) == [1, 1, 3]
    assert competition_ranks([1, 3, 3, 2]) == [1, 3, 3, 2]
    assert competition_ranks([2, 1, 2]) == [2, 1, 2]
    assert competition_ranks([1, 1, 1, 4]) == [1, 1, 1, 4]
    assert competition_ranks([5, 5]) == [1, 1]


def test_second_place_means_exactly_one_player_ahead():
    # dense ranks given to the maths directly mean the same order as 1, 1, 3: c is third, not second
    rows = {row.player: (row.wins, row.seconds) for row in standings([game(("a", 1), ("b", 1), ("c", 2))])}
    assert rows == {"a": (1, 0), "b": (1, 0), "c": (0, 0)}
    rows = {row.player: (row.wins, row.seconds) for row in standings([game(("a", 1), ("b", 2), ("c", 2))])}
    assert rows == {"a": (1, 0), "b": (0, 1), "c": (0, 1)}


def test_points_come_first_unless_placed():
    assert season_tie_breakers([]) == ["points"]
    assert season_tie_breakers(["wins"]) == ["points", "wins"]
    assert season_tie_breakers(["wins", "points"]) == ["wins", "points"]
    # b has more points (3 + 1.5) than a (3 + 0) but a has as many wins: with points first, b leads
    games = [game(("a", 1), ("b", 2), ("c", 3)), game(("b", 1), ("c", 2), ("a", 3)), game(("c", 1), ("b", 2), ("a", 3))]
    assert [row.player for row in standings(games, tie_breakers=season_tie_breakers(["wins"]))][0] == "b"


@pytest.mark.parametrize(
    ("points", "text"),
    [
        (Fraction(1725), "1725"),
        (Fraction(25, 2), "12.5"),
        (Fraction(-3, 4), "-0.75"),
        (Fraction(500, 3), "166 2/3"),
        (Fraction(-4, 3), "-1 1/3"),
        (Fraction(2, 3), "2/3"),
        (Fraction(0), "0"),
        (Fraction(1, 80), "0.0125"),
    ],
)
def test_points_are_shown_exactly(points, text):
    assert points_text(points) == text


def test_percent_points_sum_exactly():
    # 66 2/3 three times is 200, not 200.00000000000003; the table's sums are Fractions
    games = [game(("a", 2), ("b", 1), ("c", 3), ("d", 4)) for _ in range(3)]
    rows = {row.player: row.points for row in standings(games, scheme="percent")}
    assert rows == {"a": 200, "b": 300, "c": 100, "d": 0}
    assert rows["a"] == Fraction(200) and isinstance(rows["a"], Fraction)
    assert place_points("custom", 2, {"2": [0.1, 0.2]}) == [Fraction(1, 10), Fraction(1, 5)]
