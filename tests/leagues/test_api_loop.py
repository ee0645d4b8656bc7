"""The whole loop an app lives on, with nothing but API calls (issue 48 finding 1): a club, a league and its
season, a member asked in, a table opened for the club, its moves posted until the game ends, then each player
finds the result waiting for him (GET /api/results/?waiting=me), signs it off by its link, and the result is
counted and in the season's standings.

Outside the API stand only what an app does not do: the accounts (made by the site's sign-up), the login (a
session here, a token for an app), the fixed clock (the season must cover the day the game is played), and the
Celery worker, whose jobs (fold the result into the season's table) run here in-process as the worker runs them."""

import datetime

import pytest

from games.engines.shitenno.simulation import random_legal_game
from leagues.jobs import outbox
from leagues.models import LeagueJob
from tests.clock import TONIGHT, travel_to
from tests.conftest import PASSWORD
from tests.games.test_tables_api import post_move

pytestmark = pytest.mark.django_db


def ok(response, status: int = 200) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


def the_worker_runs_its_jobs() -> None:
    """What the Celery worker does after each commit: run the outbox's jobs until none is left."""
    for _round in range(10):
        rows = list(LeagueJob.objects.values_list("pk", flat=True))
        if not rows:
            return
        for pk in rows:
            outbox.run(pk)
    raise AssertionError("the jobs keep asking for more")


@pytest.fixture
def season(api, alice, bob):
    """alice's club (bob asked in, and accepting) with a Shitennō league and a season around tonight."""
    with travel_to(TONIGHT):
        club = ok(api.login(alice).post("/api/clubs/", {"name": "Edo Gamers"}), 201)
        bobs = ok(api.login(bob).get("/api/me/"))["player"]["id"]
        ok(api.login(alice).post(f"/api/clubs/{club['slug']}/members/", {"player": bobs}), 202)
        invite = ok(api.login(bob).get("/api/invites/"))["results"][0]
        ok(api.post(f"/api/invites/{invite['id']}/", {"accept": True}))
        league = ok(
            api.login(alice).post(f"/api/clubs/{club['slug']}/leagues/", {"name": "Thursday", "games": ["shitenno"]}),
            201,
        )
        return ok(
            api.post(
                f"/api/leagues/{league['id']}/seasons/",
                {
                    "name": "Autumn",
                    "starts_on": (TONIGHT - datetime.timedelta(days=30)).isoformat(),
                    "ends_on": (TONIGHT + datetime.timedelta(days=30)).isoformat(),
                },
            ),
            201,
        ) | {"club": club["slug"]}


class App:
    """An app on a person's phone: no session and no cookie, only the access token he made for it on the site
    (docs/api.md, quick start step 0), sent as `Authorization: Bearer` with every call."""

    def __init__(self, key: str) -> None:
        from django.test import Client

        self.client, self.auth = Client(), {"HTTP_AUTHORIZATION": f"Bearer {key}"}

    def get(self, url, **kw):
        return self.client.get(url, **kw, **self.auth)

    def post(self, url, data=None, **kw):
        return self.client.post(
            url, data if data is not None else {}, content_type="application/json", **kw, **self.auth
        )


@pytest.fixture(params=["session", "token"])
def signed_in(request, api):
    """How the app is signed in: the site's session, or each person's own read-and-write token."""
    if request.param == "session":
        return lambda user: api.login(user)
    keys = {}

    def app(user):
        if user.pk not in keys:
            made = api.login(user).post("/api/tokens/", {"name": "Score app", "scope": "write", "password": PASSWORD})
            keys[user.pk] = ok(made, 201)["key"]
            api.client.logout()
        return App(keys[user.pk])

    return app


def test_a_table_is_played_signed_and_counted_through_the_api_alone(signed_in, alice, bob, season):
    setup, moves = random_legal_game(3, 2)
    with travel_to(TONIGHT):
        me = {user.username: ok(signed_in(user).get("/api/me/"))["player"]["id"] for user in (alice, bob)}
        api = signed_in(alice)
        table = ok(
            api.post(
                "/api/tables/",
                {"game": "shitenno", "players": [me["alice"], me["bob"]], "setup": setup, "club": season["club"]},
            ),
            201,
        )
        answer = None
        for move in moves:  # each move as the app sends it: the head_seq it saw, and the move
            head = ok(api.get(f"/api/tables/{table['code']}/"))["head_seq"]
            answer = ok(post_move(api, table["code"], head, move), 201)
        assert ok(api.get(f"/api/tables/{table['code']}/"))["status"] == "finished"

        result = answer["result"]  # the finishing move's answer names the result and who still signs
        assert result["status"] == "pending" and result["season"] == season["id"]
        assert {row["player"] for row in result["waiting_for"]} == set(me.values())

        for user in (alice, bob):
            api = signed_in(user)
            waiting = ok(api.get("/api/results/", data={"waiting": "me"}))["results"]
            assert [(row["id"], row["table"]) for row in waiting] == [(result["id"], table["code"])]
            signed = ok(api.post(waiting[0]["links"]["sign_off"], {"agreed": True}))
            assert ok(api.get("/api/results/", data={"waiting": "me"}))["results"] == []
        assert signed["status"] == "counted" and signed["waiting_for"] == []
        assert ok(api.get(f"/api/tables/{table['code']}/result/"))["status"] == "counted"

        the_worker_runs_its_jobs()
        standings = ok(api.get(f"/api/seasons/{season['id']}/standings/"))["results"]
        assert {row["player"]["id"]: row["games"] for row in standings} == {me["alice"]: 1, me["bob"]: 1}
        winners = {entry["player"]["id"] for entry in signed["entries"] if entry["rank"] == 1}
        assert {row["player"]["id"] for row in standings if row["position"] == 1} == winners
