"""The lists that answered a plain array before issue 46 finding 6 answer one page as every list does: `limit`,
`offset`, `{"count", "next", "previous", "results"}`, in the order they had, with a unique last key so walking
`next` gives every row once; a blank `?limit=` is a 400 that changes nothing; who may read each is unchanged."""

import datetime

import pytest

from leagues.club import seasons
from leagues.models import ClubInvite, League, Player, Season
from leagues.tournaments import services as tournaments
from shitenno_site.tokens import services as tokens

pytestmark = pytest.mark.django_db


def walk(api, url: str, limit: int = 2) -> list[dict]:
    """Every row of the list at `url`, page after page through `next`; each page's own checks on the way."""
    answer = api.get(f"{url}?limit={limit}")
    assert answer.status_code == 200, answer.content
    page = answer.json()
    assert set(page) == {"count", "next", "previous", "results"} and page["previous"] is None
    count, rows = page["count"], list(page["results"])
    while page["next"]:
        assert len(page["results"]) == limit
        page = api.get(page["next"]).json()
        assert page["count"] == count and page["previous"]
        rows += page["results"]
    assert len(rows) == count
    return rows


def test_a_clubs_leagues_and_a_leagues_seasons_walk_page_by_page_each_row_once(api, club, alice):
    names = ["Winter", "autumn", "Spring", "Summer", "Beach"]
    made = [seasons.league_create(club=club, name=name, games=["shitenno"], user=alice) for name in names]
    for year in (2021, 2023, 2022, 2025, 2024):
        seasons.season_create(
            league=made[0],
            name=str(year),
            starts_on=datetime.date(year, 1, 1),
            ends_on=datetime.date(year, 12, 31),
            user=alice,
        )
    api.login(alice)

    leagues = walk(api, f"/api/clubs/{club.slug}/leagues/")
    in_order = list(League.objects.filter(club=club).order_by("name", "pk").values_list("id", flat=True))
    assert [row["id"] for row in leagues] == in_order and len(set(in_order)) == 5

    rows = walk(api, f"/api/leagues/{made[0].pk}/seasons/")
    assert [row["name"] for row in rows] == ["2025", "2024", "2023", "2022", "2021"]  # the latest first, as before
    assert api.get(f"/api/leagues/{made[0].pk}/seasons/?limit=2&offset=4").json()["results"][0]["name"] == "2021"


def test_a_clubs_tournaments_the_latest_first_and_the_newest_of_a_day_first(api, club, alice):
    days = [
        datetime.date(2026, 3, 1),
        datetime.date(2026, 5, 1),
        datetime.date(2026, 5, 1),
        datetime.date(2026, 1, 1),
        datetime.date(2026, 5, 1),
    ]
    made = [
        tournaments.tournament_create(club=club, user=alice, name=f"Cup {n}", date=day) for n, day in enumerate(days)
    ]
    api.login(alice)
    rows = walk(api, f"/api/clubs/{club.slug}/tournaments/")
    assert [row["name"] for row in rows] == ["Cup 4", "Cup 2", "Cup 1", "Cup 0", "Cup 3"]
    assert {row["id"] for row in rows} == {t.pk for t in made}


def test_invites_tokens_and_the_games_walk_page_by_page(api, club, alice, bob):
    from games.engines import REGISTRY

    guests = [Player.objects.create(name=f"Guest {n}", created_by=bob) for n in range(4)]
    for player in [bob.player, *guests]:
        ClubInvite.objects.create(club=club, player=player, invited_by=alice)
    for n in range(5):
        tokens.token_create(user=bob, name=f"App {n}", scope="read", expires_in_days=None)

    api.login(bob)
    invites = walk(api, "/api/invites/")
    assert [row["id"] for row in invites] == list(
        ClubInvite.objects.order_by("-created_at", "-id").values_list("id", flat=True)
    )
    assert {row["player"]["id"] for row in invites} == {bob.player.pk, *(g.pk for g in guests)}
    assert [row["name"] for row in walk(api, "/api/tokens/")] == [f"App {n}" for n in (4, 3, 2, 1, 0)]
    assert [row["slug"] for row in walk(api, "/api/games/", limit=1)] == list(REGISTRY)


@pytest.mark.parametrize(
    "url",
    [
        "/api/clubs/{slug}/leagues/",
        "/api/clubs/{slug}/tournaments/",
        "/api/leagues/{league}/seasons/",
        "/api/invites/",
        "/api/tokens/",
        "/api/games/",
    ],
)
def test_a_blank_or_unreadable_limit_is_a_400_and_changes_nothing(api, club, alice, url):
    league = seasons.league_create(club=club, name="L", games=["shitenno"], user=alice)
    url = url.format(slug=club.slug, league=league.pk)
    api.login(alice)
    before = (League.objects.count(), Season.objects.count(), ClubInvite.objects.count())
    for query in ("limit=", "offset=", "limit=x", "limit=0", "offset=-1"):
        answer = api.get(f"{url}?{query}")
        assert answer.status_code == 400, (query, answer.content)
        assert set(answer.json()["errors"]) & {"limit", "offset"}
    assert (League.objects.count(), Season.objects.count(), ClubInvite.objects.count()) == before
    assert api.get(url).status_code == 200


def test_who_may_read_each_list_is_unchanged(api, client, club, alice, dave):
    league = seasons.league_create(club=club, name="L", games=["shitenno"], user=alice)  # the club is private
    assert client.get("/api/invites/").status_code == 401 and client.get("/api/tokens/").status_code == 401
    assert client.get("/api/games/").status_code == 200
    api.login(dave)  # an outsider
    assert api.get(f"/api/clubs/{club.slug}/leagues/?limit=1").status_code == 403
    assert api.get(f"/api/clubs/{club.slug}/tournaments/?limit=1").status_code == 403
    assert api.get(f"/api/leagues/{league.pk}/seasons/?limit=1").status_code == 404
    assert api.get("/api/invites/").json()["count"] == 0 and api.get("/api/tokens/").json()["count"] == 0


def test_no_read_in_the_schema_answers_a_bare_array_but_the_move_log(api):
    """A new list that forgets the paging fails here (issue 46 finding 6). The move log is the one exception, read
    from a `seq` (`?since=`, the `Link` header naming the next page) so a poll asks only for what is new."""
    schema = api.get("/api/schema/?format=json").json()
    bare = sorted(
        path
        for path, operations in schema["paths"].items()
        if "get" in operations
        for body in operations["get"]["responses"].get("200", {}).get("content", {}).values()
        if body["schema"].get("type") == "array"
    )
    assert bare == ["/api/tables/{code}/moves/"]
    paged = schema["components"]["schemas"]["PaginatedGameOutputList"]
    assert {"count", "next", "previous", "results"} <= set(paged["properties"])
