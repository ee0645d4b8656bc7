"""Editing a league and its season, and naming oneself, on a 360 px phone in English and Dutch (issue 34): the
owner taps Edit on the league page, changes what the form offers, and the pages fit the screen."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.models import League, Season
from leagues.people.players import player_for_user
from tests.browser.test_phone import fits_the_phone, follow
from tests.leagues.league_helpers import enter, league_with_season, sign_all

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {  # what the owner taps and reads, in each language
    "en": {
        "edit_league": "Edit the league",
        "save_league": "Save the league",
        "edit_season": "Edit the season",
        "save_season": "Save the season",
        "name": "Name",
        "delete_season": "Delete the season",
        "refused": "The season cannot be deleted: it holds 1 result.",
        "your_name": "Your name",
        "save_name": "Save the name",
    },
    "nl": {
        "edit_league": "Competitie bewerken",
        "save_league": "Competitie opslaan",
        "edit_season": "Seizoen bewerken",
        "save_season": "Seizoen opslaan",
        "name": "Naam",
        "delete_season": "Seizoen verwijderen",
        "refused": "Het seizoen kan niet worden verwijderd: het bevat 1 uitslag.",
        "your_name": "Je naam",
        "save_name": "Naam opslaan",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_owner_edits_his_league_and_season_and_names_himself_on_a_phone(
    phone, live_server, club, alice, carol, language
):
    league, season = league_with_season(club, alice)
    sign_all(enter(season, alice, [(alice, 1, 30), (carol, 2, 20)], game="Go"), carol)  # it counts
    words = WORDS[language]
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )

    page.goto(league.get_absolute_url())
    follow(page, page.get_by_role("link", name=words["edit_league"]))
    fits_the_phone(page)
    page.get_by_label(words["name"], exact=True).fill("Dinsdagcompetitie")
    page.get_by_role("button", name=words["save_league"]).click()
    expect(page.locator("h1")).to_have_text("Dinsdagcompetitie")
    assert League.objects.get(pk=league.pk).name == "Dinsdagcompetitie"

    page.get_by_role("link", name=words["edit_season"]).click()
    expect(page.locator("#season-fixed")).to_be_visible()  # a result counts in it: dates and points stay
    expect(page.locator("#id_starts_on")).to_be_disabled()
    fits_the_phone(page)
    page.get_by_label(words["name"], exact=True).fill("Winter 2026-27")
    page.get_by_role("button", name=words["save_season"]).click()
    expect(page.locator("#standings h2")).to_contain_text("Winter 2026-27")
    assert Season.objects.get(pk=season.pk).starts_on == season.starts_on

    page.get_by_role("link", name=words["delete_season"]).click()
    expect(page.locator("#delete-refused")).to_have_text(words["refused"])
    fits_the_phone(page)

    page.goto("/accounts/me/")
    page.get_by_label(words["your_name"]).fill("Alice Sato")
    page.get_by_role("button", name=words["save_name"]).click()
    expect(page.locator(".messages")).to_contain_text("Alice Sato")
    fits_the_phone(page)
    assert player_for_user(alice).name == "Alice Sato"
