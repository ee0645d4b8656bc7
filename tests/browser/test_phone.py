"""The phone at the table as a newcomer meets it, in a real browser at 360 px: the demo (DEBUG on) keeps the
page when a move is refused, and the league pages fit the screen in both languages and both schemes."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from leagues.services import player_for_user
from tests.games.engines.shitenno_tables import EVEN_YEAR_EXAMPLE, SETUP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 2500  # ms, as in test_table.py


def four_seat_table(alice, bob, carol, dave):
    return services.session_create(game="shitenno", created_by=alice, setup=SETUP,
                                   players=[player_for_user(u) for u in (alice, bob, carol, dave)])


def test_it_shows_an_illegal_moves_reason_inline_with_debug_on(phone, settings, alice, bob, carol, dave):
    settings.DEBUG = True  # as `make run` serves it
    session = four_seat_table(alice, bob, carol, dave)
    page = phone(alice)
    page.goto(session.get_absolute_url())
    draw = page.locator('form[data-move="draw"]')
    draw.locator('input[name="n_samurai"]').fill("1")
    draw.get_by_role("button", name="Enter the draw").click()

    expect(draw.locator(".move-error")).to_contain_text("The Tairō draws 8 troop card")
    expect(page.locator("header.top")).to_be_visible()  # the page is still the page, styled
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    expect(draw.locator('input[name="n_samurai"]')).to_have_value("1")

    # ...and it keeps following the table: another phone's move arrives by the poll.
    services.move_record(session=session, seq=0, move=EVEN_YEAR_EXAMPLE[0], user=alice)
    expect(page.locator("#table-body")).to_have_attribute("data-seq", "1", timeout=LIVE)
