"""The hourly round (beat): a day-old sign-off asked once more, the pushes that quiet hours held asked again, and
each club's daily e-mail digest at its hour."""

from __future__ import annotations

import datetime
import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from leagues.jobs import outbox
from leagues.models import Result
from leagues.models.accounts import address_verified

from . import services
from .delivery import CLAIM_LEASE
from .due import split_due
from .mail import mail
from .models import Channel, ClubHours, Kind, Notification, Preference

REMIND_AFTER = datetime.timedelta(days=1)
REMIND_WITHIN = datetime.timedelta(days=7)  # older sign-offs are left to the badge
HELD_FOR = datetime.timedelta(minutes=5)  # a queued push this old lost its run (quiet hours): ask again

logger = logging.getLogger(__name__)


def remind_sign_offs(now: datetime.datetime) -> int:
    """Once more, a day after the first message, to those who still have not signed."""
    result_ids = set()
    for payload in Notification.objects.filter(
        kind=Kind.SIGN_OFF,
        dedupe_key__startswith="sign_off:",
        created_at__lte=now - REMIND_AFTER,
        created_at__gt=now - REMIND_WITHIN,
    ).values_list("payload", flat=True):
        if payload.get("result"):
            result_ids.add(payload["result"])
    written = 0
    for result in Result.objects.filter(pk__in=result_ids, status=Result.Status.PENDING).order_by("pk"):
        try:
            with transaction.atomic():
                written += len(services.result_recorded(result, reminder=True))
        except SoftTimeLimitExceeded:  # out of time: the rest waits for the next hour
            raise
        except Exception:  # noqa: BLE001 (one result's reminder failing keeps none of the others back)
            logger.exception("The sign-off reminder of result %s failed", result.pk)
    return written


def release_held(now: datetime.datetime) -> int:
    """The outbox asked again for each person with a push quiet hours held, or a message whose run died while
    sending it (its claim lapsed)."""
    held = Q(state=Notification.State.QUEUED, created_at__lte=now - HELD_FOR)
    lapsed = Q(state=Notification.State.SENDING, claimed_at__lte=now - CLAIM_LEASE)
    users = sorted(set(Notification.objects.filter(held | lapsed).values_list("recipient_id", flat=True)))
    with transaction.atomic():
        for user_id in users:
            outbox.ask_notify(user_id)
    return len(users)


DIGEST_HOUR = 18  # a club that chose no hour, and messages outside any club
RETRY_FIRST = datetime.timedelta(hours=1)  # a refused digest is tried again after 1, 2, 4, 8, 16, then every 24 h
RETRY_MOST = datetime.timedelta(hours=24)


def _due_users(now: datetime.datetime) -> list[int]:
    """Who has messages waiting for the e-mail and had no digest today: whose club's digest hour is now (one of
    his clubs' hours), and whose refused digest's next try has come (at any hour). A try not yet due waits."""
    local = timezone.localtime(now)
    hours = dict(ClubHours.objects.values_list("club_id", "digest_hour"))
    waiting: dict[int, bool] = {}
    for user_id, club_id in (
        Notification.objects.filter(state=Notification.State.DIGEST).values_list("recipient_id", "club_id").distinct()
    ):
        waiting[user_id] = waiting.get(user_id, False) or hours.get(club_id, DIGEST_HOUR) == local.hour
    retry = dict(
        Preference.objects.filter(user_id__in=waiting, digest_retry_at__isnull=False).values_list(
            "user_id", "digest_retry_at"
        )
    )
    done = set(
        Preference.objects.filter(user_id__in=waiting, last_digest_on=local.date()).values_list("user_id", flat=True)
    )
    due = {uid for uid, at_hour in waiting.items() if (retry[uid] <= now if uid in retry else at_hour)}
    return sorted(due - done)


