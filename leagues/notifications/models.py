"""The notifications' rows: the messages themselves (the outbox of what each person is told), each person's
choices, each club's hours, and the devices that receive pushes."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    YOUR_TABLE = "your_table", _("Your table tonight")
    SIGN_OFF = "sign_off", _("A result waits for your sign-off")
    DISPUTE = "dispute", _("A dispute on a result you recorded or manage")
    STANDINGS = "standings", _("The night's standings")


class Channel(models.TextChoices):
    PUSH = "push", _("Push to my devices")
    EMAIL = "email", _("In the daily e-mail")
    NONE = "none", _("Nothing")


class Notification(models.Model):
    """One message for one person, written in the transaction of the event it tells of. `dedupe_key` names the
    event and the person ("sign_off:<result>:<user>"): writing it again (a retried request, a second hint) adds
    nothing, and delivery marks it so no retry sends it twice."""

    class State(models.TextChoices):
        QUEUED = "queued", "waiting for its push"
        SENDING = "sending", "being sent (claimed by a run; its claim lapses after delivery.CLAIM_LEASE)"
        PUSHED = "pushed", "pushed"
        DIGEST = "digest", "waiting for the e-mail digest"
        EMAILED = "emailed", "sent in a digest"
        DROPPED = "dropped", "not sent (no device, push off, or over the hourly limit)"

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    club = models.ForeignKey(
        "leagues.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        help_text="The club the event is in: its quiet hours hold the push.",
    )
    payload = models.JSONField(
        default=dict, help_text="What the message says, as parameters; worded at delivery in the recipient's language."
    )
    dedupe_key = models.CharField(max_length=200, unique=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="When a run took it to send (sending).")
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="Sends that failed (every device, or the mail server); dropped at DELIVERY_ATTEMPTS."
    )

    class Meta:
        ordering = ["recipient", "created_at", "pk"]
        indexes = [models.Index(fields=["recipient", "state"], name="notification_recipient_state")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id} ({self.state})"


def push_on() -> bool:
    """Whether the site can push at all: its VAPID keys are set (docs/notifications.md, Production)."""
    return bool(settings.VAPID_PRIVATE_KEY and settings.VAPID_PUBLIC_KEY and settings.VAPID_SUBJECT)


def _push() -> str:
    """The default of a kind a push suits: push on a site that can push, else e-mail. Nothing is preselected that
    the site cannot deliver (issue 47 finding 3: push was, on a site without push, so a member who kept the
    defaults got nothing, his messages dropped)."""
    return Channel.PUSH if push_on() else Channel.EMAIL


def _none() -> str:
    return Channel.NONE


class Preference(models.Model):
    """One person's choices: how each kind reaches him, and the language his messages are worded in."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    your_table = models.CharField(_("Your table tonight"), max_length=5, choices=Channel.choices, default=_push)
    sign_off = models.CharField(
        _("A result waits for your sign-off"), max_length=5, choices=Channel.choices, default=_push
    )
    dispute = models.CharField(
        _("A dispute on a result you recorded or manage"), max_length=5, choices=Channel.choices, default=_none
    )
    standings = models.CharField(_("The night's standings"), max_length=5, choices=Channel.choices, default=_none)
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)
    last_digest_on = models.DateField(null=True, blank=True, help_text="At most one digest a day.")
    # A digest the mail server refused (a bad address, SMTP down): counted, the reason kept, tried again after a
    # growing wait (digest.py); cleared by the next digest that goes out.
    digest_failures = models.PositiveSmallIntegerField(default=0)
    digest_retry_at = models.DateTimeField(null=True, blank=True, help_text="The failed digest's next try.")
    digest_error = models.CharField(max_length=200, blank=True, default="")

    def __str__(self) -> str:
        return f"notification choices of {self.user_id}"

    def channel(self, kind: str) -> str:
        return getattr(self, kind)


def default_channel(kind: str) -> str:
    """A kind's way when the person chose none (his choices' defaults), as the site stands now (push on or off):
    read where a message is written and again where it goes out (due.py)."""
    return Preference._meta.get_field(kind).get_default()


# The kinds that are about now: "your table" is stale by the evening's digest (the round has been played). By
# e-mail they go out on their own, through the outbox like a push (the hint at once, the minute sweep at the
# latest), not in the daily digest.
AT_ONCE = frozenset({Kind.YOUR_TABLE})


class ClubHours(models.Model):
    """A club's hours: when its digest goes out, and the quiet hours in which no push is sent (held for later)."""

    club = models.OneToOneField("leagues.Club", on_delete=models.CASCADE, related_name="notification_hours")
    digest_hour = models.PositiveSmallIntegerField(_("hour of the daily e-mail"), default=18)
    quiet_from = models.PositiveSmallIntegerField(_("quiet from (hour)"), default=23)
    quiet_until = models.PositiveSmallIntegerField(_("quiet until (hour)"), default=8)

    def __str__(self) -> str:
        return f"hours of club {self.club_id}"


class PushSubscription(models.Model):
    """One device's push subscription (the browser's PushSubscription JSON), tied to the session that made it: the
    row goes when that session ends, however it ends (devices.py)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    session_key = models.CharField(
        max_length=40,
        blank=True,
        default="",
        db_index=True,
        help_text="The session that turned push on; the device goes with it.",
    )
    user_agent = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "created_at", "pk"]

    def __str__(self) -> str:
        return f"push device of {self.user_id}"
