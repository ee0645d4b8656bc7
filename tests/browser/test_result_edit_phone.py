"""An organiser corrects and then deletes a result on a 360 px phone, in English and Dutch, without script for
the delete's confirmation: the league page's Edit, the filled form, its save; then Delete, its confirmation and
the message. And the waiting page names the guest he signs for beside the Sign off button."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.models import Result
from leagues.people.players import player_guest_create
from tests.browser.layout import broken_words
from tests.browser.test_phone import fits_the_phone, follow
from tests.leagues.league_helpers import enter, league_with_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {
        "edit": "Edit",
        "save": "Save the correction",
        "saved": "The result is corrected",
        "delete": "Delete",
        "deleted": "is deleted",
        "for": "for Gus",
    },
    "nl": {
        "edit": "Bewerken",
        "save": "Correctie opslaan",
        "saved": "De uitslag is gecorrigeerd",
        "delete": "Verwijderen",
        "deleted": "is verwijderd",
        "for": "voor Gus",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_organiser_corrects_then_deletes_a_result_on_a_phone(phone, live_server, club, alice, carol, language):
    league, season = league_with_season(club, alice)
    gus = player_guest_create(name="Gus", created_by=alice, club=club)
    result = enter(season, carol, [(carol, 1, 30), (gus, 2, 20), (alice, 3, 10)], game="Go")
    words = WORDS[language]
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )

    page.goto(league.get_absolute_url())
    follow(page, page.locator(f"#result-{result.pk}").get_by_role("link", name=words["edit"], exact=True))
    fits_the_phone(page)
    page.locator("#id_score_1").fill("31")
    page.get_by_role("button", name=words["save"]).click()
    expect(page.locator(".messages")).to_contain_text(words["saved"])
    assert result.entries.get(rank=1).score == 31

    page.locator(f"#result-{result.pk}").get_by_role("link", name=words["delete"], exact=True).click()
    expect(page.locator(".delete-confirm")).to_be_visible()
    fits_the_phone(page)
    page.locator(".delete-confirm").get_by_role("button", name=words["delete"]).click()
    expect(page.locator(".messages")).to_contain_text(words["deleted"])
    assert not Result.objects.filter(pk=result.pk).exists()
    fits_the_phone(page)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_waiting_page_names_the_guest_beside_sign_off_on_a_phone(phone, live_server, club, alice, carol, language):
    _league, season = league_with_season(club, alice)
    gus = player_guest_create(name="Gus", created_by=alice, club=club)
    result = enter(season, carol, [(carol, 1, 30), (gus, 2, 20)], game="Go")
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto("/results/waiting/")
    expect(page.locator(f"#result-{result.pk} .signs-for")).to_have_text(WORDS[language]["for"])
    # the row fits (the page's heading, "Waiting for your sign-off", wraps at its hyphen as it did before)
    width = page.evaluate("[document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]")
    assert width[0] <= width[1] and broken_words(page, f"#result-{result.pk}") == []
