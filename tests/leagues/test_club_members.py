"""A club's member management on its page, as a new organiser walks it: a guest is never offered (nor given) an
owner's or admin's role, "Remove" asks first and says afterwards who went (and what it did to their results), and
the last owner who can sign in can neither leave nor step down.

alice owns Edo Gamers; carol is a member; Goro is alice's guest, added for the club."""

import re

import pytest

from leagues.models import AuditEntry, Membership, Player, Result, ResultEntry
from leagues.people import players
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store

from .league_helpers import enter, league_with_season, sign_all, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def goro(club, alice):
    return players.player_guest_create(name="Goro", created_by=alice, club=club)


def membership(club, player) -> Membership:
    return Membership.objects.get(club=club, player=player)


def state(club):
    """Every membership of the club with its role, and the audit trail's length: what a refusal must not change."""
    return sorted(
        Membership.objects.filter(club=club).values_list("pk", "player_id", "role")
    ), AuditEntry.objects.filter(club=club).count()


# --- 1. a guest is no owner or admin ---


@pytest.mark.parametrize("role", ["admin", "owner"])
def test_a_forged_post_making_a_guest_a_manager_is_refused_and_nothing_changes(client, club, alice, goro, role):
    before = state(club)
    client.force_login(alice)
    response = client.post(f"/clubs/{club.slug}/members/{membership(club, goro).pk}/role/", {"role": role})
    assert response.status_code == 400
    assert "Goro is a guest without an account and cannot sign in" in response.content.decode()
    assert state(club) == before


def test_the_api_refuses_making_a_guest_an_admin_too(api, club, alice, goro):
    before = state(club)
    response = api.login(alice).patch(f"/api/clubs/{club.slug}/members/{membership(club, goro).pk}/", {"role": "admin"})
    assert response.status_code == 400
    assert "guest without an account" in response.json()["errors"]["role"][0]
    assert state(club) == before


def test_the_members_list_offers_a_guest_no_role_but_still_an_account_holder(client, club, alice, carol, goro):
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'id="role-{membership(club, carol.player).pk}"' in page  # carol has an account: her role can change
    assert f'id="role-{membership(club, goro).pk}"' not in page
    goros_row = re.search(r"<li>\s*<a [^>]*>Goro</a>.*?</li>", page, re.S).group(0)
    assert "guest" in goros_row and "<select" not in goros_row


def test_a_member_and_a_visitor_see_the_guest_tag_the_managers_see(client, club, alice, carol, goro):
    """The rows of a member's (or a visitor's) page are written by rows.member_rows, the managers' by the template:
    both say who is a guest, and neither tags an account holder."""

    def rows(page: str) -> dict[str, str]:
        return {name: row for row, name in re.findall(r"(<li>\s*<a [^>]*>([^<]+)</a>.*?</li>)", page, re.S)}

    client.force_login(alice)
    managers = rows(client.get(f"/clubs/{club.slug}/").content.decode())
    client.force_login(carol)
    members = rows(client.get(f"/clubs/{club.slug}/").content.decode())
    assert '<span class="tag">guest</span>' in managers["Goro"] and '<span class="tag">guest</span>' in members["Goro"]
    assert "guest" not in members[carol.player.name] and "guest" not in managers[carol.player.name]
    dutch = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<span class="tag">gast</span>' in rows(dutch)["Goro"]


def test_a_guest_made_admin_before_the_rule_can_still_be_made_a_plain_member(client, club, alice, goro):
    """Data from before the refusal: the page offers the way back, and it works."""
    Membership.objects.filter(club=club, player=goro).update(role="admin")
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Make a plain member" in page
    response = client.post(f"/clubs/{club.slug}/members/{membership(club, goro).pk}/role/", {"role": "member"})
    assert response.status_code == 302
    assert membership(club, goro).role == "member"


# --- 2. "Remove" asks first and says who went ---


def test_remove_is_a_link_to_a_confirmation_that_says_what_removal_does_and_changes_nothing(client, club, alice, carol):
    carols = membership(club, carol.player)
    url = f"/clubs/{club.slug}/members/{carols.pk}/remove/"
    before = state(club)
    client.force_login(alice)
    club_page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'href="{url}"' in club_page and f'action="{url}"' not in club_page  # no one-tap removal any more
    response = client.get(url)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Remove carol from Edo Gamers?" in page
    assert "their results keep counting in this club's standings" in page
    assert re.search(r'<form method="post" class="stack member-remove-confirm">', page)
    assert state(club) == before  # asking removed nobody


