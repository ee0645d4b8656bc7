"""The league jobs' outbox: a change that needs ratings or standings redone writes what to redo in its own
transaction (`ask_*`), so a broker that is down, slow or loses a message can delay a job but never lose it.

After commit the ids of the rows a transaction asked for are published as one hint (`outbox_run_many`),
best-effort: one try, a short connect timeout, and a failure is only logged, so the request neither fails nor
waits. The beat's `outbox_sweep` (every minute)
and the worker's start run every row whose hint may have been lost. A run deletes its row only if nobody asked
again meanwhile (`generation`), so a change made while its job runs is never dropped; the jobs are idempotent,
so a row run twice (hint and sweep) costs a little time, nothing else. In eager mode (no broker, `make run`)
the hint runs the job at once.
"""

from __future__ import annotations

import contextlib
import contextvars
import datetime
import logging
import os
from collections.abc import Iterator

from celery.exceptions import SoftTimeLimitExceeded
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.module_loading import import_string

from leagues.models import LeagueJob

logger = logging.getLogger(__name__)
Job = LeagueJob.Job

PUBLISH_CONNECT_TIMEOUT = 1  # seconds: a broker that does not answer by then is as good as down


def _ask(job: str, target: str, since: datetime.date | None = None) -> None:
    """Write (or coalesce into) the row for (job, target) in the caller's transaction; publish it after commit."""
    with transaction.atomic():
        row, created = LeagueJob.objects.select_for_update().get_or_create(
            job=job, target=target, defaults={"since": since, "marked_at": timezone.now()}
        )
        if not created:
            row.since = None if row.since is None or since is None else min(row.since, since)
            row.generation = F("generation") + 1
            row.marked_at = timezone.now()
            row.save(update_fields=["since", "generation", "marked_at"])
    _hint_at_commit(row.pk)


def _hint_at_commit(row_id: int) -> None:
    """Hint every row a transaction asked for in one message, after it commits: a four-player result that comes
    to count asks for six rows (its rating, its place in the season's table, four players' tallies), which were
    six messages and six waits on the broker inside the request. The ids wait on the connection (one per thread);
    each ask registers the same flush, and the first flush at commit sends them all, the others find none. When no
    flush is waiting for a commit any more (the list's transaction was rolled back, or this is a new one), the list
    starts afresh, so a rolled-back change's ids do not ride along with the next one's hint. (An id asked inside a
    savepoint that was rolled back may still go out with its transaction's other ids: its row is gone, and running
    a missing row does nothing.)"""
    connection = transaction.get_connection()
    pending = connection.__dict__.get("outbox_hints")
    if pending is None or not any(callback[1] is _flush_hints for callback in connection.run_on_commit):
        pending = connection.__dict__["outbox_hints"] = []
    pending.append(row_id)
    transaction.on_commit(_flush_hints)


def _flush_hints() -> None:
    pending = transaction.get_connection().__dict__.get("outbox_hints")
    if pending:
        row_ids = sorted(set(pending))
        pending.clear()
        publish(row_ids)


def ask_rate_result(result_id: int) -> None:
    _ask(Job.RATE_RESULT, str(result_id))


def ask_fold_result(result_id: int) -> None:
    _ask(Job.FOLD_RESULT, str(result_id))


def ask_rate_scope(kind: str, key: str, since: datetime.date | None = None) -> None:
    _ask(Job.RATE_SCOPE, f"{kind}:{key}", since)


def ask_compute_standings(season_id: int) -> None:
    _ask(Job.COMPUTE_STANDINGS, str(season_id))


def ask_tally_players(player_ids) -> None:
    """Recount these players' stored tallies (one row each: a player in many changed results is recounted once)."""
    for player_id in sorted(set(player_ids)):
        _ask(Job.TALLY_PLAYER, str(player_id))


_hint_connections: dict[tuple, object] = {}  # (broker URL, process id) -> kombu connection pool


def _hint_pool(app):
    """Connections kept for the hints (a new one per hint cost ~10 ms, a kept one ~1 ms), per process and
    broker URL; their own, because the shared producer pool retries connecting (kombu's ensure_connection)
    whatever `retry=False` says, which made a request wait 19 s on a dead broker."""
    key = (app.conf.broker_write_url, os.getpid())
    pool = _hint_connections.get(key)
    if pool is None:
        pool = _hint_connections[key] = app.connection_for_write(
            connect_timeout=PUBLISH_CONNECT_TIMEOUT,
            transport_options={
                "max_retries": 0,
                "socket_connect_timeout": PUBLISH_CONNECT_TIMEOUT,
                "socket_timeout": PUBLISH_CONNECT_TIMEOUT,
            },
        ).Pool(limit=8)
    return pool


_hint_queue: contextvars.ContextVar[str | None] = contextvars.ContextVar("outbox_hint_queue", default=None)


@contextlib.contextmanager
def hints_to(queue: str) -> Iterator[None]:
    """Publish the hints of the changes made inside this block to `queue`: an import's job (on the heavy queue)
    sends the re-rate its results ask for there too, so rating one club's big import never holds back the
    default queue's jobs of another club's result (issue 46 finding 3)."""
    token = _hint_queue.set(queue)
    try:
        yield
    finally:
        _hint_queue.reset(token)


