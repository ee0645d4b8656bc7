"""Club wifi is flaky rather than off (360 px, Teikoku's "End the turn" as the move): the phone believes it is
online while a move's send fails (the connection refused, a proxy's 502, an answer lost on the way back). The move
is never dropped: it waits on the phone, the banner says it waits to be sent (not "offline"), and it is sent again
while online, without a reload, with the same key and seq, so the site takes it once (docs/offline.md)."""

import pytest
from playwright.sync_api import expect

from games.models import MoveEvent

from .test_offline import END_TURN, logged, open_table, table  # noqa: F401  (table is a fixture)
from .test_table import LIVE, see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MOVES = "**/tables/*/move/"


class Wifi:
    """The club's wifi between the phone and the site, for move posts only: it passes them, refuses them (as
    "refused": the connection refused; "502": a proxy answering Bad Gateway), or holds them until released."""

    def __init__(self, context) -> None:
        self.mode = "pass"
        self.held = []
        self.posts = []  # every move post the phone made, as its form fields
        context.route(MOVES, self.handle)

    def handle(self, route) -> None:
        self.posts.append(dict(pair.split("=", 1) for pair in (route.request.post_data or "").split("&") if pair))
        if self.mode == "refused":
            route.abort("connectionrefused")
        elif self.mode == "502":
            route.fulfill(status=502, body="Bad Gateway")
        elif self.mode == "hold":
            self.held.append(route)
        else:
            route.continue_()


def until(page, condition) -> None:
    """Waits for a condition on the test's side (the posts the wifi saw), letting Playwright deliver them."""
    for _ in range(LIVE // 20):
        if condition():
            return
        page.wait_for_timeout(20)
    assert condition()


def waiting(page, n: int) -> None:
    expect(page.locator("#offline-moves li.waiting")).to_have_count(n, timeout=LIVE)


@pytest.mark.parametrize("failure", ["refused", "502"])
def test_a_move_whose_send_fails_while_online_waits_and_is_sent_once_when_the_site_answers(
    phone, table, alice, failure
):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    wifi = Wifi(page.context)
    wifi.mode = failure

    page.locator(END_TURN).click()
    waiting(page, 1)
    assert page.evaluate("navigator.onLine")
    expect(page.locator("#offline-banner")).to_have_text(
        "waiting to send: 1 move (the site did not answer; trying again)"
    )
    # It is tried again while online, without a reload (each try is a post the wifi refuses).
    until(page, lambda: len(wifi.posts) >= 2)
    first_key = wifi.posts[0]["key"]
    assert logged(table) == []

    wifi.mode = "pass"
    see_seq(page, 1)
    expect(page.locator("#offline-banner")).to_be_hidden()
    waiting(page, 0)
    assert logged(table) == [(1, "end_turn")]
    assert MoveEvent.objects.get(session=table).idempotency_key == first_key
    assert {post["key"] for post in wifi.posts} == {first_key}  # every try was the same request
    assert {post["seq"] for post in wifi.posts} == {"0"}


def test_an_answer_lost_on_the_way_back_is_asked_again_with_the_same_key_and_the_next_tap_follows_it(
    phone, table, alice
):  # noqa: F811
    """The site took the first tap but its answer never arrived; a second tap is entered meanwhile. Without a
    reload both reach the log once each: the first is sent again with its own key and seq (the site answers it as
    the same request), the second expects the seq after it."""
    page = phone(alice)
    open_table(page, table)
    wifi = Wifi(page.context)
    wifi.mode = "hold"

    page.locator(END_TURN).click()
    until(page, lambda: wifi.held)
    # The network drops mid-request; the player taps again: queued behind the one in flight.
    page.locator(END_TURN).click()
    waiting(page, 2)
    lost = wifi.held.pop()
    wifi.mode = "refused"  # the wifi stays bad a while
    lost.fetch()  # it reaches the site, which takes it ...
    lost.abort("connectionreset")  # ... and the answer is lost
    expect(page.locator("#offline-banner")).to_contain_text("waiting to send: 2 moves")
    assert logged(table) == [(1, "end_turn")]

    wifi.mode = "pass"
    see_seq(page, 2)
    waiting(page, 0)
    expect(page.locator("#not-taken")).to_be_hidden()
    assert logged(table) == [(1, "end_turn"), (2, "end_turn")]
    keys = [post["key"] for post in wifi.posts]
    assert keys[0] == keys[1] and keys.count(keys[0]) >= 2 and keys[-1] != keys[0]
    assert (
        list(MoveEvent.objects.filter(session=table).order_by("seq").values_list("idempotency_key", flat=True))[0]
        == keys[0]
    )
