"""The nightly repair rebuilds every scope and every season, says what it changed, and gets past a failing scope.

alice owns the club; bob plays her in the winter league; the empty league has no counted game yet.
"""

from unittest import mock

import pytest

from leagues.club import seasons
from leagues.jobs import repair
from leagues.models import Rating, Standing
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store

from .league_helpers import START, TODAY, enter, join, league_with_season, sign_all, snapshot

pytestmark = pytest.mark.django_db


def two_leagues(club, alice, bob):
    """The winter league with one counted game (rated and ranked), and an empty league with a pending game."""
    join(club, bob)
    league, season = league_with_season(club, alice)
    result = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)]), bob)
    empty = seasons.league_create(club=club, name="Empty league", games=["shitenno"], user=alice)
    empty_season = seasons.season_create(league=empty, name="2026", starts_on=START, ends_on=TODAY, user=alice)
    pending = enter(empty_season, alice, [(alice, 1, 30), (bob, 2, 20)])
    assert pending.status == "pending"
    for kind, key in rating_store.result_scopes(result):
        rating_store.ratings_recompute(kind=kind, key=key)
    standings_store.standings_compute(season=season)
    return league, season, empty, empty_season


def test_it_repairs_every_scope_even_with_a_league_without_counted_games(club, alice, bob):
    league, season, empty, empty_season = two_leagues(club, alice, bob)
    healthy = snapshot()

    summary = repair.repair_all()

    assert snapshot() == healthy  # the incremental jobs were right: nothing to repair
    assert summary["scopes"] == len(rating_store.rating_scopes()) and f"league:{empty.pk}" in {
        f"{kind}:{key}" for kind, key in rating_store.rating_scopes()
    }
    assert summary["seasons"] == 2
    assert (summary["scopes_changed"], summary["seasons_changed"], summary["failed"]) == ([], [], [])
    assert not Standing.objects.filter(season=empty_season).exists()


def test_it_says_what_it_changed(club, alice, bob):
    league, season, _empty, _empty_season = two_leagues(club, alice, bob)
    healthy = snapshot()
    Rating.objects.filter(kind="league", key=str(league.pk), player__user=bob).update(mu=99.0)
    Standing.objects.filter(season=season, player__user=alice).update(points=42)

    summary = repair.repair_all()

    assert snapshot() == healthy
    assert summary["scopes_changed"] == [f"league:{league.pk}"]
    assert summary["rating_rows_changed"] == 2  # bob's wrong row out, his right one in
    assert summary["seasons_changed"] == [season.pk] and summary["standing_rows_changed"] == 2


def test_one_failing_scope_does_not_stop_the_others(club, alice, bob):
    league, season, empty, _empty_season = two_leagues(club, alice, bob)
    healthy = snapshot()
    Rating.objects.all().update(mu=99.0)  # every scope needs repair
    Standing.objects.all().update(points=42)
    real = rating_store.ratings_recompute

    def broken_for_the_empty_league(*, kind, key, since=None):
        if (kind, key) == ("league", str(empty.pk)):
            raise RuntimeError("disk full")
        return real(kind=kind, key=key, since=since)

    with (
        mock.patch.object(rating_store, "ratings_recompute", broken_for_the_empty_league),
        pytest.raises(repair.RepairIncomplete, match=f"league:{empty.pk}"),
    ):
        repair.repair_all()
    assert snapshot() == healthy  # every other scope and every season was repaired
