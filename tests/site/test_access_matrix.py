"""The access matrix (issue 7): dave, an outsider, against every page and API address that names an object.

alice owns the club (carol is a member, the members list is private), runs its league and season, hosts a
private table and a public table with bob, recorded a pending league result, and added a guest. dave may
read what is public, but reading anything private and every write answers 403 or 404, and nothing in the
database changes.
"""

import datetime
import json

import pytest
from django.utils import timezone

from games import services as game_services
from games.models import MoveEvent, Seat, TableSession
from leagues.models import (
    AuditEntry,
    Club,
    ClubInvite,
    League,
    Membership,
    Player,
    Result,
    ResultEntry,
    Season,
    SignOff,
)
from leagues.nights.models import Night, NightCheckIn, NightRound, NightTable
from leagues.people.players import player_for_user
from leagues.tournaments.models import Tournament, TournamentEntry, TournamentPod, TournamentRound
from tests.games.tables import two_player_setup

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
# A season after the fixture's (which ends 30 days from today): fixed dates would overlap it on some days of the year.
NEXT_SEASON = {
    "name": "Next",
    "starts_on": (TODAY + datetime.timedelta(days=60)).isoformat(),
    "ends_on": (TODAY + datetime.timedelta(days=240)).isoformat(),
}
MODELS = [
    TableSession,
    Seat,
    MoveEvent,
    Club,
    Membership,
    League,
    Season,
    Result,
    ResultEntry,
    SignOff,
    Player,
    ClubInvite,
    AuditEntry,
    Night,
    NightCheckIn,
    NightRound,
    NightTable,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentPod,
    Tournament.judges.through,
]


@pytest.fixture
def world(alices_club, alice, bob, carol, dave, club):
    seated = [player_for_user(alice), player_for_user(bob)]
    public = game_services.session_create(
        game="shitenno", created_by=alice, players=seated, setup=two_player_setup(), is_public=True
    )
    league, season, result = alices_club.league, alices_club.season, alices_club.result
    private, guest = alices_club.private, alices_club.guest
    night = Night.objects.create(season=season, date=season.starts_on, games=[league.games[0]], opened_by=alice)
    NightCheckIn.objects.create(night=night, player=player_for_user(alice))
    NightTable.objects.create(
        round=NightRound.objects.create(night=night, number=1),
        position=0,
        game=league.games[0],
        players=[player_for_user(alice).pk, player_for_user(carol).pk],
    )
    tournament = Tournament.objects.create(club=league.club, name="Cup", date=season.starts_on)
    for user in (alice, carol):
        TournamentEntry.objects.create(
            tournament=tournament, player=player_for_user(user), checked_in_at=timezone.now()
        )
    return {
        "night": night.pk,
        "tournament": tournament.pk,
        "private": private.code,
        "public": public.code,
        "slug": club.slug,
        "league": league.pk,
        "season": season.pk,
        "result": result.pk,
        "guest": guest.pk,
        "dave": player_for_user(dave).pk,
        "alice": player_for_user(alice).pk,
        "carol": player_for_user(carol).pk,
        "carol_membership": Membership.objects.get(club=club, player__user=carol).pk,
        "alice_membership": Membership.objects.get(club=club, player__user=alice).pk,
    }


def snapshot() -> list:
    return [list(model.objects.order_by("pk").values()) for model in MODELS]


DRAW = {
    "type": "draw",
    "seat": 0,
    "troops": ["samurai", "sohei", "shinobi", "bushi+sohei", "bushi", "samurai", "samurai", "bushi"],
    "kokus": [1, 1, 2, 3],
}

