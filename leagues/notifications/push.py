"""Web push to one device (pywebpush: the payload encrypted for the device's keys, RFC 8291, and signed with the
site's VAPID key, RFC 8292). Push is on only when the three VAPID settings are set."""

from __future__ import annotations

import json
import logging

from django.conf import settings

from .models import PushSubscription

logger = logging.getLogger(__name__)

TTL = 12 * 3600  # seconds a push service keeps a message for a phone that is off: a table is stale by then
TIMEOUT = 10


class Gone(Exception):
    """The push service says this subscription no longer exists (404/410): the row is deleted."""


def push_enabled() -> bool:
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY and settings.VAPID_SUBJECT)


def send(subscription: PushSubscription, message: dict) -> None:
    """Send one message; raises Gone for a subscription the push service forgot, WebPushException otherwise."""
    from pywebpush import WebPushException, webpush

    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(info, data=json.dumps(message), vapid_private_key=settings.VAPID_PRIVATE_KEY,
                vapid_claims={"sub": settings.VAPID_SUBJECT}, ttl=TTL, timeout=TIMEOUT)
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            raise Gone(subscription.endpoint) from error
        raise
