"""Creation budgets (issue 46 finding 6): one account made 1,500 public clubs in 168 s and every list slowed. Now an
account founds at most CLUBS_PER_DAY clubs a day, a club makes at most LEAGUES_PER_DAY leagues a day, and an account
enters at most RESULTS_PER_HOUR results by hand in an hour; the next is refused with 429 (the page says it on the
form) and a sentence saying when it may come, in English and Dutch, and nothing is written. Other accounts and
clubs, an import's results, and the same account once the window has passed are not held back."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from leagues.club import clubs, seasons
from leagues.common.budgets import CLUBS_PER_DAY, LEAGUES_PER_DAY, RESULTS_PER_HOUR
from leagues.models import Club, League, Membership, Result
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


def _found_the_days_clubs(user) -> None:
    for i in range(CLUBS_PER_DAY):
        clubs.club_create(name=f"Club {i}", owner=user)


def _written() -> tuple[int, int, int, int]:
    return Club.objects.count(), Membership.objects.count(), League.objects.count(), Result.objects.count()


def test_the_api_refuses_a_club_past_the_days_budget_and_says_when(api, alice, bob):
    _found_the_days_clubs(alice)
    before = _written()
    response = api.login(alice).post("/api/clubs/", {"name": "One too many"})
    assert response.status_code == 429, response.content
    assert response.json()["detail"].startswith(f"You founded {CLUBS_PER_DAY} clubs in the last day")
    assert "23\xa0hours" in response.json()["detail"]  # Django's timeuntil, with its no-break space
    assert _written() == before
    assert api.login(bob).post("/api/clubs/", {"name": "Bob's club"}).status_code == 201  # another account


def test_the_club_page_says_it_in_dutch_and_writes_nothing(client, alice):
    _found_the_days_clubs(alice)
    before = _written()
    client.force_login(alice)
    response = client.post("/clubs/new/", {"name": "Nog een"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 429
    assert f"{CLUBS_PER_DAY} clubs opgericht" in response.content.decode()
    assert _written() == before


def test_the_next_club_may_come_a_day_after_the_first(api, alice):
    _found_the_days_clubs(alice)
    Club.objects.update(created_at=timezone.now() - datetime.timedelta(hours=24, minutes=1))
    assert api.login(alice).post("/api/clubs/", {"name": "Next day"}).status_code == 201


def test_a_club_makes_at_most_its_days_leagues_and_another_club_is_not_held_back(api, alice, club):
    for i in range(LEAGUES_PER_DAY):
        seasons.league_create(club=club, name=f"League {i}", games=["shitenno"], user=alice)
    before = _written()
    response = api.login(alice).post(f"/api/clubs/{club.slug}/leagues/", {"name": "Extra", "games": ["shitenno"]})
    assert response.status_code == 429, response.content
    assert f"{LEAGUES_PER_DAY} leagues in the last day" in response.json()["detail"]
    assert _written() == before
    other = clubs.club_create(name="Other club", owner=alice)
    answer = api.post(f"/api/clubs/{other.slug}/leagues/", {"name": "Extra", "games": ["shitenno"]})
    assert answer.status_code == 201


def _result_body(*players) -> dict:
    return {
        "game": "shitenno",
        "played_on": timezone.localdate().isoformat(),
        "entries": [{"player": p.pk, "rank": rank} for rank, p in enumerate(players, start=1)],
    }


def test_results_entered_by_hand_stop_at_the_hours_budget_but_an_imports_do_not_count(api, alice, bob, club):
    clubs.club_join(token=club.invite_token, user=bob)
    me, him = player_for_user(alice), player_for_user(bob)
    Result.objects.bulk_create(
        [
            Result(game="shitenno", played_on=timezone.localdate(), created_by=alice, source="bgstats")
            for _ in range(RESULTS_PER_HOUR)
        ]
    )
    assert api.login(alice).post("/api/results/", _result_body(me, him)).status_code == 201  # imports aside
    Result.objects.bulk_create(
        [Result(game="shitenno", played_on=timezone.localdate(), created_by=alice) for _ in range(RESULTS_PER_HOUR - 1)]
    )
    before = _written()
    response = api.post("/api/results/", _result_body(me, him), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 429, response.content
    assert f"{RESULTS_PER_HOUR} uitslagen" in response.json()["detail"]
    assert _written() == before
    assert api.login(bob).post("/api/results/", _result_body(him, me)).status_code == 201  # another account
