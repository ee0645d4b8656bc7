import datetime

import pytest

from leagues.club import clubs, seasons
from leagues.models import Membership
from leagues.nights import services as nights
from leagues.people import players

TONIGHT = datetime.date(2026, 11, 26)


@pytest.fixture
def season(club, alice):
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno", "teikoku"], user=alice)
    return seasons.season_create(league=league, name="Autumn", starts_on=datetime.date(2026, 9, 1),
                                 ends_on=datetime.date(2026, 12, 31), user=alice)


@pytest.fixture
def members(club, bob):
    """bob and three more members besides alice (owner) and carol."""
    clubs.club_join(token=club.invite_token, user=bob)
    users = [bob]
    for name in ("erin", "frank", "gina"):
        user = players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    return users


@pytest.fixture
def opened_round(season, alice, carol, members):
    """Six members checked in and seated at two tables of three; the round is proposed, not opened."""
    night = nights.night_open(season=season, user=alice, date=TONIGHT, games=["shitenno"], table_sizes=[3])
    for user in [alice, carol, *members]:
        nights.night_check_in(night=night, user=user)
    return nights.round_propose(night=night, user=alice)


def leave(club, user) -> None:
    Membership.objects.filter(club=club, player__user=user).delete()
