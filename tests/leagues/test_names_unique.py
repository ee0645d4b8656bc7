"""No two people in a club go by names that read the same (issue 47, finding 7): carol renamed herself "Alice" in
Alice's club and was taken for its owner. Names are compared folded (capitals, accents, compatibility forms and
white space aside), on the account page, PATCH /api/me/, and a club's new guests (page and API); a refusal
changes nothing.
"""

import pytest
from django.utils import translation

from leagues.club import clubs
from leagues.models import Membership, Player
from leagues.people import players
from leagues.people.names import folded_name
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def alices(club, alice):
    """Edo Gamers: alice (owner, shown as "Alice"), carol (member), and alice's guest "Élodie"."""
    players.player_rename(user=alice, name="Alice")
    players.player_guest_create(name="Élodie", created_by=alice, club=club)
    return club


def _names() -> dict:
    return dict(Player.objects.values_list("pk", "name"))


@pytest.mark.parametrize(
    "name", ["Alice", "alice", "ALICE", " Alice ", "Álice", "Ａｌｉｃｅ", "Élodie", "elodie", "ELODIE"]
)
def test_a_member_cannot_take_a_name_that_reads_as_another_members(api, alices, carol, name):
    before = _names()
    response = api.login(carol).patch("/api/me/", {"name": name})
    assert response.status_code == 400, response.json()
    assert "Edo Gamers" in str(response.json()["errors"]["name"])
    assert _names() == before


def test_the_account_page_refuses_it_and_says_why_in_english_and_dutch(client, alices, carol):
    before = _names()
    client.force_login(carol)
    page = client.post("/accounts/me/", {"name": "alice"})
    assert page.status_code == 400 and "Edo Gamers" in page.content.decode()
    assert "capitals and accents aside" in page.content.decode()
    with translation.override("nl"):
        page = client.post("/accounts/me/", {"name": "ALICE"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert page.status_code == 400 and "hoofdletters en accenten" in page.content.decode()
    assert _names() == before


def test_bob_with_a_trailing_zero_width_space_is_not_a_second_bob(api, alices, alice, bob):
    clubs.club_join(token=alices.invite_token, user=bob)
    before = _names()
    response = api.login(alice).patch("/api/me/", {"name": "bob\u200b"})
    assert response.status_code == 400
    response = api.login(alice).patch("/api/me/", {"name": "Bob"})
    assert response.status_code == 400 and "Edo Gamers" in str(response.json()["errors"]["name"])
    assert _names() == before


def test_a_clubs_new_guest_cannot_read_as_a_member_on_the_api_or_the_page(api, client, alices, alice):
    before = (_names(), Membership.objects.count())
    response = api.login(alice).post("/api/players/", {"name": "carol", "club": alices.slug})
    assert response.status_code == 400 and "name" in response.json()["errors"]
    response = api.post("/api/players/", {"name": "elodie", "club": alices.slug})
    assert response.status_code == 400
    client.force_login(alice)
    page = client.post("/players/new-guest/", {"name": "Carol", "club": alices.pk})
    assert page.status_code == 400 and "Edo Gamers" in page.content.decode()
    assert (_names(), Membership.objects.count()) == before


def test_names_that_read_differently_are_taken_and_other_clubs_do_not_count(api, alices, alice, carol, bob):
    assert api.login(carol).patch("/api/me/", {"name": "Alicia"}).status_code == 200
    assert api.login(carol).patch("/api/me/", {"name": "Élo die"}).status_code == 200  # not "Élodie"
    assert api.login(bob).patch("/api/me/", {"name": "Alice"}).status_code == 200  # bob is in no club of Alice's
    assert player_for_user(bob).name == "Alice"


def test_keeping_ones_own_name_is_no_clash(api, alices, alice):
    assert api.login(alice).patch("/api/me/", {"name": "Alice"}).status_code == 200
    assert api.login(alice).patch("/api/me/", {"name": "ALICE"}).status_code == 200  # his own, re-cased


def test_the_fold():
    assert folded_name("  Élodie   van  Berg ") == folded_name("elodie van berg") == "elodie van berg"
    assert folded_name("Straße") == folded_name("STRASSE")
    assert folded_name("bob\u200b") == folded_name("bob")
    assert folded_name("Ｂｏｂ") == "bob"
    assert folded_name("東京") != folded_name("京都")


def test_joining_by_link_under_a_name_that_reads_as_a_members_is_refused(api, client, alices, bob):
    players.player_rename(user=bob, name="ÉLODIE")  # in no club yet: nobody to clash with
    before = (_names(), Membership.objects.count())
    response = api.login(bob).post("/api/clubs/join/", {"token": alices.invite_token})
    assert response.status_code == 409 and "account page" in response.json()["detail"]
    client.force_login(bob)
    page = client.post(f"/clubs/join/{alices.invite_token}/")
    assert page.status_code == 409 and "Edo Gamers" in page.content.decode()
    assert (_names(), Membership.objects.count()) == before
    players.player_rename(user=bob, name="Bob")
    assert client.post(f"/clubs/join/{alices.invite_token}/").status_code == 302
    assert Membership.objects.filter(club=alices, player__user=bob).exists()
