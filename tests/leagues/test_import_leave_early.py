# ruff: noqa: F811  (the fixtures imported from test_night_games are parameters here, by name)
"""Issue 36: a member leaves a night early while an import of his club is being committed, and both finish.

On the real PostgreSQL, two connections. The import is the Celery job's body (`job.run_import`): it adds its new
guests, creates a season in the night's league (`season_create` locks the league's row, held until the import
commits), puts plays in the night's season, and at its commit checks its new rows' keys against the season's,
league's and club's rows (Django's foreign keys are checked at commit). "Leave early" used to lock its check-in
with the model's ordering join, which locks the night, season, league and club rows as well: it took the season's
row and waited for the import on the league's, the import then waited for it on the season's, and PostgreSQL
aborted one of them ("deadlock detected"; the progress page stayed at "Importing..."). Now it locks its
check-in's row only, and finishes while the import still runs.

The order is made, not hoped for: the import stops, holding the league's row (checked from a third connection),
until "leave early" has either finished or its connection is seen waiting on a lock in `pg_stat_activity`; only
then does the import go on. With the old lock (`select_for_update().filter(night=..., player=...).first()`) this
test fails with "deadlock detected ... while locking tuple in relation leagues_league"."""

import json
import threading
import time
from unittest import mock

from django.db import connection

from leagues.imports import job, service
from leagues.imports.pending import pending_create, pending_start
from leagues.jobs import outbox
from leagues.models import NightCheckIn, PendingImport, Result, Season
from leagues.nights import services

from .test_night_games import SHITENNO, members, open_night, season  # noqa: F401 (fixtures)
from .test_night_races import _in_thread, _nowait, _second_connection, on_postgresql

PLAY_DAYS = ["2023-03-03", "2023-03-06", "2026-11-03", "2026-11-10"]  # two for a new season, two for "Winter"


def _backup() -> bytes:
    """Four plays of Shitennō by four players the club does not know yet (they become its guests)."""
    return json.dumps(
        {
            "players": [{"id": n, "uuid": f"p-{n}", "name": f"Newcomer {n}", "bggUsername": ""} for n in range(1, 5)],
            "games": [{"id": 1, "name": "Shitennō", "bggId": 0, "highestWins": True}],
            "plays": [
                {
                    "uuid": f"play-{i}",
                    "playDate": f"{day} 20:00:00",
                    "gameRefId": 1,
                    "playerScores": [
                        {"playerRefId": p, "score": str(50 - p), "rank": p, "seatOrder": p, "winner": p == 1}
                        for p in range(1, 5)
                    ],
                }
                for i, day in enumerate(PLAY_DAYS)
            ],
        }
    ).encode()


def _wait_until(condition, seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.02)
    return condition()


class Backend(threading.Event):
    """The PostgreSQL process serving a thread's connection, once it has one."""

    pid: int = 0


def _leave_early(night, user, backend: Backend):
    connection.ensure_connection()
    backend.pid = connection.connection.info.backend_pid
    backend.set()
    return services.night_leave(night=night, user=user)


def _waits_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return row is not None and row[0] == "Lock"


@on_postgresql
def test_leave_early_during_an_import_commit_finishes_and_so_does_the_import(season, alice, members, monkeypatch):
    # The import's jobs stay outbox rows: a real worker left running by an earlier job test would take their hint
    # and write to this database while the test's teardown empties it (TRUNCATE then fails on its locks).
    monkeypatch.setattr(outbox, "_flush_hints", lambda: None)
    club, league = season.league.club, season.league
    night = open_night(season, alice, members[:4], games=[SHITENNO], table_sizes=[4])
    pending = pending_create(club=club, user=alice, kind="bgstats", files=[("club.json", _backup())])
    assert pending_start(pending, {"league": league.pk, "vouch": True, "language": "en"})

    holding, go = threading.Event(), threading.Event()
    real_create_seasons = service._create_seasons

    def create_seasons_then_pause(*args, **kwargs):
        """The guests and the new season are written (the league's row is held); the results come next."""
        created = real_create_seasons(*args, **kwargs)
        holding.set()
        assert go.wait(60), "the test never let the import go on"
        return created

    outcome: dict = {}
    backend = Backend()
    observer = _second_connection()
    try:
        with mock.patch.object(service, "_create_seasons", create_seasons_then_pause):
            importer = _in_thread(lambda: job.run_import(pending.pk), outcome, "import")
            assert holding.wait(60), f"the import never reached its seasons: {outcome}"
            league_row_free = _nowait(observer, "leagues_league", league.pk)
            leaver = _in_thread(lambda: _leave_early(night, members[1], backend), outcome, "leave")
            # "leave early" has finished, or its own connection waits on a lock (the import's): either way, the
            # import goes on
            assert backend.wait(60), f"leave early never connected: {outcome}"
            assert _wait_until(lambda: not leaver.is_alive() or _waits_on_a_lock(backend.pid)), "leave early hung"
            left_while_the_import_held_the_league = not leaver.is_alive()
            go.set()
            leaver.join(60)
            importer.join(60)
    finally:
        go.set()
        observer.close()

    assert not league_row_free, "the import was to hold the league's row at this point"
    assert not leaver.is_alive() and not importer.is_alive()
    assert not isinstance(outcome["leave"], Exception), outcome["leave"]
    assert outcome["import"] is None  # run_import reports on the upload's row, and raises nothing
    done = PendingImport.objects.get(pk=pending.pk)
    assert done.state == PendingImport.State.DONE, done.outcome
    assert left_while_the_import_held_the_league, "leave early waited for the import"
    assert NightCheckIn.objects.get(night=night, player=members[1].player).left_at is not None
    assert Result.objects.filter(club=club, source="bgstats").count() == 4
    new_season = Season.objects.get(league=league, name="2023")
    assert Result.objects.filter(club=club, season=new_season).count() == 2
    assert Result.objects.filter(club=club, season=season).count() == 2
