"""One phone, passed around a club (360 px): alice, who owns a private club, reads its page, her table and the
leagues, then signs out; bob signs in on the same phone. Whether the wifi is there or not, bob never sees a copy
of alice's pages nor her club's invite link; a page showing a secret is never kept at all; and a copy is shown
only when the network cannot be reached, always saying it is a copy (docs/offline.md, docs/security.md)."""

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import services
from leagues.people.players import player_for_user
from tests.games.teikoku_site.test_pages import SHORT

from .test_offline import open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every page copy on the phone, in any of the site's caches, as (cache, address, text), read from the page (the
# Cache API is the site's): any HTML response kept, whatever the worker named its cache.
COPIES = """async () => {
  const found = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      const response = await cache.match(request);
      if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) continue;
      found.push([name, new URL(request.url).pathname, await response.text()]);
    }
  }
  return found;
}"""


def sign_in(page, user) -> None:
    """bob signs in on the phone as it is (the same browser, its worker and caches): his session cookie."""
    client = Client()
    client.force_login(user)
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "url": page.evaluate("location.origin"),
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
            }
        ]
    )


def signed_in_as(page, username: str) -> None:
    """The header names who is signed in on the phone."""
    expect(page.locator("header .account .who .name")).to_have_text(username)


def log_out(page, username: str) -> None:
    """The header's name opens its menu, where "Log out (name)" is (the header keeps one row at 360 px)."""
    page.locator("header .account .who > summary").click()
    page.get_by_role("button", name=f"Log out ({username})").click()


def read(page, path: str) -> None:
    page.goto(path)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def opens_offline(page, path: str) -> str:
    """The page's text when opened with the network gone ("" when the phone has no copy to show)."""
    try:
        page.goto(path)
    except PlaywrightError:
        return ""
    return page.locator("body").inner_text()


def test_the_next_account_on_a_shared_phone_never_sees_the_first_ones_pages(phone, club, alice, bob, carol):
    table = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=SHORT,
        club=club,
        is_public=False,
        players=[player_for_user(alice), player_for_user(carol)],
    )
    page = phone(alice)
    open_table(page, table)
    read(page, "/leagues/")
    page.reload()  # through the worker now: kept
    read(page, club.get_absolute_url())
    expect(page.locator("#invite-link")).to_have_value(
        f"{page.url.split('/clubs/')[0]}/clubs/join/{club.invite_token}/"
    )
    page.reload()
    kept = page.evaluate(COPIES)
    assert {path for _, path, _ in kept} >= {table.get_absolute_url(), "/leagues/"}, kept
    # The club page shows its owner the invite link: it is never kept, not even for her.
    assert club.get_absolute_url() not in {path for _, path, _ in kept}
    assert not any(club.invite_token in text for _, _, text in kept)

    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    # Signed out: no copy of alice's pages is left on the phone.
    assert not any("alice" in text for _, _, text in page.evaluate(COPIES))

    sign_in(page, bob)
    read(page, "/")
    signed_in_as(page, "bob")
    page.context.set_offline(True)
    for path in (club.get_absolute_url(), table.get_absolute_url(), "/leagues/"):
        text = opens_offline(page, path)
        assert "alice" not in text and club.invite_token not in text, (path, text)
    page.context.set_offline(False)
    read(page, "/")
    assert not any("alice" in text for _, _, text in page.evaluate(COPIES))


def test_a_change_of_account_without_signing_out_drops_the_copies_too(phone, alice, bob):
    """An expired session, or a second person signing in over the first: the first page for the new account
    empties the phone's copies of the old one's."""
    table = services.session_create(
        game="teikoku", created_by=alice, setup=SHORT, players=[player_for_user(alice), player_for_user(bob)]
    )
    page = phone(alice)
    open_table(page, table)
    page.reload()
    assert any(path == table.get_absolute_url() for _, path, _ in page.evaluate(COPIES))
    sign_in(page, bob)
    read(page, "/rankings/")
    kept = page.evaluate(COPIES)
    assert kept and not any("alice" in text and 'class="name">alice<' in text for _, _, text in kept)
    assert {name for name, _, _ in kept} == {kept[0][0]}  # one account's copies only


def test_a_copy_is_shown_only_when_the_network_cannot_be_reached_and_always_says_so(phone, alice):
    """The phone believes it is online, but the request goes nowhere (lie-fi): the copy, marked as a copy. The
    site answering, even with an error, is never replaced by a copy."""
    page = phone(alice)
    read(page, "/leagues/")
    page.reload()
    expect(page.locator("#offline-copy")).to_be_hidden()

    page.context.route("**/leagues/", lambda route: route.abort("connectionrefused"))
    page.reload()
    assert page.evaluate("navigator.onLine")
    expect(page.locator("#offline-copy")).to_contain_text("Offline: this is the copy of this page from")
    page.context.unroute("**/leagues/")

    page.context.route("**/leagues/", lambda route: route.fulfill(status=502, body="Bad gateway"))
    page.reload()
    expect(page.locator("body")).to_have_text("Bad gateway")
