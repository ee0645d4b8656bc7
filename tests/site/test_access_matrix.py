"""The access matrix (issue 7): dave, an outsider, against every page and API address that names an object.

alice owns the club (carol is a member, the members list is private), runs its league and season, hosts a
private table and a public table with bob, recorded a pending league result, and added a guest. dave may
read what is public, but reading anything private and every write answers 403 or 404, and nothing in the
database changes.
"""

import datetime
import json

import pytest

from games import services as game_services
from games.models import MoveEvent, Seat, TableSession
from leagues.models import Club, League, Membership, Player, Result, ResultEntry, Season, SignOff
from leagues.services import player_for_user
from tests.games.tables import two_player_setup

pytestmark = pytest.mark.django_db
TODAY = datetime.date.today()
MODELS = [TableSession, Seat, MoveEvent, Club, Membership, League, Season, Result, ResultEntry, SignOff, Player]


@pytest.fixture
def world(alices_club, alice, bob, carol, dave, club):
    seated = [player_for_user(alice), player_for_user(bob)]
    public = game_services.session_create(game="shitenno", created_by=alice, players=seated,
                                          setup=two_player_setup(), is_public=True)
    league, season, result = alices_club.league, alices_club.season, alices_club.result
    private, guest = alices_club.private, alices_club.guest
    return {
        "private": private.code, "public": public.code, "slug": club.slug, "league": league.pk,
        "season": season.pk, "result": result.pk, "guest": guest.pk, "dave": player_for_user(dave).pk,
        "alice": player_for_user(alice).pk, "carol": player_for_user(carol).pk,
        "carol_membership": Membership.objects.get(club=club, player__user=carol).pk,
        "alice_membership": Membership.objects.get(club=club, player__user=alice).pk,
    }


def snapshot() -> list:
    return [list(model.objects.order_by("pk").values()) for model in MODELS]


DRAW = {"type": "draw", "seat": 0, "troops": ["samurai", "sohei", "shinobi", "bushi+sohei", "bushi", "samurai",
                                              "samurai", "bushi"], "kokus": [1, 1, 2, 3]}

# (method, address, body): pages take form data, API addresses (under /api/) take JSON.
PRIVATE_READS = [
    ("get", "/tables/{private}/", None),
    ("get", "/tables/{private}/live/", None),
    ("get", "/tables/{private}/history/", None),
    ("get", "/api/tables/{private}/", None),
    ("get", "/api/tables/{private}/moves/", None),
    ("get", "/api/tables/{private}/score/", None),
    ("get", "/api/clubs/{slug}/members/", None),
]
WRITES = [
    # the private table
    ("post", "/tables/{private}/move/", {"type": "draw", "seq": "0"}),
    ("post", "/tables/{private}/undo/", {"seq": "0"}),
    ("post", "/api/tables/{private}/moves/", {"seq": 0, "move": DRAW}),
    ("post", "/api/tables/{private}/undo/", {"seq": 0}),
    # the public table: dave may watch, not play
    ("post", "/tables/{public}/move/", {"type": "draw", "seq": "0"}),
    ("post", "/tables/{public}/undo/", {"seq": "0"}),
    ("post", "/api/tables/{public}/moves/", {"seq": 0, "move": DRAW}),
    ("post", "/api/tables/{public}/undo/", {"seq": 0}),
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
    ("post", "/api/leagues/{league}/seasons/", {"name": "2027", "starts_on": "2027-01-01", "ends_on": "2027-06-30"}),
    ("post", "/api/results/", {"game": "Go", "played_on": TODAY.isoformat(), "season": "{season}",
                               "entries": [{"player": "{alice}", "rank": 1}, {"player": "{carol}", "rank": 2}]}),
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
@pytest.mark.parametrize(("method", "template", "body"), PRIVATE_READS + WRITES,
                         ids=[f"{m.upper()} {t}" for m, t, _b in PRIVATE_READS + WRITES])
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
