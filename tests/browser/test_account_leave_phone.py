"""Taking one's data and leaving, on a 360 px phone in English and Dutch (issue 47 finding 8): from the account
page, "Download my data" gives the JSON file, and "Delete my account" with the password signs the person out with
his account gone."""

import json

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.browser.test_phone import fits_the_phone, follow
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {
        "data": "Download my data",
        "delete": "Delete my account",
        "password": "Your password",
        "for_good": "Delete my account for good",
        "done": "Your account is deleted.",
    },
    "nl": {
        "data": "Mijn gegevens downloaden",
        "delete": "Mijn account verwijderen",
        "password": "Je wachtwoord",
        "for_good": "Mijn account definitief verwijderen",
        "done": "Je account is verwijderd.",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_person_downloads_his_data_and_deletes_his_account_on_a_phone(phone, live_server, carol, language):
    words = WORDS[language]
    page = phone(carol)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto("/accounts/me/")
    follow(page, page.get_by_role("link", name=words["data"]))
    fits_the_phone(page)
    with page.expect_download() as download:
        page.get_by_role("button", name=words["data"]).click()
    data = json.loads(open(download.value.path(), encoding="utf-8").read())
    assert data["account"]["username"] == "carol"

    page.goto("/accounts/me/")
    follow(page, page.get_by_role("link", name=words["delete"]))
    fits_the_phone(page)
    page.get_by_label(words["password"]).fill(PASSWORD)
    page.get_by_role("button", name=words["for_good"]).click()
    expect(page.locator("body")).to_contain_text(words["done"])
    assert not get_user_model().objects.filter(username="carol").exists()
