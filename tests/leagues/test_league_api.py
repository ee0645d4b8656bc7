"""The leagues API: every bad input is a clear 4xx, nothing half-written."""

import datetime
import json

import pytest

from leagues.models import League, Result, Season
from leagues.people.players import player_for_user
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store

from .league_helpers import START, TODAY, enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db


def test_it_creates_leagues_and_seasons_for_managers_only(api, club, alice, carol):
    api.login(carol)
    assert api.post(f"/api/clubs/{club.slug}/leagues/", {"name": "L", "games": ["shitenno"]}).status_code == 403
    api.login(alice)
    response = api.post(f"/api/clubs/{club.slug}/leagues/", {"name": "Spring", "games": ["shitenno"]})
    assert response.status_code == 201, response.content
    league = response.json()["id"]
    assert api.post(f"/api/clubs/{club.slug}/leagues/", {"name": "x", "games": [], "oops": 1}).status_code == 400
    season = {
        "name": "S1",
        "starts_on": str(START),
        "ends_on": str(TODAY),
        "points_scheme": "7-5-3-1",
        "min_games": 2,
        "tie_breakers": ["points", "head_to_head", "margin"],
    }
    response = api.post(f"/api/leagues/{league}/seasons/", season)
    assert response.status_code == 201, response.content
    assert response.json()["tie_breakers"] == ["points", "head_to_head", "margin"]
    bad = {**season, "name": "S2", "starts_on": "2030-01-01", "ends_on": "2029-01-01", "tie_breakers": ["luck"]}
    response = api.post(f"/api/leagues/{league}/seasons/", bad)
    assert response.status_code == 400 and "tie_breakers" in response.json()["errors"]
    response = api.post(f"/api/leagues/{league}/seasons/", {**season, "tie_breakers": ["points"]})
    assert response.status_code == 400 and "starts_on" in response.json()["errors"]  # overlaps S1
    assert Season.objects.count() == 1 and League.objects.count() == 1
    assert api.get(f"/api/clubs/{club.slug}/leagues/").json()["results"][0]["name"] == "Spring"
    assert api.get(f"/api/leagues/{league}/seasons/").json()["count"] == 1


def test_it_enters_signs_off_and_serves_ratings_and_standings(api, club, alice, bob, carol, dave):
    club.members_public = True  # a public club: anyone may read its standings; its games count site-wide
    club.save()
    join(club, bob)
    league, season = league_with_season(club, alice)
    ids = {u.username: player_for_user(u).pk for u in (alice, bob, carol, dave)}
    api.login(alice)
    body = {
        "game": "shitenno",
        "played_on": str(TODAY),
        "season": season.pk,
        "entries": [{"player": ids["alice"], "rank": 1, "score": 31}, {"player": ids["bob"], "rank": 2, "score": 20}],
    }
    response = api.post("/api/results/", body)
    assert response.status_code == 201, response.content
    result = response.json()
    assert result["status"] == "pending"
    api.login(dave)
    assert api.post(f"/api/results/{result['id']}/sign-off/", {}).status_code == 403
    api.login(bob)
    response = api.post(f"/api/results/{result['id']}/sign-off/", {"agreed": True})
    assert response.json()["status"] == "counted"
    # the jobs run in the worker; here we run their services in-process
    rating_store.ratings_apply_result(result=Result.objects.get(pk=result["id"]))
    standings_store.standings_compute(season=season)
    tally_store.tallies_recount(players=[ids["alice"], ids["bob"]])
    standings = api.get(f"/api/seasons/{season.pk}/standings/").json()["results"]
    assert [(row["player"]["name"], row["points"]) for row in standings] == [("alice", "3"), ("bob", "0")]
    ratings = api.get("/api/ratings/?game=shitenno").json()["results"]
    assert [r["player"]["name"] for r in ratings] == ["alice", "bob"]
    assert api.get(f"/api/ratings/?league={league.pk}&min_games=1").json()["count"] == 2
    assert api.get("/api/ratings/").status_code == 400
    assert api.get("/api/ratings/?game=shitenno&min_games=x").status_code == 400
    history = api.get(f"/api/players/{ids['alice']}/ratings/history/?game=shitenno").json()["results"]
    assert len(history) == 1 and history[0]["mu_after"] > history[0]["mu_before"]
    stats = api.get(f"/api/players/{ids['bob']}/stats/").json()
    assert stats["games"] == 1 and stats["nemesis"]["player"]["name"] == "alice"


