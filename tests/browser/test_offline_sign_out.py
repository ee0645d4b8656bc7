"""Signing out with the network gone finishes (issue 47, finding 3; docs/offline.md): at 360 px in Debian's
Chromium, alice taps "Log out" offline; the phone shows itself signed out at once, and the site ends her session
when the network is back: from that page, or, when she closed it, first thing from the next page opened."""

import pytest
from django.contrib.sessions.models import Session
from playwright.sync_api import expect

from .test_offline_shared_phone import log_out, read

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def sessions_of(user) -> int:
    return sum(s.get_decoded().get("_auth_user_id") == str(user.pk) for s in Session.objects.all())


def sign_out_offline(page, user) -> None:
    read(page, "/leagues/")
    page.context.set_offline(True)
    log_out(page, user.username)
    expect(page.locator("#signed-out-offline")).to_have_text(
        "Signed out on this phone. The site is told as soon as the network is back.")
    expect(page.locator("header .account")).to_have_text("Signed out")
    expect(page.locator("header .account .who")).to_have_count(0)
    assert sessions_of(user) == 1  # the site has not heard yet


def test_a_sign_out_made_offline_ends_the_session_when_the_network_is_back(phone, alice):
    page = phone(alice)
    sign_out_offline(page, alice)
    page.context.set_offline(False)
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert sessions_of(alice) == 0
    page.goto("/leagues/")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()  # and stays signed out


def test_the_next_page_sends_a_sign_out_that_was_made_offline_first(phone, alice):
    page = phone(alice)
    sign_out_offline(page, alice)
    context = page.context
    page.close()  # the tab that made it is gone before the network is back
    context.set_offline(False)
    page = context.new_page()
    page.goto("/leagues/")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert sessions_of(alice) == 0


def test_online_the_sign_out_posts_at_once(phone, alice):
    page = phone(alice)
    read(page, "/leagues/")
    log_out(page, "alice")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    assert sessions_of(alice) == 0