# (method, address, body): pages take form data, API addresses (under /api/) take JSON.
PRIVATE_READS = [
    ("get", "/tables/{private}/", None),
    ("get", "/tables/{private}/live/", None),
    ("get", "/tables/{private}/history/", None),
    ("get", "/api/tables/{private}/", None),
    ("get", "/api/tables/{private}/moves/", None),
    ("get", "/api/tables/{private}/score/", None),
    ("get", "/api/clubs/{slug}/members/", None),
    ("get", "/clubs/{slug}/members/{carol_membership}/remove/", None),  # the removal's confirmation
    ("get", "/api/nights/{night}/", None),
    ("get", "/api/nights/{night}/proposal/", None),
    ("get", "/api/tournaments/{tournament}/", None),
    ("get", "/tournaments/{tournament}/", None),
    ("get", "/tournaments/{tournament}/wall/", None),
    ("get", "/tournaments/{tournament}/standings.csv", None),
    ("get", "/seasons/{season}/nights/", None),
    ("get", "/api/seasons/{season}/", None),
    ("get", "/leagues/{league}/edit/", None),
    ("get", "/seasons/{season}/edit/", None),
    ("get", "/nights/{night}/", None),
    ("get", "/nights/{night}/check-in/", None),
    ("get", "/nights/{night}/standings/", None),
]
WRITES = [
    # the private table
    ("post", "/tables/{private}/move/", {"type": "draw", "seq": "0"}),
    ("post", "/tables/{private}/undo/", {"seq": "0"}),
    ("post", "/api/tables/{private}/moves/", {"seq": 0, "move": DRAW}),
    ("post", "/api/tables/{private}/undo/", {"seq": 0}),
    ("post", "/api/tables/{private}/sign-off/", {"agreed": True}),
    # the public table: dave may watch, not play
    ("post", "/tables/{public}/move/", {"type": "draw", "seq": "0"}),
    ("post", "/tables/{public}/undo/", {"seq": "0"}),
    ("post", "/api/tables/{public}/moves/", {"seq": 0, "move": DRAW}),
    ("post", "/api/tables/{public}/undo/", {"seq": 0}),
    ("post", "/api/tables/{public}/sign-off/", {"agreed": True}),
    # the club and its members
    ("post", "/clubs/{slug}/invite/rotate/", {}),
    ("post", "/clubs/{slug}/members/{carol_membership}/role/", {"role": "admin"}),
    ("post", "/clubs/{slug}/members/{carol_membership}/remove/", {}),
    ("post", "/clubs/{slug}/members/{alice_membership}/remove/", {}),
    ("post", "/api/clubs/{slug}/members/", {"player": "{dave}"}),
    ("patch", "/api/clubs/{slug}/members/{carol_membership}/", {"role": "owner"}),
    ("delete", "/api/clubs/{slug}/members/{carol_membership}/", None),
    ("post", "/api/tables/", {"players": ["{dave}", "{carol}"], "setup": two_player_setup(), "club": "{slug}"}),
    # the league and its season
    ("post", "/api/clubs/{slug}/leagues/", {"name": "Dave's league", "games": ["Go"]}),
    ("post", "/api/leagues/{league}/seasons/", NEXT_SEASON),
    (
        "post",
        "/api/results/",
        {
            "game": "Go",
            "played_on": TODAY.isoformat(),
            "season": "{season}",
            "entries": [{"player": "{alice}", "rank": 1}, {"player": "{carol}", "rank": 2}],
        },
    ),
    # editing and deleting them (issue 34)
    ("patch", "/api/leagues/{league}/", {"name": "Dave's league"}),
    ("delete", "/api/leagues/{league}/", None),
    ("patch", "/api/seasons/{season}/", {"name": "Dave's season"}),
    ("delete", "/api/seasons/{season}/", None),
    ("post", "/leagues/{league}/edit/", {"name": "Dave's league", "games": "Go"}),
    ("post", "/leagues/{league}/delete/", {}),
    ("post", "/seasons/{season}/edit/", {"name": "Dave's season"}),
    ("post", "/seasons/{season}/delete/", {}),
    # a league night
    ("post", "/api/seasons/{season}/nights/", {"date": TODAY.isoformat(), "games": ["Go"]}),
    ("post", "/api/nights/{night}/check-in/", {}),
    ("post", "/api/nights/{night}/leave/", {"player": "{alice}"}),
    ("post", "/api/nights/{night}/rounds/", None),
    ("post", "/api/nights/{night}/rounds/1/swap/", {"a": "{alice}", "b": "{carol}"}),
    ("post", "/api/nights/{night}/rounds/1/tables/0/lock/", {"locked": True}),
    ("post", "/api/nights/{night}/rounds/1/tables/0/game/", {"game": "shitenno"}),
    ("post", "/api/nights/{night}/rounds/1/open/", {}),
    # a tournament day
    ("post", "/api/tournaments/{tournament}/rounds/", {}),
    ("post", "/api/clubs/{slug}/tournaments/", {"name": "Dave's cup", "date": TODAY.isoformat()}),
    ("post", "/api/tournaments/{tournament}/entries/", {}),
    ("post", "/api/tournaments/{tournament}/check-in/", {}),
    ("post", "/api/tournaments/{tournament}/drop/", {"player": "{alice}"}),
    ("post", "/api/tournaments/{tournament}/rounds/1/pods/0/places/", {"places": [{"player": "{alice}", "place": 1}]}),
    ("post", "/tournaments/{tournament}/check-in/", {}),
    ("post", "/tournaments/{tournament}/drop/", {}),
    ("post", "/tournaments/{tournament}/pair/", {}),
    ("post", "/tournaments/{tournament}/rounds/1/pods/0/places/", {"place_{alice}": "1"}),
    ("post", "/api/tournaments/{tournament}/rounds/1/tables/", {}),
    ("post", "/api/tournaments/{tournament}/rounds/1/pods/0/settle/", {}),
    ("put", "/api/tournaments/{tournament}/judges/", {"judges": ["{dave}"]}),
    ("post", "/tournaments/{tournament}/rounds/1/tables/", {}),
    ("post", "/tournaments/{tournament}/rounds/1/pods/0/settle/", {}),
    ("post", "/tournaments/{tournament}/judges/", {"judges": "{dave}"}),
    ("post", "/seasons/{season}/nights/", {"date": TODAY.isoformat(), "games": "Go", "table_sizes": "3"}),
    ("post", "/nights/{night}/check-in/", {}),
    ("post", "/nights/{night}/tick/", {"player": "{alice}", "present": "0"}),
    ("post", "/nights/{night}/propose/", {}),
    ("post", "/nights/{night}/rounds/1/swap/", {"a": "{alice}", "b": "{carol}"}),
    ("post", "/nights/{night}/rounds/1/tables/0/lock/", {"locked": "1"}),
    ("post", "/nights/{night}/rounds/1/tables/0/game/", {"game": "shitenno"}),
    ("post", "/nights/{night}/rounds/1/open/", {}),
    # a result
    ("patch", "/api/results/{result}/", {"version": 1, "played_on": TODAY.isoformat()}),
    ("delete", "/api/results/{result}/?version=1", None),
    ("post", "/api/results/{result}/sign-off/", {"agreed": True}),
    ("post", "/results/{result}/sign-off/", {"agreed": "yes"}),
    # a player
    ("post", "/players/{guest}/invite/", {}),
    ("post", "/api/players/{guest}/invite/", None),
]


