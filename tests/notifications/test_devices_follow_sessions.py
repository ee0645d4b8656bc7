"""A push device belongs to the session that turned push on, and goes when that session ends, however it ends
(issue 47, finding 1): a club phone changes hands, and the next person must never be shown the first one's
messages. Sign-out, another account's sign-in on that browser (Django's login() flushes the old session without a
sign-out signal), a password change, and the hourly sweep of sessions that expired or were deleted unseen."""

import datetime

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.urls import reverse
from django.utils import timezone

from leagues.notifications import devices
from leagues.notifications.models import PushSubscription
from tests.conftest import PASSWORD

ENDPOINT = "https://push.example/send/shared-phone"
SUBSCRIPTION = {"endpoint": ENDPOINT, "keys": {"p256dh": "B" * 87, "auth": "a" * 22}}


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "BPub", "mailto:a@b.c"


def turn_push_on(client, user) -> PushSubscription:
    """The member signs in at the log-in page (the browser keeps the session cookie) and taps "Turn on"."""
    assert client.post(reverse("login"), {"username": user.username, "password": PASSWORD}).status_code == 302
    answer = client.post(reverse("notifications:devices"), SUBSCRIPTION, content_type="application/json")
    assert answer.status_code == 201
    return PushSubscription.objects.get(endpoint=ENDPOINT)


def end_on_the_server(client) -> None:
    """The session ends on the server (expired and cleared), the phone keeps its cookie."""
    client.session.delete()
    assert not Session.objects.exists()


def test_the_device_records_the_session_that_turned_push_on(client, alice, push_on):
    device = turn_push_on(client, alice)
    assert device.user == alice
    assert device.session_key == client.session.session_key != ""


def test_signing_out_drops_the_device(client, alice, push_on):
    turn_push_on(client, alice)
    client.post(reverse("logout"))
    assert not PushSubscription.objects.exists()


def test_another_account_signing_in_on_the_phone_drops_the_first_one_s_device(client, alice, bob, push_on):
    """bob signs in at the log-in page while alice is still signed in on that phone: no sign-out happened."""
    turn_push_on(client, alice)
    assert client.post(reverse("login"), {"username": "bob", "password": PASSWORD}).status_code == 302
    assert client.session["_auth_user_id"] == str(bob.pk)
    assert not PushSubscription.objects.exists()


def test_another_account_signing_in_after_the_first_session_expired_drops_its_device(client, alice, bob, push_on):
    """alice's session ended on the server (expired, cleared) while the phone kept its cookie; bob signs in."""
    turn_push_on(client, alice)
    end_on_the_server(client)
    assert client.post(reverse("login"), {"username": "bob", "password": PASSWORD}).status_code == 302
    assert not PushSubscription.objects.exists()


def test_the_same_account_signing_in_again_keeps_its_device_under_the_new_session(client, alice, push_on):
    """alice's session ended on the server and she signs in again on her phone: a new session, the same device."""
    before = turn_push_on(client, alice).session_key
    end_on_the_server(client)
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 302
    device = PushSubscription.objects.get()
    assert device.user == alice
    assert device.session_key == client.session.session_key != before


def test_a_sign_in_elsewhere_leaves_the_phone_s_device_alone(client, alice, bob, push_on):
    from django.test import Client

    turn_push_on(client, alice)
    Client().post(reverse("login"), {"username": "bob", "password": PASSWORD})
    Client().post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert PushSubscription.objects.get().user == alice


def test_another_account_turning_push_on_takes_the_phone_s_device(client, alice, bob, push_on):
    turn_push_on(client, alice)
    device = turn_push_on(client, bob)
    assert list(PushSubscription.objects.values_list("user_id", flat=True)) == [bob.pk]
    assert device.session_key == client.session.session_key


