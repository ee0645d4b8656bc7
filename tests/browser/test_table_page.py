"""The table page on a 360 x 740 phone at a three-player Shitennō game: what its holder must do now (the move
panel, or the result once the game is over) is on the first screen, the board a tap away; a submit leaves the
phone where it was; the placement form shows every field the chosen province needs and says what is missing
in the player's words, with and without JavaScript."""

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from games import services
from games.engines.shitenno.simulation import random_legal_game
from leagues.people.players import player_for_user
from tests.browser.conftest import PHONE
from tests.games.engines.samurai_empires.tables import SOLO_BOARD
from tests.games.teikoku_site.test_pages import SHORT
from tests.games.test_pages import _form_of_any

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 2500  # ms, as in test_table.py
SCREEN = PHONE["height"]

# random_legal_game(1, 3) before its move 36: year 7, Sakakibara (seat 1, bob) to place. Kantō is empty (a tile
# taken, one uncovered), Tōhoku holds one kamon (the same), Hokkaidō two (the last tile taken, none beneath),
# Kyūshū three (its last position takes no tile).
SEED, PLAYERS, PLACING = 1, 3, 36


def three_player_table(alice, bob, carol, moves: int):
    """A three-player table with the first `moves` moves of a legal game entered; the game's remaining moves."""
    setup, game = random_legal_game(SEED, PLAYERS)
    session = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        players=[player_for_user(u) for u in (alice, bob, carol)],
        colours=["red", "blue", "yellow"],
    )
    for seq, move in enumerate(game[:moves]):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    session.refresh_from_db()
    return session, game[moves:]


def top_of(page, selector: str) -> float:
    """Where the element starts on the page, in CSS pixels from the top of the document."""
    return page.locator(selector).evaluate("el => el.getBoundingClientRect().top + window.scrollY")


def on_screen(page, selector: str) -> bool:
    return page.locator(selector).evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < window.innerHeight; }"
    )


def settled(page) -> None:
    """Wait until htmx has settled the swapped table body (site.js sets the scroll position as it settles)."""
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')")


def enter(form, data: dict) -> None:
    """Tap and choose in the placement form what a phone posts for this move."""
    form.locator(f'label.chip:has(input[name="province"][value="{data["province"]}"])').click()
    for value in data.get("pay", []):
        form.locator(f'label.chip:has(input[name="pay"][value="{value}"])').click()
    for name, value in data.items():
        if name not in ("type", "province", "pay") and value:
            form.locator(f'select[name="{name}"]').select_option(str(value))


def dutch(page, live_server) -> None:
    page.context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": "nl", "url": live_server.url}])


def test_the_move_panel_starts_on_the_first_screen_and_the_board_is_a_tap_away(phone, shoot, alice, bob, carol):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    page = phone(bob)
    page.goto(session.get_absolute_url())
    assert top_of(page, "#move") < SCREEN
    expect(page.locator("#move h2")).to_be_in_viewport()
    shoot(page, "table-first-screen")
    assert not on_screen(page, ".board svg")
    page.locator(".jump").get_by_role("link", name="The board").click()
    expect(page.locator(".board svg")).to_be_in_viewport()


def test_a_finished_table_shows_the_winner_on_the_first_screen(phone, alice, bob, carol):
    session, rest = three_player_table(alice, bob, carol, 10_000)
    assert rest == [] and session.outcome
    page = phone(carol)
    page.goto(session.get_absolute_url())
    expect(page.locator(".final-count .winner")).to_contain_text("wins with")
    assert top_of(page, ".final-count .winner") + 40 < SCREEN  # its first line, whole


def test_a_refused_placement_leaves_the_phone_where_it_was(phone, alice, bob, carol):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    page = phone(bob)
    page.goto(session.get_absolute_url())
    place = page.locator('form[data-move="place"]')
    place.locator('label.chip:has(input[value="kanto"])').click()  # no card tapped: the rules refuse it
    place.locator('select[name="bonus"]').select_option("exchange")
    place.locator('select[name="next_troop"]').select_option("sohei")
    button = place.get_by_role("button", name="Place the kamon")
    button.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    assert before > 0
    button.click()
    expect(page.locator('form[data-move="place"] .move-error')).to_be_visible()
    settled(page)
    expect(page.locator('form[data-move="place"] .move-error')).to_be_in_viewport()
    assert abs(page.evaluate("window.scrollY") - before) <= 2
    assert page.locator("#table-body").get_attribute("data-seq") == str(PLACING)


def test_a_placed_kamon_keeps_the_move_panel_on_screen(phone, alice, bob, carol):
    session, rest = three_player_table(alice, bob, carol, PLACING)
    page = phone(bob)
    page.goto(session.get_absolute_url())
    place = page.locator('form[data-move="place"]')
    enter(place, _form_of_any(rest[0], session.state))
    button = place.get_by_role("button", name="Place the kamon")
    button.scroll_into_view_if_needed()
    before = page.evaluate("window.scrollY")
    button.click()
    expect(page.locator("#table-body")).to_have_attribute("data-seq", str(PLACING + 1), timeout=LIVE)
    settled(page)
    assert before > 0 and page.evaluate("window.scrollY") > 0  # not thrown back to the top
    assert on_screen(page, "#move")  # the panel for what comes next is still where the thumb is


