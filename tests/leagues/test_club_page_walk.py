"""The club page as a new organiser and its members walk it at 360 px: each may leave from his own row, guests are
added from the club page into that club, owners are listed first and names in any case, a role change says so,
and the league and league-night forms name their groups of checkboxes and radios with a legend.

alice owns Edo Gamers; carol is a member."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from leagues.club import clubs
from leagues.models import Membership, Player
from leagues.people import players

pytestmark = pytest.mark.django_db


def membership(club, player) -> Membership:
    return Membership.objects.get(club=club, player=player)


def state(club):
    return sorted(Membership.objects.filter(club=club).values_list("pk", "player_id", "role"))


def own_row(page: str, name: str) -> str:
    return re.search(rf"<li>\s*<a [^>]*>{name}</a>.*?</li>", page, re.S).group(0)


# --- 1. "Leave the club" on your own row ---


@pytest.mark.parametrize("who", ["alice", "carol"])
def test_your_own_row_offers_leave_the_club_through_the_confirmation(client, club, alice, carol, who):
    user = {"alice": alice, "carol": carol}[who]
    url = f"/clubs/{club.slug}/members/{membership(club, user.player).pk}/remove/"
    client.force_login(user)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    row = own_row(page, who)
    assert f'<a class="button" href="{url}">Leave the club</a>' in row
    other = own_row(page, "carol" if who == "alice" else "alice")
    assert "Leave the club" not in other
    dutch = client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "De club verlaten" in own_row(dutch, who)


def test_a_member_leaves_from_his_row_and_the_club_page_says_so(client, club, alice, carol):
    client.force_login(carol)
    url = f"/clubs/{club.slug}/members/{membership(club, carol.player).pk}/remove/"
    confirm = client.get(url).content.decode()
    assert "Leave Edo Gamers?" in confirm and "member-remove-confirm" in confirm
    done = client.post(url, follow=True)
    assert done.redirect_chain[-1][0] == f"/clubs/{club.slug}/"
    assert "You left Edo Gamers." in done.content.decode()
    assert not Membership.objects.filter(club=club, player=carol.player).exists()


def test_the_last_owner_s_leave_link_is_refused_with_409_and_nothing_changes(client, club, alice):
    before = state(club)
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    url = re.search(r'href="([^"]+)">Leave the club<', own_row(page, "alice")).group(1)
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 409
        assert "A club needs an owner who can sign in" in response.content.decode()
    assert state(club) == before


def test_a_visitor_sees_no_leave_link(client, club, alice):
    club.members_public = True
    club.save()
    assert "Leave the club" not in client.get(f"/clubs/{club.slug}/").content.decode()


# --- 2. "Add a guest" on the club page, that club preselected ---


def test_the_club_page_links_managers_to_the_guest_form_with_the_club_chosen(client, club, alice, carol):
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert f'href="/players/new-guest/?club={club.slug}">Add a guest</a>' in page
    assert "Een gast toevoegen" in client.get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    client.force_login(carol)  # a plain member may add no guest to the club
    assert "/players/new-guest/" not in client.get(f"/clubs/{club.slug}/").content.decode()


def _selected_club(page: str) -> str | None:
    select = re.search(r'<select name="club"[^>]*>(.*?)</select>', page, re.S).group(1)
    chosen = re.search(r'<option value="(\d+)" selected>', select)
    return chosen and chosen.group(1)


def test_the_guest_form_preselects_the_club_of_the_link_among_several(client, club, alice):
    other = clubs.club_create(name="Aaa Club", owner=alice)  # first by name
    client.force_login(alice)
    assert _selected_club(client.get("/players/new-guest/").content.decode()) is None  # two clubs: no guess
    assert _selected_club(client.get(f"/players/new-guest/?club={club.slug}").content.decode()) == str(club.pk)
    assert _selected_club(client.get(f"/players/new-guest/?club={other.slug}").content.decode()) == str(other.pk)


def test_a_club_the_user_does_not_run_is_not_preselected(client, club, alice, carol, dave):
    strangers = clubs.club_create(name="Elsewhere", owner=dave)
    clubs.club_create(name="Carol's club", owner=carol)
    clubs.club_create(name="Carol's second club", owner=carol)
    client.force_login(carol)
    page = client.get(f"/players/new-guest/?club={strangers.slug}").content.decode()
    assert _selected_club(page) is None and "Elsewhere" not in page
    assert _selected_club(client.get("/players/new-guest/?club=no-such-club").content.decode()) is None


def test_an_organiser_of_one_club_has_it_preselected_and_the_guest_joins_it(client, club, alice):
    client.force_login(alice)
    assert _selected_club(client.get("/players/new-guest/").content.decode()) == str(club.pk)
    response = client.post(f"/players/new-guest/?club={club.slug}", {"name": "Hiro", "club": str(club.pk)})
    assert response.status_code == 302
    assert Membership.objects.filter(club=club, player__name="Hiro").exists()


# --- 3. the members' order ---


def test_owners_then_admins_then_members_each_by_name_in_any_case(client, club, alice, carol, dave, bob):
    for user in (dave, bob):
        clubs.club_join(token=club.invite_token, user=user)
    emi = players.user_sign_up(username="emi", email="emi@example.org", password="a long passphrase 42")
    gina = players.user_sign_up(username="Gina", email="gina@example.org", password="a long passphrase 42")
    for user in (emi, gina):
        clubs.club_join(token=club.invite_token, user=user)
    Membership.objects.filter(club=club, player__user__in=[dave, bob]).update(role="admin")
    Membership.objects.filter(club=club, player__user=gina).update(role="owner")
    expected = ["alice", "Gina", "bob", "dave", "carol", "emi"]
    for viewer in (alice, carol):  # a manager's rows and a member's
        client.force_login(viewer)
        page = client.get(f"/clubs/{club.slug}/").content.decode()
        members = page[page.index('<ul class="rows members">') :]
        members = members[: members.index("</ul>")]
        assert re.findall(r'<li>\s*<a href="[^"]+">([^<]+)</a>', members) == expected


@pytest.mark.parametrize("viewer", ["alice", "carol"])
def test_the_club_page_costs_the_same_with_many_members(client, club, alice, carol, viewer):
    """The order is the database's: a page of 50 members costs what a page of 2 does."""
    client.force_login({"alice": alice, "carol": carol}[viewer])
    url = f"/clubs/{club.slug}/"
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for i in range(60):
        Membership.objects.create(club=club, player=Player.objects.create(name=f"Guest {i}"))
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)
    assert any("CASE WHEN" in q["sql"] and "LOWER(" in q["sql"] for q in many.captured_queries)


