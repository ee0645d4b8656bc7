"""Races and rollbacks around league results, on the real PostgreSQL.

alice owns the club and carol is an admin; both correct the same result at once.
"""

import threading
import time
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test import Client

from leagues import rating_store, results, standings_store, tasks
from leagues.models import Membership, Rating
from leagues.players import player_for_user

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
        response = client.patch(f"/api/results/{result.pk}/", {"version": result.version, "entries": [
            {"player": player_for_user(winner).pk, "rank": 1, "score": 40},
            {"player": player_for_user(alice if winner == bob else bob).pk, "rank": 2, "score": 10}]},
            content_type="application/json")
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


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_enqueues_nothing(club, alice, bob):
    join(club, bob)
    _league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 1, 30), (bob, 2, 20)])
    with mock.patch.object(tasks.ratings_apply_result, "apply_async") as rate, \
            mock.patch.object(tasks.standings_apply_result, "apply_async") as rank:
        with pytest.raises(RuntimeError), transaction.atomic():
            results.result_sign_off(result=result, user=bob)  # the last sign-off: the result counts
            raise RuntimeError("the request failed after the sign-off")
        assert not rate.called and not rank.called
        result.refresh_from_db()
        assert result.status == "pending"

        results.result_sign_off(result=result, user=bob)  # committed this time
        assert rate.call_count == 1 and rank.call_count == 1