def _fill(value, world: dict):
    """Put the world's ids into a request template ("{dave}" alone becomes the id itself)."""
    if isinstance(value, str):
        if value.startswith("{") and value.endswith("}") and value[1:-1] in world:
            return world[value[1:-1]]
        return value.format(**world) if "{" in value else value
    if isinstance(value, list):
        return [_fill(item, world) for item in value]
    if isinstance(value, dict):
        return {key: _fill(item, world) for key, item in value.items()}
    return value


def _send(client, method: str, url: str, body, **extra):
    send = getattr(client, method)
    if url.startswith("/api/"):
        if body is None:
            return send(url, **extra)
        return send(url, json.dumps(body), content_type="application/json", **extra)
    return send(url, body or {}, **extra)


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
@pytest.mark.parametrize(
    ("method", "template", "body"),
    PRIVATE_READS + WRITES,
    ids=[f"{m.upper()} {t}" for m, t, _b in PRIVATE_READS + WRITES],
)
def test_it_refuses_an_outsider(client, world, dave, method, template, body, htmx):
    client.force_login(dave)
    before = snapshot()
    url = _fill(template, world)
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = _send(client, method, url, _fill(body, world), **extra)
    assert response.status_code in (403, 404), (url, response.status_code, response.content[:300])
    assert snapshot() == before


def test_the_outsider_sees_no_private_detail_on_public_pages(client, world, dave, carol):
    client.force_login(dave)
    club_page = client.get(f"/clubs/{world['slug']}/").content.decode()
    assert "carol" not in club_page
    assert Club.objects.get(slug=world["slug"]).invite_token not in club_page
    guest_page = client.get(f"/players/{world['guest']}/")
    assert guest_page.status_code == 200 and b"/players/claim/" not in guest_page.content
    tables = client.get("/api/tables/").json()["results"]
    assert world["private"] not in {table["code"] for table in tables}


