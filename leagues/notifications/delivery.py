"""Delivering a person's waiting pushes, and the e-mails of the kinds that cannot wait for the digest (AT_ONCE):
run by the league outbox (job "notify", target the user id), so a broker outage delays them but loses none; the
hint and the sweep may both run it. Each message is claimed (`sending`) in one short transaction, sent outside
any, and its outcome recorded in another (issue 46 finding 4: a slow push service or mail server locks no row),
so none goes out twice; a run that dies mid-send leaves the claim to lapse (CLAIM_LEASE) and the hourly beat asks
again (a push may then arrive twice, under one tag, so the phone shows it once).

Held back, not sent: a push in a club's quiet hours (the hourly beat asks again afterwards). Over the per-person
limit (PUSHES_PER_HOUR), or with push off or no device, a push is dropped: the count badge and the pages still show
what waits.
"""

from __future__ import annotations

import datetime
import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from leagues.models.accounts import address_verified

from .devices import account_of
from .due import split_due
from .endpoints import Refused
from .mail import mail
from .messages import worded
from .models import AT_ONCE, Channel, ClubHours, Notification, Preference, PushSubscription
from .push import Gone, push_enabled, send

logger = logging.getLogger(__name__)

PUSHES_PER_HOUR = 6  # at most this many pushes an hour to one person; the rest wait for the badge and the page
# A message claimed (`sending`) this long ago lost its run (the worker died mid-send): another run may take it.
# Longer than any send: each device's push.DEADLINE times the devices an account may have, or EMAIL_TIMEOUT.
CLAIM_LEASE = datetime.timedelta(minutes=5)
# A message whose send failed this many times (the outbox's sweep tries again each minute) is dropped, not tried
# for ever: a push service that is down or drips for ten minutes costs at most ten tries of each device.
DELIVERY_ATTEMPTS = 10


def in_quiet_hours(club_id: int | None, now: datetime.datetime | None = None) -> bool:
    hours = ClubHours.objects.filter(club_id=club_id).first() if club_id else None
    if hours is None or hours.quiet_from == hours.quiet_until:
        return False
    hour = timezone.localtime(now).hour
    if hours.quiet_from < hours.quiet_until:
        return hours.quiet_from <= hour < hours.quiet_until
    return hour >= hours.quiet_from or hour < hours.quiet_until


def _pushed_last_hour(user_id: int) -> int:
    return Notification.objects.filter(
        recipient_id=user_id, state=Notification.State.PUSHED, sent_at__gte=timezone.now() - datetime.timedelta(hours=1)
    ).count()


def _push_to_devices(user_id: int, devices: list[PushSubscription], message: dict) -> bool:
    """True when at least one device took it. Outside any transaction: each device within push.DEADLINE. A
    device the push service forgot, or whose endpoint the site no longer posts to, is deleted. Raises when every
    device failed otherwise (nothing was sent, so a retry sends it once)."""
    delivered, failure = False, None
    for subscription in devices:
        try:
            send(subscription, message)
            delivered = True
        except Gone:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
        except Refused as error:
            logger.warning(
                "Push device %s of user %s refused at delivery (%s): removed", subscription.pk, user_id, error
            )
            PushSubscription.objects.filter(pk=subscription.pk).delete()
        except Exception as error:
            logger.warning("Push to a device of user %s failed: %s", user_id, error)
            failure = failure or error
    if not delivered and failure is not None:
        raise failure
    return delivered


def _mark(row: Notification, state: str) -> str:
    row.state, row.sent_at, row.claimed_at = state, timezone.now(), None
    row.save(update_fields=["state", "sent_at", "claimed_at"])
    return state


