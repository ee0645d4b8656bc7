
import pytest

from leagues.models import Membership
from leagues.nights import services as nights
from tests.leagues.league_helpers import TONIGHT, members_joined, thursday_season  # noqa: F401 (the `season` fixture)


@pytest.fixture
def members(club, bob):
    """bob and three more members besides alice (owner) and carol."""
    return members_joined(club, bob, ("erin", "frank", "gina"))


@pytest.fixture
def opened_round(season, alice, carol, members):
    """Six members checked in and seated at two tables of three; the round is proposed, not opened."""
    night = nights.night_open(season=season, user=alice, date=TONIGHT, games=["shitenno"], table_sizes=[3])
    for user in [alice, carol, *members]:
        nights.night_check_in(night=night, user=user)
    return nights.round_propose(night=night, user=alice)


def leave(club, user) -> None:
    Membership.objects.filter(club=club, player__user=user).delete()