def test_the_matrix_allows_the_same_requests_to_the_owner(client, world, alice):
    """The matrix is not vacuous: alice may read the private table and her club's members."""
    client.force_login(alice)
    for method, template, body in PRIVATE_READS:
        assert _send(client, method, _fill(template, world), body).status_code == 200, template


# --- Every role against every operation that names a club's object (issue 12) ---------------------------------
# Personas: anonymous; dave, an outsider; erin, who runs another club; carol, a member of alice's (private) club;
# bob, seated at alice's private table but in no club; gwen, who added the guest Goro (Goro is invited to alice's
# club, gwen must answer); alice, the club's owner, host of the private table and creator of the guest Hanzo.
ROLES = ["anonymous", "dave", "erin", "carol", "bob", "gwen", "alice"]


def _cells(default: int, anonymous: int | None = None, **allowed: int) -> dict[str, int]:
    """One operation's row: `allowed` roles with their answer, every other role refused with `default`."""
    row = {role: allowed.get(role, default) for role in ROLES}
    row["anonymous"] = allowed.get("anonymous", anonymous if anonymous is not None else default)
    return row


PRIVATE_CLUB_READ = _cells(404, carol=200, alice=200)
FIRST_DRAW = {"type": "draw", "seat": 0, "troops": ["shinobi", "samurai", "shinobi", "samurai"], "kokus": [2, 2]}
ROLE_MATRIX = [
    # the private table (not a club table): its host and seated players only
    ("get", "/api/tables/{private}/", None, _cells(404, alice=200, bob=200)),
    ("get", "/api/tables/{private}/moves/", None, _cells(404, alice=200, bob=200)),
    ("get", "/tables/{private}/", None, _cells(404, alice=200, bob=200)),
    ("post", "/api/tables/{private}/moves/", {"seq": 0, "move": FIRST_DRAW}, _cells(404, 401, alice=201, bob=201)),
    ("post", "/api/tables/{private}/undo/", {"seq": 0}, _cells(404, 401, alice=400, bob=400)),
    # the private club: members read, managers write
    ("get", "/api/clubs/{slug}/members/", None, _cells(403, carol=200, alice=200)),
    ("get", "/api/clubs/{slug}/leagues/", None, _cells(403, carol=200, alice=200)),
    ("get", "/api/clubs/{slug}/tournaments/", None, _cells(403, carol=200, alice=200)),
    ("get", "/api/leagues/{league}/", None, PRIVATE_CLUB_READ),
    ("get", "/api/leagues/{league}/seasons/", None, PRIVATE_CLUB_READ),
    ("get", "/api/seasons/{season}/standings/", None, PRIVATE_CLUB_READ),
    ("get", "/api/results/{result}/", None, PRIVATE_CLUB_READ),
    ("get", "/api/ratings/?league={league}", None, PRIVATE_CLUB_READ),
    # win chances in a private league's scope: its ratings stay inside the club (issue 29)
    ("get", "/api/games/shitenno/chances/?players={alice},{carol}&league={league}", None, PRIVATE_CLUB_READ),
    ("get", "/leagues/{league}/", None, PRIVATE_CLUB_READ),
    ("get", "/clubs/{slug}/audit/", None, _cells(404, carol=403, alice=200)),
    ("post", "/api/clubs/{slug}/members/", {"player": "{dave}"}, _cells(403, 401, alice=202)),
    ("patch", "/api/clubs/{slug}/members/{carol_membership}/", {"role": "admin"}, _cells(403, 401, alice=200)),
    ("delete", "/api/clubs/{slug}/members/{carol_membership}/", None, _cells(403, 401, carol=204, alice=204)),
    ("post", "/api/clubs/{slug}/leagues/", {"name": "Spring", "games": ["Go"]}, _cells(403, 401, alice=201)),
    ("post", "/api/leagues/{league}/seasons/", NEXT_SEASON, _cells(404, 401, carol=403, alice=201)),
    (
        "post",
        "/api/results/",
        {
            "game": "Go",
            "played_on": TODAY.isoformat(),
            "season": "{season}",
            "entries": [{"player": "{alice}", "rank": 1}, {"player": "{carol}", "rank": 2}],
        },
        _cells(403, 401, carol=201, alice=201),
    ),
    # editing a league or season: its managers; deleting one that holds a result and a night: refused (issue 34)
    ("get", "/api/seasons/{season}/", None, PRIVATE_CLUB_READ),
    ("patch", "/api/leagues/{league}/", {"name": "Autumn"}, _cells(404, 401, carol=403, alice=200)),
    ("delete", "/api/leagues/{league}/", None, _cells(404, 401, carol=403, alice=409)),
    ("patch", "/api/seasons/{season}/", {"name": "2026-27"}, _cells(404, 401, carol=403, alice=200)),
    ("delete", "/api/seasons/{season}/", None, _cells(404, 401, carol=403, alice=409)),
    ("get", "/leagues/{league}/edit/", None, _cells(404, 302, carol=403, alice=200)),
    (
        "post",
        "/leagues/{league}/edit/",
        {"name": "Autumn", "games": "Go, shitenno"},
        _cells(404, 302, carol=403, alice=302),
    ),
    ("post", "/seasons/{season}/delete/", {}, _cells(404, 302, carol=403, alice=409)),
    ("patch", "/api/results/{result}/", {"version": 1}, _cells(404, 401, carol=403, alice=200)),
    ("delete", "/api/results/{result}/?version=1", None, _cells(404, 401, carol=403, alice=204)),
    ("post", "/api/results/{result}/sign-off/", {"agreed": True}, _cells(404, 401, carol=200, alice=200)),
    (
        "post",
        "/api/tables/",
        {"players": ["{alice}", "{carol}"], "setup": two_player_setup(), "club": "{slug}"},
        _cells(403, 401, carol=201, alice=201),
    ),
    ("post", "/clubs/{slug}/invite/rotate/", {}, _cells(404, 302, carol=403, alice=302)),
    # the club page's member forms: "Remove" asks first (carol may leave; alice, the last owner, may not)
    ("get", "/clubs/{slug}/members/{carol_membership}/remove/", None, _cells(404, 302, carol=200, alice=200)),
    ("get", "/clubs/{slug}/members/{alice_membership}/remove/", None, _cells(404, 302, carol=403, alice=409)),
    ("post", "/clubs/{slug}/members/{alice_membership}/remove/", {}, _cells(404, 302, carol=403, alice=409)),
    (
        "post",
        "/clubs/{slug}/members/{carol_membership}/role/",
        {"role": "admin"},
        _cells(404, 302, carol=403, alice=302),
    ),
    # a league night's pages: its club's managers run it, members check in, the standings are the club's
    ("get", "/nights/{night}/", None, _cells(404, 302, carol=403, alice=200)),
    ("get", "/api/nights/{night}/proposal/", None, PRIVATE_CLUB_READ),
    ("get", "/nights/{night}/check-in/", None, _cells(404, 302, carol=200, alice=200)),
    ("get", "/nights/{night}/standings/", None, PRIVATE_CLUB_READ),
    (
        "post",
        "/nights/{night}/rounds/1/swap/",
        {"a": "{alice}", "b": "{carol}"},
        _cells(404, 302, carol=403, alice=302),
    ),
    ("post", "/nights/{night}/rounds/1/tables/0/lock/", {"locked": "1"}, _cells(404, 302, carol=403, alice=302)),
    # (the world's table seats two and the night's sizes are 3 and 4: alice reaches the service, which says so)
    ("post", "/nights/{night}/rounds/1/tables/0/game/", {"game": "shitenno"}, _cells(404, 302, carol=403, alice=400)),
    # guests: their creators answer for them
    ("post", "/api/players/{guest}/invite/", None, _cells(403, 401, alice=201)),
    ("post", "/api/players/{goro}/invite/", None, _cells(403, 401, gwen=201)),
    ("get", "/api/invites/", None, _cells(200, 401)),
    # the results list answers everyone signed in, each with what he may see (tests/leagues/test_table_result_api)
    ("get", "/api/results/?season={season}&waiting=me", None, _cells(200, 401)),
    # the private table has no result yet: the same 404 for all, its players included (the answers with a result:
    # tests/leagues/test_table_result_api.py)
    ("get", "/api/tables/{private}/result/", None, _cells(404, 404)),
    ("post", "/api/invites/{goro_invite}/", {"accept": True}, _cells(404, 401, gwen=200)),
]


