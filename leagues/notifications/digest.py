"""The hourly round (beat): a day-old sign-off asked once more, the pushes that quiet hours held asked again, and
each club's daily e-mail digest at its hour."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from leagues import outbox
from leagues.models import Result

from . import services
from .models import Kind, Notification

REMIND_AFTER = datetime.timedelta(days=1)
REMIND_WITHIN = datetime.timedelta(days=7)  # older sign-offs are left to the badge
HELD_FOR = datetime.timedelta(minutes=5)  # a queued push this old lost its run (quiet hours): ask again


def remind_sign_offs(now: datetime.datetime) -> int:
    """Once more, a day after the first message, to those who still have not signed."""
    result_ids = set()
    for payload in Notification.objects.filter(
            kind=Kind.SIGN_OFF, dedupe_key__startswith="sign_off:", created_at__lte=now - REMIND_AFTER,
            created_at__gt=now - REMIND_WITHIN).values_list("payload", flat=True):
        if payload.get("result"):
            result_ids.add(payload["result"])
    written = 0
    for result in Result.objects.filter(pk__in=result_ids, status=Result.Status.PENDING).order_by("pk"):
        with transaction.atomic():
            written += len(services.result_recorded(result, reminder=True))
    return written


def release_held(now: datetime.datetime) -> int:
    users = sorted(set(Notification.objects.filter(state=Notification.State.QUEUED, created_at__lte=now - HELD_FOR)
                       .values_list("recipient_id", flat=True)))
    with transaction.atomic():
        for user_id in users:
            outbox.ask_notify(user_id)
    return len(users)


def hourly(now: datetime.datetime | None = None) -> dict:
    now = now or timezone.now()
    return {"reminders": remind_sign_offs(now), "released": release_held(now)}
