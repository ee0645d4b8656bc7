"""Issue 12, as the attacker tried it: dave (in no club) against carol's private club Bravo and her guest.

carol runs Bravo, a private club, with a league and a season; she added her guest Goro for Bravo and plays a
private table with him. dave starts his own club and tries to take Goro over, to forge counted results, and to
read what Bravo keeps to itself. Every refusal leaves nothing changed (and each attempt was possible before).
"""

import datetime

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import MoveEvent
from leagues.club import clubs, seasons
from leagues.models import AuditEntry, ClubInvite, LeagueJob, Membership, Rating, Result
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.rating import store as rating_store
from leagues.result import results
from shitenno_site.errors import Conflict
from tests.games.tables import two_player_setup
from tests.leagues.league_helpers import sat_with

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


@pytest.fixture
def bravo(carol, bob):
    """carol's private club: bob is a member; Goro is carol's guest, added for Bravo; a counted league result."""
    club = clubs.club_create(name="Bravo", owner=carol)
    clubs.club_join(token=club.invite_token, user=bob)
    goro = players.player_guest_create(name="Goro", created_by=carol, club=club)
    league = seasons.league_create(club=club, name="Bravo league", games=["shitenno", "Go"], user=carol)
    season = seasons.season_create(
        league=league,
        name="2026",
        starts_on=TODAY - datetime.timedelta(days=30),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=carol,
    )
    table = game_services.session_create(
        game="shitenno",
        created_by=carol,
        players=[player_for_user(carol), goro],
        setup=two_player_setup(),
        club=club,
        is_public=False,
    )
    counted = results.result_enter(
        game="Go",
        played_on=TODAY,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    counted = results.result_sign_off(result=counted, user=bob)
    assert counted.status == Result.Status.COUNTED
    return {"club": club, "goro": goro, "league": league, "season": season, "table": table, "result": counted}


def test_it_refuses_the_guest_takeover_chain(api, dave, bravo):
    goro, table = bravo["goro"], bravo["table"]
    api.login(dave)
    assert api.get(f"/api/tables/{table.code}/").status_code == 404

    dave_club = api.post("/api/clubs/", {"name": "Dave's club"}).json()["slug"]
    asked = api.post(f"/api/clubs/{dave_club}/members/", {"player": goro.pk})
    assert asked.status_code == 202, asked.content  # an invite, not a membership
    assert not Membership.objects.filter(club__slug=dave_club, player=goro).exists()

    refused = api.post(f"/api/players/{goro.pk}/invite/")
    assert refused.status_code == 403 and "added this guest" in refused.json()["detail"]
    goro.refresh_from_db()
    assert goro.claim_token is None

    assert api.get(f"/api/tables/{table.code}/").status_code == 404
    assert api.get(f"/api/clubs/{bravo['club'].slug}/members/").status_code == 403
    assert api.post(f"/api/tables/{table.code}/moves/", {"seq": 0, "move": {"type": "draw"}}).status_code == 404


def test_it_puts_the_guest_in_a_club_only_when_its_creator_accepts(api, carol, dave, bravo):
    goro = bravo["goro"]
    api.login(dave)
    dave_club = api.post("/api/clubs/", {"name": "Dave's club"}).json()["slug"]
    invite = api.post(f"/api/clubs/{dave_club}/members/", {"player": goro.pk}).json()

    assert api.post(f"/api/invites/{invite['id']}/", {"accept": True}).status_code == 404  # not dave's to answer
    api.login(carol)
    assert [i["id"] for i in api.get("/api/invites/").json()["results"]] == [invite["id"]]
    accepted = api.post(f"/api/invites/{invite['id']}/", {"accept": True})
    assert accepted.status_code == 200 and accepted.json()["player"]["id"] == goro.pk
    assert Membership.objects.filter(club__slug=dave_club, player=goro).exists()
    assert not ClubInvite.objects.exists()
    assert AuditEntry.objects.filter(club__slug=dave_club, action="membership.add").exists()

    api.login(dave)  # a member of dave's club now, Goro is still answered for by carol and Bravo only
    assert api.post(f"/api/players/{goro.pk}/invite/").status_code == 403


def test_a_declined_invite_changes_nothing_but_the_trail(client, carol, dave, bravo):
    dave_club = clubs.club_create(name="Dave's club", owner=dave)
    invite = clubs.club_member_add(club=dave_club, player=bravo["goro"], user=dave)
    client.force_login(carol)
    assert client.post(f"/clubs/invites/{invite.pk}/answer/", {"answer": "decline"}).status_code == 302
    assert not Membership.objects.filter(club=dave_club, player=bravo["goro"]).exists()
    assert list(AuditEntry.objects.filter(club=dave_club).values_list("action", flat=True)) == [
        "membership.decline",
        "membership.invite",
    ]


def test_an_account_joins_only_by_accepting(api, alice, dave):
    dave_club = clubs.club_create(name="Dave's club", owner=dave)
    api.login(dave)
    assert api.post(f"/api/clubs/{dave_club.slug}/members/", {"player": player_for_user(alice).pk}).status_code == 202
    assert not Membership.objects.filter(club=dave_club, player__user=alice).exists()
    api.login(alice)
    (invite,) = api.get("/api/invites/").json()["results"]
    assert api.post(f"/api/invites/{invite['id']}/", {"accept": False}).status_code == 204
    assert not Membership.objects.filter(club=dave_club, player__user=alice).exists()


def test_a_club_manager_adds_their_own_guest_at_once(api, dave):
    dave_club = clubs.club_create(name="Dave's club", owner=dave)
    api.login(dave)
    guest = api.post("/api/players/", {"name": "Hanzo", "club": dave_club.slug})
    assert guest.status_code == 201
    assert Membership.objects.filter(club=dave_club, player_id=guest.json()["id"]).exists()


def test_only_a_manager_adds_a_guest_for_a_club(api, bob, bravo):
    api.login(bob)  # a member of Bravo, not a manager
    assert api.post("/api/players/", {"name": "Hanzo", "club": bravo["club"].slug}).status_code == 403
    assert not bravo["club"].memberships.filter(player__name="Hanzo").exists()


def test_a_manager_of_the_guests_club_may_make_its_claim_link(bob, carol, bravo):
    clubs.membership_set_role(
        membership=Membership.objects.get(club=bravo["club"], player__user=bob), role=Membership.Role.ADMIN, user=carol
    )
    assert players.player_claim_link_create(player=bravo["goro"], user=bob)


def test_a_claim_is_audited_in_every_club_of_the_guest(alice, carol, dave, bravo):
    other = clubs.club_create(name="Other", owner=dave)
    clubs.club_invite_answer(
        invite=clubs.club_member_add(club=other, player=bravo["goro"], user=dave), user=carol, accept=True
    )
    token = players.player_claim_link_create(player=bravo["goro"], user=carol)
    players.player_claim(token=token, user=alice)
    claims = AuditEntry.objects.filter(action="player.claim")
    assert sorted(claims.values_list("club__name", flat=True)) == ["Bravo", "Other"]
    assert {entry.details["account"] for entry in claims} == {"alice"}


def test_the_creator_cannot_claim_their_own_guest(carol, bravo):
    token = players.player_claim_link_create(player=bravo["goro"], user=carol)
    with pytest.raises(Conflict):
        players.player_claim(token=token, user=carol)


# --- forged results ---


def test_a_result_with_someone_elses_guest_waits_for_the_guests_creator(api, carol, dave, bravo):
    sat_with(dave, carol)  # outside a club he names only guests of people he plays with
    api.login(dave)
    entered = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": TODAY.isoformat(),
            "entries": [{"player": player_for_user(dave).pk, "rank": 1}, {"player": bravo["goro"].pk, "rank": 2}],
        },
    )
    assert entered.status_code == 201 and entered.json()["status"] == "pending"
    assert not Rating.objects.filter(player__user=dave).exists()

    result = Result.objects.get(pk=entered.json()["id"])
    results.result_sign_off(result=result, user=carol)  # carol vouches for her guest
    result.refresh_from_db()
    assert result.status == Result.Status.COUNTED