@pytest.fixture
def role_world(world, alice, club, django_user_model):
    from leagues.club import clubs
    from leagues.people import players

    erin = players.user_sign_up(username="erin", email="erin@example.org", password="a long test passphrase 42")
    clubs.club_create(name="Kyoto", owner=erin)
    gwen = players.user_sign_up(username="gwen", email="gwen@example.org", password="a long test passphrase 42")
    goro = players.player_guest_create(name="Goro", created_by=gwen)
    invite = clubs.club_member_add(club=club, player=goro, user=alice)
    users = {user.username: user for user in django_user_model.objects.all()}
    return {**world, "goro": goro.pk, "goro_invite": invite.pk, "users": users}


@pytest.mark.parametrize(
    ("method", "template", "body", "expected"), ROLE_MATRIX, ids=[f"{m.upper()} {t}" for m, t, _b, _e in ROLE_MATRIX]
)
def test_each_role_gets_the_answer_its_cell_says(client, role_world, method, template, body, expected):
    """Each role in turn, each inside a savepoint rolled back after it, so every role meets the same world."""
    from django.db import transaction

    url, body = _fill(template, role_world), _fill(body, role_world)
    answers = {}
    for role in ROLES:
        with transaction.atomic():
            client.logout()
            if role != "anonymous":
                client.force_login(role_world["users"][role])
            before = snapshot()
            response = _send(client, method, url, body)
            answers[role] = response.status_code
            if response.status_code >= 400 or (response.status_code == 302 and role == "anonymous"):
                assert snapshot() == before, f"a refused request by {role} changed the database"
            transaction.set_rollback(True)
    assert answers == expected


