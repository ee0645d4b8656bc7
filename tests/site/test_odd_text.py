"""One text rule for every way in (issue 36): NUL, a lone surrogate, control and direction characters are
refused with a 400 that says where, on the API (its parser and its fields, set-ups and moves included) and on
the pages' forms, and nothing is written; a lone surrogate escaped in JSON (valid JSON, but no encoder can write
it back) once gave an HTML 500 from the API's renderer.

The property test at the end throws random Unicode, surrogates escaped in JSON among it, at every API endpoint
that takes text: never a 5xx, nothing written on a refusal, and text the rule refuses is always refused.
"""

from __future__ import annotations

import json

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games import services as game_services
from games.models import MoveEvent, Seat, TableSession
from leagues.models import Club, League, Membership, Player, Result, ResultEntry, Season, SignOff
from leagues.people.players import player_for_user
from shitenno_site.validation import free_text_problem, json_text_problem, text_problem
from tests.games.tables import two_player_setup
from tests.games.teikoku_site.worked import worked_game

pytestmark = pytest.mark.django_db
MODELS = (TableSession, Seat, MoveEvent, Player, Club, Membership, League, Season, Result, ResultEntry, SignOff)


def snapshot() -> dict:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}


def _raw(api, url: str, text: str, method: str = "post"):
    """A body sent as written: json.dumps would refuse nothing, but "\\ud800" must reach the server escaped."""
    return getattr(api.client, method)(url, text, content_type="application/json")


@pytest.fixture
def teikoku(alice, bob) -> TableSession:
    return game_services.session_create(
        game="teikoku", created_by=alice, setup=worked_game()[0], players=[player_for_user(alice), player_for_user(bob)]
    )


def _correction(note: str) -> str:
    return (
        '{"seq": 0, "move": {"type": "correction", "seat": 0, "from": "port", "to": "supply", "amount": 1, '
        f'"note": "{note}"}}}}'
    )


# --- the rule itself -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("a\x00b", "NUL"),
        ("a\ud800b", "surrogate"),
        ("\udfff", "surrogate"),
        ("a\u202eb", "direction"),
        ("a\u200fb", "direction"),
        ("a\x07b", "control"),
        ("a\x85b", "control"),
        ("a\nb", "control"),
    ],
)
def test_the_rule_refuses_each_kind_of_odd_character(text, word):
    assert word in text_problem(text)


def test_free_text_keeps_line_breaks_and_tabs_but_nothing_else():
    assert free_text_problem("line one\r\nline two\tend") is None
    assert "control" in free_text_problem("bell\x07")
    assert text_problem("Édo 東京 -=+@") is None


def test_a_refusal_inside_json_names_its_place():
    said = json_text_problem({"players": [{"name": "ok"}, {"name": "x\u202e"}]}, where="setup")
    assert said.startswith("setup.players[1].name: ") and "direction" in said
    assert "NUL" in json_text_problem({"a\x00": 1})


# --- the API --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("note", "words"),
    [
        ("x\\ud800", ("move.note", "surrogate")),
        ("\\udc00", ("move.note", "surrogate")),
        ("x\\u202e", ("note", "direction")),
        ("x\\u0007", ("note", "control")),
        ("x\\u0000", ("note", "NUL")),
    ],
)
def test_the_api_refuses_a_moves_note_with_odd_text_in_json_saying_where(api, alice, teikoku, note, words):
    api.login(alice)
    before = snapshot()
    response = _raw(api, f"/api/tables/{teikoku.code}/moves/", _correction(note))
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/problem+json"
    for word in words:
        assert word in json.dumps(response.json()), response.json()
    assert snapshot() == before


def test_a_note_on_two_lines_is_taken(api, alice, teikoku):
    response = _raw(api.login(alice), f"/api/tables/{teikoku.code}/moves/", _correction("counted\\nagain"))
    assert response.status_code == 201, response.json()
    assert response.json()["event"]["payload"]["note"] == "counted\nagain"


def test_a_lone_surrogate_in_an_unknown_key_is_a_json_400_not_a_500(api, alice, bob):
    """The unknown key's name came back in the refusal, and the renderer could not encode it."""
    body = json.dumps({"players": [player_for_user(alice).pk, player_for_user(bob).pk], "setup": two_player_setup()})
    before = snapshot()
    response = _raw(api.login(alice), "/api/tables/", body.replace('"setup"', '"set\\ud800up"'))
    assert response.status_code == 400 and response["Content-Type"] == "application/problem+json"
    assert "surrogate" in response.json()["detail"]
    assert snapshot() == before


