"""Two phones at a Teikoku table (360 px) when the club's wifi drops on one of them: alice's phone goes offline and
keeps taking moves (they wait on the phone, a banner counts them), bob's stays online. When alice's network returns
her moves reach the log once each, in the order she entered them; when bob moved meanwhile, hers stop at the 409,
her phone shows the table as it is now and lists the moves not taken, and nothing is entered twice or dropped
unsaid. Teikoku's "End the turn" is the move: the site reads whose turn it is from the table, so the same button
tapped ten times offline makes ten legal moves in a row (docs/offline.md)."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import MoveEvent, TableSession
from leagues.people.players import player_for_user
from tests.games.teikoku_site.test_pages import SHORT

from .test_table import LIVE, no_horizontal_scroll, see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

END_TURN = 'form[data-move="turn"] button[value="end_turn"]'


@pytest.fixture
def table(alice, bob):
    return services.session_create(
        game="teikoku", created_by=alice, setup=SHORT, players=[player_for_user(alice), player_for_user(bob)]
    )


def logged(session: TableSession) -> list[tuple[int, str]]:
    return list(MoveEvent.objects.filter(session=session).order_by("seq").values_list("seq", "payload__type"))


def open_table(page, session) -> None:
    page.goto(session.get_absolute_url())
    see_seq(page, session.head_seq)
    # The worker has taken the page over (it keeps the copies the page opens from offline).
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")


def enter_offline(page, n: int) -> None:
    for i in range(1, n + 1):
        page.locator(END_TURN).click()
        expect(page.locator("#offline-moves li.waiting")).to_have_count(i)


def test_ten_moves_entered_offline_reach_the_log_once_each_in_order(phone, table, alice, bob):
    alice_phone, bob_phone = phone(alice), phone(bob)
    open_table(alice_phone, table)
    open_table(bob_phone, table)

    alice_phone.context.set_offline(True)
    enter_offline(alice_phone, 10)
    expect(alice_phone.locator("#offline-banner")).to_have_text("offline: 10 moves waiting")
    no_horizontal_scroll(alice_phone)
    assert logged(table) == []  # nothing reached the site while the phone was offline
    see_seq(bob_phone, 0)

    alice_phone.context.set_offline(False)
    see_seq(alice_phone, 10)
    see_seq(bob_phone, 10)
    expect(alice_phone.locator("#offline-banner")).to_be_hidden()
    expect(alice_phone.locator("#offline-moves")).to_be_hidden()
    assert logged(table) == [(seq, "end_turn") for seq in range(1, 11)]
    keys = list(MoveEvent.objects.filter(session=table).values_list("idempotency_key", flat=True))
    assert len(set(keys)) == 10 and None not in keys

    # Opened again, the phone has nothing left to send: still ten moves.
    alice_phone.reload()
    see_seq(alice_phone, 10)
    expect(alice_phone.locator("#offline-banner")).to_be_hidden()
    assert len(logged(table)) == 10


def test_a_move_from_another_phone_stops_the_waiting_ones_and_lists_them_to_enter_again(phone, table, alice, bob):
    alice_phone, bob_phone = phone(alice), phone(bob)
    open_table(alice_phone, table)
    open_table(bob_phone, table)

    alice_phone.context.set_offline(True)
    enter_offline(alice_phone, 3)
    expect(alice_phone.locator("#offline-banner")).to_have_text("offline: 3 moves waiting")
    bob_phone.locator(END_TURN).click()
    see_seq(bob_phone, 1)

    alice_phone.context.set_offline(False)
    # The first waiting move expected seq 0; bob's made it 1: 409. None of alice's three is entered.
    expect(alice_phone.locator(".notice.stale")).to_contain_text("Here is the table now.", timeout=LIVE)
    see_seq(alice_phone, 1)
    expect(alice_phone.locator("#not-taken li")).to_have_count(3)
    expect(alice_phone.locator("#offline-moves")).to_be_hidden()
    no_horizontal_scroll(alice_phone)
    assert [who for who in MoveEvent.objects.filter(session=table).values_list("entered_by__username", flat=True)] == [
        "bob"
    ]

    # The list outlives a reload (it is kept on the phone), until alice says she has re-entered what applies.
    alice_phone.reload()
    expect(alice_phone.locator("#not-taken li")).to_have_count(3)
    alice_phone.locator(END_TURN).click()
    see_seq(alice_phone, 2)
    alice_phone.get_by_role("button", name="Done, I have re-entered what applies").click()
    expect(alice_phone.locator("#not-taken")).to_be_hidden()
    assert [
        who
        for who in MoveEvent.objects.filter(session=table)
        .order_by("seq")
        .values_list("entered_by__username", flat=True)
    ] == ["bob", "alice"]


def test_fifty_moves_entered_offline_all_arrive(phone, table, alice):
    page = phone(alice)
    open_table(page, table)
    page.context.set_offline(True)
    enter_offline(page, 50)
    expect(page.locator("#offline-banner")).to_have_text("offline: 50 moves waiting")
    page.context.set_offline(False)
    see_seq(page, 50)
    assert logged(table) == [(seq, "end_turn") for seq in range(1, 51)]


def test_a_page_read_before_opens_offline_marked_with_its_time(phone, table, alice):
    page = phone(alice)
    open_table(page, table)
    page.goto("/leagues/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now through the worker, which keeps the copy
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text("Offline: this is the copy of this page from")
    # the worker's copy, marked by it: the notice alone shows whenever the phone is offline, even on a live page
    expect(page.locator("#offline-copy")).to_have_attribute("data-from-copy", "")
    page.goto(table.get_absolute_url())
    expect(page.locator(END_TURN)).to_be_visible()


def test_chromium_finds_the_site_installable(phone, alice):
    """The check behind Chromium's install prompt (Lighthouse 12 no longer has its installable-manifest audit)."""
    page = phone(alice)
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
    errors = [e["errorId"] for e in devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # Playwright's contexts are incognito ones, which Chromium never offers to install: that one is the browser's.
    assert [e for e in errors if e != "in-incognito"] == [], errors
