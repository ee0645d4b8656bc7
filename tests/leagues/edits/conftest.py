"""The league and season edit tests' fixtures: a league whose season holds nothing, a waiting or a counted result."""

import pytest

from ..league_helpers import enter, league_with_season, sign_all


@pytest.fixture
def league(club, alice):
    return league_with_season(club, alice)[0]


@pytest.fixture
def season(league):
    return league.seasons.get()


@pytest.fixture
def played(season, alice, carol):
    """The season holds a result (pending: alice signed, carol has not)."""
    return enter(season, alice, [(alice, 1, 10), (carol, 2, 5)], game="Go")


@pytest.fixture
def counted(played, carol):
    """The season's result counts: carol signed it too."""
    return sign_all(played, carol)
