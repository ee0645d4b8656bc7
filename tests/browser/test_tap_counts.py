"""The taps and fills the issue 30 note asks for, counted through Playwright on a 360 px phone: an era of a 3-player
Small Samurai Empires score sheet, a Teikoku raid and a sign-off from the finished table. (The board editor's count
is tests/browser/test_samurai_empires_board_editor.py's.) Each count is asserted, so a change that costs a thumb
more fails here and the number in the note stays true."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.plugins import get_game
from leagues.club import clubs, seasons
from leagues.models import Player, Result
from leagues.people.players import player_for_user
from tests.browser.test_samurai_empires_board_editor import Thumb
from tests.browser.test_table import LIVE, no_horizontal_scroll, see_seq
from tests.browser.test_table_result import DEBT, LAST_CARDS, TWO_CLANS
from tests.games.engines.samurai_empires.tables import BOARD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TODAY = timezone.localdate()


def test_an_era_of_a_three_player_score_sheet(phone, alice):
    """Each player placed in two regions and holds a Shrine: 2 places and the shrines per player, one button."""
    session = services.session_create(
        game="samurai_empires",
        created_by=alice,
        players=[player_for_user(alice), Player.objects.create(name="Ren"), Player.objects.create(name="Sora")],
        setup={"mode": "multiplayer", "players": [{"name": n} for n in ("alice", "Ren", "Sora")], "board": BOARD},
    )
    page = phone(alice)
    thumb = Thumb(page)
    page.goto(session.get_absolute_url())
    form = page.locator('form[data-move="era_score"]')
    for p, places in enumerate([(0, 1, 1, 2), (1, 1, 2, 1), (2, 2, 3, 1)]):
        first, place_a, second, place_b = places
        thumb.fill(form.locator(f'input[name="p{p}_place{first}"]'), str(place_a))
        thumb.fill(form.locator(f'input[name="p{p}_place{second}"]'), str(place_b))
        thumb.fill(form.locator(f'input[name="p{p}_shrines"]'), "1")
    thumb.tap(form.locator("button.primary"))
    see_seq(page, 1)
    no_horizontal_scroll(page)
    session.refresh_from_db()
    assert len(session.state["sheet"]["eras"]) == 1
    assert thumb.actions == 10


@pytest.mark.parametrize(("how", "expected"), [("table dice", 3), ("table dice and cubes", 4), ("site roll", 1)])
def test_a_teikoku_raid(phone, alice, bob, how, expected):
    """Two clans (one defender, already picked): the two dice rolled at the table and the button; with unused
    battle cubes one fill more; or the site rolls (one tap)."""
    setup, moves = get_game("teikoku").demo_game(0, 2)
    at = next(i for i, move in enumerate(moves) if move["type"] == "raid")
    session = services.session_create(
        game="teikoku", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
    )
    for seq, move in enumerate(moves[:at]):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    page = phone(alice)
    thumb = Thumb(page)
    page.goto(session.get_absolute_url())
    raid = page.locator('form[data-move="raid"]')
    expect(raid.locator(".raid-limits li")).to_have_count(1)
    if how == "site roll":
        thumb.tap(raid.get_by_role("button", name="Roll for me"))
    else:
        if "cubes" in how:
            thumb.fill(raid.locator('input[name="cubes"]'), "2")
        thumb.fill(raid.locator('input[name="die0"]'), "3")
        thumb.fill(raid.locator('input[name="die1"]'), "4")
        thumb.tap(raid.get_by_role("button", name="Enter the dice"))
    see_seq(page, at + 1)
    session.refresh_from_db()
    assert session.events.order_by("-seq").first().payload["type"] == "raid"
    assert thumb.actions == expected


def test_a_sign_off_from_the_finished_table(phone, alice, bob, club):
    """The finished table shows its result with the seated player's "Sign off": one tap, no page to find."""
    clubs.club_join(token=club.invite_token, user=bob)
    league = seasons.league_create(club=club, name="Teikoku league", games=["teikoku"], user=alice)
    seasons.season_create(
        league=league,
        name="Spring",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    session = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=TWO_CLANS,
        club=club,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    services.move_record(session=session, seq=0, move=DEBT, user=alice)
    session.refresh_from_db()
    services.move_record(session=session, seq=1, move=LAST_CARDS, user=alice)
    page = phone(alice)
    thumb = Thumb(page)
    page.goto(session.get_absolute_url())
    expect(page.locator(".table-result")).to_be_visible(timeout=LIVE)
    thumb.tap(page.locator(".table-result").get_by_role("button", name="Sign off"))
    expect(page.locator(".table-result li", has_text="alice")).to_contain_text("signed off")
    assert Result.objects.get(session=session).sign_offs.count() == 1
    assert thumb.actions == 1