@pytest.mark.parametrize(
    ("spot", "words"),
    [('"kanto": "bushi"', ("setup.gates.kanto", "surrogate")), ('"colours": ["red"', ("colours[0]", "surrogate"))],
)
def test_a_set_up_with_a_lone_surrogate_says_where(api, alice, bob, spot, words):
    body = json.dumps(
        {
            "players": [player_for_user(alice).pk, player_for_user(bob).pk],
            "setup": two_player_setup(),
            "colours": ["red", "blue"],
        }
    )
    assert spot in body
    broken = body.replace(spot, spot[:-1] + '\\ud83d"', 1)
    before = snapshot()
    response = _raw(api.login(alice), "/api/tables/", broken)
    assert response.status_code == 400, response.content[:300]
    for word in words:
        assert word in response.json()["detail"]
    assert snapshot() == before


@pytest.mark.parametrize("text", ["Edo\\u202e", "Edo\\u0007", "Edo\\u0000"])
def test_a_clubs_description_follows_the_rule(api, alice, text):
    before = snapshot()
    response = _raw(api.login(alice), "/api/clubs/", f'{{"name": "Edo", "description": "{text}"}}')
    assert response.status_code == 400 and "description" in response.json()["errors"], response.json()
    assert snapshot() == before
    response = _raw(api, "/api/clubs/", '{"name": "Edo", "description": "Thursdays.\\nBring dice."}')
    assert response.status_code == 201 and response.json()["description"] == "Thursdays.\nBring dice."


def test_a_final_count_with_a_control_character_says_where(api):
    from games.plugins import default_final_count_game

    _name, end = default_final_count_game().api_final_count_example
    body = json.dumps({"end": end})
    first = body.index('": "') + 4  # inside the first text value of the end state
    response = _raw(api, "/api/final-count/", body[:first] + "\\u0007" + body[first:])
    assert response.status_code == 400 and "control" in json.dumps(response.json()), response.content[:300]


# --- the pages ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "word"), [("Edo\x07", "control"), ("Edo\u202e", "direction"), ("Edo\x00", "NUL")])
def test_a_page_form_refuses_odd_text_naming_the_field(client, alice, text, word):
    client.force_login(alice)
    before = snapshot()
    response = client.post("/clubs/new/", {"name": "Edo", "description": text})
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")
    said = response.content.decode()
    assert "description" in said and word in said, said[-2000:]
    assert snapshot() == before


def test_a_page_form_takes_free_text_on_several_lines(client, alice):
    client.force_login(alice)
    response = client.post("/clubs/new/", {"name": "Edo", "description": "Thursdays.\r\nBring dice."})
    assert response.status_code == 302
    assert Club.objects.get(name="Edo").description == "Thursdays.\r\nBring dice."


def test_a_teikoku_note_from_the_move_form_follows_the_rule(client, alice, teikoku):
    client.force_login(alice)
    before = snapshot()
    response = client.post(
        f"/tables/{teikoku.code}/move/", {"seq": "0", "type": "correction", "note": "x\u202e"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400 and "note" in response.content.decode()
    assert response["HX-Retarget"] == "body"  # htmx shows the refusal in the window, not inside the move panel
    assert snapshot() == before


def test_a_password_is_not_read_as_text_shown_to_others(client, alice):
    """A password is hashed, never shown: the rule leaves it to the log-in form (which refuses it as wrong)."""
    response = client.post("/accounts/login/", {"username": alice.username, "password": "pass\x07word"})
    assert response.status_code == 200
    assert "control" not in response.content.decode()


# --- random Unicode at every endpoint that takes text ----------------------------------------------------------

ODD = "\x00\x07\x1b\x7f\x85\u061c\u200e\u200f\u202a\u202e\u2066\u2069\ud800\udbff\udc00\udfff\n\r\t"
TEXTS = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(ODD)), max_size=12)


