"""Web push for real (issue 39): a push service on localhost receives what the site sends; the test decrypts it
with the subscription's own keys (RFC 8291, http_ece) and checks the VAPID signature (RFC 8292) with the site's
public key. A 404 or 410 from the push service removes the subscription."""

import base64
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from unittest import mock

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from leagues.jobs import outbox
from leagues.models import LeagueJob
from leagues.notifications import push
from leagues.notifications.models import Notification, PushSubscription
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def public_raw(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


class PushService:
    """A push service on 127.0.0.1: keeps each request and answers `status`."""

    def __init__(self):
        self.received, self.status = [], 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.append({"path": self.path, "headers": headers, "body": body})
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Browser:
    """A device's push keys, as the browser makes them: an ECDH P-256 pair and a 16-byte auth secret."""

    def __init__(self, service: PushService, name: str):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"{service.origin}/push/{name}"

    def subscribe(self, user) -> PushSubscription:
        return PushSubscription.objects.create(
            user=user, endpoint=self.endpoint, p256dh=b64(public_raw(self.key)), auth=b64(self.auth)
        )

    def decrypt(self, request) -> dict:
        assert request["headers"]["content-encoding"] == "aes128gcm"
        return json.loads(
            http_ece.decrypt(request["body"], private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        )


@pytest.fixture
def vapid(settings):
    key = ec.generate_private_key(ec.SECP256R1())
    settings.VAPID_PRIVATE_KEY = b64(key.private_numbers().private_value.to_bytes(32, "big"))
    settings.VAPID_PUBLIC_KEY = b64(public_raw(key))
    settings.VAPID_SUBJECT = "mailto:organiser@example.org"
    return key


@pytest.fixture
def service(settings):
    settings.PUSH_LOCAL_ENDPOINTS = True  # the test's push service is plain http on this machine
    service = PushService()
    yield service
    service.close()


@pytest.fixture(autouse=True)
def no_broker():
    with mock.patch.object(outbox, "publish"):
        yield


def check_vapid(request, settings, origin: str) -> dict:
    """The Authorization header: `vapid t=<JWT>, k=<public key>`, the JWT signed ES256 with the site's key."""
    scheme, _sep, params = request["headers"]["authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    assert fields["k"] == settings.VAPID_PUBLIC_KEY
    header, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(settings.VAPID_PUBLIC_KEY))
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )  # raises if forged
    claims = json.loads(unb64(claims))
    assert claims["aud"] == origin and claims["sub"] == settings.VAPID_SUBJECT
    assert claims["exp"] > time.time()
    return claims


def test_a_result_waiting_reaches_each_device_encrypted_for_it_and_signed_by_the_site(
    season, alice, bob, carol, members, vapid, service, settings
):
    phone, tablet = Browser(service, "bob-phone"), Browser(service, "bob-tablet")
    phone.subscribe(bob)
    tablet.subscribe(bob)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    outbox.sweep(older_than=0)  # the worker runs the outbox row the result wrote
    assert sorted(r["path"] for r in service.received) == ["/push/bob-phone", "/push/bob-tablet"]
    for device, request in zip((phone, tablet), sorted(service.received, key=lambda r: r["path"]), strict=True):
        message = device.decrypt(request)
        assert message["title"] == "Shitennō of 26 November waits for your sign-off"
        assert message["body"] == "Edo Gamers, Thursday; with alice" and message["url"] == "/results/waiting/"
        check_vapid(request, settings, service.origin)
        assert int(request["headers"]["ttl"]) == push.TTL
    with pytest.raises(http_ece.ECEException):  # another device's keys cannot read it
        Browser(service, "eve").decrypt(service.received[0])
    assert Notification.objects.get(recipient=bob).state == Notification.State.PUSHED


def test_a_message_is_worded_in_the_recipient_s_language(season, alice, bob, members, vapid, service):
    from leagues.notifications.models import Preference

    Preference.objects.create(user=bob, language="nl")
    phone = Browser(service, "bob")
    phone.subscribe(bob)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    outbox.sweep(older_than=0)
    assert phone.decrypt(service.received[0])["title"] == "Shitennō van 26 november wacht op je bevestiging"


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_forgot_is_removed(season, alice, bob, members, vapid, service, status):
    phone = Browser(service, "bob")
    phone.subscribe(bob)
    service.status = status
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    assert outbox.sweep(older_than=0) == {"ran": 1, "failed": []}
    assert len(service.received) == 1  # it was asked
    assert not PushSubscription.objects.exists()
    assert Notification.objects.get(recipient=bob).state == Notification.State.DROPPED
    assert not LeagueJob.objects.exists()


def test_a_push_service_error_keeps_the_message_for_the_next_sweep(season, alice, bob, members, vapid, service):
    phone = Browser(service, "bob")
    phone.subscribe(bob)
    service.status = 503
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    assert len(outbox.sweep(older_than=0)["failed"]) == 1
    assert Notification.objects.get(recipient=bob).state == Notification.State.QUEUED
    service.status = 201
    assert outbox.sweep(older_than=0) == {"ran": 1, "failed": []}
    assert len(service.received) == 2 and phone.decrypt(service.received[1])["title"].startswith("Shitennō of")
    assert PushSubscription.objects.count() == 1
    assert Notification.objects.get(recipient=bob).state == Notification.State.PUSHED
