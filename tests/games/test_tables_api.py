"""The tables API: start a table, post moves on the sequence you saw, undo, read the score.

alice hosts a two-player table with bob; carol is in the club but not at the table; dave is an outsider.
"""

import pytest

from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, TableSession
from leagues.people.players import player_for_user
from tests.games.tables import two_player_setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    """A complete legal two-player game: (setup, moves)."""
    return random_legal_game(3, 2)


@pytest.fixture
def table(api, alice, bob, game):
    setup, _moves = game
    response = api.login(alice).post(
        "/api/tables/",
        {
            "game": "shitenno",
            "players": [player_for_user(alice).pk, player_for_user(bob).pk],
            "setup": setup,
            "is_public": False,
        },
    )
    assert response.status_code == 201, response.json()
    return response.json()["code"]


def post_move(api, code, seq, move, **headers):
    return api.post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move}, **headers)


def test_it_starts_a_table_with_the_hint(table, api):
    body = api.get(f"/api/tables/{table}/").json()
    assert body["head_seq"] == 0 and body["status"] == "playing"
    assert [seat["name"] for seat in body["seats"]] == ["alice", "bob"]
    assert body["hint"]["moves"] == ["draw"] and body["hint"]["phase"] == "sharing"


def test_it_deals_the_titles_when_asked(api, alice, bob):
    setup = two_player_setup()
    del setup["titles"]
    response = api.login(alice).post(
        "/api/tables/",
        {
            "players": [player_for_user(alice).pk, player_for_user(bob).pk],
            "setup": setup,
            "deal_titles": True,
        },
    )
    assert response.status_code == 201
    titles = response.json()["setup"]["titles"]
    assert set(titles) == {"honda", "ii"} and len(set(titles.values())) == 2


def test_it_records_a_legal_move(table, api, game):
    _setup, moves = game
    response = post_move(api, table, 0, moves[0])
    assert response.status_code == 201
    assert response.json()["event"]["seq"] == 1
    assert response.json()["event"]["description"].startswith("Year 2")
    assert api.get(f"/api/tables/{table}/").json()["head_seq"] == 1


def test_it_refuses_an_illegal_move_with_the_reason_and_writes_nothing(table, api, game):
    _setup, moves = game
    out_of_turn = {**moves[0], "seat": 1 - moves[0]["seat"]}
    response = post_move(api, table, 0, out_of_turn)
    assert response.status_code == 400
    assert "turn" in response.json()["detail"]
    assert MoveEvent.objects.count() == 0
    assert TableSession.objects.get(code=table).head_seq == 0


def test_it_answers_409_with_the_head_to_a_stale_sequence(table, api, game):
    _setup, moves = game
    post_move(api, table, 0, moves[0])
    response = post_move(api, table, 0, moves[1])
    assert response.status_code == 409
    assert response.json()["head_seq"] == 1
    assert "Someone else moved" in response.json()["detail"]
    assert MoveEvent.objects.count() == 1


def test_it_returns_the_first_answer_to_a_repeated_submission(table, api, game):
    _setup, moves = game
    first = post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="phone-1-move-1")
    again = post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="phone-1-move-1")
    assert first.status_code == 201 and again.status_code == 200
    assert again.json() == first.json()
    assert MoveEvent.objects.count() == 1


def test_a_key_used_before_is_refused_at_the_head_too_and_writes_nothing(table, api, game):
    """A new post at the table's head whose key an earlier entry holds: its insert meets the key's unique index
    (the key is not looked up before), and the answer is the 422 a look-up gave."""
    _setup, moves = game
    assert post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="phone-1-move-1").status_code == 201
    reused = post_move(api, table, 1, moves[1], HTTP_IDEMPOTENCY_KEY="phone-1-move-1")
    assert reused.status_code == 422 and "different request" in reused.json()["detail"]
    assert MoveEvent.objects.count() == 1
    assert TableSession.objects.get(code=table).head_seq == 1
    assert post_move(api, table, 1, moves[1], HTTP_IDEMPOTENCY_KEY="phone-1-move-2").status_code == 201


def test_a_repeated_key_gets_the_first_answer_after_the_table_moved_on(table, api, game):
    _setup, moves = game
    first = post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="phone-1-move-1")
    assert post_move(api, table, 1, moves[1]).status_code == 201
    again = post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="phone-1-move-1")  # a 409 without its key
    assert again.status_code == 200 and again.json() == first.json()
    assert post_move(api, table, 0, moves[0]).status_code == 409


def test_the_answer_to_a_move_is_its_schema_s_serializer_output(table, api, game):
    """The move post builds its answer directly (games.api.views.recorded_json); RecordedOutput documents it."""
    from games import services
    from games.api.views import RecordedOutput, recorded_json

    _setup, moves = game
    answer = post_move(api, table, 0, moves[0], HTTP_IDEMPOTENCY_KEY="k")
    event = MoveEvent.objects.select_related("entered_by").get()
    recorded = services.Recorded(event, replayed=True, state=answer.json()["state"])
    assert recorded_json(recorded) == RecordedOutput({"event": event, "state": recorded.state, "result": None}).data
    assert answer.json() == recorded_json(recorded)  # the fresh answer, built from the entry as inserted
    unsigned = MoveEvent(seq=1, kind="move", payload={}, description="", phrase={}, entered_by=None, created_at=None)
    plain = services.Recorded(unsigned, replayed=False, state={})
    assert recorded_json(plain) == RecordedOutput({"event": unsigned, "state": {}, "result": None}).data


