"""The audit trail: every correction says who made it and when, and the club's managers can read it.

alice owns the club, carol is a plain member, bob joins, dave is an outsider.
"""

import re

import pytest
from django.contrib.admin.sites import site as admin_site
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from leagues.club import clubs
from leagues.models import AuditEntry, Membership
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results

from .league_helpers import enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db


def last(action: str) -> AuditEntry:
    return AuditEntry.objects.filter(action=action).latest("id")


def membership(club, user) -> Membership:
    return Membership.objects.get(club=club, player__user=user)


def test_it_records_joining_and_being_added(club, alice, carol, bob):
    entry = last("membership.join")  # carol joined through the invite link in the club fixture
    assert (entry.user, entry.club, entry.details["player"]) == (carol, club, "carol")
    assert entry.created_at is not None and entry.object_type == "leagues.membership"
    guest = player_guest_create(name="Uncle Ken", created_by=alice)
    clubs.club_member_add(club=club, player=guest, user=alice)
    assert (last("membership.add").user, last("membership.add").details["player"]) == (alice, "Uncle Ken")
    join(club, carol)  # already a member: nothing changed, nothing recorded
    assert AuditEntry.objects.filter(action="membership.join").count() == 1


def test_it_records_a_role_change_with_who_and_when(club, alice, carol):
    clubs.membership_set_role(membership=membership(club, carol), role="admin", user=alice)
    entry = last("membership.role")
    assert entry.user == alice and entry.club == club
    assert entry.details == {"player": "carol", "from": "member", "to": "admin"}
    assert entry.object_id == membership(club, carol).pk


def test_a_refused_change_leaves_no_line(club, alice, carol):
    before = AuditEntry.objects.count()
    with pytest.raises(PermissionDenied):
        clubs.membership_set_role(membership=membership(club, alice), role="member", user=carol)
    assert AuditEntry.objects.count() == before


def test_it_records_removals_and_leaving(club, alice, bob, carol):
    join(club, bob)
    carol_membership = membership(club, carol)
    removed_pk = carol_membership.pk
    clubs.membership_remove(membership=carol_membership, user=alice)
    entry = last("membership.remove")
    assert (entry.user, entry.details, entry.object_id) == (alice, {"player": "carol", "role": "member"}, removed_pk)
    clubs.membership_remove(membership=membership(club, bob), user=bob)
    assert last("membership.leave").user == bob


def test_it_records_sign_offs_disputes_edits_and_deletions_of_results(club, alice, bob, carol):
    join(club, bob)
    _league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 1, 30), (bob, 2, 20)])
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that one")
    dispute = last("result.dispute")
    assert (dispute.user, dispute.club, dispute.object_id) == (bob, club, result.pk)
    assert dispute.details == {"players": ["bob"], "note": "I won that one", "status": "disputed"}

    result.refresh_from_db()
    results.result_update(
        result=result,
        version=result.version,
        user=alice,
        entries=[
            {"player": player_for_user(bob), "rank": 1, "score": 31},
            {"player": player_for_user(alice), "rank": 2},
        ],
    )
    edit = last("result.edit")
    assert edit.user == alice
    assert edit.details["before"]["entries"] == [["alice", 1, 30.0], ["bob", 2, 20.0]]
    assert edit.details["after"]["entries"] == [["bob", 1, 31], ["alice", 2, None]]
    # the correction answers bob's dispute but signs for nobody: bob signs the corrected result again (issue 24)
    assert edit.details["after"]["status"] == "pending" and edit.details["version"] == 2

    other = sign_all(enter(season, carol, [(carol, 1, None), (alice, 2, None)]), alice)
    assert last("result.sign_off").details["players"] == ["alice"]
    results.result_delete(result=other, version=other.version, user=alice)
    deleted = last("result.delete")
    assert (deleted.user, deleted.object_id, deleted.details["before"]["entries"]) == (
        alice,
        other.pk,
        [["carol", 1, None], ["alice", 2, None]],
    )


