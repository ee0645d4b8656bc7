"""The e-mails: the daily digest (digest.py) and a message of a kind that cannot wait for it (delivery.py), worded
the same way, each with the unsubscribe link that works without logging in. Apart from both so the outbox's
delivery does not import the hourly round (digest -> services -> outbox -> delivery would be a cycle)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override

from .messages import subject_place, worded
from .models import Notification, Preference

UNSUBSCRIBE_SALT = "notifications.unsubscribe"


def unsubscribe_token(user_id: int) -> str:
    """The e-mail's unsubscribe link works without logging in: the user id, signed with the site's key."""
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT, compress=True)


UNSUBSCRIBE_DAYS = 90  # a link this old stops working (issue 47: it never expired); every digest brings a new one


class UnsubscribeExpired(Exception):
    """A genuine link older than UNSUBSCRIBE_DAYS: the page says so and where the settings are."""


def unsubscribe_user_id(token: str) -> int | None:
    """The account a link names, None for one that is not the site's (cut short, altered); UnsubscribeExpired for
    one that was, UNSUBSCRIBE_DAYS ago or more."""
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=UNSUBSCRIBE_DAYS * 86400)["u"])
    except signing.SignatureExpired as expired:
        raise UnsubscribeExpired from expired
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def mail(preference: Preference, rows: list[Notification], site: str, *, at_once: bool = False) -> EmailMessage:
    """One e-mail to the person with `rows`, in his language: the digest's subject counts them; a message sent
    `at_once` on its own (a kind that cannot wait for the digest) is its own subject."""
    unsubscribe = site + reverse("notifications:unsubscribe", args=[unsubscribe_token(preference.user_id)])
    with override(preference.language):
        lines = [worded(row.kind, row.payload, preference.language) for row in rows]
        body = render_to_string("notifications/digest.txt", {
            "lines": [line | {"url": site + line["url"]} for line in lines], "unsubscribe": unsubscribe,
            "settings_url": site + reverse("notifications:settings"), "site_name": settings.SITE_NAME,
            "site_url": site})
        site_name = settings.SITE_NAME  # never a hard-coded name: the site's own, from settings (issue 47)
        if at_once:
            where = subject_place(rows[0].payload, preference.language)
            subject = (_("%(site)s: %(title)s (%(where)s)") if where else _("%(site)s: %(title)s")) % {
                "site": site_name, "title": lines[0]["title"], "where": where}
        else:
            subject = ngettext("%(site)s: %(count)d thing for you", "%(site)s: %(count)d things for you",
                               len(rows)) % {"count": len(rows), "site": site_name}
    return EmailMessage(subject, body, to=[preference.user.email], headers={
        "List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
