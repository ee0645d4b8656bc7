"""A person makes an access token for his app on a 360 px phone, in English and Dutch (issue 48 finding 2): from the
account page to the tokens page, a name and "read and write", the key shown once and working at once from an app
with no session; then revoked by its button, and the key refused."""

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from shitenno_site.tokens.models import AccessToken
from tests.browser.test_phone import fits_the_phone, follow
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WORDS = {
    "en": {
        "tokens": "Access tokens for apps",
        "name": "Name",
        "write": "Read and write",
        "make": "Make the token",
        "password": "Your password",
        "revoke": "Revoke “Score app”",
        "revoked": "The token is revoked",
    },
    "nl": {
        "tokens": "Toegangstokens voor apps",
        "name": "Naam",
        "write": "Lezen en schrijven",
        "make": "Maak het token",
        "password": "Je wachtwoord",
        "revoke": "“Score app” intrekken",
        "revoked": "Het token is ingetrokken",
    },
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_person_makes_uses_and_revokes_a_token_on_a_phone(phone, live_server, carol, language):
    words = WORDS[language]
    page = phone(carol)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto("/accounts/me/")
    follow(page, page.get_by_role("link", name=words["tokens"]))
    fits_the_phone(page)
    page.get_by_label(words["name"]).fill("Score app")
    page.get_by_label(words["write"]).check()
    page.get_by_label(words["password"]).fill(PASSWORD)  # asked again: a borrowed phone makes no token
    page.get_by_role("button", name=words["make"]).click()
    key = page.locator("#new-key").input_value()
    fits_the_phone(page)  # the long key stays in its field, inside the phone's width
    assert key.startswith("shp_") and AccessToken.objects.get(user=carol).scope == "write"

    app = Client()
    assert app.get("/api/me/", HTTP_AUTHORIZATION=f"Bearer {key}").json()["username"] == "carol"

    page.reload()  # the key is shown once: not on the page again
    expect(page.locator("#new-key")).to_have_count(0)
    page.get_by_role("button", name=words["revoke"]).click()
    expect(page.locator("body")).to_contain_text(words["revoked"])
    assert app.get("/api/me/", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401
