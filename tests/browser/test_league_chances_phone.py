"""Issue 50 finding 1's notes under a table's chances, on a 360 px phone in English and Dutch: a club table that
counts in a league says its chances come from the league's ratings (naming the league), and one where nobody has
a league rating yet says its game's are read. The note and the chances fit the screen with no word broken."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.models import Rating
from leagues.rating.chances import table_chances
from tests.browser.test_phone import fits_the_phone
from tests.leagues.test_chances_scope import club_table, rate
from tests.leagues.test_league_pages import rated_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTE = {
    "en": {
        "league": "From the players’ ratings in the league Winter league, where this table counts",
        "fallback": "This table counts in the league Winter league, where nobody at it has a rating yet",
        "chance": "has a {}% chance",
    },
    "nl": {"league": "competitie Winter league", "fallback": "competitie Winter league", "chance": "{}%"},
}


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("rated", [True, False], ids=["league-ratings", "nobody-rated-in-the-league"])
def test_a_league_table_s_chances_say_which_ratings_they_read(
    phone, shoot, live_server, club, alice, bob, carol, language, rated
):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    if rated:
        rate("league", str(league.pk), alice.player, 20.0)
        rate("league", str(league.pk), bob.player, 30.0)
    else:
        Rating.objects.filter(kind="league", key=str(league.pk)).delete()
    session = club_table(club, alice, [alice.player, bob.player])
    expected = table_chances(
        game="shitenno", player_ids=[alice.player.pk, bob.player.pk], league_id=league.pk if rated else None
    )
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(session.get_absolute_url())
    chances = page.locator("section.chances")
    expect(chances).to_contain_text(NOTE[language]["league" if rated else "fallback"])
    expect(chances.locator("li").first).to_contain_text(NOTE[language]["chance"].format(round(expected[0].win * 100)))
    if language == "nl":
        expect(chances).not_to_contain_text("where this table counts")
        expect(chances).not_to_contain_text("nobody at it")
    chances.scroll_into_view_if_needed()
    shoot(page, f"league-chances-{'rated' if rated else 'fallback'}-{language}")
    fits_the_phone(page)
