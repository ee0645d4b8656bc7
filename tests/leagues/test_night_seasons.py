"""A night's result counts in the night's own season (issue 34): a club with two leagues that both count the same
game, with seasons over the same dates, opens a night in the SECOND league; its table's result counts there, in
that season's standings, and the result page says so. A club's leagues have different names."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games.models import TableSession
from leagues.club import clubs, seasons
from leagues.models import League, Standing
from leagues.nights import selectors, services
from leagues.people import players
from leagues.result import results
from leagues.standings import store as standings_store

TONIGHT = datetime.date(2026, 11, 26)
WINTER = {"starts_on": datetime.date(2026, 11, 1), "ends_on": datetime.date(2027, 2, 28)}


@pytest.fixture
def two_leagues(club, alice):
    """Both leagues count Shitennō and have a winter season over the same dates; "Dinsdagcompetitie" is the second
    league (the larger id), the one a "first league by id" rule would never choose."""
    first = seasons.league_create(club=club, name="Open league", games=["shitenno"], user=alice)
    second = seasons.league_create(club=club, name="Dinsdagcompetitie", games=["shitenno"], user=alice)
    assert first.pk < second.pk
    return (
        seasons.season_create(league=first, name="Winter", user=alice, **WINTER),
        seasons.season_create(league=second, name="Winter 2026-27", user=alice, **WINTER),
    )


@pytest.fixture
def four(club, alice, carol):
    users = [alice, carol]
    for name in ("erin", "frank"):
        user = players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    return users


def play_the_night_s_table(season, alice, users) -> TableSession:
    """A night in `season` with one table of four, opened and played to the end (seat 0 wins)."""
    night = services.night_open(season=season, user=alice, date=TONIGHT, games=["shitenno"], table_sizes=[4])
    for user in users:
        services.night_check_in(night=night, user=user)
    night_round = services.round_propose(night=night, user=alice)
    services.tables_open(night_round=night_round, user=alice)
    [table] = selectors.round_tables(night_round)
    session = TableSession.objects.get(code=table["session"])
    session.status = TableSession.Status.FINISHED
    session.finished_at = timezone.now()
    session.outcome = {
        "termination": "end",
        "details": {},
        "placings": [{"seat": seat, "rank": seat + 1, "score": 40 - seat, "tiebreak": None} for seat in range(4)],
    }
    session.save()
    return session


def test_a_night_table_s_result_counts_in_the_night_s_season_not_the_first_league_s(two_leagues, alice, four):
    first, second = two_leagues
    session = play_the_night_s_table(second, alice, four)
    result = results.result_from_session(session=session)  # what the table's finish signal runs
    assert result.season == second
    for user in four:
        results.result_sign_off(result=result, user=user)
    result.refresh_from_db()
    assert result.status == "counted"
    for season in (first, second):
        standings_store.standings_compute(season=season)
    assert Standing.objects.filter(season=second).count() == 4
    assert not Standing.objects.filter(season=first).exists()


def test_the_result_page_says_which_season_of_which_league_in_english_and_dutch(client, two_leagues, alice, four):
    _first, second = two_leagues
    session = play_the_night_s_table(second, alice, four)
    results.result_from_session(session=session)
    client.force_login(alice)
    url = reverse("table_result", args=[session.code])
    assert "Counts in Winter 2026-27 of Dinsdagcompetitie." in client.get(url).content.decode()
    dutch = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Telt mee in Winter 2026-27 van Dinsdagcompetitie." in dutch


def test_a_table_outside_any_night_still_goes_to_the_first_league_that_takes_it(two_leagues, club, alice, carol):
    first, _second = two_leagues
    assert (
        seasons.season_for(club=club, game="shitenno", played_on=TONIGHT, players=[alice.player, carol.player]) == first
    )


# --- one name, one league ---------------------------------------------------------------------------------------


def test_the_service_refuses_a_second_league_of_the_same_name(club, alice):
    seasons.league_create(club=club, name="Dinsdagcompetitie", games=["shitenno"], user=alice)
    with pytest.raises(ValidationError) as refused:
        seasons.league_create(club=club, name=" dinsdagCOMPETITIE ", games=["teikoku"], user=alice)
    assert "name" in refused.value.message_dict
    assert list(League.objects.values_list("name", "games")) == [("Dinsdagcompetitie", ["shitenno"])]


def test_another_club_may_use_the_name(club, alice, dave):
    seasons.league_create(club=club, name="Dinsdagcompetitie", games=["shitenno"], user=alice)
    other = clubs.club_create(name="Dave's club", owner=dave)
    seasons.league_create(club=other, name="Dinsdagcompetitie", games=["shitenno"], user=dave)
    assert League.objects.filter(name="Dinsdagcompetitie").count() == 2


def test_the_form_refuses_a_second_league_of_the_same_name_in_english_and_dutch(client, club, alice):
    seasons.league_create(club=club, name="Dinsdagcompetitie", games=["shitenno"], user=alice)
    client.force_login(alice)
    url = reverse("league_create", args=[club.slug])
    form = {"name": "Dinsdagcompetitie", "engines": ["teikoku"]}
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "The club has a league named Dinsdagcompetitie already." in refused.content.decode()
    dutch = client.post(url, form, HTTP_ACCEPT_LANGUAGE="nl")
    assert dutch.status_code == 400
    assert "De club heeft al een competitie met de naam Dinsdagcompetitie." in dutch.content.decode()
    assert list(League.objects.values_list("name", "games")) == [("Dinsdagcompetitie", ["shitenno"])]


def test_the_api_refuses_a_second_league_of_the_same_name(api, club, alice):
    api.login(alice)
    url = f"/api/clubs/{club.slug}/leagues/"
    assert api.post(url, {"name": "Dinsdagcompetitie", "games": ["shitenno"]}).status_code == 201
    refused = api.post(url, {"name": "DINSDAGCOMPETITIE", "games": ["teikoku"]})
    assert refused.status_code == 400 and "name" in refused.json()["errors"]
    assert list(League.objects.values_list("name", "games")) == [("Dinsdagcompetitie", ["shitenno"])]
