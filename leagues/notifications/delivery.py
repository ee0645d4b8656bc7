"""Delivering a person's waiting pushes, and the e-mails of the kinds that cannot wait for the digest (AT_ONCE):
run by the league outbox (job "notify", target the user id), so a broker outage delays them but loses none; the
hint and the sweep may both run it, and each message is locked, sent and marked in its own transaction, so none
goes out twice.

Held back, not sent: a push in a club's quiet hours (the hourly beat asks again afterwards). Over the per-person
limit (PUSHES_PER_HOUR), or with push off or no device, a push is dropped: the count badge and the pages still show
what waits.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from .devices import account_of
from .due import split_due
from .mail import mail
from .messages import worded
from .models import AT_ONCE, Channel, ClubHours, Notification, Preference, PushSubscription
from .push import Gone, push_enabled, send

logger = logging.getLogger(__name__)

PUSHES_PER_HOUR = 6  # at most this many pushes an hour to one person; the rest wait for the badge and the page


def in_quiet_hours(club_id: int | None, now: datetime.datetime | None = None) -> bool:
    hours = ClubHours.objects.filter(club_id=club_id).first() if club_id else None
    if hours is None or hours.quiet_from == hours.quiet_until:
        return False
    hour = timezone.localtime(now).hour
    if hours.quiet_from < hours.quiet_until:
        return hours.quiet_from <= hour < hours.quiet_until
    return hour >= hours.quiet_from or hour < hours.quiet_until


def _pushed_last_hour(user_id: int) -> int:
    return Notification.objects.filter(recipient_id=user_id, state=Notification.State.PUSHED,
                                       sent_at__gte=timezone.now() - datetime.timedelta(hours=1)).count()


def _push_to_devices(row: Notification, message: dict) -> bool:
    """True when at least one device took it; a device the push service forgot is deleted. Raises when every
    device failed otherwise (nothing was sent, so a retry sends it once)."""
    delivered, failure = False, None
    for subscription in PushSubscription.objects.filter(user_id=row.recipient_id):
        try:
            send(subscription, message)
            delivered = True
        except Gone:
            subscription.delete()
        except Exception as error:
            logger.warning("Push to a device of user %s failed: %s", row.recipient_id, error)
            failure = failure or error
    if not delivered and failure is not None:
        raise failure
    return delivered


def _mail_at_once(row: Notification, preference: Preference) -> str:
    """A message of a kind that cannot wait for the daily digest (AT_ONCE), chosen by e-mail: sent on its own now.
    Quiet hours do not hold it (they keep phones from ringing at night; an e-mail is read when he looks), nor does
    the push limit count it. A mail server that fails raises: the message stays queued for the outbox's next run."""
    still_due, _gone = split_due([row], row.recipient_id, Channel.EMAIL)
    user = preference.user
    delivered = bool(still_due and user.email and user.is_active)
    if delivered:
        mail(preference, [row], settings.SITE_URL, at_once=True).send()
    row.state = Notification.State.EMAILED if delivered else Notification.State.DROPPED
    row.sent_at = timezone.now()
    row.save(update_fields=["state", "sent_at"])
    return row.state


def _deliver_one(row_id: int, preference: Preference | None) -> str:
    with transaction.atomic():
        row = Notification.objects.select_for_update().filter(pk=row_id, state=Notification.State.QUEUED).first()
        if row is None:  # sent by another run meanwhile
            return "done"
        if preference is not None and row.kind in AT_ONCE and preference.channel(row.kind) == Channel.EMAIL:
            return _mail_at_once(row, preference)
        if in_quiet_hours(row.club_id):
            return "held"
        delivered = False
        still_due, _gone = split_due([row], row.recipient_id, Channel.PUSH)  # quiet hours held it: ask again
        if still_due and push_enabled() and _pushed_last_hour(row.recipient_id) < PUSHES_PER_HOUR:
            language = preference.language if preference is not None else "en"
            message = worded(row.kind, row.payload, language) | {"tag": row.dedupe_key,
                                                                  "account": account_of(row.recipient_id)}
            delivered = _push_to_devices(row, message)
        row.state = Notification.State.PUSHED if delivered else Notification.State.DROPPED
        row.sent_at = timezone.now()
        row.save(update_fields=["state", "sent_at"])
        return row.state


def deliver(user_id: int) -> dict:
    """Send each of this person's queued messages, oldest first: by push, or by e-mail for a kind that cannot wait
    for the digest. A message whose every device (or the mail server) failed stays queued and the first such
    failure is raised at the end (the outbox keeps its row for the sweep)."""
    preference = Preference.objects.select_related("user").filter(user_id=user_id).first()
    counts: dict[str, int] = {}
    failure: Exception | None = None
    for row_id in Notification.objects.filter(recipient_id=user_id, state=Notification.State.QUEUED).order_by(
            "pk").values_list("pk", flat=True):
        try:
            state = _deliver_one(row_id, preference)
        except Exception as error:
            failure = failure or error
            continue
        counts[state] = counts.get(state, 0) + 1
    if failure is not None:
        raise failure
    return counts
