"""A newcomer opens a table on a 360 x 740 phone (issue 17): a 3-player Shitennō table in at most 8 taps from the
home page with the form's own defaults, refusals beside their fields with the page opened on the first, the join
link and QR code on the new table's first screen, and a final-count calculator that refuses an empty board."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from games.models import TableSession
from tests.browser.test_phone import fits_the_phone
from tests.browser.test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Thumb:
    """Counts what a person does: each tap on the screen, and each field typed into (one tap to focus it)."""

    def __init__(self, page) -> None:
        self.page, self.taps = page, 0

    def tap(self, locator) -> None:
        self.taps += 1
        locator.tap()

    def type_into(self, locator, text: str) -> None:
        self.taps += 1
        locator.tap()
        self.page.keyboard.type(text)


def in_first_screen(page, selector: str) -> bool:
    """Whether the element is wholly inside the 740 px the phone shows before any scrolling."""
    box = page.evaluate(
        """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                                           return {top: r.top + scrollY, bottom: r.bottom + scrollY}; }""",
        selector,
    )
    return box["top"] >= 0 and box["bottom"] <= 740


def test_a_three_player_shitenno_table_opens_in_eight_taps_and_shows_its_join_link_first(phone, shoot, alice):
    page = phone(alice)
    page.goto("/")
    thumb = Thumb(page)
    thumb.tap(page.get_by_role("navigation", name="Main").get_by_role("link", name="Play", exact=True))
    expect(page.locator("h1")).to_have_text("New table")
    no_horizontal_scroll(page)
    thumb.tap(page.locator("label.chip", has_text="3 players"))
    expect(page.locator('fieldset[data-seat="4"]')).to_be_hidden()
    thumb.type_into(page.locator("#id_seat1_guest"), "Kenji")
    thumb.type_into(page.locator("#id_seat2_guest"), "Sora")
    shoot(page, "new-table-3-players")
    thumb.tap(page.get_by_role("button", name="Open the table"))

    expect(page.locator("h1")).to_have_text("Shitennō table")
    assert thumb.taps <= 8, thumb.taps
    session = TableSession.objects.get()
    assert [s.player.name for s in session.seats.all()] == ["alice", "Kenji", "Sora"]

    # The new table: its join link, the button to share it and its QR code, without scrolling.
    page.evaluate("window.scrollTo(0, 0)")
    for selector in ("#join-link", ".invite-first .qr svg", ".invite-first .share button"):
        expect(page.locator(selector)).to_be_visible()
        assert in_first_screen(page, selector), selector
    assert page.locator("#join-link").input_value().endswith(session.get_absolute_url())
    whole_qr = (
        "(() => { const svg = document.querySelector('.invite-first .qr svg');"
        " return svg.getBoundingClientRect().width - svg.width.baseVal.value; })()"
    )
    assert page.evaluate(whole_qr) >= 0  # the code is drawn whole, not clipped to a narrower box
    no_horizontal_scroll(page)
    shoot(page, "new-table-first-screen")


def test_a_refusal_stands_beside_its_field_and_the_page_opens_on_it(phone, shoot, alice):
    page = phone(alice)
    page.goto(reverse("table_new"))
    page.locator("label.chip", has_text="4 players").tap()
    page.locator("#id_seat1_guest").fill("Kenji")
    page.locator("#id_seat2_guest").fill("Sora")
    page.locator("#id_seat3_guest").fill("Dora")
    page.get_by_label("Let the site deal the gates").uncheck()
    for select in page.locator(".dealt-fields select[name^=gate_]").all():
        select.select_option("samurai")
    page.get_by_role("button", name="Open the table").click()

    first = page.locator("#id_gate_hokkaido")  # the 7th Samurai gate: only 6 bonus tiles show a Samurai
    expect(page.locator(".field.invalid").first).to_contain_text("Only 6 bonus tiles show a Samurai")
    expect(page.locator(".field.invalid:has(#id_gate_hokkaido) .error")).to_have_text(
        "Only 6 bonus tiles show a Samurai; the gates show 8."
    )
    expect(first).to_be_focused()
    expect(first).to_be_in_viewport()
    expect(page.locator("#id_seat3_guest")).to_have_value("Dora")  # what was entered is kept
    assert not TableSession.objects.exists()
    shoot(page, "new-table-gate-error")

    first.select_option("bushi")
    page.locator("#id_gate_kyushu").select_option("sohei")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("h1")).to_have_text("Shitennō table")
    assert TableSession.objects.get().setup["gates"]["hokkaido"] == "bushi"


def test_a_six_seat_game_shows_only_the_seats_counted_and_opens_with_six(phone, alice, monkeypatch, settings):
    """Pile, the test-only game (tests/games/tiny), seats up to six: site.css hides seats past any count, not only
    past five."""
    from tests.games import tiny

    tiny.register(monkeypatch, settings)
    page = phone(alice)
    page.goto(reverse("table_new") + "?game=pile")
    expect(page.locator('fieldset[data-seat="2"]')).to_be_visible()  # 2 players by default
    expect(page.locator('fieldset[data-seat="3"]')).to_be_hidden()
    expect(page.locator('fieldset[data-seat="6"]')).to_be_hidden()
    page.locator("label.chip", has_text="5 players").tap()
    expect(page.locator('fieldset[data-seat="5"]')).to_be_visible()
    expect(page.locator('fieldset[data-seat="6"]')).to_be_hidden()
    page.locator("label.chip", has_text="6 players").tap()
    expect(page.locator('fieldset[data-seat="6"]')).to_be_visible()
    for seat in range(1, 6):
        page.locator(f"#id_seat{seat}_guest").fill(f"Guest {seat}")
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("h1")).to_have_text("Pile table")
    assert TableSession.objects.get().seats.count() == 6


def test_teikoku_and_small_samurai_empires_show_only_the_seats_counted(phone, alice):
    page = phone(alice)
    page.goto(reverse("table_new") + "?game=teikoku")
    expect(page.locator('fieldset[data-seat="3"]')).to_be_visible()  # 3 players by default
    expect(page.locator('fieldset[data-seat="4"]')).to_be_hidden()
    page.locator("label.chip", has_text="2 players").tap()
    expect(page.locator('fieldset[data-seat="3"]')).to_be_hidden()
    no_horizontal_scroll(page)

    page.goto(reverse("table_new") + "?game=samurai_empires")
    expect(page.locator('fieldset[data-seat="2"]')).to_be_visible()
    expect(page.locator('fieldset[data-seat="3"]')).to_be_hidden()
    page.locator("label.chip", has_text="5 players").tap()
    expect(page.locator('fieldset[data-seat="5"]')).to_be_visible()
    page.locator("label.chip", has_text="2 players").tap()
    page.locator("#id_seat1_guest").fill("Kenji")
    page.get_by_role("button", name="Open the table").click()  # no board entered yet
    expect(page.locator("#id_board")).to_be_focused()
    expect(page.locator(".field.invalid:has(#id_board) .error")).to_have_text(
        "Enter the board set-up, or pick a board your club saved."
    )
    expect(page.locator("#id_board")).to_be_in_viewport()


def test_the_calculator_refuses_an_empty_board_and_stays_short(phone, shoot, alice):
    page = phone(alice)
    page.goto(reverse("final_count"))
    shoot(page, "final-count-calculator-empty")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 2500, height  # four seats and eight provinces (it was some 4,000 px)
    no_horizontal_scroll(page)
    page.get_by_role("button", name="Count").click()
    expect(page.locator(".field.invalid:has(#id_kanto) .error")).to_have_text(
        "The board is empty: enter each province's kamons, left to right, before the count."
    )
    expect(page.locator("#id_kanto")).to_be_focused()
    expect(page.locator(".final-count")).to_have_count(0)  # no winner before a board

    page.locator("label.chip", has_text="2 players").tap()
    expect(page.locator('fieldset[data-seat="3"]')).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollHeight") < height
    page.locator("#id_s0_favour").fill("30")
    page.locator("#id_s1_favour").fill("28")
    page.locator("#id_kanto").fill("1 2*")
    page.locator("#id_chubu").fill("2")
    page.get_by_role("button", name="Count").click()
    expect(page.locator(".final-count .winner")).to_contain_text("Ii (Seat 2) wins with 40 favour")
    no_horizontal_scroll(page)
    shoot(page, "final-count-calculator")


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_set_up_forms_and_the_calculator_fit_360_px_with_their_refusals(phone, live_server, alice, language):
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    for url in (
        reverse("table_new"),
        reverse("table_new") + "?game=teikoku",
        reverse("table_new") + "?game=samurai_empires",
        reverse("final_count"),
    ):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        fits_the_phone(page)
        page.locator("form.stack button.primary[type=submit]").click()  # as left: refused, beside the fields
        expect(page.locator(".field.invalid").first).to_be_visible()
        expect(page.locator(".invalid input, .invalid select, .invalid textarea").first).to_be_focused()
        fits_the_phone(page)
