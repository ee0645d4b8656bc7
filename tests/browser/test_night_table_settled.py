"""A night table's phone at 360 px while the organiser enters its game by hand: the poll brings the notice (who
placed first, a link to the result) in place of the move panel, and the page still fits the phone."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import TableSession
from leagues.club import clubs, seasons
from leagues.models import Player
from leagues.nights import selectors
from leagues.nights import services as night_services
from leagues.people import players
from leagues.result import results

from .test_table import LIVE, no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()


def test_a_table_entered_by_hand_tells_its_phone_and_offers_no_move(phone, shoot, alice, carol, club):
    members = [alice, carol]
    for n in range(4):
        user = players.user_sign_up(username=f"p{n}", email=f"p{n}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        members.append(user)
    league = seasons.league_create(club=club, name="Donderdagcompetitie", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Winter",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    night = night_services.night_open(season=season, user=alice, date=TODAY, games=["shitenno"])
    for user in members:
        night_services.night_check_in(night=night, user=user)
    night_services.round_propose(night=night, user=alice)
    night_services.tables_open(night_round=night.rounds.get(), user=alice)
    first = selectors.round_tables(night.rounds.get())[0]

    organiser = phone(alice)
    organiser.goto(TableSession.objects.get(code=first["session"]).get_absolute_url())
    expect(organiser.locator("#now form").first).to_be_visible()  # the move panel, before

    results.result_enter(
        game="shitenno",
        played_on=TODAY,
        season=season,
        user=alice,
        entries=[
            {"player": p, "rank": rank}
            for rank, p in enumerate(Player.objects.filter(pk__in=first["players"]).order_by("pk"), start=1)
        ],
    )
    notice = organiser.locator("#table-settled")
    expect(notice).to_contain_text("The organiser entered this table's result by hand", timeout=LIVE)
    expect(notice.get_by_role("link", name="See the result")).to_be_visible()
    expect(organiser.locator("#now")).to_have_count(0)  # no move panel
    # and nothing more reads as a game going on: no one to play, no phone to invite, no chances
    expect(organiser.locator("#table-body .expected")).to_have_count(0)
    expect(organiser.locator(".invite")).to_be_hidden()
    expect(organiser.locator(".chances")).to_be_hidden()
    no_horizontal_scroll(organiser)
    shoot(organiser, "night-table-settled")
    organiser.reload()  # loaded again: the same, without those parts at all
    expect(organiser.locator("#table-settled")).to_be_visible()
    expect(organiser.locator(".invite, .chances, #table-body .expected")).to_have_count(0)
    no_horizontal_scroll(organiser)
