"""Two phones at one table, in a real browser: alice opens the table, bob joins by its link, they play
the rulebook's even year and an odd-year placement, see an illegal payment refused, undo, and read a
final count."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.engines.shitenno.simulation import random_legal_game
from games.models import TableSession
from leagues.club import clubs
from leagues.people.players import player_for_user
from tests.games.engines.shitenno.tables import EVEN_YEAR_EXAMPLE, GATES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
# ms: how long a test waits for a condition the page's poll (every 1.5 s) brings about. The tests wait on the
# condition (the table body's seq, a text), never for a fixed time, so this only bounds a page that has hung:
# a busy machine that delays a poll or two still passes. How fast a move reaches the other phones is a speed
# target, measured with a same-run baseline in bench/load.py, not asserted here.
LIVE = 30_000


SMALL_TARGETS = """() => [...document.querySelectorAll(
    'main button, main select, main input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
    + ' main summary, main label.chip span, main a.button')]
  .filter(el => el.offsetParent !== null && el.getBoundingClientRect().height < 44)
  .map(el => el.outerHTML.slice(0, 80))"""


def no_horizontal_scroll(page) -> None:
    """Fits 360 px with no sideways scrolling, and every tap target is at least 44 px high. Against the phone's own
    width, not `innerWidth`: an emulated phone (is_mobile) widens its layout viewport to a page that overflows, so
    `innerWidth` grows with the page and the comparison with it could not fail."""
    width = page.viewport_size["width"]
    assert page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]") == [width, width], page.url
    assert page.evaluate(SMALL_TARGETS) == [], page.url


def see_seq(page, seq: int) -> None:
    expect(page.locator("#table-body")).to_have_attribute("data-seq", str(seq), timeout=LIVE)


def tap_cards(page, form: str, cards: dict, troops: list[str], kokus: list[int], name: str = "pick") -> None:
    """Tap each card's chip, telling equal cards apart by the index the form gives them."""
    used: set[str] = set()
    for kind, wanted in (("t", troops), ("k", kokus)):
        pool = cards["troops"] if kind == "t" else cards["kokus"]
        for card in wanted:
            i = next(i for i, c in enumerate(pool) if c == card and f"{kind}:{c}:{i}" not in used)
            value = f"{kind}:{card}:{i}"
            used.add(value)
            page.locator(f'form[data-move="{form}"] label.chip:has(input[name="{name}"][value="{value}"])').click()


def play_sharing_move(page, move: dict, state: dict) -> None:
    kind = move["type"]
    if kind == "draw":
        form = page.locator('form[data-move="draw"]')
        form.locator("summary").click()  # open the doubles
        for card in set(move["troops"]):
            form.locator(f'input[name="n_{card}"]').fill(str(move["troops"].count(card)))
        for v in set(move["kokus"]):
            form.locator(f'input[name="k_{v}"]').fill(str(move["kokus"].count(v)))
        form.get_by_role("button", name="Enter the draw").click()
    elif kind == "offer":
        tap_cards(page, "offer", state["sharing"]["table"], move.get("troops", []), move.get("kokus", []))
        page.locator(f'form[data-move="offer"] label.chip:has(input[value="{move["hierarchy"]}"])').click()
        page.get_by_role("button", name="Offer this lot").click()
    elif kind in ("accept", "refuse"):
        page.get_by_role("button", name=kind.capitalize(), exact=True).click()
    elif kind == "split":
        b = move["lots"][1]
        used: set[str] = set()
        table = state["sharing"]["table"]
        for kind_, wanted, pool in (("t", b["troops"], table["troops"]), ("k", b["kokus"], table["kokus"])):
            for card in wanted:
                i = next(i for i, c in enumerate(pool) if c == card and f"{kind_}:{c}:{i}" not in used)
                used.add(f"{kind_}:{card}:{i}")
                page.locator(f'label.chip:has(input[name="lot_{kind_}:{card}:{i}"][value="1"])').click()
        page.locator('select[name="hierarchy_a"]').select_option(move["lots"][0]["hierarchy"])
        page.locator('select[name="hierarchy_b"]').select_option(b["hierarchy"])
        page.get_by_role("button", name="Show the two lots").click()
    elif kind == "choose":
        page.get_by_role("button", name="Lot B" if move["lot"] else "Lot A").click()


