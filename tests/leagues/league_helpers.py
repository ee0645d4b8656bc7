"""Shared set-up for league tests: a league with a season, and results entered directly."""

import datetime

import pytest
from django.utils import timezone

from leagues.club import seasons
from leagues.club.clubs import club_join
from leagues.models import Rating, RatingEvent, Standing
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.result import results
from tests.accounts import verified
from tests.clock import TONIGHT  # noqa: F401 (the league nights' Thursday, imported from here by their tests)

TODAY = timezone.localdate()
START = TODAY - datetime.timedelta(days=60)


def league_with_season(club, owner, **rules):
    league = seasons.league_create(club=club, name="Winter league", games=["shitenno", "Go"], user=owner)
    season = seasons.season_create(
        league=league, name="2026", starts_on=START, ends_on=TODAY + datetime.timedelta(days=30), user=owner, **rules
    )
    return league, season


@pytest.fixture(name="season")
def thursday_season(club, alice):
    """The league nights' league, "Thursday" (Shitennō and Teikoku), and its "Autumn" season from 1 September to
    31 December 2026, alice's. A fixture named `season` for the modules that import it: the league nights' tests
    and the notifications' (their conftest)."""
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno", "teikoku"], user=alice)
    return seasons.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
        user=alice,
    )


def members_joined(club, first, names):
    """`first` and a new account for each of `names` join the club: [first, *the new accounts], their addresses
    verified as the personas' are."""
    club_join(token=club.invite_token, user=first)
    users = [first]
    for name in names:
        user = verified(
            players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        )
        club_join(token=club.invite_token, user=user)
        users.append(user)
    return users


def join(club, *users):
    for user in users:
        club_join(token=club.invite_token, user=user)


def enter(season, recorder, placings, *, days_ago=1, game="shitenno"):
    """placings: [(user_or_player, rank, score)]; the recorder signs for itself, the others sign after."""
    from leagues.models import Player

    entries = [
        {"player": who if isinstance(who, Player) else player_for_user(who), "rank": rank, "score": score}
        for who, rank, score in placings
    ]
    return results.result_enter(
        game=game, played_on=TODAY - datetime.timedelta(days=days_ago), entries=entries, user=recorder, season=season
    )


def sign_all(result, *users):
    for user in users:
        results.result_sign_off(result=result, user=user)
    result.refresh_from_db()
    return result


def snapshot():
    """Every stored rating, history row and standing, without ids: what a job must not change."""
    return (
        sorted(Rating.objects.values_list("kind", "key", "player_id", "mu", "sigma", "games")),
        sorted(
            RatingEvent.objects.values_list(
                "kind",
                "key",
                "result_id",
                "player_id",
                "played_on",
                "mu_before",
                "sigma_before",
                "mu_after",
                "sigma_after",
            )
        ),
        sorted(Standing.objects.values_list("season_id", "player_id", "sort_key", "points")),
    )


def ids_snapshot():
    return tuple(sorted(model.objects.values_list("pk", flat=True)) for model in (Rating, RatingEvent, Standing))


def sat_with(user, *others):
    """`user` played a table of the site with each of `others` (one two-player table each): outside any club he
    may then name them in a result (access.strangers_to, issue 47 finding 6)."""
    from games import services as game_services
    from tests.games.tables import two_player_setup

    for other in others:
        game_services.session_create(
            game="shitenno",
            created_by=user,
            setup=two_player_setup(),
            is_public=False,
            players=[player_for_user(user), player_for_user(other)],
        )
