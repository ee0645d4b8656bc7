"""Where the worker posts a push, and how long it may take (issue 46 finding 4). A subscription's endpoint comes
from the browser, so it is checked at registration and again at delivery, after its name is resolved: https,
port 443, public addresses only. The worker never follows a redirect, gives each device one total deadline, and
sends outside any transaction (the message is claimed first, its outcome recorded after)."""

import datetime
import json
import os
import socket
import threading
import time
from unittest import mock

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from leagues.jobs import outbox
from leagues.notifications import delivery, digest, endpoints, push
from leagues.notifications.models import Notification, PushSubscription
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT
from .test_web_push import PushService, b64, public_raw, vapid  # noqa: F401 (a fixture)

pytestmark = pytest.mark.usefixtures("vapid")  # push is on: the site's VAPID keys
KEYS = {"p256dh": b64(public_raw(ec.generate_private_key(ec.SECP256R1()))), "auth": b64(os.urandom(16))}


@pytest.fixture(autouse=True)
def no_broker():
    with mock.patch.object(outbox, "publish"):
        yield


@pytest.fixture
def local(settings):
    settings.PUSH_LOCAL_ENDPOINTS = True  # the test's servers are plain http on this machine


def a_result_for(season, alice, bob) -> None:
    """A result that waits for bob's sign-off: his push message is queued."""
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )


class Raw:
    """A server on 127.0.0.1 that answers each connection with `answer(connection)`."""

    def __init__(self, answer):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.origin = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.answer, self.connections = answer, 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                client, _address = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._one, args=(client,), daemon=True).start()

    def _one(self, client):
        try:
            client.recv(65536)
            self.answer(client)
        except OSError:
            pass
        finally:
            client.close()

    def close(self):
        self.listener.close()


def test_a_redirect_from_the_push_service_is_not_followed(season, alice, bob, members, local):
    internal = PushService()  # an internal address the redirect points to: it must never be posted to
    redirect = Raw(
        lambda client: client.sendall(
            (
                f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {internal.origin}/admin/\r\nContent-Length: 0\r\n\r\n"
            ).encode()
        )
    )
    try:
        PushSubscription.objects.create(user=bob, endpoint=f"{redirect.origin}/push/bob", **KEYS)
        a_result_for(season, alice, bob)
        assert len(outbox.sweep(older_than=0)["failed"]) == 1  # a failure: the message waits for the next sweep
    finally:
        redirect.close()
        internal.close()
    assert redirect.connections == 1 and internal.received == []
    assert Notification.objects.get(recipient=bob).state == Notification.State.QUEUED