def test_the_matrix_covers_every_operation_of_the_schema(client):
    """A new endpoint must be given its row (here or in the outsider matrix above), or listed as naming no
    club object."""
    names_no_private_object = {
        "GET /api/clubs/",
        "POST /api/clubs/",
        "GET /api/clubs/{slug}/",
        "POST /api/clubs/join/",
        "POST /api/final-count/",
        "GET /api/games/",
        "GET /api/leagues/",
        "GET /api/me/",
        "PATCH /api/me/",
        "GET /api/me/data/",
        "POST /api/me/delete/",  # one's own data and account (issue 47)
        # one's own tokens; another's is a 404 and stays (tests/site/test_access_tokens.py)
        "GET /api/tokens/",
        "POST /api/tokens/",
        "DELETE /api/tokens/{id}/",
        "GET /api/players/",
        "POST /api/players/",
        "GET /api/players/{id}/",
        "GET /api/players/{id}/ratings/history/",
        "GET /api/players/{id}/stats/",
        "POST /api/players/claim/",
        "GET /api/ratings/",
        "GET /api/tables/",
        "GET /api/tables/{code}/score/",
    }
    schema = client.get("/api/schema/?format=json").json()
    operations = {
        f"{method.upper()} {path}"
        for path, ops in schema["paths"].items()
        for method in ops
        if method in ("get", "post", "patch", "put", "delete")
    }
    covered = set(names_no_private_object)
    for method, template, _body, *_rest in [*PRIVATE_READS, *WRITES, *ROLE_MATRIX]:
        if template.startswith("/api/"):
            path = template.split("?")[0]
            for name, generic in (
                ("{private}", "{code}"),
                ("{public}", "{code}"),
                ("{carol_membership}", "{id}"),
                ("{alice_membership}", "{id}"),
                ("{league}", "{id}"),
                ("{season}", "{id}"),
                ("{result}", "{id}"),
                ("{guest}", "{id}"),
                ("{goro}", "{id}"),
                ("{goro_invite}", "{id}"),
                ("{night}", "{id}"),
                ("{tournament}", "{id}"),
                ("/rounds/1/", "/rounds/{number}/"),
                ("/pods/0/", "/pods/{position}/"),
                ("/tables/0/", "/tables/{position}/"),
                ("/api/games/shitenno/", "/api/games/{slug}/"),
            ):
                path = path.replace(name, generic)
            covered.add(f"{method.upper()} {path}")
    assert operations - covered == set()
