"""Celery wrappers around game services: they take ids and are safe to run twice."""

from celery import shared_task
from django.conf import settings

from . import services
from .models import TableSession


@shared_task(name="games.tasks.session_rebuild", acks_late=True)
def session_rebuild(session_id: int) -> int:
    """Rebuild a table's cached state from its move log (after a rules fix, or to check the projection)."""
    session = TableSession.objects.get(pk=session_id)
    return services.session_rebuild(session=session).head_seq


@shared_task(
    name="games.tasks.stats_rebuild",
    acks_late=True,
    soft_time_limit=settings.LONG_JOB_TIME_LIMIT,
    time_limit=settings.LONG_JOB_TIME_LIMIT + 30,
)
def stats_rebuild() -> dict[str, bool]:
    """Nightly: every game's stored statistics counted again from its tables (games/stats_store.py); says, per
    game, whether the stored tally was right (it always should be: a False is logged as a warning)."""
    import logging

    from . import stats_store

    right = stats_store.tallies_rebuild()
    for game, ok in right.items():
        if not ok:
            logging.getLogger(__name__).warning("stored statistics of %s were not the full count's: rebuilt", game)
    return right