def test_it_refuses_bad_result_entries(api, club, alice, dave):
    _league, season = league_with_season(club, alice)
    me = player_for_user(alice).pk
    api.login(alice)
    cases = [
        {"game": "shitenno", "played_on": str(TODAY), "entries": [{"player": me, "rank": 1}]},
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [{"player": me, "rank": 1}, {"player": 999999, "rank": 2}],
        },
        {"game": "shitenno", "played_on": "yesterday", "entries": []},
        {"game": "shitenno", "played_on": str(TODAY), "season": 999999, "entries": []},
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "season": season.pk,
            "entries": [{"player": me, "rank": 1}, {"player": player_for_user(dave).pk, "rank": 2}],
        },
        {
            "game": "shitenno",
            "played_on": str(TODAY + datetime.timedelta(days=2)),
            "entries": [{"player": me, "rank": 1}, {"player": player_for_user(dave).pk, "rank": 2}],
        },
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [{"player": me, "rank": 1}, {"player": player_for_user(dave).pk, "rank": 7}],
        },
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [{"player": me, "rank": 1}, {"player": me, "rank": 2}],
        },
    ]
    for body in cases:
        response = api.post("/api/results/", body)
        assert response.status_code == 400, (body, response.content)
    assert not Result.objects.exists()


def test_it_answers_a_stale_edit_with_409(api, club, alice, bob, carol):
    join(club, bob)
    _league, season = league_with_season(club, alice)
    result = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)]), bob)
    api.login(carol)
    assert api.patch(f"/api/results/{result.pk}/", {"version": 1, "played_on": str(TODAY)}).status_code == 403
    api.login(alice)
    response = api.patch(
        f"/api/results/{result.pk}/",
        {
            "version": 1,
            "entries": [
                {"player": player_for_user(bob).pk, "rank": 1},
                {"player": player_for_user(alice).pk, "rank": 2},
            ],
        },
    )
    assert response.status_code == 200 and response.json()["version"] == 2
    response = api.patch(f"/api/results/{result.pk}/", {"version": 1, "played_on": str(START)})
    assert response.status_code == 409 and response.json()["version"] == 2
    response = api.client.delete(
        f"/api/results/{result.pk}/", json.dumps({"version": 1}), content_type="application/json"
    )
    assert response.status_code == 409
    response = api.client.delete(
        f"/api/results/{result.pk}/", json.dumps({"version": 2}), content_type="application/json"
    )
    assert response.status_code == 204 and not Result.objects.exists()


def test_the_schema_lists_the_league_endpoints(api):
    schema = api.get("/api/schema/?format=json").json()
    for path in [
        "/api/leagues/",
        "/api/leagues/{id}/seasons/",
        "/api/seasons/{id}/standings/",
        "/api/ratings/",
        "/api/players/{id}/ratings/history/",
        "/api/players/{id}/stats/",
        "/api/results/",
        "/api/results/{id}/sign-off/",
    ]:
        assert path in schema["paths"], path


def test_percent_points_are_exact_and_the_same_in_the_api_and_on_the_page(api, client, club, alice, bob, carol, dave):
    """Second, third and second of four: 200/3 + 100/3 + 200/3 = 500/3 exactly, never 166.66666666666669."""
    from fractions import Fraction

    from leagues.models import Standing

    club.members_public = True
    club.save()
    join(club, bob, dave)
    league, season = league_with_season(club, alice, points_scheme="percent")
    for days_ago, alice_rank in ((3, 2), (2, 3), (1, 2)):
        others = [r for r in (1, 2, 3, 4) if r != alice_rank]
        sign_all(
            enter(
                season,
                alice,
                [(alice, alice_rank, None), (bob, others[0], None), (carol, others[1], None), (dave, others[2], None)],
                days_ago=days_ago,
            ),
            bob,
            carol,
            dave,
        )
    standings_store.standings_compute(season=season)
    assert Standing.objects.get(season=season, player__user=alice).points == Fraction(500, 3)
    table = api.get(f"/api/seasons/{season.pk}/standings/").json()["results"]
    rows = {row["player"]["name"]: row["points"] for row in table}
    assert rows == {"bob": "300", "alice": "166 2/3", "carol": "133 1/3", "dave": "0"}
    page = client.get(league.get_absolute_url()).content.decode()
    assert "<td>166 2/3</td>" in page and "<td>300</td>" in page


