"""Signing out with the network gone finishes (issue 47, finding 3; docs/offline.md): at 360 px in Debian's
Chromium, alice taps "Log out" offline; the phone shows itself signed out at once, and the site ends her session
when the network is back: from that page, or, when she closed it, first thing from the next page opened."""

import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from .test_offline_shared_phone import log_out, read

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sessions_of(user) -> int:
    return sum(s.get_decoded().get("_auth_user_id") == str(user.pk) for s in Session.objects.all())


WORDS = {
    "en": {
        "note": "Signed out on this phone. The site is told as soon as the network is back.",
        "short": "Signed out",
        "log in": "Log in",
        "log out": "Log out",
    },
    "nl": {
        "note": "Uitgelogd op deze telefoon. De site hoort het zodra het netwerk terug is.",
        "short": "Uitgelogd",
        "log in": "Inloggen",
        "log out": "Uitloggen",
    },
}


def phone_in(phone, live_server, user, language: str):
    """`user`'s phone, its language the site's cookie (sent with every request, the worker's own too)."""
    page = phone(user)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return page


def log_out_in(page, username: str, language: str) -> None:
    """The header's name opens its menu, where "Log out (name)" is (the header keeps one row at 360 px)."""
    page.locator("header .account .who > summary").click()
    page.get_by_role("button", name=f"{WORDS[language]['log out']} ({username})").click()


def sign_out_offline(page, user, language: str = "en") -> None:
    read(page, "/leagues/")
    page.context.set_offline(True)
    log_out_in(page, user.username, language)
    expect(page.locator("#signed-out-offline")).to_have_text(WORDS[language]["note"])
    expect(page.locator("header .account")).to_have_text(WORDS[language]["short"])
    expect(page.locator("header .account .who")).to_have_count(0)
    assert sessions_of(user) == 1  # the site has not heard yet


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_sign_out_made_offline_ends_the_session_when_the_network_is_back(phone, live_server, alice, language):
    page = phone_in(phone, live_server, alice, language)
    sign_out_offline(page, alice, language)
    page.context.set_offline(False)
    expect(page.get_by_role("link", name=WORDS[language]["log in"])).to_be_visible()
    assert sessions_of(alice) == 0
    page.goto("/leagues/")
    expect(page.get_by_role("link", name=WORDS[language]["log in"])).to_be_visible()  # and stays signed out


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_next_page_sends_a_sign_out_that_was_made_offline_first(phone, live_server, alice, language):
    page = phone_in(phone, live_server, alice, language)
    sign_out_offline(page, alice, language)
    context = page.context
    page.close()  # the tab that made it is gone before the network is back
    context.set_offline(False)
    page = context.new_page()
    page.goto("/leagues/")
    expect(page.get_by_role("link", name=WORDS[language]["log in"])).to_be_visible()
    assert sessions_of(alice) == 0


def test_online_the_sign_out_posts_at_once(phone, alice):
    page = phone(alice)
    read(page, "/leagues/")
    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert sessions_of(alice) == 0


# The expiry records workbox keeps beside the copies (its "workbox-expiration" database): each names a cache and a
# page address. Read only once the worker has made the database (opening a database that is not there makes an
# empty one, which workbox would then not set up).
EXPIRY_RECORDS = """() => new Promise((resolve) => {
  const open = indexedDB.open("workbox-expiration");
  open.onerror = () => resolve(null);
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("cache-entries")) { db.close(); resolve(null); return; }
    const all = db.transaction("cache-entries").objectStore("cache-entries").getAll();
    all.onsuccess = () => { db.close(); resolve(all.result.map((r) => `${r.cacheName} ${r.url}`)); };
  };
})"""
SHOWN = "() => navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => ns.map((n) => n.title))"


def test_signing_out_leaves_no_page_address_nor_a_shown_message_of_the_account(phone, live_server, alice):
    """Issue 47 finding 4, found again by the outside review: after alice signed out, 5 expiry records of her page
    addresses stayed in the phone's storage, and her shown notifications stayed on the screen."""
    from .waits import wait_until

    page = phone(alice)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    for path in ("/leagues/", "/clubs/", "/rankings/"):
        read(page, path)
    mine = wait_until(
        page,
        EXPIRY_RECORDS,
        lambda records: records and any("shitenno-copies-" in r and "/rankings/" in r for r in records),
    )
    assert any("/clubs/" in record for record in mine)  # the check can fail: her addresses are there
    page.evaluate("navigator.serviceWorker.ready.then((r) => r.showNotification('Round 1: table 2, for alice'))")
    wait_until(page, SHOWN, lambda titles: titles == ["Round 1: table 2, for alice"])

    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    wait_until(page, SHOWN, lambda titles: titles == [])
    left = wait_until(
        page,
        EXPIRY_RECORDS,
        lambda records: (
            not any("shitenno-copies-" in r and ("/clubs/" in r or "/rankings/" in r) for r in records or [])
        ),
    )
    assert not any("/clubs/" in record or "/rankings/" in record for record in left or [])


def test_an_account_page_is_never_kept_even_when_it_was_the_first_page(phone, alice):
    """A fresh phone's first page is loaded before the worker controls it, and asks the worker to keep a copy
    of itself: an /accounts/ page (its e-mail address, its tokens) was kept so (the outside review)."""
    from .waits import wait_until

    page = phone(alice)
    read(page, "/accounts/me/")
    page.reload()  # now under the worker, which was asked to keep the first load
    read(page, "/leagues/")  # a page that is kept: once it is, the worker has handled the earlier message too
    kept = wait_until(
        page,
        """() => caches.keys().then((names) => Promise.all(names
        .filter((name) => name.startsWith("shitenno-copies-"))
        .map((name) => caches.open(name).then((cache) => cache.keys()))))
        .then((lists) => lists.flat().map((request) => new URL(request.url).pathname))""",
        lambda paths: "/leagues/" in paths,
    )
    assert not any(path.startswith("/accounts/") for path in kept)
