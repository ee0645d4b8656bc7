"""Pages that confused a new user, at 360 px (issue 30, section 5): a mistyped game link, the new club's tab
title, the season form's defaults and the signed-in way to the rankings and the game statistics."""

import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games.plugins import all_games
from leagues.common.forms import months_later
from leagues.models import League

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_mistyped_game_link_says_so_and_offers_the_games(phone, alice):
    page = phone(alice)
    response = page.goto(reverse("table_new") + "?game=samurai-empires")
    assert response.status == 404
    expect(page.locator("h1")).to_have_text("No such game")
    expect(page.locator("main")).to_contain_text("samurai-empires")
    expect(page.locator(".game-list a")).to_have_count(len(all_games()))
    no_horizontal_scroll(page)
    page.locator(".game-list a", has_text="Small Samurai Empires").tap()
    expect(page.locator("h1")).to_have_text("New table")
    expect(page.locator('input[name="game"]')).to_have_value("samurai_empires")


def test_the_new_club_page_has_its_own_tab_title(phone, alice):
    page = phone(alice)
    page.goto(reverse("club_create"))
    expect(page).to_have_title("Start a club")
    no_horizontal_scroll(page)


def test_a_new_season_starts_today_and_ends_in_three_months(phone, club, alice):
    league = League.objects.create(club=club, name="Cup", games=["Go"])
    page = phone(alice)
    page.goto(reverse("season_create", args=[league.pk]))
    today = timezone.localdate()
    expect(page.locator("#id_starts_on")).to_have_value(today.isoformat())
    expect(page.locator("#id_ends_on")).to_have_value(months_later(today, 3).isoformat())
    expect(page.locator("#id_tie_breaker_1")).to_have_value("wins")
    no_horizontal_scroll(page)


def test_signed_in_the_rankings_and_each_games_statistics_are_a_tap_away(phone, alice):
    page = phone(alice)
    page.goto(reverse("home"))
    page.locator("nav").get_by_role("link", name="Rankings").tap()
    expect(page).to_have_url(re.compile(r"/rankings/$"))
    page.goto(reverse("home"))
    for game in all_games():  # a game without a statistics page (no stats_template) has no link to one
        link = page.locator("main").get_by_role("link", name=f"{game.name} statistics")
        if game.stats_template:
            expect(link).to_be_visible()
        else:
            expect(link).to_have_count(0)
    no_horizontal_scroll(page)


def test_the_season_select_shows_a_whole_season_at_360_px(phone, club, alice):
    import datetime

    from leagues.club import seasons

    league = seasons.league_create(club=club, name="Cup", games=["Go"], user=alice)
    today = timezone.localdate()
    seasons.season_create(
        league=league,
        name="The long autumn season of the club",
        starts_on=today,
        ends_on=months_later(today, 3),
        user=alice,
    )
    seasons.season_create(
        league=league,
        name="Summer",
        starts_on=today - datetime.timedelta(days=200),
        ends_on=today - datetime.timedelta(days=100),
        user=alice,
    )
    page = phone(alice)
    page.goto(reverse("league_detail", args=[league.pk]))
    select = page.locator("select#season")
    box, card = select.bounding_box(), page.locator("main").bounding_box()
    assert box["x"] + box["width"] <= card["x"] + card["width"]
    assert box["width"] >= 0.8 * card["width"]  # the whole row, not squeezed beside its label
    no_horizontal_scroll(page)
