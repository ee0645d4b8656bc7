"""Rating and standings jobs through the real Celery worker on Redis, against PostgreSQL."""

import time

import pytest
from django.db.models import F

from leagues.jobs import tasks
from leagues.models import Rating, RatingEvent, Standing
from leagues.people.players import player_for_user
from leagues.rating.maths import RatedResult, rate_results
from leagues.result import results

from .league_helpers import enter, ids_snapshot, join, league_with_season, sign_all, snapshot

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def wait_for(condition, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail("The worker did not finish in time.")


def test_the_worker_rates_and_ranks_a_counted_result(celery_worker_process, club, alice, bob, carol):
    club.members_public = True  # a public club's games count site-wide too
    club.save()
    join(club, bob)
    league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 2, 20), (bob, 1, 30), (carol, 3, 10)])
    sign_all(result, bob, carol)  # the last sign-off enqueues both jobs on commit

    wait_for(lambda: Rating.objects.count() == 6 and Standing.objects.filter(season=season).count() == 3)
    ids = [player_for_user(u).pk for u in (alice, bob, carol)]
    expected, _ = rate_results([RatedResult(result.pk, ((ids[0], 2), (ids[1], 1), (ids[2], 3)))])
    for rating in Rating.objects.all():
        assert abs(rating.mu - expected[rating.player_id].mu) <= 1e-9
    assert list(Standing.objects.filter(season=season).values_list("player__name", flat=True)) == [
        "bob",
        "alice",
        "carol",
    ]

    once, once_ids = snapshot(), ids_snapshot()
    assert tasks.ratings_apply_result.delay(result.pk).get(timeout=60) is True
    assert tasks.standings_apply_result.delay(result.pk).get(timeout=60) is False  # already in: not counted twice
    assert tasks.standings_compute.delay(season.pk).get(timeout=60) == 3
    repaired = tasks.ratings_recompute_all.delay().get(timeout=60)
    assert repaired["results_rated"] == 2  # one result, two scopes
    assert (repaired["scopes_changed"], repaired["seasons_changed"], repaired["failed"]) == ([], [], [])
    assert tasks.ratings_recompute_all.delay().get(timeout=60) == repaired  # nothing to repair, twice
    assert (snapshot(), ids_snapshot()) == (once, once_ids)


def test_the_worker_rerates_after_an_edit_like_the_nightly_job(celery_worker_process, club, alice, bob, carol):
    club.members_public = True  # a public club's games count site-wide too
    club.save()
    join(club, bob)
    _league, season = league_with_season(club, alice)
    old = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)], days_ago=5), bob)
    sign_all(enter(season, alice, [(bob, 1, 30), (carol, 2, 20)], days_ago=2), bob, carol)
    wait_for(lambda: Standing.objects.filter(season=season).count() == 3 and Rating.objects.count() == 6)

    old = results.result_update(
        result=old,
        version=old.version,
        user=alice,
        entries=[
            {"player": player_for_user(bob), "rank": 1, "score": 40},
            {"player": player_for_user(alice), "rank": 2, "score": 10},
        ],
    )
    assert old.status == "pending"  # the correction signs for nobody: bob agrees to it again (issue 24)
    sign_all(old, bob)
    wait_for(lambda: Standing.objects.get(season=season, player__user=bob).points == 6)
    # bob lost the old game before the edit and won it after: both scopes re-rated (each in one transaction)
    wait_for(lambda: RatingEvent.objects.filter(result=old, player__user=bob, mu_after__gt=F("mu_before")).count() == 2)
    after_edit = snapshot()
    tasks.ratings_recompute_all.delay().get(timeout=60)
    assert snapshot() == after_edit
