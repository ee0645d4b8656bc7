"""The tournament's API (issue 51): anyone who may see the club reads its rounds, pods and standings; only its
managers pair a round; a private club's tournament is a 404 to a stranger."""

import datetime

import pytest
from rest_framework.test import APIClient

from leagues.people.players import player_for_user
from leagues.tournaments import services

from .league_helpers import members_joined


@pytest.fixture
def tournament(club, alice, bob, carol):
    users = members_joined(club, bob, [f"p{n}" for n in range(7)])
    tournament = services.tournament_create(club=club, user=alice, name="Winter cup", date=datetime.date(2026, 12, 5))
    for user in [alice, carol, *users]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    return tournament


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_manager_pairs_round_one_and_a_member_reads_it(tournament, alice, carol):
    answer = client_for(alice).post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 201, answer.content
    read = client_for(carol).get(f"/api/tournaments/{tournament.pk}/").json()
    assert read["seed"] == tournament.seed and [r["number"] for r in read["rounds"]] == [1]
    pods = read["rounds"][0]["pods"]
    assert sorted(len(p["players"]) for p in pods) == [3, 3, 4] and read["rounds"][0]["repeats"] == 0
    assert [s["place"] for s in read["standings"]] == list(range(1, 11)) and read["standings"][0]["points"] == 0


def test_a_member_cannot_pair_and_nothing_is_written(tournament, carol):
    answer = client_for(carol).post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 403 and tournament.rounds.count() == 0


def test_a_round_before_the_places_is_a_400(tournament, alice):
    client = client_for(alice)
    client.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    answer = client.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 400 and "needs its places first" in answer.content.decode()
    assert tournament.rounds.count() == 1


def test_a_private_clubs_tournament_is_a_404_to_a_stranger(tournament, dave):
    assert client_for(dave).get(f"/api/tournaments/{tournament.pk}/").status_code == 404
    assert client_for().get(f"/api/tournaments/{tournament.pk}/").status_code == 404
