"""Celery wrappers around game services: they take ids and are safe to run twice."""

from celery import shared_task

from . import services
from .models import TableSession


@shared_task(acks_late=True)
def session_rebuild(session_id: int) -> int:
    """Rebuild a table's cached state from its move log (after a rules fix, or to check the projection)."""
    session = TableSession.objects.get(pk=session_id)
    return services.session_rebuild(session=session).head_seq
