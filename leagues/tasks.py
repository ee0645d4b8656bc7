"""Celery wrappers for ratings and standings: they take ids, call one service, and are safe to run twice."""

import datetime

from celery import shared_task
from django.db import InterfaceError, OperationalError

from . import rating_store, standings_store
from .models import Result, Season

TRANSIENT = (OperationalError, InterfaceError)
RETRY = {
    "acks_late": True, "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT, "retry_backoff": True, "retry_backoff_max": 300, "max_retries": 5,
}


@shared_task(**RETRY)
def ratings_apply_result(result_id: int) -> bool:
    """Rate a newly counted result (a deleted or uncounted result is a no-op)."""
    result = Result.objects.filter(pk=result_id).first()
    if result is None:
        return False
    rating_store.ratings_apply_result(result=result)
    return True


@shared_task(**RETRY)
def ratings_recompute(kind: str, key: str, since: str | None = None) -> int:
    """Re-rate one scope from a date (ISO), or entirely."""
    day = datetime.date.fromisoformat(since) if since else None
    return rating_store.ratings_recompute(kind=kind, key=key, since=day)


@shared_task(**RETRY)
def ratings_recompute_all() -> int:
    """The nightly job: every scope from scratch, then every season's table."""
    scopes = sorted(rating_store.rating_scopes())
    rated = sum(rating_store.ratings_recompute(kind=kind, key=key) for kind, key in scopes)
    for season in Season.objects.all():
        standings_store.standings_compute(season=season)
    return rated


@shared_task(**RETRY)
def standings_apply_result(result_id: int) -> bool:
    """Fold a newly counted result into its season's table (a no-op once it is in, or if it no longer counts)."""
    result = Result.objects.filter(pk=result_id).first()
    return standings_store.standings_apply_result(result=result) if result else False


@shared_task(**RETRY)
def standings_compute(season_id: int) -> int:
    season = Season.objects.filter(pk=season_id).first()
    return standings_store.standings_compute(season=season) if season else 0