def test_dense_ranks_are_answered_and_stored_as_competition_ranks(api, club, alice, bob, carol):
    join(club, bob)
    _league, season = league_with_season(club, alice)
    ids = {u.username: player_for_user(u).pk for u in (alice, bob, carol)}
    api.login(alice)
    body = {
        "game": "shitenno",
        "played_on": str(TODAY),
        "season": season.pk,
        "entries": [
            {"player": ids["alice"], "rank": 1},
            {"player": ids["bob"], "rank": 1},
            {"player": ids["carol"], "rank": 2},
        ],
    }
    response = api.post("/api/results/", body)
    assert response.status_code == 201, response.content
    answered = {e["player"]["name"]: e["rank"] for e in response.json()["entries"]}
    stored = dict(Result.objects.get(pk=response.json()["id"]).entries.values_list("player__name", "rank"))
    assert answered == stored == {"alice": 1, "bob": 1, "carol": 3}
    body["entries"][2]["rank"] = 4  # beyond the number of players: refused, nothing written
    response = api.post("/api/results/", body)
    assert response.status_code == 400 and "entries" in response.json()["errors"]
    assert Result.objects.count() == 1


def test_the_leagues_and_ratings_lists_are_paged_as_every_list(api, club, alice):
    """Issue 46 finding 6: one page of `limit`, its `count` and the `next` page, not the whole site at once."""
    from leagues.club import seasons as club_seasons
    from leagues.models import Player, Rating

    made = [club_seasons.league_create(club=club, name=f"League {n}", games=["shitenno"], user=alice) for n in range(3)]
    for n in range(3):
        Rating.objects.create(
            kind="league",
            key=str(made[0].pk),
            mu=25.0 + n,
            sigma=5.0,
            games=1,
            player=Player.objects.create(name=f"Rated {n}"),
        )
    api.login(alice)  # a member: the club is private
    first = api.get("/api/leagues/?limit=2").json()
    assert first["count"] == 3 and len(first["results"]) == 2 and "offset=2" in first["next"]
    rest = api.get(first["next"]).json()
    assert [row["name"] for row in first["results"] + rest["results"]] == ["League 0", "League 1", "League 2"]
    ratings = api.get(f"/api/ratings/?league={made[0].pk}&limit=1").json()
    assert ratings["count"] == 3 and [r["player"]["name"] for r in ratings["results"]] == ["Rated 2"]
    assert api.get("/api/leagues/?limit=0").status_code == 400
    blank = api.get("/api/leagues/?offset=&limit=")  # schemathesis: blank was taken as left out
    assert blank.status_code == 400 and {"limit", "offset"} & set(blank.json()["errors"])


def test_a_clubs_members_a_seasons_table_and_a_rating_history_are_paged(api, club, alice, bob, carol):
    """Lists that grow with a club's or a player's history answer one page (issue 46 finding 6); a row's position
    is its place in the whole table, whichever page it is on."""
    from leagues.club import seasons
    from leagues.common import selectors
    from leagues.models import Player, RatingEvent, Standing

    league = seasons.league_create(club=club, name="Paged", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league, name="S", starts_on=datetime.date(2026, 1, 1), ends_on=datetime.date(2026, 12, 31), user=alice
    )
    players = [Player.objects.create(name=f"P{n}") for n in range(3)]
    for n, player in enumerate(players):
        Standing.objects.create(season=season, player=player, points=10 - n, games=1, sort_key=bytes([n]))
        RatingEvent.objects.create(
            player=players[0],
            kind="league",
            key=str(league.pk),
            result_id=100 + n,
            played_on=datetime.date(2026, 1, 1 + n),
            mu_before=25,
            sigma_before=8,
            mu_after=25 + n,
            sigma_after=7,
        )
    api.login(alice)
    members = api.get(f"/api/clubs/{club.slug}/members/?limit=1").json()
    assert members["count"] == club.memberships.count() and len(members["results"]) == 1 and members["next"]
    table = api.get(f"/api/seasons/{season.pk}/standings/?limit=1&offset=1").json()
    whole = selectors.standings_of(season)  # the table the page is cut from
    assert (
        table["count"] == 3
        and [(r["player"]["name"], r["position"]) for r in table["results"]]
        == [(whole[1].player.name, whole[1].position)]
        and whole[1].player.name == "P1"
    )
    history = api.get(f"/api/players/{players[0].pk}/ratings/history/?league={league.pk}&limit=2").json()
    assert history["count"] == 3 and [row["mu_after"] for row in history["results"]] == [25, 26]
    assert api.get(f"/api/seasons/{season.pk}/standings/?offset=-1").status_code == 400
