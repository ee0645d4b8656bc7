"""Push on a phone (issue 39), at 360 px in Debian's Chromium: alice turns push on from her notification settings
(the permission is asked only when she taps "Turn on"; the test's browser grants it), and when the night's round
opens her phone shows "Shitennō, round 1, table N" (the game, then where: issue 47).

Chromium subscribes through Google's push service, which this machine cannot reach, so the page's
`pushManager.subscribe` is answered with a subscription to a push service on localhost (the keys are the test's);
everything after that is real: the page posts the subscription, the site encrypts and signs the message for that
endpoint, the test's push service receives it, and the test hands the decrypted bytes to the service worker through
the DevTools protocol (what the push service would do), whose `push` listener shows the notification."""

import json
from unittest import mock

import pytest
from playwright.sync_api import expect

from leagues.jobs import outbox
from leagues.nights import services as nights
from leagues.notifications.models import PushSubscription
from tests.notifications.conftest import members, opened_round, thursday_season  # noqa: F401 (fixtures)
from tests.notifications.test_web_push import Browser, PushService, b64, public_raw, vapid  # noqa: F401

from .test_table import no_horizontal_scroll
from .waits import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAKE_SUBSCRIBE = """([endpoint, p256dh, auth]) => {
  const subscription = {endpoint, expirationTime: null, options: {userVisibleOnly: true},
    toJSON: () => ({endpoint, expirationTime: null, keys: {p256dh, auth}}),
    unsubscribe: () => { current = null; return Promise.resolve(true); }};
  let current = null;
  PushManager.prototype.subscribe = function () { current = subscription; return Promise.resolve(subscription); };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
}"""


@pytest.fixture
def service():
    service = PushService()
    yield service
    service.close()


def test_alice_turns_push_on_and_her_phone_shows_her_table_when_the_round_opens(
    phone, live_server, settings, alice, opened_round, vapid, service
):  # noqa: F811
    settings.PUSH_LOCAL_ENDPOINTS = True  # the test's push service is on localhost
    device = Browser(service, "alice-phone")
    page = phone(alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    keys = [device.endpoint, b64(public_raw(device.key)), b64(device.auth)]
    page.context.add_init_script(f"({FAKE_SUBSCRIBE})({json.dumps(keys)})")
    page.goto("/accounts/notifications/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    status = page.locator(".push-state")
    expect(status).to_have_text("Push is off for this device.")
    expect(page.get_by_role("button", name="Turn off")).to_be_hidden()
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Turn on").click()
    expect(status).to_have_text("Push is on for this device.")
    expect(page.get_by_role("button", name="Turn on")).to_be_hidden()
    expect(page.get_by_role("button", name="Turn off")).to_be_visible()
    assert list(PushSubscription.objects.values_list("user_id", "endpoint")) == [(alice.pk, device.endpoint)]

    with mock.patch.object(outbox, "publish"):
        nights.tables_open(night_round=opened_round, user=alice)
        outbox.sweep(older_than=0)  # the worker runs the round's outbox rows
    assert len(service.received) == 1
    message = device.decrypt(service.received[0])
    table = next(t for t in opened_round.tables.all() if alice.player.pk in t.players)
    assert message["title"] == f"Shitennō, round 1, table {table.position + 1}"
    assert message["body"].startswith("Edo Gamers, Thursday, the night of 26 November; with ")

    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")  # the registrations arrive as events
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(50)
    registration = next(r for r in registrations if r["scopeURL"].startswith(live_server.url))
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
    )
    shown = wait_until(
        page,
        """() => navigator.serviceWorker.ready
        .then(r => r.getNotifications()).then(ns => ns.map(n => [n.title, n.body, n.data.url]))""",
        bool,
    )
    assert shown == [[message["title"], message["body"], table.session.get_absolute_url()]]