def test_it_records_an_undo_and_the_history_strikes_the_undone_move(client, club, alice, bob):
    setup, moves = random_legal_game(3, 2)
    session = game_services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
        club=club,
    )
    for move in moves[:2]:
        game_services.move_record(session=session, seq=session.head_seq, move=move, user=alice)
        session.refresh_from_db()
    undone = session.events.get(seq=2)
    game_services.move_undo(session=session, seq=session.head_seq, user=bob)
    entry = last("move.undo")
    assert (entry.user, entry.club, entry.object_type, entry.object_id) == (bob, club, "games.tablesession", session.pk)
    assert entry.details == {"table": session.code, "seq": 3, "undoes": 2, "move": undone.description}

    client.force_login(bob)
    html = client.get(reverse("table_history", args=[session.code])).content.decode()
    assert f"<del>{undone.description}</del>" in html  # struck through, not hidden
    assert re.search(r'<li class="undone">\s*<span class="seq">#2</span>', html)
    assert "Undo: " in html and "entered by bob" in html


def test_the_club_audit_page_is_for_owners_and_admins(client, club, alice, bob, carol, dave):
    clubs.membership_set_role(membership=membership(club, carol), role="admin", user=alice)
    url = reverse("club_audit", args=[club.slug])
    assert client.get(url).status_code == 404  # anonymous
    client.force_login(dave)
    assert client.get(url).status_code == 404  # an outsider does not learn what goes on
    join(club, bob)
    client.force_login(bob)
    assert client.get(url).status_code == 403  # a plain member
    assert url not in client.get(club.get_absolute_url()).content.decode()
    for manager in (alice, carol):
        client.force_login(manager)
        assert url in client.get(club.get_absolute_url()).content.decode()
        page = client.get(url)
        assert page.status_code == 200
        html = page.content.decode()
        assert "Role changed" in html and "carol: member → admin" in html and "alice" in html
        assert "Joined the club" in html and "membership.join" not in html  # the action in words, not its code


def test_every_action_the_services_record_has_words():
    """A new audit action without words would show its code on the audit page."""
    from pathlib import Path

    from django.conf import settings

    from leagues.common.audit import ACTIONS

    codes = set()
    for folder in ("leagues", "games"):
        for path in (Path(settings.BASE_DIR) / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for line in path.read_text().splitlines():  # the lines that name an action: action=..., _audit_result(
                if "action" in line or "_audit_result(" in line:
                    codes |= set(re.findall(r'"((?:move|results?|membership|player)\.[a-z_]+)"', line))
    assert {"result.sign_off", "membership.role", "player.claim", "results.import"} <= codes  # the reading works
    assert codes <= set(ACTIONS), (
        f"audit actions without words in leagues/common/audit.py: {sorted(codes - set(ACTIONS))}"
    )


def test_the_audit_page_says_every_action_and_its_details_in_words_in_english_and_dutch(client, club, alice, bob):
    join(club, bob)
    clubs.membership_set_role(membership=membership(club, bob), role="admin", user=alice)
    _league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 1, 30), (bob, 2, 20)])
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that one")
    guest = player_guest_create(name="Uncle Ken", created_by=alice)
    clubs.club_member_add(club=club, player=guest, user=alice)
    AuditEntry.objects.create(
        club=club,
        user=alice,
        action="results.import",
        object_type="leagues.club",
        object_id=club.pk,
        details={"source": "bgstats", "plays": 3, "imported": 2, "duplicates": 1, "skipped": {}},
    )
    client.force_login(alice)
    url = reverse("club_audit", args=[club.slug])
    english = client.get(url).content.decode()
    assert "Role changed" in english and "bob: member → admin" in english and "Result disputed" in english
    assert "2 of 3 plays from bgstats; 1 already there" in english and "Added to the club" in english
    dutch = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Rol gewijzigd" in dutch and "bob: lid → beheerder" in dutch and "Uitslag betwist" in dutch
    assert "2 van 3 partijen uit bgstats; 1 stond er al" in dutch
    for page in (english, dutch):
        assert not re.search(r"\b(membership|result|results|move)\.[a-z_]+", page)  # no action code
        assert "{'" not in page and "&#x27;" not in page  # no Python dict


def test_the_admin_shows_the_trail_read_only(club, alice):
    model_admin = admin_site._registry[AuditEntry]
    request = type("Request", (), {"user": alice})()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, AuditEntry.objects.first())
    assert not model_admin.has_delete_permission(request, AuditEntry.objects.first())
