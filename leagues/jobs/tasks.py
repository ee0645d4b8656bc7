"""Celery wrappers for ratings, standings and the outbox: they take ids, call one service, and are safe to run
twice. Each keeps the name it had before leagues/ was split into packages (`leagues.tasks.<function>`): queued
messages, the outbox's hint (outbox.RUN_MANY_TASK) and the beat schedule name tasks by it, so the name is given
(name=) rather than taken from this module's path. The import jobs are in leagues/imports/tasks.py."""

import datetime
import logging

from celery import shared_task
from celery.signals import worker_ready
from django.conf import settings
from django.db import InterfaceError, OperationalError

from leagues.jobs import outbox, repair
from leagues.models import Result, Season
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store

logger = logging.getLogger(__name__)
TRANSIENT = (OperationalError, InterfaceError)
RETRY = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT,
    "retry_backoff": True,
    "retry_backoff_max": 120,
    "max_retries": 5,
}
# A re-rate of a whole scope (an import's, an edit's from a date, the outbox's rows, the nightly repair) may take
# minutes on a big scope: these take the long limit (settings.LONG_JOB_TIME_LIMIT), the others Celery's defaults
# (CELERY_TASK_SOFT_TIME_LIMIT). Past the soft limit a job's transaction rolls back and its outbox row stays.
LONG = {"soft_time_limit": settings.LONG_JOB_TIME_LIMIT, "time_limit": settings.LONG_JOB_TIME_LIMIT + 30}


@shared_task(name="leagues.tasks.ratings_apply_result", **LONG, **RETRY)
def ratings_apply_result(result_id: int) -> bool:
    """Rate a newly counted result (a deleted or uncounted result is a no-op)."""
    result = Result.objects.filter(pk=result_id).first()
    if result is None:
        return False
    rating_store.ratings_apply_result(result=result)
    return True


@shared_task(name="leagues.tasks.ratings_recompute", **LONG, **RETRY)
def ratings_recompute(kind: str, key: str, since: str | None = None) -> int:
    """Re-rate one scope from a date (ISO), or entirely."""
    day = datetime.date.fromisoformat(since) if since else None
    return rating_store.ratings_recompute(kind=kind, key=key, since=day)


@shared_task(name="leagues.tasks.ratings_recompute_all", acks_late=True, reject_on_worker_lost=True, **LONG)
def ratings_recompute_all() -> dict:
    """The nightly repair (`repair.repair_all`): every scope from scratch, then every season's table; returns
    what it changed, and fails at the end if any scope failed (the others are repaired all the same)."""
    return repair.repair_all()


@shared_task(name="leagues.tasks.standings_apply_result", **RETRY)
def standings_apply_result(result_id: int) -> bool:
    """Fold a newly counted result into its season's table (a no-op once it is in, or if it no longer counts)."""
    result = Result.objects.filter(pk=result_id).first()
    return standings_store.standings_apply_result(result=result) if result else False


@shared_task(name="leagues.tasks.standings_compute", **RETRY)
def standings_compute(season_id: int) -> int:
    season = Season.objects.filter(pk=season_id).first()
    return standings_store.standings_compute(season=season) if season else 0


# --- the outbox (see leagues.jobs.outbox) ---


@shared_task(name="leagues.tasks.outbox_run", **LONG, ignore_result=True, **RETRY)
def outbox_run(row_id: int) -> None:
    """One row's hint, as published before hints were batched (kept for the messages still queued)."""
    outbox.run(row_id)


@shared_task(name="leagues.tasks.outbox_run_many", **LONG, ignore_result=True, **RETRY)
def outbox_run_many(row_ids: list[int]) -> None:
    """The hint published after a change commits: run the outbox rows it asked for now."""
    outbox.run_many(row_ids)


@shared_task(name="leagues.tasks.outbox_sweep", ignore_result=True, acks_late=True, **LONG)
def outbox_sweep(older_than: float = 30) -> dict:
    """Every minute (beat) and at each worker's start: run the outbox rows whose hint the broker may have lost."""
    return outbox.sweep(older_than=older_than)


@worker_ready.connect
def _sweep_at_start(sender=None, **_kwargs) -> None:
    """A worker coming up (after an outage, a deploy) runs what was asked for while none ran."""
    try:
        outbox_sweep.apply_async((0,))
    except Exception:  # the beat sweeps anyway
        logger.warning("Could not queue the start-up outbox sweep.", exc_info=True)