def test_after_confirming_the_club_page_names_who_was_removed_and_their_results_still_count(client, club, alice, bob):
    """bob plays alice in the winter league, then is removed: his game stays, counted, and the standings and
    ratings rebuilt from scratch afterwards are what they were."""
    from leagues.club.clubs import club_join

    club_join(token=club.invite_token, user=bob)
    league, season = league_with_season(club, alice)
    result = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)]), bob)
    assert result.status == Result.Status.COUNTED

    def rebuild():
        for kind, key in rating_store.result_scopes(result):
            rating_store.ratings_recompute(kind=kind, key=key)
        standings_store.standings_compute(season=season)

    rebuild()
    counted = snapshot()
    assert any(row[1] == bob.player.pk for row in counted[2])  # bob has a standing

    client.force_login(alice)
    response = client.post(f"/clubs/{club.slug}/members/{membership(club, bob.player).pk}/remove/", follow=True)
    assert response.redirect_chain[-1][0] == f"/clubs/{club.slug}/"
    assert "bob was removed from Edo Gamers." in response.content.decode()
    assert not Membership.objects.filter(club=club, player__user=bob).exists()
    assert ResultEntry.objects.filter(result=result, player=bob.player).exists()
    assert Result.objects.get(pk=result.pk).status == Result.Status.COUNTED
    rebuild()
    assert snapshot() == counted


def test_removing_a_guest_keeps_the_guest_and_its_results(client, club, alice, goro):
    client.force_login(alice)
    url = f"/clubs/{club.slug}/members/{membership(club, goro).pk}/remove/"
    assert "The guest itself is not deleted" in client.get(url).content.decode()
    response = client.post(url, follow=True)
    assert "Goro was removed from Edo Gamers." in response.content.decode()
    assert Player.objects.filter(pk=goro.pk).exists()


def test_a_member_cannot_open_or_use_another_s_removal_and_nothing_changes(client, club, alice, carol, dave):
    owners = membership(club, alice.player)
    url = f"/clubs/{club.slug}/members/{owners.pk}/remove/"
    before = state(club)
    client.force_login(carol)
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 403
        assert "Only the club&#x27;s owners and admins may do this." in response.content.decode()
        assert '<form method="post" class="stack member-remove-confirm">' not in response.content.decode()
    client.force_login(dave)  # not a member: the club's members are not his to know of
    assert client.get(url).status_code == 404 and client.post(url).status_code == 404
    assert state(club) == before


def test_the_dutch_confirmation_and_message(client, club, alice, carol):
    client.force_login(alice)
    url = f"/clubs/{club.slug}/members/{membership(club, carol.player).pk}/remove/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "carol uit Edo Gamers verwijderen?" in page and "Gespeelde partijen blijven" in page
    done = client.post(url, HTTP_ACCEPT_LANGUAGE="nl", follow=True).content.decode()
    assert "carol is uit Edo Gamers verwijderd." in done


# --- 3. the last owner who can sign in stays ---


def test_the_last_owner_can_neither_leave_nor_step_down_on_the_site(client, club, alice):
    alices = membership(club, alice.player)
    before = state(club)
    client.force_login(alice)
    confirm = client.get(f"/clubs/{club.slug}/members/{alices.pk}/remove/")
    assert confirm.status_code == 409 and "A club needs an owner who can sign in" in confirm.content.decode()
    assert "member-remove-confirm" not in confirm.content.decode()  # no button that would be refused
    for response in (
        client.post(f"/clubs/{club.slug}/members/{alices.pk}/remove/"),
        client.post(f"/clubs/{club.slug}/members/{alices.pk}/role/", {"role": "admin"}),
        client.post(f"/clubs/{club.slug}/members/{alices.pk}/role/", {"role": "member"}),
    ):
        assert response.status_code == 409
        assert "A club needs an owner who can sign in" in response.content.decode()
    assert state(club) == before


@pytest.mark.parametrize("how", ["leave", "step down"])
def test_an_owner_who_is_a_guest_does_not_keep_the_club_managed(api, club, alice, goro, how):
    """Goro was made owner before guests were refused (or his account went): he cannot sign in, so alice is still
    the last owner who can, and may not go."""
    Membership.objects.filter(club=club, player=goro).update(role="owner")
    alices = membership(club, alice.player)
    before = state(club)
    api.login(alice)
    if how == "leave":
        response = api.delete(f"/api/clubs/{club.slug}/members/{alices.pk}/")
    else:
        response = api.patch(f"/api/clubs/{club.slug}/members/{alices.pk}/", {"role": "member"})
    assert response.status_code == 409
    assert "owner who can sign in" in response.json()["detail"]
    assert state(club) == before


def test_an_owner_may_step_down_while_another_owner_with_an_account_stays(api, club, alice, carol, goro):
    Membership.objects.filter(club=club, player=goro).update(role="owner")  # does not count, does not block
    carols = membership(club, carol.player)
    api.login(alice)
    assert api.patch(f"/api/clubs/{club.slug}/members/{carols.pk}/", {"role": "owner"}).status_code == 200
    alices = membership(club, alice.player)
    assert api.patch(f"/api/clubs/{club.slug}/members/{alices.pk}/", {"role": "member"}).status_code == 200
    assert membership(club, alice.player).role == "member"
    api.login(carol)  # and the guest owner, who manages nothing, may go too
    assert api.delete(f"/api/clubs/{club.slug}/members/{membership(club, goro).pk}/").status_code == 204
