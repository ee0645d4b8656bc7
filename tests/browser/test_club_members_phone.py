"""A new organiser manages his club's members on a 360 px phone, in English and Dutch, without scripts doing the
work: the guest's row offers no role, "Remove" opens a confirmation that says what removal does, and the club page
then names who was removed. Every page fits the phone."""

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.models import Membership
from leagues.people import players
from tests.browser.test_phone import fits_the_phone
from tests.browser.test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {
        "remove": "Remove",
        "cancel": "Cancel",
        "ask": "Remove carol from Edo Gamers?",
        "done": "carol was removed from Edo Gamers.",
    },
    "nl": {
        "remove": "Verwijderen",
        "cancel": "Annuleren",
        "ask": "carol uit Edo Gamers verwijderen?",
        "done": "carol is uit Edo Gamers verwijderd.",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_organiser_removes_a_member_after_confirming_on_a_phone(phone, live_server, club, alice, carol, language):
    goro = players.player_guest_create(name="Goro, who has a rather long name indeed", created_by=alice, club=club)
    words = WORDS[language]
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto(club.get_absolute_url())
    fits_the_phone(page)
    no_horizontal_scroll(page)
    guest_row = page.locator("ul.members li", has_text="Goro")
    expect(guest_row.locator("select")).to_have_count(0)  # a guest cannot sign in: no role to give
    carol_row = page.locator("ul.members li", has_text="carol")
    expect(carol_row.locator("select")).to_have_count(1)

    carol_row.get_by_role("link", name=words["remove"]).click()
    expect(page.locator("main")).to_contain_text(words["ask"])
    fits_the_phone(page)
    no_horizontal_scroll(page)
    page.get_by_role("link", name=words["cancel"]).click()  # changing one's mind changes nothing
    assert Membership.objects.filter(club=club, player__user=carol).exists()

    page.locator("ul.members li", has_text="carol").get_by_role("link", name=words["remove"]).click()
    page.locator("main form").get_by_role("button", name=words["remove"]).click()
    expect(page.locator(".messages")).to_contain_text(words["done"])
    fits_the_phone(page)
    assert not Membership.objects.filter(club=club, player__user=carol).exists()
    assert Membership.objects.filter(club=club, player=goro).exists()
