"""Teikoku through the generic tables API: a table opened with a Teikoku set-up, moves on the sequence seen
(with Idempotency-Key), undo, the score in treasure, docs/api.md's worked game replayed, and hostile set-ups
and moves answered 400 with a sentence, never a 500, writing nothing."""

from __future__ import annotations

import pytest

from games.models import MoveEvent, TableSession
from leagues.people.players import player_for_user

from .worked import worked_game

pytestmark = pytest.mark.django_db


def open_table(api, alice, bob, setup: dict, **extra):
    return api.login(alice).post(
        "/api/tables/",
        {
            "game": "teikoku",
            "players": [player_for_user(alice).pk, player_for_user(bob).pk],
            "setup": setup,
            "colours": ["red", "blue"],
            **extra,
        },
    )


@pytest.fixture
def worked():
    return worked_game()


@pytest.fixture
def table(api, alice, bob, worked):
    response = open_table(api, alice, bob, worked[0])
    assert response.status_code == 201, response.json()
    return response.json()["code"]


def post_move(api, code, seq, move, **headers):
    return api.post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move}, **headers)


def test_it_lists_teikoku_among_the_games_with_its_unit(api):
    games = {g["slug"]: g for g in api.get("/api/games/").json()["results"]}
    assert games["teikoku"]["score_unit"] == "treasure"
    assert (games["teikoku"]["min_players"], games["teikoku"]["max_players"]) == (2, 4)


def test_it_opens_a_teikoku_table_with_the_hint_and_the_score_in_treasure(table, api):
    body = api.get(f"/api/tables/{table}/").json()
    assert body["game"] == "teikoku" and body["head_seq"] == 0 and body["status"] == "playing"
    assert body["hint"]["season"] == "winter" and body["hint"]["moves"] == ["end_turn"]
    assert body["hint"]["port"]["treasure"] == 50
    score = api.get(f"/api/tables/{table}/score/").json()
    assert score["score"] == [25, 25] and score["favour"] is None and score["outcome"] is None


def test_the_worked_game_of_the_docs_replays_through_the_api_to_its_victory(table, api, worked):
    _setup, rows, outcome = worked
    for seq, words, move in rows:
        response = post_move(api, table, seq, move, HTTP_IDEMPOTENCY_KEY=f"worked-{seq}")
        assert response.status_code == 201, (seq, response.json())
        assert response.json()["event"]["description"] == words
    body = api.get(f"/api/tables/{table}/score/").json()
    assert body["outcome"] == outcome and body["score"] == outcome["details"]["treasure"]
    assert TableSession.objects.get(code=table).status == "finished"
    response = post_move(api, table, len(rows), {"type": "end_turn", "seat": 0})
    assert response.status_code == 400 and "over" in response.json()["detail"]


def test_a_repeated_idempotency_key_gets_the_first_answer_and_a_stale_seq_a_409(table, api, worked):
    move = worked[1][0][2]
    first = post_move(api, table, 0, move, HTTP_IDEMPOTENCY_KEY="phone-1")
    again = post_move(api, table, 0, move, HTTP_IDEMPOTENCY_KEY="phone-1")
    assert first.status_code == 201 and again.status_code == 200 and again.json() == first.json()
    stale = post_move(api, table, 0, worked[1][1][2])
    assert stale.status_code == 409 and stale.json()["head_seq"] == 1
    assert MoveEvent.objects.count() == 1


def test_undo_takes_back_a_bounty(table, api, worked):
    rows = worked[1]
    for seq, _words, move in rows[:2]:
        post_move(api, table, seq, move)
    before = api.get(f"/api/tables/{table}/").json()
    assert post_move(api, table, 2, rows[2][2]).json()["state"]["treasure"] == [28, 25]
    response = api.post(f"/api/tables/{table}/undo/", {"seq": 3})
    assert response.status_code == 201 and response.json()["event"]["payload"] == {"undoes": 3}
    after = api.get(f"/api/tables/{table}/").json()
    assert after["state"] == before["state"] and after["head_seq"] == 4


def test_an_illegal_raid_in_winter_is_refused_with_the_reason(table, api, worked):
    rows = worked[1]
    for seq, _words, move in rows[:6]:
        post_move(api, table, seq, move)
    response = post_move(api, table, 6, {"type": "raid", "seat": 0, "defender": 1, "dice": [6, 6], "cubes": 4})
    assert response.status_code == 400 and response.json()["detail"]
    assert TableSession.objects.get(code=table).head_seq == 6


