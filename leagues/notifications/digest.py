"""The hourly round (beat): a day-old sign-off asked once more, the pushes that quiet hours held asked again, and
each club's daily e-mail digest at its hour."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from leagues.jobs import outbox
from leagues.models import Result

from . import services
from .due import split_due
from .mail import mail
from .models import Channel, ClubHours, Kind, Notification, Preference

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


DIGEST_HOUR = 18  # a club that chose no hour, and messages outside any club


def _due_users(hour: int, today: datetime.date) -> list[int]:
    """Who has messages waiting for the e-mail whose club's digest hour is now (one of his clubs' hours), and had
    no digest today."""
    hours = dict(ClubHours.objects.values_list("club_id", "digest_hour"))
    due = set()
    for user_id, club_id in Notification.objects.filter(state=Notification.State.DIGEST).values_list(
            "recipient_id", "club_id").distinct():
        if hours.get(club_id, DIGEST_HOUR) == hour:
            due.add(user_id)
    done = set(Preference.objects.filter(user_id__in=due, last_digest_on=today).values_list("user_id", flat=True))
    return sorted(due - done)


def send_digest(user_id: int, today: datetime.date) -> bool:
    """One person's digest: every message waiting for the e-mail, in his language; at most one a day (his
    choices' row is locked, so two beats cannot both send it)."""
    with transaction.atomic():
        preference = Preference.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
        if preference is None or preference.last_digest_on == today:
            return False
        rows = list(Notification.objects.select_for_update().filter(
            recipient_id=user_id, state=Notification.State.DIGEST).order_by("created_at", "pk"))
        rows, gone = split_due(rows, user_id, Channel.EMAIL)  # left the club, chose otherwise, signed meanwhile
        Notification.objects.filter(pk__in=[row.pk for row in gone]).update(
            state=Notification.State.DROPPED, sent_at=timezone.now())
        if not rows or not preference.user.email or not preference.user.is_active:
            return False
        mail(preference, rows, settings.SITE_URL).send()
        Notification.objects.filter(pk__in=[row.pk for row in rows]).update(
            state=Notification.State.EMAILED, sent_at=timezone.now())
        preference.last_digest_on = today
        preference.save(update_fields=["last_digest_on"])
        return True


def send_digests(now: datetime.datetime) -> int:
    local = timezone.localtime(now)
    return sum(send_digest(user_id, local.date()) for user_id in _due_users(local.hour, local.date()))


def hourly(now: datetime.datetime | None = None) -> dict:
    now = now or timezone.now()
    return {"reminders": remind_sign_offs(now), "released": release_held(now), "digests": send_digests(now)}
