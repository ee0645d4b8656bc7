"""A shared club phone shows a push only to the account it is for (issue 47, finding 2), at 360 px in Debian's
Chromium. alice turns push on and her round's message reaches the phone; a message naming another account is not
shown; then bob signs in on that phone, and a message of alice's that still arrives (a device row that outlived her
session, by less than the sweep's hour) is not shown, while bob's is.

The messages reach the service worker as a push service would hand them over (DevTools' deliverPushMessage, as in
test_push.py); each refusal is checked against a message shown after it, so no test waits for something not to
happen."""

import json
from unittest import mock

import pytest
from playwright.sync_api import expect

from leagues.jobs import outbox
from leagues.nights import services as nights
from leagues.notifications.models import PushSubscription
from shitenno_site.offline import account_tag
from tests.notifications.conftest import members, opened_round, thursday_season  # noqa: F401 (fixtures)
from tests.notifications.test_web_push import Browser, b64, public_raw, vapid  # noqa: F401

from .test_offline_shared_phone import sign_in
from .test_push import FAKE_SUBSCRIBE, service  # noqa: F401 (fixture)
from .waits import wait_until

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOWN = """() => navigator.serviceWorker.ready.then(r => r.getNotifications())
    .then(ns => ns.map(n => n.title))"""


def deliver(page, live_server, message: dict) -> None:
    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(50)
    registration = next(r for r in registrations if r["scopeURL"].startswith(live_server.url))
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": live_server.url, "registrationId": registration["registrationId"], "data": json.dumps(message)},
    )
    cdp.detach()


def shown_once(page, title: str) -> list[str]:
    """The titles shown, once the one named has been (the messages delivered before it have been handled)."""
    return wait_until(page, SHOWN, lambda titles: title in titles)


def test_a_shared_phone_shows_each_push_only_to_the_account_signed_in(
    phone, live_server, settings, alice, bob, opened_round, vapid, service
):  # noqa: F811
    settings.PUSH_LOCAL_ENDPOINTS = True
    device = Browser(service, "club-phone")
    page = phone(alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    keys = [device.endpoint, b64(public_raw(device.key)), b64(device.auth)]
    page.context.add_init_script(f"({FAKE_SUBSCRIBE})({json.dumps(keys)})")
    page.goto("/accounts/notifications/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.get_by_role("button", name="Turn on").click()
    page.locator(".push-state", has_text="Push is on for this device.").wait_for()
    with mock.patch.object(outbox, "publish"):
        nights.tables_open(night_round=opened_round, user=alice)
        outbox.sweep(older_than=0)
    for_alice = device.decrypt(service.received[0])
    assert for_alice["account"] == account_tag(alice)

    deliver(page, live_server, for_alice | {"account": account_tag(bob), "title": "For bob", "tag": "b1"})
    deliver(page, live_server, for_alice)
    assert shown_once(page, for_alice["title"]) == [for_alice["title"]]

    page.evaluate(
        "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.forEach(n => n.close()))"
    )
    sign_in(page, bob)  # the phone changes hands
    page.goto("/leagues/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    deliver(page, live_server, for_alice | {"title": "Alice's, late", "tag": "a2"})
    deliver(page, live_server, for_alice | {"account": account_tag(bob), "title": "For bob", "tag": "b2"})
    assert shown_once(page, "For bob") == ["For bob"]


# As FAKE_SUBSCRIBE, but the browser's subscription outlives the page (as a real one does): kept in localStorage.
KEPT_SUBSCRIBE = """([endpoint, p256dh, auth]) => {
  const subscription = {endpoint, expirationTime: null, options: {userVisibleOnly: true},
    toJSON: () => ({endpoint, expirationTime: null, keys: {p256dh, auth}}),
    unsubscribe: () => { localStorage.removeItem("fake-push"); return Promise.resolve(true); }};
  PushManager.prototype.subscribe = function () {
    localStorage.setItem("fake-push", "1"); return Promise.resolve(subscription); };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem("fake-push") ? subscription : null); };
}"""


def test_the_settings_page_says_push_is_on_only_while_the_site_holds_this_device(
    phone, live_server, settings, alice, vapid, service
):  # noqa: F811
    """The site dropped the device (its session ended: a password change) while the browser kept its
    subscription: the page says push is off, and "Turn on" registers it again (issue 47)."""
    settings.PUSH_LOCAL_ENDPOINTS = True
    device = Browser(service, "club-phone")
    page = phone(alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    keys = [device.endpoint, b64(public_raw(device.key)), b64(device.auth)]
    page.context.add_init_script(f"({KEPT_SUBSCRIBE})({json.dumps(keys)})")
    page.goto("/accounts/notifications/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    status = page.locator(".push-state")
    page.get_by_role("button", name="Turn on").click()
    expect(status).to_have_text("Push is on for this device.")
    page.reload()
    expect(status).to_have_text("Push is on for this device.")  # the site holds it
    PushSubscription.objects.all().delete()
    page.reload()
    page.locator("#push[data-checked]").wait_for(state="attached")  # the site was asked
    expect(status).to_have_text("Push is off for this device.")
    page.get_by_role("button", name="Turn on").click()
    expect(status).to_have_text("Push is on for this device.")
    assert PushSubscription.objects.get().user == alice