def _endpoints(world) -> dict:
    """Each endpoint that takes text, as a body with one text put in (`t`), and the text's rule there."""
    season, result, code = world["season"], world["result"], world["teikoku"]
    ids = world["players"]
    return {
        "guest name": ("/api/players/", lambda t: {"name": t}),
        "club name": ("/api/clubs/", lambda t: {"name": t}),
        "club description": ("/api/clubs/", lambda t: {"name": "Edo", "description": t}),
        "league name": (f"/api/clubs/{world['club']}/leagues/", lambda t: {"name": t, "games": ["Go"]}),
        "league game": (f"/api/clubs/{world['club']}/leagues/", lambda t: {"name": "L", "games": [t]}),
        "season name": (
            f"/api/leagues/{season.league_id}/seasons/",
            lambda t: {"name": t, "starts_on": "2031-01-01", "ends_on": "2031-01-02"},
        ),
        "result game": (
            "/api/results/",
            lambda t: {
                "game": t,
                "played_on": "2026-01-01",
                "entries": [{"player": ids[0], "rank": 1}, {"player": ids[1], "rank": 2}],
            },
        ),
        "sign-off note": (f"/api/results/{result.pk}/sign-off/", lambda t: {"agreed": False, "note": t}),
        "claim token": ("/api/players/claim/", lambda t: {"token": t}),
        "table colour": ("/api/tables/", lambda t: {"players": ids, "setup": two_player_setup(), "colours": [t]}),
        "set-up value": ("/api/tables/", lambda t: {"players": ids, "setup": {**two_player_setup(), "gates": t}}),
        "set-up key": ("/api/tables/", lambda t: {"players": ids, "setup": {**two_player_setup(), t: 1}}),
        "move note": (
            f"/api/tables/{code}/moves/",
            lambda t: {
                "seq": 0,
                "move": {"type": "correction", "seat": 0, "from": "port", "to": "supply", "amount": 1, "note": t},
            },
        ),
        "move key": (f"/api/tables/{code}/moves/", lambda t: {"seq": 0, "move": {"type": "end_turn", t: 0}}),
        "night game": (f"/api/seasons/{season.pk}/nights/", lambda t: {"date": "2031-01-01", "games": [t]}),
        "check-in game": (f"/api/nights/{world['night']}/check-in/", lambda t: {"only_game": t}),
        "final count": ("/api/final-count/", lambda t: {"end": {**world["end"], "generals": [t, "ii"]}}),
    }


@pytest.fixture
def world(alices_club, alice, bob, teikoku) -> dict:
    from games.plugins import default_final_count_game
    from leagues.nights.services import night_open

    night = night_open(season=alices_club.season, user=alice, date=timezone.localdate(), games=["shitenno"])
    return {
        "season": alices_club.season,
        "result": alices_club.result,
        "teikoku": teikoku.code,
        "club": alices_club.club.slug,
        "players": [player_for_user(alice).pk, player_for_user(bob).pk],
        "night": night.pk,
        "end": default_final_count_game().api_final_count_example[1],
    }


ENDPOINTS = [
    "guest name",
    "club name",
    "club description",
    "league name",
    "league game",
    "season name",
    "result game",
    "sign-off note",
    "claim token",
    "table colour",
    "set-up value",
    "set-up key",
    "move note",
    "move key",
    "night game",
    "check-in game",
    "final count",
]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_random_unicode_at_every_endpoint_that_takes_text_never_reaches_a_500(api, alice, world, endpoint):
    url, body = _endpoints(world)[endpoint]
    api.login(alice)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(text=TEXTS)
    @example(text="\ud800")  # each endpoint meets a lone surrogate, a NUL and a direction mark at least once
    @example(text="x\x00")
    @example(text="\u202eevil")
    def check(text: str) -> None:
        before = snapshot()
        # ensure_ascii: a lone surrogate travels as "\ud800", as a client's JSON would carry it
        response = _raw(api, url, json.dumps(body(text), ensure_ascii=True))
        assert response.status_code < 500, (text, response.status_code, response.content[:300])
        json_kind = "application/problem+json" if response.status_code >= 400 else "application/json"
        assert response["Content-Type"] == json_kind, response.content[:300]
        if response.status_code >= 400:
            assert snapshot() == before, text
        assert free_text_problem(text.strip()) is None or response.status_code == 400, (text, response.content)

    check()