def test_two_phones_play_a_table_live(phone, shoot, live_server, alice, bob, club):
    clubs.club_join(token=club.invite_token, user=bob)
    alice_phone, bob_phone = phone(alice), phone(bob, dark=True)

    # alice opens the table: the rulebook's four generals, bob from her club and two guests.
    alice_phone.goto(reverse("table_new"))
    shoot(alice_phone, "1-new-table")
    no_horizontal_scroll(alice_phone)
    seats = [
        ("alice", "", "honda", "daimyo"),
        ("bob", "", "sakakibara", "shomyo"),
        ("", "Carl", "sakai", "sensei"),
        ("", "Dora", "ii", "hatamoto"),
    ]
    alice_phone.locator("label.chip", has_text="4 players").tap()
    alice_phone.get_by_label("Let the site deal the starting titles").uncheck()
    alice_phone.get_by_label("Let the site deal the gates").uncheck()
    for i, (player, guest, general, title) in enumerate(seats):
        if player:
            alice_phone.locator(f"#id_seat{i}_player").select_option(label=player)
        else:
            alice_phone.locator(f"#id_seat{i}_guest").fill(guest)
        alice_phone.locator(f"#id_seat{i}_general").select_option(general)
        alice_phone.locator(f"#id_seat{i}_title").select_option(title)
    for province, troop in GATES.items():
        alice_phone.locator(f"#id_gate_{province}").select_option(troop)
    alice_phone.get_by_role("button", name="Open the table").click()
    expect(alice_phone.locator("h1")).to_have_text("Shitennō table")
    session = TableSession.objects.get()
    assert [s.player.name for s in session.seats.all()] == ["alice", "bob", "Carl", "Dora"]

    # bob joins by the link shown (and encoded in the QR code) on the first screen of alice's phone.
    expect(alice_phone.locator(".qr svg")).to_be_visible()
    shoot(alice_phone, "2-table-invite")
    join_url = alice_phone.locator("#join-link").input_value()
    bob_phone.goto(join_url)
    see_seq(bob_phone, 0)

    # The even year of the rulebook; bob enters Sakakibara's answers, alice the rest; each sees the other.
    for seq, move in enumerate(EVEN_YEAR_EXAMPLE, start=1):
        mover, watcher = (bob_phone, alice_phone) if move["seat"] == 1 else (alice_phone, bob_phone)
        session.refresh_from_db()
        play_sharing_move(mover, move, session.state)
        see_seq(mover, seq)
        see_seq(watcher, seq)
        if seq == 2:
            shoot(bob_phone, "3-sharing-offer-dark")
    expect(alice_phone.locator(".status")).to_contain_text("control of provinces")

    # An illegal payment: Kantō with one Samurai. The reason shows inline; the taps are kept.
    place = bob_phone.locator('form[data-move="place"]')
    place.locator('label.chip:has(input[value="kanto"])').click()
    place.locator('label.chip:has(input[value="t:samurai:0"])').click()
    place.locator('select[name="bonus"]').select_option("exchange")
    place.locator('select[name="next_troop"]').select_option("sohei")
    place.get_by_role("button", name="Place the kamon").click()
    expect(place.locator(".move-error")).to_have_text("Kantō needs 3 Samurai and 1 Bushi; you paid 1 Samurai.")
    expect(bob_phone.locator('input[value="t:samurai:0"]')).to_be_checked()
    expect(bob_phone.locator('input[value="kanto"]')).to_be_checked()
    shoot(bob_phone, "4-illegal-payment-dark")

    # The legal one: Chūgoku's 1st position, 2 Samurai (one shown from the hidden cards) and a Bushi.
    place = bob_phone.locator('form[data-move="place"]')
    place.locator('label.chip:has(input[value="chugoku"])').click()
    place.locator('select[name="reveal_0"]').select_option("samurai")
    place.locator('select[name="reveal_1"]').select_option("bushi")
    place.locator('select[name="bonus"]').select_option("plus_one")
    place.locator('select[name="next_troop"]').select_option("sohei")
    place.get_by_role("button", name="Place the kamon").click()
    placed = len(EVEN_YEAR_EXAMPLE) + 1
    for p in (bob_phone, alice_phone):
        see_seq(p, placed)
        expect(p.locator('.favour li[data-seat="1"] .fav')).to_have_text("5")
        expect(p.locator(".board circle[style]")).to_have_count(1)
    assert alice_phone.locator(".board").inner_html() == bob_phone.locator(".board").inner_html()
    shoot(alice_phone, "5-odd-year-board")
    no_horizontal_scroll(alice_phone)

    # A phone that submits on a stale state is told someone else moved and shown the new state.
    bob_phone.route("**/live/**", lambda route: route.abort())  # hold bob's poll back for this step
    alice_phone.get_by_role("button", name="End the turn").click()
    see_seq(alice_phone, placed + 1)
    bob_phone.get_by_role("button", name="End the turn").click()
    expect(bob_phone.locator(".notice.stale")).to_contain_text("Someone else moved")
    see_seq(bob_phone, placed + 1)
    bob_phone.unroute("**/live/**")

    # Undo, with its confirmation, on alice's phone; bob's phone follows.
    alice_phone.get_by_text("Undo the last move").click()
    alice_phone.get_by_role("button", name="Yes, undo it").click()
    see_seq(alice_phone, placed + 2)
    see_seq(bob_phone, placed + 2)
    expect(bob_phone.locator('form[data-move="end_turn"] button')).to_have_text("End the turn")  # Sakakibara again

    bob_phone.goto(reverse("table_history", args=[session.code]))
    expect(bob_phone.locator(".history del")).to_have_count(1)
    shoot(bob_phone, "6-history-dark")
    no_horizontal_scroll(bob_phone)


def test_the_last_move_shows_the_final_count_on_both_phones(phone, shoot, alice, bob):
    setup, moves = random_legal_game(1, 2)
    session = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        players=[player_for_user(alice), player_for_user(bob)],
        colours=["red", "blue"],
    )
    for seq, move in enumerate(moves[:-1]):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    assert moves[-1]["type"] == "end_turn"
    alice_phone, bob_phone = phone(alice), phone(bob)
    alice_phone.goto(session.get_absolute_url())
    bob_phone.goto(session.get_absolute_url())
    alice_phone.locator('form[data-move="end_turn"] button').click()
    for p in (alice_phone, bob_phone):
        expect(p.locator(".final-count .winner")).to_contain_text("wins with", timeout=LIVE)
    shoot(bob_phone, "7-final-count")
    no_horizontal_scroll(bob_phone)


def test_the_final_count_calculator_fits_a_phone(phone, shoot, alice):
    page = phone(alice)
    page.goto(reverse("final_count"))
    page.locator("label.chip", has_text="2 players").tap()
    page.locator("#id_s0_favour").fill("30")
    page.locator("#id_s1_favour").fill("28")
    page.locator("#id_kanto").fill("2*")  # Seat 2's golden kamon on Kantō's first position
    page.get_by_role("button", name="Count").click()
    expect(page.locator(".final-count .winner")).to_contain_text("wins with")
    no_horizontal_scroll(page)
    shoot(page, "8-final-count-calculator")