def test_a_result_among_other_peoples_guests_never_counts_on_the_recorders_word(api, alice, dave):
    guests = [players.player_guest_create(name=f"Guest {i}", created_by=alice) for i in range(3)]
    sat_with(dave, alice)
    api.login(dave)
    entered = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": TODAY.isoformat(),
            "entries": [{"player": guest.pk, "rank": rank} for rank, guest in enumerate(guests, 1)],
        },
    )
    assert entered.status_code == 201 and entered.json()["status"] == "pending"
    assert api.post(f"/api/results/{entered.json()['id']}/sign-off/", {"agreed": True}).status_code == 403


def test_a_league_manager_vouches_for_the_guests_of_the_league(carol, bob, bravo):
    result = results.result_enter(
        game="Go",
        played_on=TODAY,
        season=bravo["season"],
        user=bob,
        entries=[{"player": player_for_user(bob), "rank": 1}, {"player": bravo["goro"], "rank": 2}],
    )
    assert result.status == Result.Status.PENDING  # bob is a member, not a manager
    result = results.result_sign_off(result=result, user=carol)
    assert result.status == Result.Status.COUNTED


# --- disputes after counting ---


def test_a_dispute_after_counting_flags_the_result_and_it_keeps_counting(api, bob, carol, bravo):
    counted = bravo["result"]
    api.login(bob)
    answer = api.post(f"/api/results/{counted.pk}/sign-off/", {"agreed": False, "note": "I came second by a point"})
    assert answer.status_code == 200 and answer.json()["status"] == "counted"
    counted.refresh_from_db()
    assert counted.status == Result.Status.COUNTED and counted.flagged_by == bob
    assert AuditEntry.objects.filter(club=bravo["club"], action="result.flag").exists()

    api.login(carol)
    assert b"I came second by a point" in api.get(f"/leagues/{bravo['league'].pk}/").content
    confirmed = api.patch(f"/api/results/{counted.pk}/", {"version": counted.version})
    assert confirmed.status_code == 200
    counted.refresh_from_db()
    assert counted.flagged_by is None and counted.status == Result.Status.COUNTED


