"""A tournament's standings (issue 51, docs/tournaments.md): points by the scheme per place, then opponents'
average points, then average place, then head-to-head among those still tied, then a lot drawn from the recorded
seed and reported for the record."""

from fractions import Fraction

from leagues.tournaments.ranking import lot, points_for, standings

SCHEME = {4: [4, 2, 1, 0], 3: [4, 2, 0]}


def order(rows):
    return [row.player for row in rows]


def test_points_by_the_scheme_per_place_and_pod_size():
    assert points_for(SCHEME, 4, 3) == 1 and points_for(SCHEME, 3, 3) == 0
    assert points_for([5, 3, 1], 4, 4) == 0  # past the list: nothing
    rows, decided = standings(["a", "b", "c", "d"], [{"a": 1, "b": 2, "c": 3, "d": 4}], SCHEME, seed=1)
    assert order(rows) == ["a", "b", "c", "d"] and [r.points for r in rows] == [4, 2, 1, 0]
    assert [r.place for r in rows] == [1, 2, 3, 4] and decided == set()


def test_opponents_average_points_breaks_a_tie_on_points():
    # a and e both won a pod; a's opponents scored more since (b won round 2), so a ranks first
    pods = [{"a": 1, "b": 2, "c": 3}, {"e": 1, "f": 2, "g": 3}, {"b": 1, "f": 2, "x": 3}]
    rows, _ = standings(["a", "b", "c", "e", "f", "g", "x"], pods, SCHEME, seed=1)
    by = {r.player: r for r in rows}
    assert by["a"].points == by["e"].points == 4
    assert by["a"].opponents_average == Fraction(6 + 0, 2) and by["e"].opponents_average == Fraction(4 + 0, 2)
    assert order(rows).index("a") < order(rows).index("e")


def test_average_place_breaks_a_tie_on_opponents():
    # p and q: 4 points each against the same opponents' average; p was second twice, q first then last
    pods = [{"p": 2, "q": 1, "r": 3, "s": 4}, {"p": 2, "q": 4, "r": 1, "s": 3}]
    scheme = [4, 2, 0, 0]
    rows, _ = standings(["p", "q", "r", "s"], pods, scheme, seed=1)
    by = {r.player: r for r in rows}
    assert by["p"].points == by["q"].points == 4 and by["p"].opponents_average == by["q"].opponents_average
    assert by["p"].average_place == 2 and by["q"].average_place == Fraction(5, 2)
    assert order(rows).index("p") < order(rows).index("q")


def test_head_to_head_inside_the_group_still_tied():
    # u and v tie on points, opponents' average and average place; u finished ahead of v where they met
    pods = [{"u": 1, "v": 2, "w": 3}, {"v": 1, "u": 2, "w": 3}, {"u": 1, "v": 3, "w": 2}, {"v": 1, "u": 3, "w": 2}]
    rows, decided = standings(["u", "v", "w"], pods, [2, 1, 0], seed=1)
    by = {r.player: r for r in rows}
    assert (by["u"].points, by["u"].opponents_average, by["u"].average_place) == (
        by["v"].points,
        by["v"].opponents_average,
        by["v"].average_place,
    )
    assert by["u"].head_to_head == by["v"].head_to_head == 0  # 2 ahead, 2 behind each: still tied
    assert decided == {"u", "v"} and by["u"].lot is not None and by["w"].lot is None
    assert order(rows)[:2] == sorted(["u", "v"], key=lambda p: lot(1, p))


def test_head_to_head_decides_when_it_can():
    # u and v: 2 wins each, opponents' average 1, average place 4/3; u beat v where they met
    pods = [{"u": 1, "x": 2}, {"v": 1, "x": 2}, {"w": 1, "u": 2}, {"u": 1, "v": 2}, {"v": 1, "w": 2}]
    rows, decided = standings(["v", "u", "w", "x"], pods, [1, 0], seed=3)
    by = {r.player: r for r in rows}
    assert (
        (by["u"].points, by["u"].opponents_average, by["u"].average_place)
        == (by["v"].points, by["v"].opponents_average, by["v"].average_place)
        == (2, 1, Fraction(4, 3))
    )
    assert (by["u"].head_to_head, by["v"].head_to_head) == (1, -1)
    assert order(rows) == ["u", "v", "w", "x"] and decided == set()


def test_the_lot_is_the_same_for_the_same_seed_and_recorded():
    pods = [{"a": 1, "b": 2}, {"b": 1, "a": 2}]
    first, decided = standings(["a", "b"], pods, [1, 0], seed="2026-12-03")
    again, _ = standings(["a", "b"], list(reversed(pods)), [1, 0], seed="2026-12-03")
    assert order(first) == order(again) and decided == {"a", "b"}
    assert {r.player: r.lot for r in first} == {"a": lot("2026-12-03", "a"), "b": lot("2026-12-03", "b")}


def test_a_late_entry_counts_only_his_rounds_and_a_bye_scores_the_scheme():
    pods = [{"a": 1, "b": 2, "c": 3}, {"a": 2, "b": 1, "late": 3}]
    rows, _ = standings(["a", "b", "c", "late", "idle"], pods, SCHEME, seed=1, byes=["c"], bye_points=2)
    by = {r.player: r for r in rows}
    assert by["late"].average_place == 3 and by["late"].points == 0
    assert by["c"].points == 2 and by["c"].average_place == 3
    assert by["idle"].average_place is None and order(rows)[-1] == "idle"  # played nothing: after the rest
