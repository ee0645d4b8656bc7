"""When push cannot be turned on, the settings page says so (a new user's walk found it silent), at 360 px in
English and Dutch: the permission refused or dismissed, a browser without push, the browser failing to subscribe,
and the site refusing the subscription (which is then dropped from the browser too). Chromium's own prompt and
push service are not reachable here, so each case stubs the browser's side in an init script; the site's side
(the page, its script, the device endpoint) is real."""

import json

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.notifications.models import PushSubscription

from .test_axe import RUN_AXE, axe_source  # noqa: F401 (a fixture)
from .test_push import FAKE_SUBSCRIBE
from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "denied": "This browser refuses notifications from this site; allow them in its settings.",
        "dismissed": "Notifications were not allowed. Tap Turn on to be asked again.",
        "unsupported": "This browser cannot receive push messages. Choose e-mail below, or open this page in "
        "another browser.",
        "failed": "This browser could not turn push on. Try again in a moment.",
        "refused": "The site could not turn push on for this device.",
        "push off": "The site could not turn push on for this device. Push is off on this site.",
        "turn on": "Turn on",
    },
    "nl": {
        "denied": "Deze browser weigert pushberichten van deze site; sta ze toe in de instellingen van de browser.",
        "dismissed": "Pushberichten zijn niet toegestaan. Tik op Zet aan om het opnieuw te laten vragen.",
        "unsupported": "Deze browser kan geen pushberichten ontvangen. Kies hieronder voor e-mail, of open deze "
        "pagina in een andere browser.",
        "failed": "Deze browser kon pushberichten niet aanzetten. Probeer het zo nog eens.",
        "refused": "De site kon pushberichten voor dit apparaat niet aanzetten.",
        "push off": "De site kon pushberichten voor dit apparaat niet aanzetten. Pushberichten staan uit op deze site.",
        "turn on": "Zet aan",
    },
}

PERMISSION = "(answer) => { Notification.requestPermission = () => Promise.resolve(answer); }"
NO_PUSH = "delete window.PushManager;"
SUBSCRIBE_FAILS = """PushManager.prototype.subscribe = () => Promise.reject(new DOMException(
  "Registration failed - push service error", "AbortError"));"""


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "BPub", "mailto:a@b.c"


def settings_page(phone, live_server, user, language, *scripts):
    page = phone(user)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    for script in scripts:
        page.context.add_init_script(script)
    page.goto("/accounts/notifications/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    return page


def said(page, text: str) -> None:
    status = page.locator(".push-state")
    expect(status).to_have_text(text)
    expect(status).to_have_class("push-state error")
    no_horizontal_scroll(page)


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("answer", ["denied", "default"])
def test_a_refused_or_dismissed_permission_is_said(phone, live_server, alice, push_on, language, answer):
    page = settings_page(phone, live_server, alice, language, f"({PERMISSION})({json.dumps(answer)})")
    page.get_by_role("button", name=SAYS[language]["turn on"]).click()
    said(page, SAYS[language]["denied" if answer == "denied" else "dismissed"])
    expect(page.get_by_role("button", name=SAYS[language]["turn on"])).to_be_visible()  # he may try again
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_browser_without_push_is_told_at_once(phone, live_server, alice, push_on, language):
    page = settings_page(phone, live_server, alice, language, NO_PUSH)
    said(page, SAYS[language]["unsupported"])
    expect(page.get_by_role("button", name=SAYS[language]["turn on"])).to_be_hidden()


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_browser_that_fails_to_subscribe_is_said(phone, live_server, alice, push_on, language):
    page = settings_page(phone, live_server, alice, language, f'({PERMISSION})("granted")', SUBSCRIBE_FAILS)
    page.get_by_role("button", name=SAYS[language]["turn on"]).click()
    said(page, SAYS[language]["failed"])
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_site_refusing_the_subscription_is_said_and_the_browser_s_is_dropped(
    phone, live_server, alice, push_on, language
):
    """An endpoint the site will not post to (plain http on this machine): the device endpoint answers 400."""
    keys = ["http://127.0.0.1:9/push", "B" * 87, "a" * 22]
    page = settings_page(
        phone, live_server, alice, language, f'({PERMISSION})("granted")', f"({FAKE_SUBSCRIBE})({json.dumps(keys)})"
    )
    page.get_by_role("button", name=SAYS[language]["turn on"]).click()
    said(page, SAYS[language]["refused"])
    assert not PushSubscription.objects.exists()
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.pushManager.getSubscription())") is None


@pytest.mark.parametrize("language", ["en", "nl"])
def test_push_turned_off_on_the_site_meanwhile_says_why(phone, live_server, alice, push_on, settings, language):
    keys = ["https://push.example/send/abc", "B" * 87, "a" * 22]
    page = settings_page(
        phone, live_server, alice, language, f'({PERMISSION})("granted")', f"({FAKE_SUBSCRIBE})({json.dumps(keys)})"
    )
    settings.VAPID_PRIVATE_KEY = ""  # the operator took the keys away after the page was shown: a 409
    page.get_by_role("button", name=SAYS[language]["turn on"]).click()
    said(page, SAYS[language]["push off"])
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_failure_said_on_the_page_passes_axe(
    phone,
    live_server,
    alice,
    push_on,
    axe_source,
    language,  # noqa: F811
    dark,
):
    """The failure's red line keeps its contrast, light and dark (axe-core, as tests/browser/test_axe.py runs it)."""
    page = phone(alice, dark=dark)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.context.add_init_script(f'({PERMISSION})("denied")')
    page.goto("/accounts/notifications/")
    page.get_by_role("button", name=SAYS[language]["turn on"]).click()
    said(page, SAYS[language]["denied"])
    page.evaluate(axe_source + "\n;0")
    assert page.evaluate(RUN_AXE) == []
