"""Guests one person may add in an hour (issue 36): a fresh account made a club and added 499 guests in 25 s.
Now the 51st guest within the hour is refused (429 on the API and the guest page, the new-table page's 400 says
so too) with a sentence saying when the next may be added, in English and Dutch; nothing is written. An hour
later, another person, and an import's players are not held back."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import TableSession
from leagues.models import Membership, Player, Result, ResultEntry
from leagues.people.players import GUESTS_PER_HOUR, player_for_user, player_guest_create
from tests.games.test_pages import _new_table_post

pytestmark = pytest.mark.django_db


def _add_the_hours_guests(user, club=None) -> None:
    for i in range(GUESTS_PER_HOUR):
        player_guest_create(name=f"Guest {i}", created_by=user, club=club)


def _written() -> tuple[int, int, int]:
    return Player.objects.count(), Membership.objects.count(), TableSession.objects.count()


def test_the_api_refuses_a_guest_past_the_hours_budget_with_a_429(api, alice, club):
    _add_the_hours_guests(alice, club)
    before = _written()
    response = api.login(alice).post("/api/players/", {"name": "One too many", "club": club.slug})
    assert response.status_code == 429
    assert f"{GUESTS_PER_HOUR} guests in the last hour" in response.json()["detail"]
    assert "60 minutes" in response.json()["detail"]
    assert _written() == before


def test_the_refusal_is_said_in_dutch(api, alice):
    _add_the_hours_guests(alice)
    response = api.login(alice).post("/api/players/", {"name": "Nog een"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 429
    assert "gasten toegevoegd" in response.json()["detail"], response.json()


def test_the_guest_page_and_the_new_table_page_refuse_it_too(client, alice):
    _add_the_hours_guests(alice)
    client.force_login(alice)
    before = _written()
    response = client.post("/players/new-guest/", {"name": "One too many"})
    assert response.status_code == 429 and "in the last hour" in response.content.decode()
    response = client.post("/tables/new/", _new_table_post(seat0_player=player_for_user(alice).pk, seat1_guest="Eve"))
    assert response.status_code == 400 and "in the last hour" in response.content.decode()
    assert _written() == before


def test_the_next_guest_may_come_an_hour_after_the_first(api, alice):
    _add_the_hours_guests(alice)
    first = Player.objects.filter(created_by=alice, user=None).order_by("created_at").first()
    Player.objects.filter(pk=first.pk).update(created_at=timezone.now() - datetime.timedelta(minutes=61))
    assert api.login(alice).post("/api/players/", {"name": "Next hour"}).status_code == 201
    assert api.post("/api/players/", {"name": "Too soon"}).status_code == 429


def test_the_budget_is_each_persons_own(api, alice, bob):
    _add_the_hours_guests(alice)
    assert api.login(bob).post("/api/players/", {"name": "Bob's guest"}).status_code == 201


def test_an_imports_players_are_counted_by_the_import_not_here(api, alice, club):
    imported = Result.objects.create(
        game="Go", played_on=timezone.localdate(), club=club, created_by=alice, source="bgg", external_id="1"
    )
    for i in range(GUESTS_PER_HOUR):
        player = Player.objects.create(name=f"Imported {i}", created_by=alice, created_in=club)
        ResultEntry.objects.create(result=imported, player=player, rank=1)
    assert api.login(alice).post("/api/players/", {"name": "By hand"}).status_code == 201