def test_it_undoes_with_a_new_log_entry(table, api, game):
    _setup, moves = game
    post_move(api, table, 0, moves[0])
    before = api.get(f"/api/tables/{table}/").json()
    post_move(api, table, 1, moves[1])
    response = api.post(f"/api/tables/{table}/undo/", {"seq": 2})
    assert response.status_code == 201
    assert response.json()["event"]["kind"] == "undo" and response.json()["event"]["payload"] == {"undoes": 2}
    after = api.get(f"/api/tables/{table}/").json()
    assert after["state"] == before["state"] and after["head_seq"] == 3
    assert MoveEvent.objects.count() == 3  # nothing deleted


def test_it_plays_a_whole_game_to_the_final_count(table, api, game):
    _setup, moves = game
    for seq, move in enumerate(moves):
        assert post_move(api, table, seq, move).status_code == 201
    body = api.get(f"/api/tables/{table}/score/").json()
    assert body["outcome"]["termination"] in ("kamon_stock_empty", "koku_deck_exhausted")
    assert sorted(p["rank"] for p in body["outcome"]["placings"]) == [1, 2]
    assert body["favour"] == [row["total"] for row in body["outcome"]["details"]["breakdown"]]
    response = post_move(api, table, len(moves), moves[-1])
    assert response.status_code == 400 and "over" in response.json()["detail"]


def test_it_keeps_a_private_table_from_outsiders(table, api, dave, game):
    _setup, moves = game
    api.login(dave)
    assert api.get(f"/api/tables/{table}/").status_code == 404
    assert post_move(api, table, 0, moves[0]).status_code == 404
    assert MoveEvent.objects.count() == 0


def test_it_lets_only_the_table_enter_moves_on_a_public_table(api, alice, bob, carol, game):
    setup, moves = game
    code = (
        api.login(alice)
        .post("/api/tables/", {"players": [player_for_user(alice).pk, player_for_user(bob).pk], "setup": setup})
        .json()["code"]
    )
    api.login(carol)
    assert api.get(f"/api/tables/{code}/").status_code == 200
    response = post_move(api, code, 0, moves[0])
    assert response.status_code == 403
    api.login(bob)
    assert post_move(api, code, 0, moves[0]).status_code == 201


def test_it_refuses_malformed_requests(table, api):
    assert api.post(f"/api/tables/{table}/moves/", {"move": {"type": "draw"}}).status_code == 400
    response = post_move(api, table, 0, {"type": "teleport", "seat": 0})
    assert response.status_code == 400 and "Unknown move type" in response.json()["detail"]
    assert api.post(f"/api/tables/{table}/moves/", {"seq": 0, "move": {}, "extra": 1}).status_code == 400
    assert MoveEvent.objects.count() == 0


def test_it_refuses_a_bad_setup_with_the_reason(api, alice, bob):
    setup = two_player_setup()
    setup["gates"]["kanto"] = "ninja"
    response = api.login(alice).post(
        "/api/tables/", {"players": [player_for_user(alice).pk, player_for_user(bob).pk], "setup": setup}
    )
    assert response.status_code == 400 and "ninja" in response.json()["detail"]
    assert TableSession.objects.count() == 0
    response = api.post("/api/tables/", {"players": [player_for_user(alice).pk, 999999], "setup": setup})
    assert response.status_code == 400 and "999999" in str(response.json())


def test_it_counts_an_end_state_and_saves_it(api, alice, bob):
    from games.plugins import get_game

    _name, example = get_game("shitenno").api_final_count_example
    response = api.post("/api/final-count/", {"end": example})
    assert response.status_code == 200
    placings = response.json()["outcome"]["placings"]
    assert {p["seat"] for p in placings} == {0, 1}
    response = api.login(alice).post(
        "/api/final-count/", {"end": example, "save_with_players": [player_for_user(alice).pk, player_for_user(bob).pk]}
    )
    assert response.status_code == 201
    saved = TableSession.objects.get(code=response.json()["table"])
    assert saved.status == "finished" and saved.outcome["placings"] == placings
    body = api.get(f"/api/tables/{saved.code}/").json()
    assert body["hint"] is None and len(body["favour"]) == 2


def test_a_finished_table_waits_for_sign_off_and_undo_withdraws_it(table, api, alice, bob, game):
    from leagues.models import Result
    from leagues.result import results

    _setup, moves = game
    for seq, move in enumerate(moves):
        post_move(api, table, seq, move)
    result = Result.objects.get(session__code=table)
    assert result.status == "pending" and result.entries.count() == 2

    assert api.post(f"/api/tables/{table}/undo/", {"seq": len(moves)}).status_code == 201
    assert not Result.objects.filter(session__code=table).exists()
    assert post_move(api, table, len(moves) + 1, moves[-1]).status_code == 201
    result = Result.objects.get(session__code=table)

    results.result_sign_off(result=result, user=alice)
    results.result_sign_off(result=result, user=bob)
    result.refresh_from_db()
    assert result.status == "counted"
    response = api.post(f"/api/tables/{table}/undo/", {"seq": len(moves) + 2})
    assert response.status_code == 409 and "signed off" in response.json()["detail"]
    assert TableSession.objects.get(code=table).status == "finished"
