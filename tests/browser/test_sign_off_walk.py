"""A new user's walk from a message to a signed result, at 360 px in English and Dutch: the nav's badge ("1 to
sign", "1 te bevestigen") stays whole; the sign-off page it opens (the page every
sign-off message opens) takes the tap and stays open, saying thanks; a dispute's message opens the league page at
the disputed result, marked."""

import re

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.notifications.messages import worded
from leagues.notifications.models import Channel, Kind, Notification, Preference
from leagues.people.players import player_for_user
from leagues.result import results
from tests.leagues.league_helpers import TONIGHT, thursday_season  # noqa: F401 (the `season` fixture)

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "badge": "1 to sign",
        "sign": "Sign off",
        "thanks": "Thank you: your sign-off is recorded.",
        "heading": "Waiting for your sign-off",
        "account": "Your account",
    },
    "nl": {
        "badge": "1 te bevestigen",
        "sign": "Bevestigen",
        "thanks": "Bedankt: je bevestiging is vastgelegd.",
        "heading": "Wacht op jouw bevestiging",
        "account": "Je account",
    },
}


def in_language(phone, live_server, user, language):
    page = phone(user)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return page


def on_one_line(locator) -> None:
    """The badge does not break inside ("1 te" over "bevestigen"): one line of its text high."""
    height, line = locator.evaluate(
        "e => [e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)"
        " || parseFloat(getComputedStyle(e).fontSize) * 1.5]"
    )
    assert height < 2 * line, (height, line)


@pytest.fixture
def waiting(club, season, alice, bob):
    from leagues.club.clubs import club_join

    club_join(token=club.invite_token, user=bob)
    return results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )


@pytest.mark.parametrize("language", ["en", "nl"])
def test_from_the_badge_to_a_signed_result_and_back_on_a_phone(phone, live_server, shoot, bob, waiting, language):
    says = SAYS[language]
    page = in_language(phone, live_server, bob, language)
    page.goto("/")
    badge = page.get_by_role("link", name=says["badge"])
    expect(badge).to_be_visible()
    on_one_line(badge)
    no_horizontal_scroll(page)
    badge.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(says["heading"])
    no_horizontal_scroll(page)
    shoot(page, f"sign-off-waiting-{language}")
    page.locator(f"#result-{waiting.pk}").get_by_role("button", name=says["sign"]).click()
    expect(page.locator(".messages")).to_have_text(says["thanks"])
    assert page.url.endswith(f"/results/waiting/#result-{waiting.pk}")
    expect(page.get_by_role("link", name=says["badge"])).to_have_count(0)  # nothing left to sign
    no_horizontal_scroll(page)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_header_holds_one_line_with_the_badge_and_a_twelve_letter_name(
    phone, live_server, shoot, club, season, alice, django_user_model, language
):
    """The account's row of the header (who is signed in, the badge) stays one row at 360 px: "Log out (name)"
    had wrapped under the badge, pushing every page down a row. The name opens a small menu with "Log out"
    (on every page, so a phone offline can sign out too) and the account page."""
    from leagues.club.clubs import club_join

    kenji = django_user_model.objects.create_user("kenji_tanaka")
    club_join(token=club.invite_token, user=kenji)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(kenji), "rank": 2}],
    )
    page = in_language(phone, live_server, kenji, language)
    page.goto("/")
    badge = page.get_by_role("link", name=SAYS[language]["badge"])
    expect(badge).to_be_in_viewport()
    on_one_line(badge)
    expect(page.locator("header .account")).to_contain_text("kenji_tanaka")  # whose phone this is, at a glance
    rows = page.locator("header .account > *").evaluate_all("items => items.map(i => i.getBoundingClientRect().top)")
    assert len(rows) >= 2 and max(rows) - min(rows) < 44, rows  # one row: nothing wrapped under the badge
    no_horizontal_scroll(page)
    shoot(page, f"header-with-badge-{language}")
    log_out_button = page.get_by_role(
        "button", name="Log out (kenji_tanaka)" if language == "en" else "Uitloggen (kenji_tanaka)"
    )
    expect(log_out_button).to_be_hidden()  # the menu is closed until the name is tapped
    page.locator("header .account .who > summary").click()
    expect(log_out_button).to_be_in_viewport(ratio=1)  # all of it: the menu opens inside the phone's width
    no_horizontal_scroll(page)  # the open menu lies over the page, inside the phone's width
    shoot(page, f"header-menu-{language}")
    page.get_by_role("link", name=SAYS[language]["account"]).click()
    expect(page).to_have_url(re.compile(r"/accounts/me/$"))


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_name_menu_opens_inside_the_phone_beside_the_brand_too(phone, live_server, shoot, alice, language):
    """With a short name and nothing to sign, the account's row sits beside the brand at the header's right edge:
    the menu opens from that edge leftwards, inside 360 px (a menu hung from the name's left ran off the right)."""
    page = in_language(phone, live_server, alice, language)
    page.goto("/")
    page.locator("header .account .who > summary").click()
    log_out_button = page.get_by_role("button", name="Log out (alice)" if language == "en" else "Uitloggen (alice)")
    expect(log_out_button).to_be_in_viewport(ratio=1)
    expect(page.get_by_role("link", name=SAYS[language]["account"])).to_be_in_viewport(ratio=1)
    no_horizontal_scroll(page)
    shoot(page, f"header-menu-short-name-{language}")


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_dispute_s_message_opens_the_league_page_at_that_result(
    phone, live_server, shoot, alice, bob, waiting, language
):
    Preference.objects.create(user=alice, dispute=Channel.EMAIL)
    results.result_sign_off(result=waiting, user=bob, agreed=False, note="I won that game")
    message = worded(Kind.DISPUTE, Notification.objects.get(recipient=alice, kind=Kind.DISPUTE).payload, language)
    page = in_language(phone, live_server, alice, language)
    page.goto(message["url"])
    row = page.locator(f"#result-{waiting.pk}")
    expect(row).to_contain_text("bob: I won that game")
    expect(row).to_be_in_viewport()
    assert page.evaluate(f"document.querySelector('#result-{waiting.pk}').matches(':target')")
    no_horizontal_scroll(page)
    shoot(page, f"dispute-link-{language}")


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_notification_settings_fit_a_phone(phone, live_server, shoot, alice, settings, language):
    for push in (False, True):
        if push:
            settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "BPub", "mailto:a@b"
        page = in_language(phone, live_server, alice, language)
        page.goto("/accounts/notifications/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        assert "VAPID" not in page.content()
        no_horizontal_scroll(page)
        shoot(page, f"notification-settings-{'push' if push else 'no-push'}-{language}")
