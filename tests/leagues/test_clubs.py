"""Clubs: roles, who manages membership, who sees the members list."""

import pytest

from leagues.club import clubs
from leagues.models import Membership

pytestmark = pytest.mark.django_db


def test_it_makes_the_creator_owner(alice):
    club = clubs.club_create(name="Edo Gamers", owner=alice)
    assert club.slug == "edo-gamers"
    assert Membership.objects.get(club=club).role == "owner"


def test_it_joins_by_invite_link(client, club, bob):
    client.force_login(bob)
    response = client.post(f"/clubs/join/{club.invite_token}/")
    assert response.status_code == 302
    assert Membership.objects.get(club=club, player__user=bob).role == "member"


def test_a_member_who_opens_the_invite_link_again_is_told_he_is_in_and_nothing_changes(client, club, carol):
    """carol is a member already: the link leads to the club, saying so, not to a "Join" button and "You joined"."""
    before = list(Membership.objects.filter(club=club).values_list("pk", "role"))
    client.force_login(carol)
    for answer in (
        client.get(f"/clubs/join/{club.invite_token}/", follow=True),
        client.post(f"/clubs/join/{club.invite_token}/", follow=True),
    ):
        page = answer.content.decode()
        assert answer.redirect_chain[-1][0] == f"/clubs/{club.slug}/"
        assert "You are a member of Edo Gamers already." in page and "You joined" not in page
    assert list(Membership.objects.filter(club=club).values_list("pk", "role")) == before


def test_it_refuses_an_old_invite_link_after_rotation(client, club, alice, bob):
    old = club.invite_token
    client.force_login(alice)
    client.post(f"/clubs/{club.slug}/invite/rotate/")
    client.force_login(bob)
    assert client.post(f"/clubs/join/{old}/").status_code == 404
    assert not Membership.objects.filter(club=club, player__user=bob).exists()


def test_it_hides_a_private_members_list_from_outsiders(client, club, dave, carol):
    client.force_login(dave)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "carol" not in page and "Only members see" in page
    assert client.get(f"/api/clubs/{club.slug}/members/").status_code == 403
    client.force_login(carol)
    assert "alice" in client.get(f"/clubs/{club.slug}/").content.decode()


def test_an_outsider_is_told_only_members_see_a_private_club_s_leagues(client, club, alice, dave):
    """Not "No leagues yet": the club has one, the outsider may not see it."""
    from leagues.club import seasons

    seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    client.force_login(dave)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Only members see this club's leagues and games." in page and "No leagues yet" not in page
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Thursday" in page and "Only members see this club" not in page


def test_it_lets_the_owner_make_an_admin(client, club, alice, carol):
    membership = Membership.objects.get(club=club, player__user=carol)
    client.force_login(alice)
    client.post(f"/clubs/{club.slug}/members/{membership.pk}/role/", {"role": "admin"})
    membership.refresh_from_db()
    assert membership.role == "admin"


def test_it_refuses_a_member_managing_membership(client, club, alice, carol):
    owner = Membership.objects.get(club=club, player__user=alice)
    client.force_login(carol)
    response = client.post(f"/clubs/{club.slug}/members/{owner.pk}/remove/")
    assert response.status_code == 403
    assert "owners and admins" in response.content.decode()
    assert Membership.objects.filter(pk=owner.pk).exists()


def test_it_refuses_an_admin_promoting_to_owner(club, carol, bob):
    clubs.club_join(token=club.invite_token, user=bob)
    carols = Membership.objects.get(club=club, player__user=carol)
    carols.role = "admin"
    carols.save()
    bobs = Membership.objects.get(club=club, player__user=bob)
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        clubs.membership_set_role(membership=bobs, role="owner", user=carol)
    clubs.membership_remove(membership=bobs, user=carol)  # admins may remove plain members
    assert not Membership.objects.filter(pk=bobs.pk).exists()


def test_it_keeps_an_owner(api, club, alice):
    owner = Membership.objects.get(club=club, player__user=alice)
    response = api.login(alice).delete(f"/api/clubs/{club.slug}/members/{owner.pk}/")
    assert response.status_code == 409
    assert "needs an owner" in response.json()["detail"]
    owner.refresh_from_db()
    assert owner.role == "owner"


def test_it_lets_a_member_leave(api, club, carol):
    mine = Membership.objects.get(club=club, player__user=carol)
    others = set(Membership.objects.filter(club=club).exclude(pk=mine.pk).values_list("pk", "role"))
    assert api.login(carol).delete(f"/api/clubs/{club.slug}/members/{mine.pk}/").status_code == 204
    assert not Membership.objects.filter(club=club, player__user=carol).exists()
    assert set(Membership.objects.filter(club=club).values_list("pk", "role")) == others  # nobody else left


def test_it_gives_outsiders_no_membership_writes(api, club, dave, carol):
    carols = Membership.objects.get(club=club, player__user=carol)
    api.login(dave)
    assert api.patch(f"/api/clubs/{club.slug}/members/{carols.pk}/", {"role": "admin"}).status_code == 403
    assert api.delete(f"/api/clubs/{club.slug}/members/{carols.pk}/").status_code == 403
    carols.refresh_from_db()
    assert carols.role == "member"