def _claim(row_id: int, preference: Preference | None) -> tuple[str, object]:
    """The first short transaction: the message locked, what to do decided, and (when something is to be sent)
    the message marked `sending`, so a hint and a sweep running together never both send it. Returns ("email",
    the e-mail), ("push", (devices, the worded message)) or (a final state, None)."""
    with transaction.atomic():
        lapsed = timezone.now() - CLAIM_LEASE
        row = (
            Notification.objects.select_for_update()
            .filter(
                Q(state=Notification.State.QUEUED) | Q(state=Notification.State.SENDING, claimed_at__lte=lapsed),
                pk=row_id,
            )
            .first()
        )
        if row is None:  # sent by another run meanwhile, or being sent
            return "done", None
        if preference is not None and row.kind in AT_ONCE and preference.channel(row.kind) == Channel.EMAIL:
            # Quiet hours do not hold it (they keep phones from ringing at night; an e-mail is read when he
            # looks), nor does the push limit count it.
            still_due, _gone = split_due([row], row.recipient_id, Channel.EMAIL)
            user = preference.user
            if not (still_due and user.email and user.is_active and address_verified(user)):
                return _mark(row, Notification.State.DROPPED), None
            work: tuple[str, object] = ("email", mail(preference, [row], settings.SITE_URL, at_once=True))
        elif in_quiet_hours(row.club_id):
            if row.state == Notification.State.SENDING:
                row.state, row.claimed_at = Notification.State.QUEUED, None
                row.save(update_fields=["state", "claimed_at"])
            return "held", None
        else:
            still_due, _gone = split_due([row], row.recipient_id, Channel.PUSH)  # quiet hours held it: ask again
            devices = list(PushSubscription.objects.filter(user_id=row.recipient_id))
            if not (still_due and devices and push_enabled() and _pushed_last_hour(row.recipient_id) < PUSHES_PER_HOUR):
                return _mark(row, Notification.State.DROPPED), None
            language = preference.language if preference is not None else settings.LANGUAGE_CODE
            work = (
                "push",
                (
                    devices,
                    worded(row.kind, row.payload, language)
                    | {"tag": row.dedupe_key, "account": account_of(row.recipient_id)},
                ),
            )  # the phone shows it to him only
        row.state, row.claimed_at = Notification.State.SENDING, timezone.now()
        row.save(update_fields=["state", "claimed_at"])
        return work


def _record(row_id: int, state: str) -> str:
    """The last short transaction: the outcome of a claimed message. A failure (`queued`) counts an attempt and
    puts it back for the next run, or drops it at DELIVERY_ATTEMPTS."""
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=row_id, state=Notification.State.SENDING).first()
        if row is None:  # its claim lapsed and another run took it over
            return "done"
        if state == Notification.State.QUEUED:
            row.attempts += 1
            if row.attempts >= DELIVERY_ATTEMPTS:
                logger.warning("Notification %s dropped after %s failed sends", row.pk, row.attempts)
                row.save(update_fields=["attempts"])
                return _mark(row, Notification.State.DROPPED)
            row.state, row.claimed_at = state, None
            row.save(update_fields=["state", "claimed_at", "attempts"])
            return state
        return _mark(row, state)


def _deliver_one(row_id: int, preference: Preference | None) -> str:
    """Claimed in one transaction, sent outside any (a slow push service or mail server locks no row),
    recorded in another. A failure puts it back to `queued` and is raised (the outbox runs it again), up to
    DELIVERY_ATTEMPTS times."""
    what, work = _claim(row_id, preference)
    if work is None:
        return what
    try:
        if what == "email":
            work.send()  # type: ignore[attr-defined]
            delivered = True
        else:
            devices, message = work  # type: ignore[misc]
            delivered = _push_to_devices(devices[0].user_id, devices, message)
    except Exception:
        if _record(row_id, Notification.State.QUEUED) == Notification.State.DROPPED:
            return Notification.State.DROPPED  # given up: the outbox need not run it again
        raise
    if what == "email":
        return _record(row_id, Notification.State.EMAILED)
    return _record(row_id, Notification.State.PUSHED if delivered else Notification.State.DROPPED)


def deliver(user_id: int) -> dict:
    """Send each of this person's queued messages, oldest first: by push, or by e-mail for a kind that cannot wait
    for the digest. A message whose every device (or the mail server) failed stays queued and the first such
    failure is raised at the end (the outbox keeps its row for the sweep)."""
    preference = Preference.objects.select_related("user").filter(user_id=user_id).first()
    counts: dict[str, int] = {}
    failure: Exception | None = None
    lapsed = Q(state=Notification.State.SENDING, claimed_at__lte=timezone.now() - CLAIM_LEASE)
    for row_id in (
        Notification.objects.filter(Q(state=Notification.State.QUEUED) | lapsed, recipient_id=user_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    ):
        try:
            state = _deliver_one(row_id, preference)
        except SoftTimeLimitExceeded:  # out of time: the outbox row stays, the next run sends the rest
            raise
        except Exception as error:
            failure = failure or error
            continue
        counts[state] = counts.get(state, 0) + 1
    if failure is not None:
        raise failure
    return counts
