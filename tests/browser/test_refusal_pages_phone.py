"""Two refusals a newcomer meets on his phone, at 360 px in both languages: the digest's unsubscribe link once it
is too old (410: the page says why and where the settings are), and the new-club form past the account's budget
(429: the sentence above the form says when the next may come, the name typed is kept). Each page fits the screen
with no word broken, and the refusal changed nothing."""

import datetime

import pytest
import time_machine
from django.conf import settings as django_settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from leagues.club import clubs
from leagues.common.budgets import CLUBS_PER_DAY
from leagues.models import Club
from leagues.notifications import mail
from leagues.notifications.models import Preference
from tests.browser.test_phone import fits_the_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAID = {
    "en": {
        "expired": f"This link is more than {mail.UNSUBSCRIBE_DAYS} days old and no longer works.",
        "settings": "Notification settings",
        "create": "Create",
        "budget": f"You founded {CLUBS_PER_DAY} clubs in the last day, the most one account may",
    },
    "nl": {
        "expired": f"Deze link is meer dan {mail.UNSUBSCRIBE_DAYS} dagen oud en werkt niet meer.",
        "settings": "Instellingen voor berichten",
        "create": "Aanmaken",
        "budget": f"Je hebt de afgelopen dag {CLUBS_PER_DAY} clubs opgericht",
    },
}


def in_language(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_too_old_unsubscribe_link_says_so_and_leads_to_the_settings(phone, shoot, live_server, alice, language):
    with time_machine.travel(timezone.now() - datetime.timedelta(days=mail.UNSUBSCRIBE_DAYS + 1), tick=False):
        token = mail.unsubscribe_token(alice.pk)
    before = list(Preference.objects.filter(user=alice).values())
    page = phone(None)
    in_language(page, live_server, language)
    answer = page.goto(reverse("notifications:unsubscribe", args=[token]))
    assert answer.status == 410
    expect(page.get_by_role("alert")).to_contain_text(SAID[language]["expired"])
    expect(page.get_by_role("link", name=SAID[language]["settings"])).to_be_visible()
    shoot(page, f"unsubscribe-expired-{language}")
    fits_the_phone(page)
    assert list(Preference.objects.filter(user=alice).values()) == before


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_new_club_form_past_the_budget_says_when_and_keeps_the_name(phone, shoot, live_server, alice, language):
    for n in range(CLUBS_PER_DAY):
        clubs.club_create(name=f"Club {n}", owner=alice)
    before = sorted(Club.objects.values_list("pk", flat=True))
    page = phone(alice)
    in_language(page, live_server, language)
    page.goto("/clubs/new/")
    page.locator('input[name="name"]').fill("Kyoto Table Club")
    with page.expect_response(lambda response: response.request.method == "POST") as posted:
        page.get_by_role("button", name=SAID[language]["create"]).click()
    assert posted.value.status == 429
    expect(page.locator("main")).to_contain_text(SAID[language]["budget"])
    expect(page.locator('input[name="name"]')).to_have_value("Kyoto Table Club")
    shoot(page, f"club-budget-{language}")
    fits_the_phone(page)
    assert sorted(Club.objects.values_list("pk", flat=True)) == before