RUN_MANY_TASK = "leagues.tasks.outbox_run_many"  # the hint's message, by name: tasks imports this module, not back


def publish(row_ids: list[int]) -> None:
    """Hint the worker to run these rows now, in one message. Never raises and never waits on a dead broker: the
    sweep runs them. The message names its task (RUN_MANY_TASK) rather than importing leagues.jobs.tasks, which imports
    this module for the task bodies; in eager mode (no broker) the hint is the task's body, run here."""
    from shitenno_site.celery import app

    try:
        if app.conf.task_always_eager:
            run_many(row_ids)
            return
        with _hint_pool(app).acquire(block=True, timeout=PUBLISH_CONNECT_TIMEOUT) as connection:
            try:
                connection.ensure_connection(max_retries=0)
                queue = _hint_queue.get()
                app.send_task(
                    RUN_MANY_TASK,
                    (row_ids,),
                    connection=connection,
                    retry=False,
                    ignore_result=True,
                    **({"queue": queue} if queue else {}),
                )
            except Exception:
                connection.collect()  # drop the broken socket: the next hint connects afresh
                raise
    except Exception as exc:  # the rows stay; the sweep runs them
        logger.warning("League jobs %s not published (%s); the sweep will run them.", row_ids, exc)


def ask_notify(user_id: int) -> None:
    """Push this person's waiting notifications (leagues/notifications/delivery.py)."""
    _ask(Job.NOTIFY, str(user_id))


# The reset mail's job, by name: leagues.people stands above the jobs (docs/architecture.md), as the hint names its
# task.
PASSWORD_RESET_JOB = "leagues.people.password_reset.send"


def ask_password_reset(target: str) -> None:
    """Mail a password-reset link to the accounts with the address in `target` (leagues/people/password_reset.py)."""
    _ask(Job.PASSWORD_RESET, target)


def _run_row(row: LeagueJob) -> object:
    from leagues.models import Result, Season
    from leagues.notifications import delivery
    from leagues.rating import store as rating_store
    from leagues.standings import store as standings_store
    from leagues.standings import tally as tally_store

    if row.job == Job.NOTIFY:
        return delivery.deliver(int(row.target))
    if row.job == Job.PASSWORD_RESET:
        return import_string(PASSWORD_RESET_JOB)(row.target)
    if row.job == Job.TALLY_PLAYER:
        return tally_store.tallies_recount(players=[int(row.target)])
    if row.job == Job.RATE_SCOPE:
        kind, key = row.target.split(":", 1)
        return rating_store.ratings_recompute(kind=kind, key=key, since=row.since)
    if row.job == Job.COMPUTE_STANDINGS:
        season = Season.objects.filter(pk=int(row.target)).first()
        return standings_store.standings_compute(season=season) if season else 0
    result = Result.objects.filter(pk=int(row.target)).first()
    if result is None:  # deleted meanwhile: its deletion asked for the re-rate it needs
        return False
    if row.job == Job.RATE_RESULT:
        rating_store.ratings_apply_result(result=result)
        return True
    return standings_store.standings_apply_result(result=result)


def run(row_id: int) -> object:
    """Run one row's job (in its own transaction) and delete the row unless it was asked for again meanwhile.
    A row already gone (run by the sweep, or by an earlier hint) is a no-op."""
    row = LeagueJob.objects.filter(pk=row_id).first()
    if row is None:
        return None
    done = _run_row(row)
    LeagueJob.objects.filter(pk=row.pk, generation=row.generation).delete()
    return done


def run_many(row_ids: list[int]) -> None:
    """Run the rows of one hint, each in its own transaction. A failing row does not keep the others from running;
    the first failure is raised at the end (the task retries a transient one; the sweep runs what is left). The
    task's soft time limit is the exception: it stops the run at once (the row in hand rolled back, it and the rest
    kept), since the hard limit kills the process 30 s later whatever the loop would do next."""
    failure: Exception | None = None
    for row_id in row_ids:
        try:
            run(row_id)
        except SoftTimeLimitExceeded:  # out of time: this row and the rest stay for the sweep
            logger.warning("League jobs %s stopped at the time limit; they stay in the outbox.", row_ids)
            raise
        except Exception as exc:
            logger.exception("League job %s failed; it stays in the outbox.", row_id)
            failure = failure or exc
    if failure is not None:
        raise failure


def sweep(*, older_than: float = 30) -> dict:
    """Run every row asked for at least `older_than` seconds ago (younger ones have their hint in flight), oldest
    first; a failing row is logged and left for the next sweep, and the others still run."""
    cutoff = timezone.now() - datetime.timedelta(seconds=older_than)
    ran, failed = 0, []
    for row_id in (
        LeagueJob.objects.filter(marked_at__lte=cutoff).order_by("marked_at", "pk").values_list("pk", flat=True)
    ):
        try:
            run(row_id)
            ran += 1
        except SoftTimeLimitExceeded:  # out of time: the rest wait for the next sweep
            logger.warning("Outbox sweep stopped at the time limit after %s jobs; the next sweep goes on.", ran)
            raise
        except Exception:
            logger.exception("League job %s failed; the next sweep tries again.", row_id)
            failed.append(row_id)
    if ran or failed:
        logger.info("Outbox sweep: %s jobs run, %s failed.", ran, len(failed))
    return {"ran": ran, "failed": failed}
