"""Small Samurai Empires on a 360 px phone in Debian's Chromium: one era of solo play (the AIs' steps with
"next", the player's placements and resolutions, the era's sheet) and a 3-player score sheet to a winner, opened
through the new-table page with the board pasted as JSON."""

from __future__ import annotations

import json
import random

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from games import services
from games.models import TableSession
from leagues.people.players import player_for_user
from tests.browser.test_table import no_horizontal_scroll, see_seq
from tests.games.engines.samurai_empires.tables import BOARD, SOLO_BOARD, random_legal_move
from tests.games.samurai_empires_site import form_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fill(form, fields: dict) -> None:
    for name, value in fields.items():
        if name != "type":
            form.locator(f'input[name="{name}"]').fill(str(value))


def play(page, move: dict, state: dict) -> None:
    """Enter `move` through its form on the page, as a thumb would."""
    kind = move["type"]
    form = page.locator(f'form[data-move="{kind}"]')
    if kind == "ai_step":
        form.locator("button.sse-next").click()
    elif kind == "pass":
        form.get_by_role("button").click()
    elif kind == "place":
        value = form_of(move, state)["spot"]
        form.locator(f'label.chip:has(input[value="{value}"])').click()
        form.get_by_role("button", name="Place the token").click()
    else:
        fill(form, form_of(move, state))
        form.locator("button.primary").click()


def test_one_era_of_solo_play_on_a_phone(phone, shoot, alice):
    session = services.session_create(
        game="samurai_empires",
        created_by=alice,
        players=[player_for_user(alice)],
        setup={"mode": "solo", "players": [{"name": "alice", "training_ground": 1}], "board": SOLO_BOARD, "seed": 8},
    )
    page = phone(alice)
    page.goto(session.get_absolute_url())
    expect(page.locator("h1")).to_have_text("Small Samurai Empires table")
    expect(page.locator("#ais-h")).to_have_text("What each AI holds")
    no_horizontal_scroll(page)
    rng = random.Random(8)
    seq = 0
    while session.state["era"] == 1:
        move = random_legal_move(rng, session.state)
        play(page, move, session.state)
        seq += 1
        see_seq(page, seq)
        session.refresh_from_db()
        if move["type"] == "ai_step":
            expect(page.locator(".sse-step")).to_contain_text(session.state["last"])  # as the log says it
        if seq == 3:
            shoot(page, "sse-solo-ai-step")
            no_horizontal_scroll(page)
    assert session.state["phase"] == "planning" and len(session.state["sheet"]["eras"]) == 1
    expect(page.locator(".status")).to_contain_text("Era 2 of 3")
    expect(page.locator(".sse-totals")).to_contain_text("AIs together")
    no_horizontal_scroll(page)
    shoot(page, "sse-solo-era-2")


def test_a_three_player_score_sheet_to_a_winner_on_a_phone(phone, shoot, live_server, alice, carol, club):
    page = phone(alice)
    page.goto(reverse("table_new") + "?game=samurai_empires")
    no_horizontal_scroll(page)
    page.locator("label.chip", has_text="3 players").tap()
    page.locator("#id_seat1_player").select_option(str(player_for_user(carol).pk))
    page.locator("#id_seat2_guest").fill("Sora")
    page.locator("#id_seat0_ground").select_option("1")
    page.get_by_text("Paste a board as JSON").click()  # the API's format, folded away below the editor's link
    page.locator("#id_board").fill(json.dumps(BOARD))
    page.get_by_role("button", name="Open the table").click()
    expect(page.locator("h1")).to_have_text("Small Samurai Empires table")
    session = TableSession.objects.get()
    eras = [
        {"p0_place0": 2, "p1_place0": 1, "p2_place1": 1},
        {"p0_place1": 1, "p1_place2": 1, "p2_place3": 3},
        {"p0_place3": 1, "p1_place1": 2, "p2_shrines": 4},
    ]
    for seq, fields in enumerate(eras, start=1):
        form = page.locator('form[data-move="era_score"]')
        fill(form, fields)
        form.locator("button.primary").click()
        see_seq(page, seq)
        no_horizontal_scroll(page)
        page.locator(".sse-totals").scroll_into_view_if_needed()  # below the sheet, the chances and the invite
        expect(page.locator(".sse-totals")).to_be_in_viewport()
    shoot(page, "sse-sheet-final-count")
    # the era's sheet fits the card at 360 px, "Other" and the era's total included, in English and in Dutch
    for language in ("en", "nl"):
        page.context.add_cookies(
            [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
        )
        page.reload()
        expect(page.locator(".sse-era-rows li")).to_have_count(3)
        assert page.locator(".sse-sheet").evaluate("s => s.scrollWidth <= s.clientWidth"), language
        for block in page.locator(".sse-era-rows li").all():
            assert block.evaluate(
                "b => b.getBoundingClientRect().right <= b.closest('.sse-sheet').getBoundingClientRect().right"
            ), language
        no_horizontal_scroll(page)
    page.context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": "en", "url": live_server.url}])
    page.reload()
    form = page.locator('form[data-move="final_score"]')
    fill(form, {"p0_resource_points": 1, "p1_inf0": 2})
    form.get_by_role("button", name="Enter the final count").click()
    see_seq(page, 4)
    expect(page.locator(".final-count .winner")).to_have_text("carol wins with 17 points.")
    no_horizontal_scroll(page)
    shoot(page, "sse-sheet-winner")
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED
