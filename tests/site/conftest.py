"""alice's club as the hostile-input and access tests find it: a league with a season and a pending result,
a private table she hosts with bob, and a guest she added."""

import datetime
from types import SimpleNamespace

import pytest
from django.utils import timezone

from games import services as game_services
from leagues.club import seasons
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results
from tests.games.tables import two_player_setup

TODAY = timezone.localdate()


@pytest.fixture
def alices_club(db, alice, bob, carol, dave, club) -> SimpleNamespace:
    league = seasons.league_create(club=club, name="Winter league", games=["shitenno", "Go"], user=alice)
    season = seasons.season_create(
        league=league,
        name="2026",
        starts_on=TODAY - datetime.timedelta(days=30),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    result = results.result_enter(
        game="Go",
        played_on=TODAY,
        user=alice,
        season=season,
        entries=[
            {"player": player_for_user(alice), "rank": 1, "score": 10},
            {"player": player_for_user(carol), "rank": 2, "score": 5},
        ],
    )
    private = game_services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=two_player_setup(),
        is_public=False,
    )
    guest = player_guest_create(name="Hanzo", created_by=alice)
    return SimpleNamespace(club=club, league=league, season=season, result=result, private=private, guest=guest)
