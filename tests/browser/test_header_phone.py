"""The header at 360 px with a to-sign badge showing, in English and Dutch: the brand, the signed-in name and the
badge share one row (templates/base.html says so), the nav below; "olga · 1 te bevestigen" used to drop below
the logo in Dutch."""

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from leagues.club.clubs import club_join
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.result import results
from tests.leagues.league_helpers import TONIGHT, thursday_season  # noqa: F401 (the `season` fixture)

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BADGE = {"en": "1 to sign", "nl": "1 te bevestigen"}


@pytest.fixture
def olga(club, season, alice):
    olga = players.user_sign_up(username="olga", email="olga@example.org", password="a long passphrase 42")
    club_join(token=club.invite_token, user=olga)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(olga), "rank": 2}],
    )
    return olga


@pytest.mark.parametrize("name", ["olga", "wilhelmina"])
@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_name_and_badge_sit_beside_the_brand_at_360_px(phone, live_server, olga, language, name):
    get_user_model().objects.filter(pk=olga.pk).update(username=name)
    page = phone(olga)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page.goto("/")
    badge = page.get_by_role("link", name=BADGE[language])
    expect(badge).to_be_visible()
    brand, who = page.locator("header.top .brand").bounding_box(), page.locator("header.top .who").bounding_box()
    box = badge.bounding_box()
    for part in (who, box):  # on the brand's row: their middles within the brand's height
        middle = part["y"] + part["height"] / 2
        assert brand["y"] <= middle <= brand["y"] + brand["height"], (language, brand, part)
    assert box["height"] < 2.2 * 16, box  # the badge is one line, not "1 te" over "bevestigen"
    assert box["x"] + box["width"] <= 360, box
    nav = page.locator("header.top nav").bounding_box()
    assert nav["y"] >= brand["y"] + brand["height"] - 1  # the nav is the second row
    no_horizontal_scroll(page)
