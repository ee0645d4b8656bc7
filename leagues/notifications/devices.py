"""A push device belongs to the session that turned push on (issue 47, finding 1). Club phones are shared: were a
device kept after its session ended, the next person to sign in on that phone would be shown the first one's
messages ("Round 1: table 1, with bob"). So the row is dropped whenever its session ends, however it ends:

- a sign-out (`user_logged_out`);
- a sign-in on that browser (`user_logged_in`): Django's login() flushes another account's session without the
  sign-out signal, and cycles the key of the same account's; the browser's cookie still names the session it came
  with, so that session's devices are dropped (another account's) or follow the new key (the same account's);
- a password change or reset: every other session of the account ends with it (their auth hash no longer
  matches), and the one that changed it gets a new key, so all the account's devices go (that phone turns push on
  again);
- an expired or deleted session, or one now signed in as someone else: the hourly sweep (`sweep`, a beat task).

The push message itself names the account it is for (`account_of`, the tag every page names: shitenno_site/
offline.py), and the service worker shows it only while that account is the one signed in on the phone (finding
2): a row that outlives its session by less than the sweep's hour shows nothing either.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from .models import PushSubscription


def account_of(user_id: int) -> str:
    """The opaque tag of the account a push is for: the same the account's pages carry (X-Shitenno-Account), which
    the service worker keeps as the phone's signed-in account."""
    from shitenno_site.offline import account_tag

    user = get_user_model()(pk=user_id)  # the tag reads only the key; an unsaved instance is authenticated
    return account_tag(user)


def device_on(*, user, session_key: str | None, endpoint: str) -> bool:
    """The site's truth for the settings page: push is on for this browser only when the site holds its device,
    for this account and this session (a browser subscription the site dropped, at a sign-in or a password change,
    is no device: the page says push is off, and "Turn on" registers it again)."""
    if not session_key or not endpoint:
        return False
    return PushSubscription.objects.filter(user=user, session_key=session_key, endpoint=endpoint).exists()


def forget_at_logout(sender=None, request=None, user=None, **_kwargs) -> None:
    """A sign-out ends the session: its devices go (whoever owned them)."""
    session_key = getattr(getattr(request, "session", None), "session_key", None)
    if session_key:
        PushSubscription.objects.filter(session_key=session_key).delete()


@transaction.atomic
def follow_login(sender=None, request=None, user=None, **_kwargs) -> None:
    """A sign-in on a browser that came with a session (the cookie names it; login() has just flushed or re-keyed
    it): that session's devices of another account are dropped, this account's follow the new key."""
    if request is None or user is None:
        return
    before = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    now = getattr(request.session, "session_key", None)
    if not before or before == now:
        return
    devices = PushSubscription.objects.filter(session_key=before)
    devices.exclude(user=user).delete()
    if now:
        devices.filter(user=user).update(session_key=now)
    else:
        devices.filter(user=user).delete()


def forget_at_password_change(sender=None, instance=None, created=False, update_fields=None, **_kwargs) -> None:
    """post_save of a user whose password was set (set_password marks it until the save ends): his sessions end,
    so do their devices."""
    if created or getattr(instance, "_password", None) is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return
    PushSubscription.objects.filter(user_id=instance.pk).delete()


def _session_holds(session: Session | None, user, store_class) -> bool:
    """The session is alive and still signed in as the device's owner, with his current password."""
    if session is None or session.expire_date <= timezone.now() or user is None:
        return False
    data = store_class().decode(session.session_data)
    if str(data.get(SESSION_KEY)) != str(user.pk):
        return False
    return constant_time_compare(data.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash())


@transaction.atomic
def sweep() -> int:
    """Drop every device whose session ended without a signal: expired, deleted, signed in as another account, or
    made before a password change. Returns how many went. The session table is the truth for both session
    engines the site uses (db, and cached_db, which writes through to it)."""
    from importlib import import_module

    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    devices = list(PushSubscription.objects.select_related("user"))
    sessions = Session.objects.in_bulk([d.session_key for d in devices if d.session_key], field_name="session_key")
    gone = [d.pk for d in devices if not _session_holds(sessions.get(d.session_key), d.user, store_class)]
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    return len(gone)


@shared_task(name="leagues.notifications.devices.sweep_task", ignore_result=True, acks_late=True)
def sweep_task() -> int:
    """Hourly (beat): the devices whose session ended unseen. Safe to run twice."""
    return sweep()


def connect() -> None:
    """Called once from the app's ready()."""
    from django.contrib.auth.signals import user_logged_in, user_logged_out
    from django.db.models.signals import post_save

    user_logged_out.connect(forget_at_logout, dispatch_uid="notifications-devices-logout")
    user_logged_in.connect(follow_login, dispatch_uid="notifications-devices-login")
    post_save.connect(
        forget_at_password_change, sender=settings.AUTH_USER_MODEL, dispatch_uid="notifications-devices-password"
    )