def test_changing_the_password_drops_the_account_s_devices_and_no_one_else_s(client, alice, bob, push_on):
    turn_push_on(client, alice)
    others = PushSubscription.objects.create(
        user=bob, endpoint="https://push.example/bob", p256dh="B" * 87, auth="a" * 22, session_key="bob-session"
    )
    answer = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another long passphrase",
            "new_password2": "another long passphrase",
        },
    )
    assert answer.status_code == 302
    assert list(PushSubscription.objects.all()) == [others]


def test_a_refused_password_change_keeps_the_device(client, alice, push_on):
    turn_push_on(client, alice)
    answer = client.post(
        reverse("password_change"),
        {
            "old_password": "not it",
            "new_password1": "another long passphrase",
            "new_password2": "another long passphrase",
        },
    )
    assert answer.status_code == 200
    assert PushSubscription.objects.count() == 1


def test_signing_in_again_keeps_the_device(client, alice, push_on):
    """A log-in saves the user (its last_login): that is no password change."""
    turn_push_on(client, alice)
    client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert PushSubscription.objects.count() == 1


def _device(user, name: str, session_key: str) -> PushSubscription:
    return PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example/{name}", p256dh="B" * 87, auth="a" * 22, session_key=session_key
    )


def test_the_sweep_drops_devices_whose_session_ended_unseen_and_keeps_the_live_one(alice, bob, push_on):
    from django.test import Client

    phones = {}
    for name, user in [("live", alice), ("expired", alice), ("deleted", alice), ("taken-over", alice), ("bob", bob)]:
        phone = Client()
        phone.force_login(user)
        phones[name] = phone
        _device(user, name, phone.session.session_key)
    _device(alice, "no-session", "")
    Session.objects.filter(session_key=phones["expired"].session.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    Session.objects.filter(session_key=phones["deleted"].session.session_key).delete()
    phones["taken-over"].force_login(bob)  # force_login flushes without the cookie: the device still names it
    taken = PushSubscription.objects.get(endpoint="https://push.example/taken-over")
    taken.session_key = phones["taken-over"].session.session_key  # bob's session now, alice's device
    taken.save()

    assert devices.sweep() == 4
    kept = PushSubscription.objects.order_by("endpoint").values_list("endpoint", flat=True)
    assert list(kept) == ["https://push.example/bob", "https://push.example/live"]
    assert devices.sweep() == 0  # again: nothing more


def test_the_sweep_drops_the_devices_of_sessions_from_before_a_password_change(alice, push_on):
    from django.test import Client

    phone = Client()
    phone.force_login(alice)
    _device(alice, "old-password", phone.session.session_key)
    alice.password = "md5$x$" + "0" * 32  # changed behind the site's back (a shell, a data import)
    alice.save(update_fields=["password"])
    assert devices.sweep() == 1
    assert not PushSubscription.objects.exists()


def test_the_sweep_runs_every_hour():
    from shitenno_site.celery import app

    entry = django_settings.CELERY_BEAT_SCHEDULE["notifications-devices-sweep"]
    assert entry["task"] in app.tasks
    assert entry["schedule"].minute == {30} and len(entry["schedule"].hour) == 24


def test_the_settings_page_hears_push_is_on_only_for_this_session_s_device(client, alice, bob, push_on):
    from django.test import Client

    url = reverse("notifications:devices")
    turn_push_on(client, alice)
    assert client.get(url, {"endpoint": ENDPOINT}).json() == {"on": True}
    assert client.get(url, {"endpoint": "https://push.example/another"}).json() == {"on": False}
    elsewhere = Client()
    elsewhere.force_login(alice)
    assert elsewhere.get(url, {"endpoint": ENDPOINT}).json() == {"on": False}  # another session of hers
    client.post(reverse("login"), {"username": "bob", "password": PASSWORD})
    assert client.get(url, {"endpoint": ENDPOINT}).json() == {"on": False}  # the phone is bob's now
    assert Client().get(url, {"endpoint": ENDPOINT}).status_code == 401
