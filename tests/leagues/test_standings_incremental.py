"""Incremental standings: folding counted results in one by one ends at the table a full recompute gives,
and folding the same result twice counts it once."""

import datetime
import itertools
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues import standings as standings_maths
from leagues.common import selectors
from leagues.models import Club, League, LeagueJob, Player, Result, ResultEntry, Season, Standing
from leagues.standings import store as standings_store

from . import standings_reference as reference

DAY = datetime.date(2026, 1, 10)
season_numbers = itertools.count()


def ranks_from(draws: list[int]) -> list[int]:
    """Competition ranks ("1, 1, 3") from any draws: equal draws tie."""
    ordered = sorted(draws)
    return [ordered.index(d) + 1 for d in draws]


@st.composite
def a_game(draw, players: int):
    seated = draw(st.lists(st.integers(0, players - 1), min_size=2, max_size=min(5, players), unique=True))
    ranks = ranks_from(draw(st.lists(st.integers(0, 3), min_size=len(seated), max_size=len(seated))))
    scored = draw(st.sampled_from(["none", "all", "some"]))
    score = st.integers(-3, 12) if scored == "all" else st.one_of(st.none(), st.integers(-3, 12))
    scores = [None] * len(seated) if scored == "none" else [draw(score) for _ in seated]
    return list(zip(seated, ranks, scores, strict=True))


rules = st.fixed_dictionaries(
    {
        "scheme": st.sampled_from(standings_maths.SCHEMES),
        "custom": st.sampled_from(
            [{"4": [4, 2, 1, 0]}, {"2": [2, 0], "3": [3, 1, 0], "4": [5, 2, 2, 0]}, {"3": [1.5, 0.25, 0.0]}]
        ),
        "min_games": st.integers(0, 3),
        "tie_breakers": st.permutations(standings_maths.TIE_BREAKERS).flatmap(
            lambda order: st.integers(0, len(order)).map(lambda n: list(order[:n]))
        ),
    }
)


@st.composite
def a_season(draw):
    players = draw(st.integers(2, 8))
    games = draw(st.lists(a_game(players), min_size=1, max_size=14))
    counted = [draw(st.booleans()) or i == 0 for i in range(len(games))]  # some stay pending, never folded in
    fold_order = draw(st.permutations(range(len(games))))
    repeats = draw(st.lists(st.integers(0, len(games) - 1), max_size=3))  # jobs run again
    return players, games, counted, fold_order, repeats, draw(rules)


def make_season(players: int, rules: dict) -> tuple[Season, list[Player]]:
    number = next(season_numbers)
    club = Club.objects.create(name=f"Club {number}", slug=f"club-{number}")
    league = League.objects.create(club=club, name="League", slug="league", games=["Go"])
    season = Season.objects.create(
        league=league,
        name="S",
        starts_on=DAY,
        ends_on=DAY,
        points_scheme=rules["scheme"],
        custom_points=rules["custom"],
        min_games=rules["min_games"],
        tie_breakers=rules["tie_breakers"],
    )
    return season, Player.objects.bulk_create(Player(name=f"p{number}-{i}") for i in range(players))


def add_result(season: Season, people: list[Player], game: list[tuple], status: str) -> Result:
    result = Result.objects.create(game="Go", played_on=DAY, club=season.league.club, season=season, status=status)
    ResultEntry.objects.bulk_create(ResultEntry(result=result, player=people[p], rank=r, score=s) for p, r, s in game)
    return result


def stored(season: Season) -> list[tuple]:
    """The table as the site reads it: rows in order, with positions and separations from their keys."""
    return [
        (
            r.player_id,
            order,
            r.position,
            r.ranked,
            r.separated_by,
            r.games,
            r.wins,
            r.seconds,
            r.points,
            r.opponents_points,
            r.margin,
            r.margin_sum,
            r.margin_games,
        )
        for order, r in enumerate(selectors.standings_of(season))
    ]


