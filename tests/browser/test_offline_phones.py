"""The phone's queue of waiting moves is one per account and table, shared by the phone's tabs (360 px, Teikoku):
two tabs add to the one queue; a sign-out with moves waiting asks before dropping them; the next account on the
phone never sends them; a table finished meanwhile lists them as not taken, saying the game is over; each listed
move says what it was; an undo offline says it waits for the network (docs/offline.md)."""

import pytest
from django.db.models import F
from playwright.sync_api import expect

from games.models import MoveEvent, TableSession
from shitenno_site.offline import account_tag

from .test_offline import END_TURN, enter_offline, logged, open_table, table  # noqa: F401  (table is a fixture)
from .test_offline_lie_fi import Wifi, until, waiting
from .test_offline_shared_phone import log_out, sign_in, signed_in_as
from .test_table import see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def entered_by(session) -> list[str]:
    return list(
        MoveEvent.objects.filter(session=session).order_by("seq").values_list("entered_by__username", flat=True)
    )


def ready(page) -> None:
    """The table page has read its queue and done its first sending."""
    expect(page.locator("#offline-banner")).to_have_attribute("data-ready", "")


def test_two_tabs_of_one_table_add_to_one_queue_and_every_move_arrives_once(phone, table, alice):  # noqa: F811
    first = phone(alice)
    open_table(first, table)
    second = first.context.new_page()
    open_table(second, table)

    first.context.set_offline(True)
    enter_offline(first, 3)
    second.locator(END_TURN).click()
    waiting(second, 4)
    waiting(first, 4)
    expect(first.locator("#offline-banner")).to_have_text("offline: 4 moves waiting")

    first.context.set_offline(False)
    see_seq(first, 4)
    see_seq(second, 4)
    waiting(first, 0)
    waiting(second, 0)
    assert logged(table) == [(seq, "end_turn") for seq in range(1, 5)]
    expect(first.locator("#not-taken")).to_be_hidden()


def test_sign_out_with_moves_waiting_asks_first_and_another_account_never_sends_them(phone, table, alice, bob):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    wifi = Wifi(page.context)
    wifi.mode = "refused"
    page.context.set_offline(True)
    enter_offline(page, 2)
    page.context.set_offline(False)
    expect(page.locator("#offline-banner")).to_contain_text("waiting to send: 2 moves")

    # Signing out says the moves wait; "Cancel" keeps alice signed in and her moves waiting.
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    log_out(page, "alice")
    until(page, lambda: asked)
    assert asked == ["2 moves entered on this phone have not reached the site yet. Sign out anyway and drop them?"]
    expect(page.get_by_role("button", name="Log out (alice)")).to_be_visible()
    open_table(page, table)
    waiting(page, 2)

    # bob takes the phone (his session, the wifi fine now): alice's moves are not his, none is taken. The table
    # page is left first: while it is open under alice's session her moves are rightly sent the moment the wifi
    # passes them. The page left open meanwhile (alice's, its script still hers) may try again once bob's cookie is
    # set: the site refuses such a post with 409 (the move says alice, the session bob) and writes nothing.
    page.goto("/")
    sign_in(page, bob)
    answers = []
    page.on(
        "response",
        lambda response: (
            answers.append((response.request.headers.get("x-shitenno-account"), response.status))
            if "/move/" in response.url
            else None
        ),
    )
    wifi.mode = "pass"
    open_table(page, table)
    ready(page)
    signed_in_as(page, "bob")
    waiting(page, 0)
    assert logged(table) == []
    assert all(answer == (account_tag(alice), 409) for answer in answers), answers

    # Back with alice, her moves are there; she signs out and says yes: they are dropped, and gone for good.
    wifi.mode = "refused"
    sign_in(page, alice)
    open_table(page, table)
    waiting(page, 2)
    page.once("dialog", lambda dialog: dialog.accept())
    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    wifi.mode = "pass"
    sign_in(page, alice)
    open_table(page, table)
    ready(page)
    waiting(page, 0)
    assert logged(table) == []


def test_a_move_sent_before_sign_out_needs_no_question(phone, table, alice):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    page.context.set_offline(True)
    enter_offline(page, 1)
    page.context.set_offline(False)
    see_seq(page, 1)
    waiting(page, 0)
    page.on("dialog", lambda dialog: pytest.fail(f"asked: {dialog.message}"))
    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert entered_by(table) == ["alice"]


def test_a_table_finished_meanwhile_lists_the_waiting_moves_as_not_taken_as_the_game_is_over(phone, table, alice):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    wifi = Wifi(page.context)
    wifi.mode = "502"
    page.locator(END_TURN).click()
    page.locator(END_TURN).click()
    waiting(page, 2)
    TableSession.objects.filter(pk=table.pk).update(status=TableSession.Status.FINISHED, rebuilds=F("rebuilds") + 1)

    wifi.mode = "pass"
    page.reload()
    expect(page.locator("#not-taken li")).to_have_count(2)
    for item in page.locator("#not-taken li").all():
        expect(item).to_contain_text("the game is over")
    waiting(page, 0)
    assert logged(table) == []


def test_each_waiting_move_says_what_it_was_and_undo_offline_says_it_waits(phone, table, alice):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    # Winter's Troop Movement for both clans, then alice is at the Port.
    for seq in (1, 2):
        page.locator(END_TURN).click()
        see_seq(page, seq)
    expect(page.locator('form[data-move="bounty"]')).to_be_visible()

    page.context.set_offline(True)
    bounty = page.locator('form[data-move="bounty"]')
    bounty.locator('input[name="blood"]').fill("5")
    bounty.locator('input[name="amount"]').fill("3")
    bounty.get_by_role("button", name="Take the bounty").click()
    waiting(page, 1)
    expect(page.locator("#offline-moves li.waiting")).to_have_text(
        "Take the bounty: Blood value of the card: 5, Treasure taken (empty: all allowed): 3 (waiting)"
    )

    page.locator("#table-undo summary").click()
    page.get_by_role("button", name="Yes, undo it").click()
    expect(page.locator("#offline-note")).to_have_text(
        "Undo waits for the network: it takes back the last move the site holds, so it cannot be kept on the phone."
        " Try again once the moves waiting here are sent."
    )
    page.context.set_offline(False)
    see_seq(page, 3)
    assert [kind for _, kind in logged(table)] == ["end_turn", "end_turn", "bounty"]