def _claim(user_id: int, today: datetime.date) -> tuple[EmailMessage, list[int], datetime.date | None] | None:
    """The first short transaction: his choices' row locked, the messages still due gathered and worded, and the
    day marked as his digest's (so a second beat, or a redelivered task, sends none: at most one a day). Returns
    the e-mail, its messages and the day it replaces, or None when there is nothing to send."""
    with transaction.atomic():
        preference = Preference.objects.select_for_update().select_related("user").filter(user_id=user_id).first()
        if preference is None or preference.last_digest_on == today:
            return None
        rows = list(
            Notification.objects.select_for_update()
            .filter(recipient_id=user_id, state=Notification.State.DIGEST)
            .order_by("created_at", "pk")
        )
        rows, gone = split_due(rows, user_id, Channel.EMAIL)  # left the club, chose otherwise, signed meanwhile
        Notification.objects.filter(pk__in=[row.pk for row in gone]).update(
            state=Notification.State.DROPPED, sent_at=timezone.now()
        )
        if not rows or not preference.user.email or not preference.user.is_active:
            return None
        if not address_verified(preference.user):  # no mail to an address nobody proved he reads: the messages
            return None  # wait (the badge and pages show them) for the link to be opened, then the next digest
        before = preference.last_digest_on
        preference.last_digest_on = today
        preference.save(update_fields=["last_digest_on"])
        return mail(preference, rows, settings.SITE_URL), [row.pk for row in rows], before


def _refused(user_id: int, now: datetime.datetime, before: datetime.date | None, error: Exception) -> None:
    """The mail server refused it: the day is his again, the messages stay waiting, the reason is kept and the
    next try waits twice as long as the last (1 h, 2 h ... 24 h)."""
    with transaction.atomic():
        preference = Preference.objects.select_for_update().get(user_id=user_id)
        if preference.last_digest_on == timezone.localtime(now).date():
            preference.last_digest_on = before
        wait = min(RETRY_FIRST * 2 ** min(preference.digest_failures, 8), RETRY_MOST)
        preference.digest_failures += 1
        # On the hour: the beat runs at :00, so a try due "in an hour" is the next beat's, not the one after.
        preference.digest_retry_at = (now + wait).replace(minute=0, second=0, microsecond=0)
        preference.digest_error = f"{type(error).__name__}: {error}"[:200]
        preference.save(update_fields=["last_digest_on", "digest_failures", "digest_retry_at", "digest_error"])


def send_digest(user_id: int, now: datetime.datetime) -> bool:
    """One person's digest: every message waiting for the e-mail, in his language; at most one a day. Claimed in
    one transaction, sent outside any (a slow mail server locks no row), recorded in another. A refusal (a bad
    address, the server down) is recorded for him, logged and tried again later; it is not raised, so the beat
    goes on to the next person."""
    today = timezone.localtime(now).date()
    claimed = _claim(user_id, today)
    if claimed is None:
        return False
    message, row_ids, before = claimed
    try:
        message.send()
    except Exception as error:  # noqa: BLE001 (any failure of one person's mail is his alone)
        logger.warning("The digest of user %s was refused (%s); tried again later", user_id, error)
        _refused(user_id, now, before, error)
        return False
    with transaction.atomic():
        Notification.objects.filter(pk__in=row_ids, state=Notification.State.DIGEST).update(
            state=Notification.State.EMAILED, sent_at=timezone.now()
        )
        Preference.objects.filter(user_id=user_id).update(digest_failures=0, digest_retry_at=None, digest_error="")
    return True


def send_digests(now: datetime.datetime) -> int:
    """Each due person's digest on its own: one that fails (even in a way send_digest did not foresee) is logged
    and the others are still sent."""
    sent = 0
    for user_id in _due_users(now):
        try:
            sent += send_digest(user_id, now)
        except SoftTimeLimitExceeded:  # out of time: the rest waits for the next hour
            raise
        except Exception:  # noqa: BLE001
            logger.exception("The digest of user %s failed", user_id)
    return sent


def hourly(now: datetime.datetime | None = None) -> dict:
    """The three steps, each on its own: one that fails is logged (None in the answer) and the others still run,
    so a broken reminder never costs anyone his digest."""
    now = now or timezone.now()
    done: dict[str, int | None] = {}
    for name, step in (("reminders", remind_sign_offs), ("released", release_held), ("digests", send_digests)):
        try:
            done[name] = step(now)
        except SoftTimeLimitExceeded:  # out of time: the rest waits for the next hour
            raise
        except Exception:  # noqa: BLE001
            logger.exception("The hourly step %s failed", name)
            done[name] = None
    return done
