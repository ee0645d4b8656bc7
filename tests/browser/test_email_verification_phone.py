"""Confirming one's address on a 360 px phone, in English and Dutch (issue 47 finding 8): the account page says the
address is not confirmed yet and sends the link again; the link asks, its button confirms, and the account page
then says confirmed."""

import re

import pytest
from django.conf import settings as django_settings
from django.core import mail
from playwright.sync_api import expect

from leagues.models import VerifiedAddress
from leagues.models.accounts import address_verified
from tests.browser.test_phone import fits_the_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {
        "not_yet": "not confirmed yet",
        "again": "Send the link again",
        "sent": "We sent a link to",
        "confirm": "Confirm the address",
        "done": "is confirmed",
        "confirmed": "confirmed",
    },
    "nl": {
        "not_yet": "nog niet bevestigd",
        "again": "Stuur de link opnieuw",
        "sent": "We hebben een link naar",
        "confirm": "Bevestig het adres",
        "done": "is bevestigd",
        "confirmed": "bevestigd",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_member_confirms_his_address_from_the_account_page(phone, live_server, carol, language, settings):
    settings.SITE_URL = live_server.url
    words = WORDS[language]
    VerifiedAddress.objects.filter(user=carol).delete()
    page = phone(carol)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto("/accounts/me/")
    email = page.locator("#email")
    expect(email).to_contain_text(words["not_yet"])
    fits_the_phone(page)
    page.get_by_role("button", name=words["again"]).click()
    expect(page.locator("body")).to_contain_text(words["sent"])
    assert [m.to for m in mail.outbox] == [[carol.email]]
    link = re.search(r"https?://\S+/accounts/verify/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    fits_the_phone(page)
    assert not address_verified(carol)  # opening the link asks
    page.get_by_role("button", name=words["confirm"]).click()
    expect(page.locator("body")).to_contain_text(words["done"])
    assert address_verified(carol)
    page.goto("/accounts/me/")
    expect(email).not_to_contain_text(words["not_yet"])
    expect(email.locator(".tag")).to_have_text(words["confirmed"])
    expect(page.get_by_role("button", name=words["again"])).to_have_count(0)