def test_an_endpoint_that_drips_its_answer_is_cut_off_at_the_deadline(season, alice, bob, members, local, monkeypatch):
    """A status line a byte every 0.3 s would take 7 s; the whole request may take 1 s (push.DEADLINE, 10 s on
    the site): requests' timeout, per read, let a dripping endpoint hold send() 75 s."""
    monkeypatch.setattr(push, "DEADLINE", 1.0)

    def drip(client):
        for byte in b"HTTP/1.1 201 Created\r\n\r\n":
            client.sendall(bytes([byte]))
            time.sleep(0.3)

    dripping = Raw(drip)
    try:
        PushSubscription.objects.create(user=bob, endpoint=f"{dripping.origin}/push/bob", **KEYS)
        a_result_for(season, alice, bob)
        started = time.monotonic()
        assert len(outbox.sweep(older_than=0)["failed"]) == 1
        took = time.monotonic() - started
    finally:
        dripping.close()
    assert took < 4  # the deadline and the test's own work; the drip alone is 7.5 s
    notification = Notification.objects.get(recipient=bob)
    assert notification.state == Notification.State.QUEUED and notification.claimed_at is None


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://push.evil.example/x",  # resolves to a private address (below)
        "https://foo.localhost/x",
        "https://metadata.google.internal/computeMetadata/v1/",
        "https://push.example:8443/x",
        "https://push.example:80/x",
        "https://push.example:0/x",
        "https://printer.local/x",
    ],
)
def test_an_endpoint_off_the_public_internet_is_refused_at_registration(client, alice, monkeypatch, endpoint):
    real = endpoints.resolver
    monkeypatch.setattr(
        endpoints,
        "resolver",
        lambda host, port, **kw: (
            [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.7", port))]
            if host == "push.evil.example"
            else real(host, port, **kw)
        ),
    )
    client.force_login(alice)
    answer = client.post(
        reverse("notifications:devices"),
        json.dumps({"endpoint": endpoint, "keys": KEYS}),
        content_type="application/json",
    )
    assert answer.status_code == 400 and "push subscription" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_a_public_push_service_is_accepted(client, alice):
    client.force_login(alice)
    answer = client.post(
        reverse("notifications:devices"),
        json.dumps({"endpoint": "https://fcm.googleapis.com/fcm/send/abc", "keys": KEYS}),
        content_type="application/json",
    )
    assert answer.status_code == 201 and PushSubscription.objects.filter(user=alice).count() == 1


@pytest.mark.parametrize(
    "address", ["10.0.0.7", "127.0.0.1", "169.254.169.254", "::1", "fd00::1", "::ffff:192.168.1.1", "100.64.0.1"]
)
def test_a_registered_name_that_now_resolves_to_a_private_address_is_never_posted_to(
    season, alice, bob, members, monkeypatch, address
):
    """Registered while public, resolving to the site's own network at delivery (DNS rebinding): refused before
    any connection, the device removed, the message dropped."""
    PushSubscription.objects.create(user=bob, endpoint="https://push.rebind.example/bob", **KEYS)
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    monkeypatch.setattr(
        endpoints, "resolver", lambda host, port, **kw: [(family, socket.SOCK_STREAM, 6, "", (address, port))]
    )
    connect = mock.Mock(side_effect=AssertionError("connected"))
    monkeypatch.setattr(push.socket, "create_connection", connect)
    a_result_for(season, alice, bob)
    assert outbox.sweep(older_than=0) == {"ran": 1, "failed": []}
    assert not connect.called
    assert not PushSubscription.objects.exists()
    assert Notification.objects.get(recipient=bob).state == Notification.State.DROPPED


def test_the_delivery_connects_to_the_address_it_checked(season, alice, bob, members, monkeypatch):
    """The name is resolved once, checked, and that address is the one connected to (TLS still names the host)."""
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", **KEYS)
    connect = mock.Mock(side_effect=ConnectionRefusedError("test"))
    monkeypatch.setattr(push.socket, "create_connection", connect)
    a_result_for(season, alice, bob)
    assert len(outbox.sweep(older_than=0)["failed"]) == 1
    assert connect.call_args.args[0] == ("93.184.215.14", 443)  # tests/conftest.py's public address


@pytest.mark.django_db(transaction=True)
def test_a_push_is_sent_outside_any_transaction_and_a_second_run_meanwhile_sends_nothing(season, alice, bob, members):
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", **KEYS)
    a_result_for(season, alice, bob)
    seen = []

    def send(subscription, message):
        seen.append(connection.in_atomic_block)
        seen.append(delivery.deliver(bob.pk))  # a hint and a sweep at once: the claim keeps it to one

    with mock.patch.object(delivery, "send", send):
        assert delivery.deliver(bob.pk) == {"pushed": 1}
    assert seen == [False, {}]  # the second run found nothing to send
    assert Notification.objects.get(recipient=bob).state == Notification.State.PUSHED


def test_a_message_whose_run_died_mid_send_is_taken_again_once_its_claim_lapses(season, alice, bob, members):
    PushSubscription.objects.create(user=bob, endpoint="https://push.example/bob", **KEYS)
    a_result_for(season, alice, bob)
    row = Notification.objects.get(recipient=bob)
    Notification.objects.filter(pk=row.pk).update(state=Notification.State.SENDING, claimed_at=timezone.now())
    with mock.patch.object(delivery, "send") as send:
        assert delivery.deliver(bob.pk) == {}  # claimed by a run still going: left alone
        assert digest.release_held(timezone.now()) == 0
        Notification.objects.filter(pk=row.pk).update(
            claimed_at=timezone.now() - delivery.CLAIM_LEASE - datetime.timedelta(seconds=1)
        )
        with mock.patch.object(outbox, "ask_notify") as ask:
            assert digest.release_held(timezone.now()) == 1
        ask.assert_called_once_with(bob.pk)
        assert delivery.deliver(bob.pk) == {"pushed": 1}
    assert send.call_count == 1
    assert Notification.objects.get(pk=row.pk).state == Notification.State.PUSHED


def test_a_push_service_that_keeps_failing_is_tried_ten_times_then_the_message_is_dropped(
    season, alice, bob, members, local
):
    failing = PushService()
    failing.status = 503
    try:
        PushSubscription.objects.create(user=bob, endpoint=f"{failing.origin}/push/bob", **KEYS)
        a_result_for(season, alice, bob)
        for attempt in range(1, delivery.DELIVERY_ATTEMPTS):
            assert len(outbox.sweep(older_than=0)["failed"]) == 1
            row = Notification.objects.get(recipient=bob)
            assert (row.state, row.attempts) == (Notification.State.QUEUED, attempt)
        assert outbox.sweep(older_than=0) == {"ran": 1, "failed": []}  # the tenth: given up, the outbox emptied
        assert outbox.sweep(older_than=0) == {"ran": 0, "failed": []}
    finally:
        failing.close()
    assert len(failing.received) == delivery.DELIVERY_ATTEMPTS
    row = Notification.objects.get(recipient=bob)
    assert (row.state, row.attempts) == (Notification.State.DROPPED, delivery.DELIVERY_ATTEMPTS)
    assert PushSubscription.objects.filter(user=bob).count() == 1  # the device stays: the service may recover