def assert_same_table(incremental: list[tuple], full: list[tuple]) -> None:
    assert [row[:8] for row in incremental] == [row[:8] for row in full]
    for mine, theirs in zip(incremental, full, strict=True):
        assert mine[12] == theirs[12]
        for a, b in zip(mine[8:12], theirs[8:12], strict=True):
            assert (a is None) == (b is None)
            assert a is None or abs(a - b) <= 1e-9


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a_season())
def test_folding_results_in_one_by_one_ends_at_the_full_recompute(case):
    players, games, counted, fold_order, repeats, season_rules = case
    season, people = make_season(players, season_rules)
    standings_store.standings_compute(season=season)  # an empty table, known to match: updates go incremental
    results = [
        add_result(season, people, game, "counted" if c else "pending") for game, c in zip(games, counted, strict=True)
    ]
    for index in fold_order:
        folded = standings_store.standings_apply_result(result=results[index])
        assert folded is counted[index]
    for index in repeats:  # a retried job finds its result folded in already
        assert standings_store.standings_apply_result(result=results[index]) is False
    season.refresh_from_db()
    assert season.standings_results == sum(counted)
    incremental = stored(season)

    Standing.objects.filter(season=season).delete()
    standings_store.standings_compute(season=season)
    assert_same_table(incremental, stored(season))


@pytest.mark.django_db
def test_a_repeated_job_does_not_count_a_result_twice():
    season, people = make_season(3, {"scheme": "3-2-1-0", "custom": {}, "min_games": 0, "tie_breakers": []})
    standings_store.standings_compute(season=season)
    first = add_result(season, people, [(0, 1, 10), (1, 2, 5)], "counted")
    assert standings_store.standings_apply_result(result=first) is True
    once = stored(season)
    assert [row[5] for row in once] == [1, 1]  # one game each
    assert standings_store.standings_apply_result(result=first) is False
    assert stored(season) == once
    second = add_result(season, people, [(1, 1, 9), (2, 2, 3)], "counted")
    assert standings_store.standings_apply_result(result=second) is True
    assert standings_store.standings_apply_result(result=first) is False
    assert {row[0]: row[5] for row in stored(season)} == {people[0].pk: 1, people[1].pk: 2, people[2].pk: 1}
    season.refresh_from_db()
    assert season.standings_results == 2


@pytest.mark.django_db
def test_it_recomputes_in_full_when_the_table_is_not_known_to_match():
    season, people = make_season(3, {"scheme": "3-2-1-0", "custom": {}, "min_games": 0, "tie_breakers": []})
    first = add_result(season, people, [(0, 1, 10), (1, 2, 5)], "counted")
    second = add_result(season, people, [(1, 1, 9), (2, 2, 3)], "counted")
    assert season.standings_results is None  # a new season, or one from before incremental updates
    assert standings_store.standings_apply_result(result=second) is True  # a full recompute: both results
    assert {row[0]: row[5] for row in stored(season)} == {people[0].pk: 1, people[1].pk: 2, people[2].pk: 1}
    assert standings_store.standings_apply_result(result=first) is False  # folded in by the recompute
    pending = add_result(season, people, [(0, 1, 1), (2, 2, 0)], "pending")
    assert standings_store.standings_apply_result(result=pending) is False
    Result.objects.filter(pk=second.pk).update(status="disputed")
    standings_store.standings_compute(season=season)
    assert not Result.objects.get(pk=second.pk).in_standings
    assert {row[0]: row[5] for row in stored(season)} == {people[0].pk: 1, people[1].pk: 1}


