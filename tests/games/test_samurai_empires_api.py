"""Small Samurai Empires through the REST API (issue 16): docs/api.md's worked game replays to its outcome, a
solo era with the AIs' steps replays identically after an undo, solo games make no league result and no rating,
finished multiplayer games become pending league results, and hostile set-ups and moves answer 400."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from games.models import MoveEvent, TableSession
from leagues.models import Rating, RatingEvent, Result
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import BOARD, SOLO_BOARD, random_legal_move, solo_setup

pytestmark = pytest.mark.django_db
API_MD = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def _open(api, user, players, setup, **extra):
    return api.login(user).post(
        "/api/tables/", {"game": "samurai_empires", "players": [p.pk for p in players], "setup": setup, **extra}
    )


def _move(api, code, seq, move):
    return api.post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move})


def _worked_game() -> tuple[dict, list[tuple[str, str, dict]], dict]:
    text = API_MD.read_text()
    start = text.index("### A worked Small Samurai Empires game")
    worked = text[start : text.index("\n## ", start)]  # up to the next section
    blocks = re.findall(r"```json\n(.*?)\n```", worked, re.S)
    rows = re.findall(r"^\| (\d+) \| (.*?) \| `(.*)` \|$", worked, re.M)
    return json.loads(blocks[0]), [(seq, words, json.loads(move)) for seq, words, move in rows], json.loads(blocks[1])


def test_the_game_is_listed_with_its_unit(api, alice):
    games = {g["slug"]: g for g in api.login(alice).get("/api/games/").json()["results"]}
    assert games["samurai_empires"]["score_unit"] == "victory points"
    assert games["samurai_empires"]["min_players"] == 1 and games["samurai_empires"]["max_players"] == 5


def test_the_worked_game_in_the_docs_replays_through_the_api_to_a_pending_league_result(api, alice, bob, carol):
    setup, rows, outcome = _worked_game()
    players = [player_for_user(u) for u in (alice, bob, carol)]
    response = _open(api, alice, players, setup)
    assert response.status_code == 201, response.json()
    code = response.json()["code"]
    for seq, words, move in rows:
        answer = _move(api, code, int(seq), move)
        assert answer.status_code == 201, answer.json()
        assert answer.json()["event"]["description"] == words
    table = api.get(f"/api/tables/{code}/").json()
    assert table["status"] == "finished" and table["outcome"] == outcome
    assert api.get(f"/api/tables/{code}/score/").json()["score"] == [27, 23, 27]
    result = Result.objects.get(session__code=code)
    assert result.status == Result.Status.PENDING
    assert {e.player_id: e.rank for e in result.entries.all()} == {players[0].pk: 1, players[2].pk: 2, players[1].pk: 3}


def test_a_solo_era_with_the_ai_steps_replays_identically_after_an_undo(api, alice):
    response = _open(api, alice, [player_for_user(alice)], solo_setup(seed=21))
    assert response.status_code == 201, response.json()
    code = response.json()["code"]
    rng = random.Random(21)
    state = TableSession.objects.get(code=code).state
    seq, steps, words = 0, 0, []
    while state["era"] == 1:
        move = random_legal_move(rng, state)
        answer = _move(api, code, seq, move)
        assert answer.status_code == 201, (move, answer.json())
        steps += move["type"] == "ai_step"
        words.append(answer.json()["event"]["description"])
        state = answer.json()["state"]
        seq += 1
    assert steps >= 10 and any("draws" in w for w in words)
    assert state["phase"] == "planning" and len(state["sheet"]["eras"]) == 1
    hint = api.get(f"/api/tables/{code}/").json()["hint"]
    assert hint["moves"][0] == "ai_step" and set(hint["solo"]["ais"]) == {"yellow", "blue"}
    # take back the AI's first step of era 2 and play it again: the same draw, the same placement
    first = _move(api, code, seq, {"type": "ai_step"})
    assert first.status_code == 201
    undo = api.post(f"/api/tables/{code}/undo/", {"seq": seq + 1})
    assert undo.status_code == 201
    again = _move(api, code, seq + 2, {"type": "ai_step"})
    assert again.status_code == 201
    assert again.json()["event"]["description"] == first.json()["event"]["description"]
    assert again.json()["state"] == first.json()["state"]
    log = [e.payload for e in MoveEvent.objects.filter(session__code=code).order_by("seq")]
    assert len(log) == seq + 3


def test_the_site_draws_the_solo_seed_when_asked(api, alice):
    setup = {"mode": "solo", "players": [{"name": "Aiko"}], "board": SOLO_BOARD}
    response = _open(api, alice, [player_for_user(alice)], setup, deal_titles=True)
    assert response.status_code == 201, response.json()
    assert isinstance(response.json()["setup"]["seed"], int)


def test_a_finished_solo_game_makes_no_league_result_and_no_rating(api, alice, client):
    code = _open(api, alice, [player_for_user(alice)], solo_setup(seed=5)).json()["code"]
    rng = random.Random(5)
    state, seq = TableSession.objects.get(code=code).state, 0
    while state["phase"] != "over":
        answer = _move(api, code, seq, random_legal_move(rng, state))
        assert answer.status_code == 201, answer.json()
        state, seq = answer.json()["state"], seq + 1
    session = TableSession.objects.get(code=code)
    assert session.status == TableSession.Status.FINISHED
    assert len(session.outcome["placings"]) == 1
    assert not Result.objects.exists() and not Rating.objects.exists() and not RatingEvent.objects.exists()
    stats = client.get("/games/samurai_empires/").content.decode()
    assert "Solo against the AIs" in stats and ("(0/1)" in stats or "(1/1)" in stats)
    page = client.get(player_for_user(alice).get_absolute_url()).content.decode()
    assert "Solo record" in page


@pytest.mark.parametrize(
    "setup",
    [
        None,
        [],
        "x",
        {},
        {"mode": "solo"},
        {"mode": "duel", "players": [{"name": "A"}], "board": BOARD},
        {"mode": "multiplayer", "players": [{"name": "A"}, {"name": "B"}], "board": {"regions": []}},
        {"mode": "multiplayer", "players": [{"name": "A"}, {"name": "B"}], "board": BOARD, "seed": 1},
        {"mode": "multiplayer", "players": [{"name": "A"}, {"name": "B"}], "board": BOARD, "turn_order": [0, 0]},
        {"mode": "multiplayer", "players": [{"name": "A", "training_ground": 6}, {"name": "B"}], "board": BOARD},
        {"mode": "solo", "players": [{"name": "A"}], "board": BOARD, "seed": 1},
        {"mode": "solo", "players": [{"name": "A"}], "board": SOLO_BOARD, "seed": -1},
        {"mode": "solo", "players": [{"name": "A"}], "board": SOLO_BOARD, "seed": 2**70},
        {"mode": "solo", "players": [{"name": "A"}], "board": SOLO_BOARD, "seed": "1"},
        {"mode": "solo", "players": [{"name": "A"}], "board": SOLO_BOARD, "seed": 1, "seeding": {"x": "food"}},
    ],
)
def test_a_hostile_set_up_answers_400_and_opens_nothing(api, alice, bob, setup):
    players = (
        [player_for_user(alice)]
        if isinstance(setup, dict) and setup.get("mode") == "solo"
        else [player_for_user(alice), player_for_user(bob)]
    )
    response = _open(api, alice, players, setup)
    assert response.status_code == 400, response.content
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    "move",
    [
        None,
        1,
        [],
        {},
        {"type": "x"},
        {"type": "era_score"},
        {"type": "era_score", "era": 2, "scores": [{}, {}]},
        {"type": "era_score", "era": 1, "scores": [{}]},
        {"type": "era_score", "era": 1, "scores": [{"regions": 1}, {}]},
        {"type": "era_score", "era": 1, "scores": [{"regions": {"Atlantis": 1}}, {}]},
        {"type": "era_score", "era": 1, "scores": [{"shrines": 10**30}, {}]},
        {"type": "era_score", "era": 1, "scores": [{"other": [{"points": 1}]}, {}]},
        {"type": "final_score", "scores": []},
        {"type": "ai_step"},
        {"type": "place", "region": "Tohoku", "space": 1},
    ],
)
def test_a_hostile_move_answers_400_and_writes_nothing(api, alice, bob, move):
    setup = {"mode": "multiplayer", "players": [{"name": "A"}, {"name": "B"}], "board": BOARD}
    code = _open(api, alice, [player_for_user(alice), player_for_user(bob)], setup).json()["code"]
    response = _move(api, code, 0, move)
    assert response.status_code == 400, response.content
    assert not MoveEvent.objects.exists()


@pytest.mark.parametrize(
    "move",
    [
        {"type": "place", "region": "Tohoku", "space": 0},
        {"type": "place", "region": "Tohoku", "space": 99},
        {"type": "resolve", "destroyed": {"yellow": {"Tohoku Capital": 1}}},
        {"type": "report", "armies": {"x": 1}},
        {"type": "report", "armies": {"Tohoku Capital": 17}},
        {"type": "report", "armies": {}, "castles": [1]},
        {"type": "pass"},
        {"type": "era_score", "era": 1, "scores": [{}, {}, {}]},
        {"type": "ai_step", "extra": 1},
    ],
)
def test_a_hostile_solo_move_answers_400(api, alice, move):
    code = _open(api, alice, [player_for_user(alice)], solo_setup(seed=3)).json()["code"]
    response = _move(api, code, 0, move)
    assert response.status_code == 400, response.content
    assert not MoveEvent.objects.exists()


def test_a_set_up_nested_thousands_deep_answers_400(api, alice):
    api.login(alice)
    nested = "[" * 100_000 + "]" * 100_000
    body = f'{{"game": "samurai_empires", "players": [{player_for_user(alice).pk}], "setup": {nested}}}'
    response = api.client.post("/api/tables/", body, content_type="application/json")
    assert response.status_code == 400
    assert not TableSession.objects.exists()
