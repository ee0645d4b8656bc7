"""Races and rollbacks around league results, on the real PostgreSQL.

alice owns the club and carol is an admin; both correct the same result at once.
"""

import threading
import time
from unittest import mock

import pytest
from django.db import connection
from django.test import Client

from leagues.jobs import outbox
from leagues.models import LeagueJob, Membership, Rating, Standing
from leagues.people.players import player_for_user
from leagues.rating import store as rating_store
from leagues.result import results
from leagues.standings import store as standings_store

from .league_helpers import enter, join, league_with_season, sign_all, snapshot


def wait_for_jobs(timeout: float = 60) -> None:
    """Until the real worker has nothing queued, reserved or running."""
    import redis
    from django.conf import settings

    from shitenno_site.celery import app

    queue = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        inspect = app.control.inspect(timeout=1)
        busy = [tasks for reply in (inspect.active() or {}, inspect.reserved() or {}) for tasks in reply.values()]
        if queue.llen("celery") == 0 and not any(busy):
            return
        time.sleep(0.2)
    pytest.fail("The worker did not finish its jobs in time.")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_two_admins_editing_one_result_one_wins_the_other_gets_409(celery_worker_process, club, alice, bob, carol):
    Membership.objects.filter(club=club, player__user=carol).update(role="admin")
    join(club, bob)
    _league, season = league_with_season(club, alice)
    result = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)], days_ago=3), bob)
    later = sign_all(enter(season, alice, [(bob, 1, 30), (carol, 2, 20)], days_ago=1), bob, carol)
    assert later.status == result.status == "counted"
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def admin(user, winner) -> None:
        client = Client()
        client.force_login(user)
        barrier.wait()
        response = client.patch(
            f"/api/results/{result.pk}/",
            {
                "version": result.version,
                "entries": [
                    {"player": player_for_user(winner).pk, "rank": 1, "score": 40},
                    {"player": player_for_user(alice if winner == bob else bob).pk, "rank": 2, "score": 10},
                ],
            },
            content_type="application/json",
        )
        statuses.append(response.status_code)
        connection.close()

    threads = [threading.Thread(target=admin, args=(alice, bob)), threading.Thread(target=admin, args=(carol, alice))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [200, 409]
    result.refresh_from_db()
    assert result.version == 2
    wait_for_jobs()
    after_edit = snapshot()  # what the jobs enqueued by the winning edit left
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    standings_store.standings_compute(season=season)
    assert snapshot() == after_edit
    assert Rating.objects.exists()


def _blocked_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a row lock held from a second connection: PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_a_result_counted_during_a_full_recompute_is_folded_in_afterwards(club, alice, bob):
    """The recompute reads the counted games, is held up writing the table (another transaction holds a row of
    it), and meanwhile bob signs off a second game: that game is not in the table the recompute writes, so it
    must not be flagged as folded in, and its own fold-in job must add it."""
    import psycopg

    join(club, bob)
    _league, season = league_with_season(club, alice)
    with mock.patch.object(outbox, "publish"):  # the jobs are run by hand below
        first = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)], days_ago=3), bob)
        standings_store.standings_compute(season=season)
        second = enter(season, alice, [(bob, 1, 30), (alice, 2, 20)], days_ago=1)
        Standing.objects.filter(season=season, player__user=alice).update(points=99)  # the recompute rewrites it

        db = connection.settings_dict
        holder = psycopg.connect(host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"])
        holder.execute(
            "SELECT 1 FROM leagues_standing WHERE season_id = %s AND player_id = %s FOR UPDATE",
            [season.pk, player_for_user(alice).pk],
        )
        done = []

        def recompute() -> None:
            try:
                done.append(standings_store.standings_compute(season=season))
            finally:
                connection.close()

        thread = threading.Thread(target=recompute)
        thread.start()
        deadline = time.monotonic() + 30
        while not _blocked_on_a_lock() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _blocked_on_a_lock(), "the recompute never reached the held row"
        results.result_sign_off(result=second, user=bob)  # counted while the recompute waits
        holder.commit()
        holder.close()
        thread.join(30)
        assert done == [2]

        first.refresh_from_db()
        second.refresh_from_db()
        assert second.status == "counted"
        assert (first.in_standings, second.in_standings) == (True, False)  # only what the recompute read
        assert sorted(Standing.objects.filter(season=season).values_list("player__name", "games", "points")) == [
            ("alice", 1, 3.0),
            ("bob", 1, 0.0),
        ]

        fold = LeagueJob.objects.get(job="fold_result", target=str(second.pk))
        assert outbox.run(fold.pk) is True  # the second game's own job folds it in
    folded = sorted(Standing.objects.filter(season=season).values_list("player__name", "games", "points"))
    standings_store.standings_compute(season=season)
    assert folded == sorted(Standing.objects.filter(season=season).values_list("player__name", "games", "points"))
    assert folded == [("alice", 2, 3.0), ("bob", 2, 3.0)]