# --- 4. a role change says so ---


@pytest.mark.parametrize(
    ("role", "english", "dutch"),
    [
        ("admin", "carol is now an admin.", "carol is nu beheerder."),
        ("owner", "carol is now an owner.", "carol is nu eigenaar."),
        ("member", "carol is now a plain member.", "carol is nu gewoon lid."),
    ],
)
def test_a_role_change_is_confirmed_on_the_club_page(client, club, alice, carol, role, english, dutch):
    if role == "member":
        Membership.objects.filter(club=club, player=carol.player).update(role="admin")
    client.force_login(alice)
    url = f"/clubs/{club.slug}/members/{membership(club, carol.player).pk}/role/"
    response = client.post(url, {"role": role}, follow=True)
    assert english in response.content.decode()
    assert membership(club, carol.player).role == role
    response = client.post(url, {"role": role}, follow=True, HTTP_ACCEPT_LANGUAGE="nl")
    assert dutch in response.content.decode()


def test_a_refused_role_change_says_no_success(client, club, alice, carol):
    before = state(club)
    client.force_login(carol)
    response = client.post(f"/clubs/{club.slug}/members/{membership(club, alice.player).pk}/role/", {"role": "member"})
    assert response.status_code == 403 and "is now" not in response.content.decode()
    assert state(club) == before


# --- 5. groups of checkboxes and radios are named by a legend ---


def test_the_league_form_names_its_games_with_a_legend(client, club, alice):
    client.force_login(alice)
    for language, legend in (("en", "Games scored on this site"), ("nl", None)):
        page = client.get(f"/clubs/{club.slug}/leagues/new/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert 'for=""' not in page
        assert re.search(r'<fieldset class="field">\s*<legend>([^<]+)</legend>', page)
        if legend:
            assert f"<legend>{legend}</legend>" in page


def test_the_league_night_form_names_its_groups_with_legends(client, club, alice):
    from .league_helpers import league_with_season

    _league, season = league_with_season(club, alice)
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/nights/").content.decode()
    assert 'for=""' not in page
    legends = re.findall(r"<legend>([^<]+)</legend>", page)
    assert {"Games on offer", "Table sizes", "Table mix"} <= set(legends)
    assert re.search(r'<fieldset class="field" aria-describedby="id_table_sizes_helptext">', page)
    assert 'id="id_table_sizes_helptext"' in page
