"""Moves waiting on a phone reach their table from any page of the site (360 px, Teikoku): a phone whose network
returns on the league page sends them there, says so naming the table, and lists a refusal on the table's page as
any refusal is; and moves tapped offline on the same button read each as what it ends (docs/offline.md)."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from games.models import MoveEvent

from .test_offline import END_TURN, enter_offline, logged, open_table, table  # noqa: F401  (table is a fixture)
from .test_offline_lie_fi import Wifi
from .test_table import LIVE, no_horizontal_scroll, see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def keep_a_copy_of(page, path: str) -> None:
    """The page read once through the worker, so that it opens from its copy offline."""
    page.goto(path)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()


def test_moves_waiting_for_a_table_are_sent_from_another_page_when_the_network_returns(phone, table, alice):  # noqa: F811
    page = phone(alice)
    keep_a_copy_of(page, "/leagues/")
    open_table(page, table)
    page.context.set_offline(True)
    enter_offline(page, 3)
    page.goto("/leagues/")  # the league page, from its copy: the table is not on screen
    expect(page.locator("#offline-copy")).to_contain_text("Offline: this is the copy of this page from")
    assert logged(table) == []

    page.context.set_offline(False)
    status = page.locator("#offline-elsewhere")
    expect(status).to_have_text(f"Sent to table {table.code}: the moves that waited on this phone.", timeout=LIVE)
    expect(status.get_by_role("link", name=table.code)).to_have_attribute("href", table.get_absolute_url())
    assert logged(table) == [(seq, "end_turn") for seq in (1, 2, 3)]
    no_horizontal_scroll(page)
    table.refresh_from_db()
    open_table(page, table)
    expect(page.locator("#offline-moves")).to_be_hidden()


def test_a_page_opened_online_sends_them_too_and_a_refusal_is_listed_on_the_table(phone, table, alice, bob):  # noqa: F811
    page = phone(alice)
    open_table(page, table)
    wifi = Wifi(page.context)
    wifi.mode = "refused"  # lie-fi: the phone believes it is online, the moves get no answer
    enter_offline(page, 2)
    bob_phone = phone(bob)
    open_table(bob_phone, table)
    bob_phone.locator(END_TURN).click()
    see_seq(bob_phone, 1)

    page.goto("/leagues/")
    wifi.mode = "pass"  # the league page tries again by itself (growing pauses) and is answered: 409
    status = page.locator("#offline-elsewhere")
    expect(status).to_contain_text(f"Not taken at table {table.code}", timeout=LIVE)
    assert list(MoveEvent.objects.filter(session=table).values_list("entered_by__username", flat=True)) == ["bob"]
    table.refresh_from_db()
    open_table(page, table)
    expect(page.locator("#not-taken li")).to_have_count(2)
    expect(page.locator("#offline-moves")).to_be_hidden()


@pytest.mark.parametrize(
    "language, first, third",
    [
        (
            "en",
            "Year 1, Winter, Troop Movement: Fujiwara ends their Troop Movement turn. (waiting)",
            "Year 1, Winter, Port: Fujiwara ends their Port turn. (waiting)",
        ),
        (
            "nl",
            "Jaar 1, Winter, Troepenbeweging: Fujiwara beëindigt de beurt in de fase Troepenbeweging. (wacht)",
            "Jaar 1, Winter, Haven: Fujiwara beëindigt de beurt in de fase Haven. (wacht)",
        ),
    ],
)
def test_end_of_turn_moves_waiting_offline_each_say_whose_turn_they_end(
    phone,
    table,
    alice,
    language,  # noqa: F811
    first,
    third,
    live_server,
):
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    open_table(page, table)
    page.context.set_offline(True)
    enter_offline(page, 3)
    items = page.locator("#offline-moves li.waiting")
    expect(items.nth(0)).to_have_text(first)
    expect(items.nth(2)).to_have_text(third)
    texts = items.all_text_contents()
    assert len(set(texts)) == 3, texts  # three taps of one button, three different turns
    no_horizontal_scroll(page)
    page.context.set_offline(False)
    see_seq(page, 3)
    assert logged(table) == [(seq, "end_turn") for seq in (1, 2, 3)]
