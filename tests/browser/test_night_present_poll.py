"""The organiser's check-in list on a 360 px phone, in English and Dutch (issue 48): while nobody comes or goes its
poll is answered 304 (the browser asks with the list's ETag; the page sees its cached copy as a 200, so the site's
answers are read where the site makes them), and a name ticked on the polled list is taken (its
form has no token of its own: htmx sends the page's) and shows at once."""

import datetime

import pytest
from django.conf import settings as django_settings
from django.middleware.http import ConditionalGetMiddleware
from django.utils import timezone
from playwright.sync_api import expect

from leagues.club import clubs, seasons
from leagues.nights import selectors, services, views

from .test_offline_lie_fi import until
from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HERE = {"en": ("Here: 1 player", "Here: 2 players"), "nl": ("Aanwezig: 1 speler", "Aanwezig: 2 spelers")}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_polled_list_is_a_304_until_a_name_is_ticked_and_the_tick_is_taken(
    phone, live_server, monkeypatch, alice, bob, club, language
):
    monkeypatch.setattr(views, "PRESENT_POLL_SECONDS", 1)
    clubs.club_join(token=club.invite_token, user=bob)
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    today = timezone.localdate()
    season = seasons.season_create(
        league=league,
        name="Spring",
        starts_on=today - datetime.timedelta(days=9),
        ends_on=today + datetime.timedelta(days=30),
        user=alice,
    )
    night = services.night_open(season=season, user=alice, date=today, games=["shitenno"], table_sizes=[2, 3])
    services.night_check_in(night=night, user=alice)

    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    polls = []  # (asked with an ETag, the site's answer) of each poll of the list, as the site saw it
    answer = ConditionalGetMiddleware.process_response

    def answered(middleware, request, response):
        response = answer(middleware, request, response)
        if request.GET.get("part") == "present":
            polls.append(("If-None-Match" in request.headers, response.status_code))
        return response

    monkeypatch.setattr(ConditionalGetMiddleware, "process_response", answered)
    page.goto(f"/nights/{night.pk}/")
    expect(page.locator("#present-title")).to_have_text(HERE[language][0])
    until(page, lambda: len(polls) >= 3)
    assert polls[0] == (False, 200) and all(poll == (True, 304) for poll in polls[1:]), polls
    no_horizontal_scroll(page)

    page.locator("#night-present button.tick", has_text="bob").tap()
    expect(page.locator("#present-title")).to_have_text(HERE[language][1])
    expect(page.locator("#night-present button.tick[aria-pressed=true]", has_text="bob")).to_be_visible()
    assert [row["player"].name for row in selectors.night_players(night) if row["present"]] == ["alice", "bob"]
    seen = len(polls)
    until(page, lambda: len(polls) >= seen + 2)
    assert polls[seen] == (True, 200) and polls[seen + 1] == (True, 304), polls  # the new list, then unchanged
    expect(page.locator("#present-title")).to_have_text(HERE[language][1])