def test_a_dispute_before_counting_still_holds_the_result_back(bob, carol, bravo):
    pending = results.result_enter(
        game="Go",
        played_on=TODAY,
        season=bravo["season"],
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    pending = results.result_sign_off(result=pending, user=bob, agreed=False, note="wrong order")
    assert pending.status == Result.Status.DISPUTED


# --- what a private club keeps to itself ---


@pytest.mark.parametrize("who", ["anonymous", "dave"])
def test_a_private_clubs_league_is_hidden_from_outsiders(api, dave, bravo, who):
    if who == "dave":
        api.login(dave)
    league, season, result = bravo["league"], bravo["season"], bravo["result"]
    for url in (
        f"/api/seasons/{season.pk}/standings/",
        f"/api/results/{result.pk}/",
        f"/api/ratings/?league={league.pk}",
        f"/api/leagues/{league.pk}/",
        f"/api/leagues/{league.pk}/seasons/",
        f"/leagues/{league.pk}/",
    ):
        assert api.get(url).status_code == 404, url
    assert api.get(f"/api/clubs/{bravo['club'].slug}/leagues/").status_code == 403
    assert league.pk not in [row["id"] for row in api.get("/api/leagues/").json()["results"]]
    stats = api.get(f"/api/players/{player_for_user(bravo['result'].created_by).pk}/stats/").json()
    assert stats["games"] == 0 and stats["head_to_head"] == []
    assert b"Bravo league" not in api.get("/leagues/").content + api.get("/rankings/").content


def test_its_members_see_the_private_league(api, bob, bravo):
    api.login(bob)
    assert api.get(f"/api/seasons/{bravo['season'].pk}/standings/").status_code == 200
    assert api.get(f"/api/results/{bravo['result'].pk}/").status_code == 200
    assert api.get(f"/leagues/{bravo['league'].pk}/").status_code == 200


def test_a_private_clubs_games_count_in_its_league_not_site_wide(bob, carol, bravo, django_capture_on_commit_callbacks):
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    assert Rating.objects.filter(kind="league", player__user=bob).exists()
    assert not Rating.objects.filter(kind="game", key="Go").exists()

    club = bravo["club"]
    club.members_public = True
    club.save()
    LeagueJob.objects.all().delete()
    with django_capture_on_commit_callbacks():
        clubs.club_privacy_changed(club=club)
    asked = list(LeagueJob.objects.values_list("job", "target", "since"))
    assert asked == [(LeagueJob.Job.RATE_SCOPE, "game:Go", None)]  # the game's scope re-rated from the start
    rating_store.ratings_recompute(kind="game", key="Go")  # what the job does
    assert Rating.objects.filter(kind="game", key="Go", player__user=bob).exists()


# --- idempotency keys ---


@pytest.fixture
def public_table(alice, bob):
    return game_services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        is_public=True,
        players=[player_for_user(alice), player_for_user(bob)],
    )


DRAW = {"type": "draw", "seat": 0, "troops": ["shinobi", "samurai", "shinobi", "samurai"], "kokus": [2, 2]}


def test_a_key_replayed_by_an_outsider_is_refused_before_the_replay(api, alice, dave, public_table):
    url = f"/api/tables/{public_table.code}/moves/"
    assert api.login(alice).post(url, {"seq": 0, "move": DRAW}, HTTP_IDEMPOTENCY_KEY="k-1").status_code == 201
    replay = api.login(dave).post(url, {"seq": 0, "move": DRAW}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert replay.status_code == 403 and "state" not in replay.json()


def test_a_key_reused_with_another_body_or_by_another_writer_answers_422(api, alice, bob, public_table):
    url = f"/api/tables/{public_table.code}/moves/"
    assert api.login(alice).post(url, {"seq": 0, "move": DRAW}, HTTP_IDEMPOTENCY_KEY="k-1").status_code == 201
    assert api.post(url, {"seq": 0, "move": DRAW}, HTTP_IDEMPOTENCY_KEY="k-1").status_code == 200  # a true replay
    other = {**DRAW, "kokus": [2, 3]}
    reused = api.post(url, {"seq": 0, "move": other}, HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 422 and "different request" in reused.json()["detail"]
    assert api.login(bob).post(url, {"seq": 0, "move": DRAW}, HTTP_IDEMPOTENCY_KEY="k-1").status_code == 422
    assert MoveEvent.objects.filter(session=public_table).count() == 1


# --- anonymous writes ---


def test_an_anonymous_write_answers_401_with_how_to_authenticate(api, public_table):
    answer = api.post(f"/api/tables/{public_table.code}/moves/", {"seq": 0, "move": DRAW})
    assert answer.status_code == 401 and answer["WWW-Authenticate"] == "Token"