HOSTILE_SETUPS = [
    None,
    [],
    "teikoku",
    7,
    {},
    {"clans": "fujiwara"},
    {"clans": []},
    {"clans": ["fujiwara"] * 9},
    {"clans": ["minamoto", "fujiwara"], "units_deck": 20, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": -1, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 10**30, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 20.5, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": True, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 20, "chosen_specials": ["ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 20, "chosen_specials": [{"a": 1}, None]},
    {
        "clans": ["fujiwara", "minamoto"],
        "units_deck": 20,
        "chosen_specials": ["ninja", "ninja"],
        "aggression_target": [40],
    },
    {"clans": ["fujiwara", "minamoto"], "units_deck": 20, "chosen_specials": ["ninja", "ninja"], "years": "4"},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 20, "chosen_specials": ["ninja", "ninja"], "rogue": 1},
    {"clans": [["fujiwara"], {"x": 1}], "units_deck": 20, "chosen_specials": ["ninja", "ninja"]},
    {"clans": ["fujiwara", "minamoto"], "units_deck": 0, "chosen_specials": ["ninja", "ninja"], "special_deck_size": 1},
]


@pytest.mark.parametrize("setup", HOSTILE_SETUPS)
def test_a_malformed_set_up_is_a_400_with_a_sentence(api, alice, bob, setup):
    response = open_table(api, alice, bob, setup)
    assert response.status_code == 400, response.content
    assert response.json()
    assert not TableSession.objects.exists()


def test_three_clans_for_two_players_is_refused(api, alice, bob):
    setup = {"clans": ["fujiwara", "minamoto", "tokugawa"], "units_deck": 20, "chosen_specials": ["ninja"] * 3}
    response = open_table(api, alice, bob, setup)
    assert response.status_code == 400 and not TableSession.objects.exists()


HOSTILE_MOVES = [
    None,
    [],
    "end_turn",
    3,
    {},
    {"type": "end_turn"},
    {"type": "end_turn", "seat": "0"},
    {"type": "end_turn", "seat": 7},
    {"type": "end_turn", "seat": -1},
    {"type": "end_turn", "seat": True},
    {"type": "end_turn", "seat": 0, "extra": 1},
    {"type": ["bounty"], "seat": 0},
    {"type": "x" * 10_000, "seat": 0},
    {"type": "bounty", "seat": 0, "blood": "3"},
    {"type": "raid", "seat": 0, "defender": 1, "dice": [7, 0], "cubes": 0},
    {"type": "raid", "seat": 0, "defender": 1, "dice": [1, 2, 3], "cubes": 9},
    {"type": "raid", "seat": 0, "defender": {"seat": 1}, "dice": "66", "cubes": 0},
    {"type": "correction", "seat": 0, "from": "port", "to": "port", "amount": 10**40, "note": "x"},
    {"type": "correction", "seat": 0, "from": 0, "to": "bank", "amount": 1, "note": ""},
    {"type": "correction", "seat": 0, "from": 0, "to": 1, "amount": 1000, "note": "more than held"},
    {"type": "card_effect", "seat": 0, "from": 0, "to": 1, "amount": 1, "card": "x" * 5000},
    {"type": "cards_leave", "seat": 0, "deck": "pit", "count": 1, "note": "x"},
    {"type": "roll", "seat": 0, "dice": []},
    {"type": "roll", "seat": 0, "dice": [1.5]},
    {"type": "fortify", "seat": 0, "fortified": "yes"},
    {"type": "commerce", "seat": 0, "deck": "units"},
    {"type": "pit_fee", "seat": 0, "cards": 0},
]


@pytest.mark.parametrize("move", HOSTILE_MOVES)
def test_a_malformed_or_illegal_move_is_a_400_with_a_sentence_and_writes_nothing(table, api, move):
    response = post_move(api, table, 0, move)
    assert response.status_code == 400, response.content
    assert response.json()
    assert MoveEvent.objects.count() == 0 and TableSession.objects.get(code=table).head_seq == 0


@pytest.mark.parametrize(
    "data",
    [
        {"type": "bounty", "blood": "1e9999"},
        {"type": "raid", "defender": "zero", "roll": "table"},
        {"type": "raid", "defender": "1", "die0": "99999999999999999999999", "die1": "-1"},
        {"type": "roll", "count": "40", "roll": "site"},
        {"type": "correction", "from": "x", "to": "", "amount": "1"},
        {"type": "pit_fee", "cards": ""},
        {"type": ""},
        {"seq": "x"},
    ],
)
def test_hostile_page_forms_are_a_400_too(client, alice, table, data):
    client.force_login(alice)
    response = client.post(f"/tables/{table}/move/", {"seq": 0, "key": "k", **data})
    assert response.status_code in (400, 409), response.status_code
    assert MoveEvent.objects.count() == 0
