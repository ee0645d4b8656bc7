import pytest
from django.utils import timezone

from games.models import TableSession
from leagues.models import Membership, Result
from leagues.nights import services as nights
from leagues.result import results
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


def finish(session: TableSession, *, sign: bool = True) -> Result:
    """The table's game ends, seat order is finishing order; every player signs (unless `sign` is False: then the
    result waits for their sign-off)."""
    seats = list(session.seats.order_by("position").select_related("player__user"))
    session.status, session.finished_at = TableSession.Status.FINISHED, timezone.now()
    session.outcome = {
        "termination": "end",
        "details": {},
        "placings": [
            {"seat": seat.position, "rank": n, "score": 10 - n, "tiebreak": None} for n, seat in enumerate(seats, 1)
        ],
    }
    session.save()
    result = results.result_from_session(session=session)
    if not sign:
        return result
    for seat in seats:
        results.result_sign_off(result=result, user=seat.player.user)
    result.refresh_from_db()
    assert result.status == Result.Status.COUNTED
    return result


def leave(club, user) -> None:
    Membership.objects.filter(club=club, player__user=user).delete()
