"""A rating recompute whose worker is killed (kill -9) mid-run finishes after a restart, with the right numbers."""

import datetime
import os
import random
import signal
import time

import pytest
from django.db import connection

from leagues.jobs import tasks
from leagues.models import Club, League, Player, Rating, Result, ResultEntry, Season
from leagues.rating.maths import RatedResult, rate_results
from tests.conftest import start_worker, stop_worker

QUEUE = "crash-test"
# A short visibility timeout, and kombu looking for unacknowledged messages every 10 s (10 intervals) rather than
# every 100 s: the job comes back within seconds of its timeout.
FAST_REDELIVERY = {"CELERY_VISIBILITY_TIMEOUT": "5", "CELERY_UNACKED_RESTORE_INTERVAL": "1"}


def build_league(results: int) -> League:
    rng = random.Random(7)
    club = Club.objects.create(name="Crash Club", slug="crash-club")
    players = Player.objects.bulk_create(Player(name=f"p{i}") for i in range(200))
    league = League.objects.create(club=club, name="Crash League", slug="crash", games=["shitenno"])
    start = datetime.date(2025, 1, 1)
    season = Season.objects.create(league=league, name="All", starts_on=start, ends_on=datetime.date(2026, 12, 31))
    rows = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=start + datetime.timedelta(days=n // 40),
            club=club,
            season=season,
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
        for n in range(results)
    )
    ResultEntry.objects.bulk_create(
        ResultEntry(result=result, player=player, rank=rank)
        for result in rows
        for rank, player in enumerate(rng.sample(players, 4), start=1)
    )
    return league


def advisory_lock_held() -> bool:
    """A rating job's scope lock is held in this test's database (pg_locks lists every database's locks)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        return cursor.fetchone()[0] > 0


def wait_for(condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"Gave up waiting for {what}.")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_recompute_killed_mid_run_finishes_after_a_restart(celery_worker_process):
    league = build_league(20_000)
    victim = start_worker("victim", queues=QUEUE, **FAST_REDELIVERY)
    tasks.ratings_recompute.apply_async(("league", str(league.pk)), queue=QUEUE)
    wait_for(advisory_lock_held, 60, "the recompute to start")
    os.killpg(victim.pid, signal.SIGKILL)
    victim.wait()
    wait_for(lambda: not advisory_lock_held(), 60, "PostgreSQL to roll the dead worker's transaction back")
    assert Rating.objects.count() == 0  # one transaction: nothing half-written

    survivor = start_worker("survivor", queues=QUEUE, **FAST_REDELIVERY)
    try:
        wait_for(lambda: Rating.objects.filter(kind="league").count() == 200, 60, "the job to be delivered again")
    finally:
        stop_worker(survivor)

    entries = ResultEntry.objects.order_by("result__played_on", "result_id", "id").values_list(
        "result_id", "player_id", "rank"
    )
    by_result: dict[int, list] = {}
    for result_id, player_id, rank in entries:
        by_result.setdefault(result_id, []).append((player_id, rank))
    expected, _ = rate_results(RatedResult(r, tuple(p)) for r, p in by_result.items())
    for rating in Rating.objects.filter(kind="league"):
        assert abs(rating.mu - expected[rating.player_id].mu) <= 1e-9
        assert abs(rating.sigma - expected[rating.player_id].sigma) <= 1e-9
