"""Celery wrappers for notifications: thin, each calling one function, safe to run twice."""

from celery import shared_task

from . import digest


@shared_task(name="leagues.notifications.tasks.hourly", ignore_result=True, acks_late=True)
def hourly() -> dict:
    """Every hour (beat): the day-old sign-off reminders, the pushes quiet hours held, the digests due now."""
    return digest.hourly()
