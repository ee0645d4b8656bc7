"""The e-mails: the daily digest (digest.py) and a message of a kind that cannot wait for it (delivery.py), worded
the same way, each with the unsubscribe link that works without logging in. Apart from both so the outbox's
delivery does not import the hourly round (digest -> services -> outbox -> delivery would be a cycle)."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from .messages import subject_place, worded
from .models import Kind, Notification, Preference, default_channel

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def choices_version(user_id: int) -> str:
    """A short fingerprint of the person's choices as they stand: a link carries the one of its day, so a new
    choice voids every link mailed before it (issue 47 finding 8: links stayed good whatever he chose after)."""
    kinds = list(Kind.values)
    row = Preference.objects.filter(user_id=user_id).values_list(*kinds).first()
    values = row if row is not None else tuple(default_channel(kind) for kind in kinds)
    return hashlib.sha256("|".join(map(str, values)).encode()).hexdigest()[:12]


def unsubscribe_token(user_id: int) -> str:
    """The e-mail's unsubscribe link works without logging in: the user id and his choices' version, signed with
    the site's key."""
    return signing.dumps({"u": user_id, "v": choices_version(user_id)}, salt=UNSUBSCRIBE_SALT, compress=True)


UNSUBSCRIBE_DAYS = 90  # a link this old stops working (issue 47: it never expired); every digest brings a new one


class UnsubscribeExpired(Exception):
    """A genuine link older than UNSUBSCRIBE_DAYS, or older than the person's last choice: the page says so and
    where the settings are. `stale`: older than the choice, not than the days."""

    def __init__(self, *, stale: bool = False) -> None:
        super().__init__()
        self.stale = stale


def unsubscribe_user_id(token: str) -> int | None:
    """The account a link names, None for one that is not the site's (cut short, altered); UnsubscribeExpired for
    one that was, UNSUBSCRIBE_DAYS ago or more, or before a choice the person made since (a link of before
    versions, which carries none, only expires)."""
    try:
        signed = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_DAYS * 86400)
        user_id = int(signed["u"])
    except signing.SignatureExpired as expired:
        raise UnsubscribeExpired from expired
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    if "v" in signed and signed["v"] != choices_version(user_id):  # mailed before a choice he made since
        raise UnsubscribeExpired(stale=True)
    return user_id


def mail(preference: Preference, rows: list[Notification], site: str, *, at_once: bool = False) -> EmailMessage:
    """One e-mail to the person with `rows`, in his language: the digest's subject counts them; a message sent
    `at_once` on its own (a kind that cannot wait for the digest) is its own subject."""
    unsubscribe = site + reverse("notifications:unsubscribe", args=[unsubscribe_token(preference.user_id)])
    with override(preference.language):
        lines = [worded(row.kind, row.payload, preference.language) for row in rows]
        body = render_to_string(
            "notifications/digest.txt",
            {
                "lines": [line | {"url": site + line["url"]} for line in lines],
                "unsubscribe": unsubscribe,
                "settings_url": site + reverse("notifications:settings"),
                "site_name": settings.SITE_NAME,
                "site_url": site,
            },
        )
        site_name = settings.SITE_NAME  # never a hard-coded name: the site's own, from settings (issue 47)
        if at_once:
            where = subject_place(rows[0].payload, preference.language)
            subject = (_("%(site)s: %(title)s (%(where)s)") if where else _("%(site)s: %(title)s")) % {
                "site": site_name,
                "title": lines[0]["title"],
                "where": where,
            }
        else:
            subject = ngettext("%(site)s: %(count)d thing for you", "%(site)s: %(count)d things for you", len(rows)) % {
                "count": len(rows),
                "site": site_name,
            }
    return EmailMessage(
        subject,
        body,
        to=[preference.user.email],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"},
    )
