"""The phone at the table as a newcomer meets it, in a real browser at 360 px: the demo (DEBUG on) keeps the
page when a move is refused, and the league pages fit the screen in both languages and both schemes."""

import io

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from leagues.models import League, Season
from leagues.people.players import player_for_user
from leagues.standings import store as standings_store
from tests.browser.layout import broken_words
from tests.games.engines.shitenno.tables import EVEN_YEAR_EXAMPLE, SETUP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 30_000  # ms: only bounds a hung page; the tests wait on the condition (see test_table.py)


def four_seat_table(alice, bob, carol, dave):
    return services.session_create(
        game="shitenno", created_by=alice, setup=SETUP, players=[player_for_user(u) for u in (alice, bob, carol, dave)]
    )


def test_it_shows_an_illegal_moves_reason_inline_with_debug_on(phone, settings, alice, bob, carol, dave):
    settings.DEBUG = True  # as `make run` serves it
    session = four_seat_table(alice, bob, carol, dave)
    page = phone(alice)
    page.goto(session.get_absolute_url())
    draw = page.locator('form[data-move="draw"]')
    draw.locator('input[name="n_samurai"]').fill("1")
    draw.get_by_role("button", name="Enter the draw").click()

    expect(draw.locator(".move-error")).to_contain_text("The Tairō's draw is troop cards: 8")
    expect(page.locator("header.top")).to_be_visible()  # the page is still the page, styled
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    expect(draw.locator('input[name="n_samurai"]')).to_have_value("1")

    # ...and it keeps following the table: another phone's move arrives by the poll.
    services.move_record(session=session, seq=0, move=EVEN_YEAR_EXAMPLE[0], user=alice)
    expect(page.locator("#table-body")).to_have_attribute("data-seq", "1", timeout=LIVE)


def follow(page, target) -> None:
    """Clicks a link or a form's button and waits for the page it leads to, so that what is measured next is that
    page and not the one being left (measured mid-navigation, the document can be gone: a flaky failure)."""
    with page.expect_navigation():
        target.click()


def fits_the_phone(page) -> None:
    """No sideways scrolling, and no word broken across lines."""
    page.wait_for_load_state()
    width = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width[0] <= width[1], (page.url, width)
    assert broken_words(page) == [], page.url
    assert page.evaluate(SCROLLED_BOXES) == [], page.url


SCROLLED_BOXES = """() => [...document.querySelectorAll('main div, main section, main table')]
  .filter(el => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')
  .map(el => el.outerHTML.slice(0, 80))"""


@pytest.fixture
def demo(db):
    call_command("demo_data", games=2, stdout=io.StringIO())
    for season in Season.objects.all():  # the standings job, run here rather than on the test worker
        standings_store.standings_compute(season=season)
    return League.objects.get()


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_league_and_statistics_pages_fit_360_px_without_breaking_a_word(
    phone, shoot, live_server, demo, language, dark
):
    page = phone(get_user_model().objects.get(username="kenji"), dark=dark)
    language_cookie = {"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}
    page.context.add_cookies([language_cookie])
    for name, url in (
        ("league", reverse("league_detail", args=[demo.pk])),
        ("statistics", reverse("game_stats", args=["shitenno"])),
    ):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", language)
        shoot(page, f"{name}-{language}-{'dark' if dark else 'light'}")  # no database id in the file's name
        fits_the_phone(page)


def test_it_copies_the_club_invite_link_where_the_phone_cannot_share(phone, club, alice):
    page = phone(alice)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.add_init_script("delete Navigator.prototype.share")  # as on a browser without the Web Share API
    page.goto(club.get_absolute_url())
    link = page.locator("#invite-link").input_value()
    assert link.endswith(f"/clubs/join/{club.invite_token}/")
    page.get_by_role("button", name="Copy the link").click()
    expect(page.locator("#invite-link-status")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_it_opens_the_phones_share_sheet_for_the_table_link(phone, alice, bob, carol, dave):
    session = four_seat_table(alice, bob, carol, dave)
    page = phone(alice)
    page.add_init_script("navigator.share = (data) => { window.shared = data; return Promise.resolve(); }")
    page.goto(session.get_absolute_url())  # a table just opened: the link is on its first screen
    page.get_by_role("button", name="Share the link").click()
    shared = page.evaluate("window.shared")
    assert shared == {"title": "Join my Shitennō table", "url": page.locator("#join-link").input_value()}
    assert shared["url"].endswith(session.get_absolute_url())


def test_it_warns_of_kokus_paid_over_the_cost_and_lets_them_be_paid(phone, alice, bob):
    # A two-player even year that leaves bob's Sakakibara with two Koku 3 cards; Honda passes his odd-year turn.
    setup = {
        "players": [{"general": "honda"}, {"general": "sakakibara"}],
        "titles": {"honda": "daimyo", "sakakibara": "shomyo"},
        "gates": SETUP["gates"],
    }
    four_troops = ["samurai", "bushi", "sohei", "shinobi"]
    moves = [
        {"type": "draw", "seat": 0, "troops": four_troops, "kokus": [3, 3]},
        {
            "type": "split",
            "seat": 0,
            "lots": [
                {"troops": four_troops, "kokus": [], "hierarchy": "daimyo"},
                {"troops": [], "kokus": [3, 3], "hierarchy": "shomyo"},
            ],
        },
        {"type": "choose", "seat": 1, "lot": 1},
        {"type": "end_turn", "seat": 0},
    ]
    session = services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
    )
    for seq, move in enumerate(moves):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    page = phone(bob)
    page.goto(session.get_absolute_url())
    place = page.locator('form[data-move="place"]')
    place.locator('label.chip:has(input[value="kanto"])').click()
    place.locator('label.chip:has(input[value="k:3:0"])').click()
    expect(place.locator(".surplus")).to_be_hidden()  # 3 of 5: short, the engine will say so
    place.locator('label.chip:has(input[value="k:3:1"])').click()
    expect(place.locator(".surplus")).to_have_text(
        "You pay 6 kokus for a cost of 5: 1 will be lost. The rules allow it."
    )
    place.locator('select[name="bonus"]').select_option("exchange")
    place.locator('select[name="next_troop"]').select_option("sohei")
    place.get_by_role("button", name="Place the kamon").click()
    expect(page.locator("#table-body")).to_have_attribute("data-seq", "5", timeout=LIVE)
    expect(page.locator(".log")).to_contain_text("Kantō 1st position for 6 kokus, 1 lost")
