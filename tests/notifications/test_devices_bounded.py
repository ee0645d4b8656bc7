"""An account's push devices are bounded (issue 46 finding 4): at most PUSH_DEVICES_PER_ACCOUNT (5), a new one
beyond it replacing his oldest, so one account cannot make the worker post to endless endpoints for each message;
and an endpoint another account registered is not moved to whoever posts it (409), it stays his."""

import pytest
from django.urls import reverse

from leagues.notifications.models import PushSubscription

KEYS = {"p256dh": "B" * 87, "auth": "a" * 22}


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "BPub", "mailto:a@b.c"


def register(client, endpoint: str):
    return client.post(
        reverse("notifications:devices"), {"endpoint": endpoint, "keys": KEYS}, content_type="application/json"
    )


def test_someone_else_s_endpoint_is_a_409_and_stays_his(client, alice, bob, push_on):
    client.force_login(bob)
    assert register(client, "https://push.example/bob-phone").status_code == 201
    client.force_login(alice)
    answer = register(client, "https://push.example/bob-phone")
    assert answer.status_code == 409 and "another account" in answer.json()["detail"]
    assert list(PushSubscription.objects.values_list("user__username", "endpoint")) == [
        ("bob", "https://push.example/bob-phone")
    ]


def test_the_refusal_is_said_in_dutch(client, alice, bob, push_on):
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob-phone", **KEYS)
    client.force_login(alice)
    answer = client.post(
        reverse("notifications:devices"),
        {"endpoint": "https://push.example/bob-phone", "keys": KEYS},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert answer.status_code == 409 and "ander account" in answer.json()["detail"]


def test_at_most_five_devices_a_new_one_replacing_the_oldest(client, alice, push_on, settings):
    assert settings.PUSH_DEVICES_PER_ACCOUNT == 5
    client.force_login(alice)
    for n in range(7):
        assert register(client, f"https://push.example/alice-{n}").status_code == 201
    assert sorted(PushSubscription.objects.filter(user=alice).values_list("endpoint", flat=True)) == [
        f"https://push.example/alice-{n}" for n in range(2, 7)
    ]
    assert register(client, "https://push.example/alice-6").status_code == 201  # the same device again: no change
    assert PushSubscription.objects.filter(user=alice).count() == 5