def test_every_field_the_chosen_province_needs_is_shown(phone, alice, bob, carol):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    page = phone(bob)
    page.goto(session.get_absolute_url())
    place = page.locator('form[data-move="place"]')
    bonus, beneath = place.locator('select[name="bonus"]'), place.locator('select[name="next_troop"]')
    for province, shows_bonus, shows_beneath in (
        ("kanto", True, True),
        ("tohoku", True, True),
        ("hokkaido", True, False),
        ("kyushu", False, False),
    ):
        place.locator(f'label.chip:has(input[value="{province}"])').click()
        (expect(bonus).to_be_visible if shows_bonus else expect(bonus).to_be_hidden)()
        (expect(beneath).to_be_visible if shows_beneath else expect(beneath).to_be_hidden)()
    assert place.locator("details").count() == 0  # nothing the placement needs is folded away


@pytest.mark.parametrize(
    "language,said",
    [
        ("en", "A kamon on Kantō's position 1 takes the top tile of its gate: choose the bonus face taken."),
        ("nl", "Een kamon op positie 1 van Kantō neemt de bovenste tegel van de poort: kies de genomen bonuskant."),
    ],
)
def test_a_missing_bonus_is_asked_for_next_to_its_field_in_the_players_words(
    phone, live_server, alice, bob, carol, language, said
):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    page = phone(bob)
    if language == "nl":
        dutch(page, live_server)
    page.goto(session.get_absolute_url())
    place = page.locator('form[data-move="place"]')
    place.locator('label.chip:has(input[value="kanto"])').click()
    place.locator('button[type="submit"]').click()
    expect(page.locator("#place-bonus-error")).to_have_text(said)
    expect(page.locator("#place-bonus")).to_have_attribute("aria-describedby", "place-bonus-error")
    expect(page.locator('form[data-move="place"] .move-error')).to_have_count(0)  # said once, by its field
    expect(page.locator('input[value="kanto"]')).to_be_checked()  # the tap is kept
    assert page.locator("#table-body").get_attribute("data-seq") == str(PLACING)


def test_without_javascript_the_gate_fields_show_and_the_server_names_the_missing_one(
    chromium, live_server, alice, bob, carol
):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    client = Client()
    client.force_login(bob)
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False, base_url=live_server.url)
    try:
        context.add_cookies(
            [
                {
                    "name": django_settings.SESSION_COOKIE_NAME,
                    "url": live_server.url,
                    "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                },
                {"name": django_settings.LANGUAGE_COOKIE_NAME, "value": "nl", "url": live_server.url},
            ]
        )
        page = context.new_page()
        page.goto(session.get_absolute_url())
        place = page.locator('form[data-move="place"]')
        expect(place.locator('select[name="bonus"]')).to_be_visible()
        expect(place.locator('select[name="next_troop"]')).to_be_visible()
        place.locator('label.chip:has(input[value="tohoku"])').click()
        place.locator('select[name="bonus"]').select_option("plus_one")
        place.locator('button[type="submit"]').click()  # a plain POST: the whole page comes back, 400
        expect(page.locator("#place-next-troop-error")).to_have_text(
            "De tegel van de poort van Tōhoku nemen legt de volgende bloot: kies de troepenkant die eronder "
            "zichtbaar wordt."
        )
        expect(page.locator('select[name="bonus"]')).to_have_value("plus_one")
    finally:
        context.close()


def test_a_stale_phone_is_told_once(phone, alice, bob, carol):
    session, _rest = three_player_table(alice, bob, carol, PLACING)
    alice_phone, bob_phone = phone(alice), phone(bob)
    bob_phone.goto(session.get_absolute_url())
    alice_phone.goto(session.get_absolute_url())
    bob_phone.route("**/live/**", lambda route: route.abort())  # bob's phone falls behind
    alice_phone.locator('form[data-move="end_turn"] button').click()
    expect(alice_phone.locator("#table-body")).to_have_attribute("data-seq", str(PLACING + 1))
    bob_phone.locator('form[data-move="end_turn"] button').click()
    notice = bob_phone.locator(".notice.stale")
    expect(notice).to_contain_text("Someone else moved")
    settled(bob_phone)
    assert bob_phone.locator("main").inner_text().count("Someone else moved") == 1
    assert notice.inner_text().count("Here is the table now.") == 1
    expect(notice).to_be_in_viewport()


@pytest.mark.parametrize("game", ["teikoku", "samurai_empires"])
def test_the_other_games_put_their_move_panel_on_the_first_screen_too(phone, alice, bob, game):
    if game == "teikoku":
        session = services.session_create(
            game="teikoku", created_by=alice, setup=SHORT, players=[player_for_user(alice), player_for_user(bob)]
        )
    else:
        session = services.session_create(
            game="samurai_empires",
            created_by=alice,
            players=[player_for_user(alice)],
            setup={
                "mode": "solo",
                "players": [{"name": "alice", "training_ground": 1}],
                "board": SOLO_BOARD,
                "seed": 7,
            },
        )
    page = phone(alice)
    page.goto(session.get_absolute_url())
    assert top_of(page, "#move") < SCREEN
    expect(page.locator("#move h2")).to_be_in_viewport()
    page.locator(".jump").get_by_role("link", name="The board").click()
    expect(page.locator("#board")).to_be_in_viewport()
