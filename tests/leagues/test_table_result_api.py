"""A finished table's result through the API, by the table's code (issue 48 finding 1): the table's answer and the
finishing move's answer carry it (id, status, who still signs, links), /api/tables/<code>/result/ reads it and
/api/tables/<code>/sign-off/ signs it, with the sign-off's own rules."""

import datetime

import pytest

from games.engines.shitenno.simulation import random_legal_game
from leagues.models import Result, SignOff
from leagues.people.players import player_for_user
from tests.games.test_tables_api import post_move
from tests.leagues.league_helpers import sat_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(api, alice, bob):
    """alice's private table with bob, played by API to its last move but one: (code, the last move, its seq)."""
    setup, moves = random_legal_game(3, 2)
    response = api.login(alice).post(
        "/api/tables/",
        {
            "game": "shitenno",
            "players": [player_for_user(alice).pk, player_for_user(bob).pk],
            "setup": setup,
            "is_public": False,
        },
    )
    code = response.json()["code"]
    for seq, move in enumerate(moves[:-1]):
        assert post_move(api, code, seq, move).status_code == 201
    return code, moves[-1], len(moves) - 1


def test_a_table_still_playing_has_no_result(api, played):
    code, _last, _seq = played
    assert api.get(f"/api/tables/{code}/").json()["result"] is None
    assert api.get(f"/api/tables/{code}/result/").status_code == 404
    assert api.post(f"/api/tables/{code}/sign-off/", {}).status_code == 404


def test_the_finishing_move_and_the_table_answer_with_the_result_to_sign(api, alice, bob, played):
    code, last, seq = played
    answer = post_move(api, code, seq, last).json()
    result = Result.objects.get(session__code=code)
    assert answer["result"]["id"] == result.pk and answer["result"]["status"] == "pending"
    names = {row["name"] for row in answer["result"]["waiting_for"]}
    assert names == {player_for_user(alice).name, player_for_user(bob).name}
    assert answer["result"]["links"] == {
        "result": f"/api/results/{result.pk}/",
        "sign_off": f"/api/results/{result.pk}/sign-off/",
        "table_result": f"/api/tables/{code}/result/",
        "table_sign_off": f"/api/tables/{code}/sign-off/",
    }
    assert api.get(f"/api/tables/{code}/").json()["result"] == answer["result"]

    by_code = api.get(f"/api/tables/{code}/result/").json()
    assert by_code["id"] == result.pk and by_code["table"] == code and by_code["session"] == result.session_id


def test_signing_by_the_table_s_code_counts_the_result(api, alice, bob, played):
    code, last, seq = played
    post_move(api, code, seq, last)
    signed = api.post(f"/api/tables/{code}/sign-off/", {}).json()
    assert signed["status"] == "pending" and [w["name"] for w in signed["waiting_for"]] == [player_for_user(bob).name]
    counted = api.login(bob).post(f"/api/tables/{code}/sign-off/", {"agreed": True}).json()
    assert counted["status"] == "counted" and counted["waiting_for"] == []
    assert api.get(f"/api/tables/{code}/").json()["result"]["status"] == "counted"


def test_an_outsider_and_a_stranger_cannot_sign_a_table_s_result(api, client, dave, played):
    code, last, seq = played
    post_move(api, code, seq, last)
    client.logout()
    assert api.post(f"/api/tables/{code}/sign-off/", {}).status_code == 401  # no login
    assert api.login(dave).post(f"/api/tables/{code}/sign-off/", {}).status_code == 404  # a private table
    assert api.get(f"/api/tables/{code}/result/").status_code == 404
    assert not SignOff.objects.exists() and Result.objects.get(session__code=code).status == "pending"


def test_a_result_entered_without_a_table_names_none(api, alice, bob):
    from leagues.result import results

    sat_with(alice, bob)  # outside a club alice may name only people she plays with (issue 47 finding 6)
    result = results.result_enter(
        user=alice,
        game="Go",
        played_on=datetime.date(2026, 11, 26),
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    body = api.login(alice).get(f"/api/results/{result.pk}/").json()
    assert body["table"] is None and body["session"] is None
    assert body["links"]["table_sign_off"] is None
    assert body["links"]["sign_off"] == f"/api/results/{result.pk}/sign-off/"


# --- GET /api/results/: the results waiting for the caller, of a season, of a table -----------------------------


def _ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [row["id"] for row in response.json()["results"]]


def test_waiting_me_lists_what_waits_for_your_sign_off_and_nothing_once_signed(api, alice, bob, played):
    code, last, seq = played
    post_move(api, code, seq, last)
    result = Result.objects.get(session__code=code)
    assert _ids(api.get("/api/results/", data={"waiting": "me"})) == [result.pk]
    assert _ids(api.get("/api/results/", data={"waiting": "me", "table": code})) == [result.pk]
    assert _ids(api.get("/api/results/", data={"waiting": "me", "table": "no-such-table"})) == []
    api.post(f"/api/tables/{code}/sign-off/", {})
    assert _ids(api.get("/api/results/", data={"waiting": "me"})) == []  # alice has signed
    assert _ids(api.get("/api/results/", data={"table": code})) == [result.pk]  # still hers to see
    assert _ids(api.login(bob).get("/api/results/", data={"waiting": "me"})) == [result.pk]


def test_the_list_is_of_the_results_you_may_see(api, dave, played):
    code, last, seq = played
    post_move(api, code, seq, last)
    assert _ids(api.login(dave).get("/api/results/", data={"table": code})) == []  # a private table's result
    assert _ids(api.get("/api/results/", data={"waiting": "me"})) == []


def test_the_season_filter(api, alice, bob, club):
    from leagues.club.clubs import club_join
    from leagues.result import results
    from tests.leagues.league_helpers import league_with_season

    club_join(token=club.invite_token, user=bob)
    _league, season = league_with_season(club, alice)
    entries = [{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}]
    in_season = results.result_enter(user=alice, game="Go", played_on=season.starts_on, entries=entries, season=season)
    results.result_enter(user=alice, game="Go", played_on=season.starts_on, entries=entries)
    assert _ids(api.login(bob).get("/api/results/", data={"season": season.pk})) == [in_season.pk]
    assert _ids(api.get("/api/results/", data={"season": season.pk, "waiting": "me"})) == [in_season.pk]
    assert len(_ids(api.get("/api/results/"))) == 2


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"waiting": "you"}, "waiting"),
        ({"waiting": ""}, "waiting"),
        ({"table": "a b"}, "table"),
        ({"table": ""}, "table"),
        ({"table": "x" * 21}, "table"),
        ({"season": "0"}, "season"),
        ({"season": ""}, "season"),
        ({"season": "one"}, "season"),
    ],
)
def test_an_unreadable_filter_is_a_400_naming_it(api, alice, params, field):
    response = api.login(alice).get("/api/results/", data=params)
    assert response.status_code == 400 and field in response.json()["errors"]


def test_the_list_needs_a_login(api, client):
    client.logout()
    assert api.get("/api/results/", data={"waiting": "me"}).status_code == 401