@pytest.mark.django_db
def test_rules_changed_by_any_path_make_the_next_update_a_full_recompute_under_the_new_rules():
    """The table remembers the rules it was made with, so a change that tells nobody (a plain UPDATE here, as a
    shell or a future form would do) still gives the table the new rules bring, not a fold under the old ones."""
    season, people = make_season(
        3, {"scheme": "3-2-1-0", "custom": {}, "min_games": 0, "tie_breakers": ["points", "wins"]}
    )
    add_result(season, people, [(0, 1, 10), (1, 2, 5), (2, 3, 1)], "counted")
    standings_store.standings_compute(season=season)
    Season.objects.filter(pk=season.pk).update(points_scheme="percent", min_games=2)
    later = add_result(season, people, [(2, 1, 8), (1, 2, 4)], "counted")
    assert standings_store.standings_apply_result(result=later) is True
    after_update = stored(season)
    season.refresh_from_db()
    assert season.standings_rules["scheme"] == "percent" and season.standings_rules["min_games"] == 2
    Standing.objects.filter(season=season).delete()
    standings_store.standings_compute(season=season)
    assert_same_table(after_update, stored(season))
    assert {row[0]: row[8] for row in after_update}[people[0].pk] == 100  # percent: beat both in the one game


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.lists(a_game(n), max_size=20)), rules)
def test_folding_games_in_one_by_one_keys_the_rows_as_the_whole_table_does(games, season_rules):
    """apply_game and settle change only the rows they return; every other row keeps its key, and the rows in
    key order are the table worked out from all the games at once."""
    kw = {
        "scheme": season_rules["scheme"],
        "custom": season_rules["custom"],
        "min_games": season_rules["min_games"],
        "tie_breakers": season_rules["tie_breakers"],
    }
    rows: dict = {}
    for n, game in enumerate(games):
        earlier = games[:n]
        co_play = {p: {} for p, _rank, _score in game}
        for played in earlier:
            for p, _rank, _score in game:
                if any(e[0] == p for e in played):
                    for other, _r, _s in played:
                        if other != p:
                            co_play[p][other] = co_play[p].get(other, 0) + 1
        before = {player: row.sort_key for player, row in rows.items()}
        changed, levels = standings_maths.apply_game(rows, game, co_play, **kw)
        changed += standings_maths.settle(
            rows.values(),
            levels,
            tie_breakers=kw["tie_breakers"],
            head_to_head=standings_maths._head_to_head_in(games[: n + 1]),
        )
        unchanged = {player for player, key in before.items() if player not in {r.player for r in changed}}
        assert all(rows[player].sort_key == before[player] for player in unchanged)
        whole = standings_maths.table_of(games[: n + 1], **kw)
        folded = standings_maths.table_in_order(rows.values(), kw["tie_breakers"])
        assert [(r.player, r.sort_key, r.position, r.ranked, r.separated_by, r.games) for r in folded] == [
            (r.player, r.sort_key, r.position, r.ranked, r.separated_by, r.games) for r in whole
        ]


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 9).flatmap(lambda n: st.lists(a_game(n), max_size=20)), rules)
def test_the_fast_table_matches_the_reference_implementation(games, season_rules):
    """The old recursive implementation (tests/leagues/standings_reference.py) is the oracle."""
    kw = {
        "scheme": season_rules["scheme"],
        "custom": season_rules["custom"],
        "min_games": season_rules["min_games"],
        "tie_breakers": season_rules["tie_breakers"],
    }
    old = reference.standings([reference.Game(tuple(reference.Entry(*e) for e in g)) for g in games], **kw)
    new = standings_maths.standings(
        [standings_maths.Game(tuple(standings_maths.Entry(*e) for e in g)) for g in games], **kw
    )
    assert [(r.player, r.position, r.ranked, r.separated_by, r.games, r.wins, r.seconds) for r in new] == [
        (r.player, r.position, r.ranked, r.separated_by, r.games, r.wins, r.seconds) for r in old
    ]
    for a, b in zip(new, old, strict=True):
        assert abs(a.points - b.points) <= 1e-9 and abs(a.opponents_points - b.opponents_points) <= 1e-9
        assert (a.margin is None) == (b.margin is None) and (a.margin is None or abs(a.margin - b.margin) <= 1e-9)


@pytest.mark.django_db
def test_new_rules_in_the_admin_recompute_the_table(django_capture_on_commit_callbacks):
    from types import SimpleNamespace

    from django.contrib import admin

    from leagues.jobs import outbox

    season, people = make_season(2, {"scheme": "3-2-1-0", "custom": {}, "min_games": 0, "tie_breakers": []})
    add_result(season, people, [(0, 1, 10), (1, 2, 5)], "counted")
    standings_store.standings_compute(season=season)
    season_admin = admin.site._registry[Season]
    season.points_scheme = "7-5-3-1"
    with mock.patch.object(outbox, "publish") as publish, django_capture_on_commit_callbacks(execute=True):
        season_admin.save_model(None, season, SimpleNamespace(changed_data=["name"]), True)
        assert not publish.called and not LeagueJob.objects.exists()
        season_admin.save_model(None, season, SimpleNamespace(changed_data=["points_scheme"]), True)
    assert publish.call_count == 1
    assert list(LeagueJob.objects.values_list("job", "target")) == [("compute_standings", str(season.pk))]
    season.refresh_from_db()
    assert season.standings_results is None  # incremental updates wait for the recompute
