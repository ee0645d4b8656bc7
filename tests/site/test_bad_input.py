"""Bad input never reaches a 500 (issue 14): one test per cause found from outside, each answering 4xx with a
sentence saying what is wrong, and writing nothing (every row of the site's tables is the same before and
after).

alice hosts (a public table with bob, a club with a league and season), dave is an outsider, and an
anonymous phone holds only a CSRF cookie.
"""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.utils import timezone

from games import services as game_services
from games.models import MoveEvent, Seat, TableSession
from leagues.models import Club, League, Membership, Player, Result, ResultEntry, Season, SignOff
from leagues.people.players import player_for_user
from tests.games.engines.shitenno.tables import EVEN_YEAR_EXAMPLE
from tests.games.tables import four_player_setup, two_player_setup

pytestmark = pytest.mark.django_db
MODELS = (TableSession, Seat, MoveEvent, Player, Club, Membership, League, Season, Result, ResultEntry, SignOff)
TODAY = timezone.localdate()


def snapshot() -> dict:
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in MODELS}


@pytest.fixture
def table(alice, bob) -> TableSession:
    """alice's public table with bob, in the first sharing."""
    return game_services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=two_player_setup(),
        is_public=True,
    )


def _said(response) -> str:
    """The sentence the answer gives, JSON or page."""
    if response["Content-Type"].startswith("application/json"):
        return json.dumps(response.json())
    return response.content.decode()


def assert_refused(response, *words: str, status: int | tuple = 400) -> None:
    statuses = status if isinstance(status, tuple) else (status,)
    assert response.status_code in statuses, (response.status_code, response.content[:500])
    said = _said(response)
    for word in words:
        assert word.lower() in said.lower(), (word, said[:1000])


def _post_json(client, url: str, body, **headers):
    return client.post(
        url, body if isinstance(body, str) else json.dumps(body), content_type="application/json", **headers
    )


# --- deep JSON ---------------------------------------------------------------------------------------------


def test_it_refuses_json_nested_5000_deep_with_a_400(client):
    before = snapshot()
    response = _post_json(client, "/api/final-count/", "[" * 5000 + "]" * 5000)
    assert_refused(response, "nested")
    response = _post_json(client, "/api/final-count/", {"end": json.loads("[" * 40 + "]" * 40)})
    assert_refused(response, "nested")
    assert snapshot() == before


# --- the final count's shapes ------------------------------------------------------------------------------


def _end(**changes) -> dict:
    end = {
        "generals": ["honda", "ii"],
        "titles": {"honda": "daimyo", "ii": "shomyo"},
        "favour": [{"positions": 20, "title_bonus": 4}, 18],
        "provinces": {"kanto": [{"seat": 0, "face": "simple"}, {"seat": 1, "face": "golden"}]},
        "kokus": [[1, 2], [3]],
        "troops": [["samurai"], ["hidden"]],
        "tiles": [{"exchange": 1, "plus_one": 0, "card_taking": 0}, {"exchange": 0, "plus_one": 1}],
    }
    return end | changes


BAD_ENDS = {
    "favour part is text": ({"favour": [{"positions": "abc", "title_bonus": 0}, 1]}, "positions"),
    "favour part is null": ({"favour": [{"positions": None}, 1]}, "positions"),
    "favour part is a list": ({"favour": [{"positions": [1]}, 1]}, "positions"),
    "favour part is a fraction": ({"favour": [{"positions": 3.9}, 1]}, "whole number"),
    "favour is a bool": ({"favour": [True, 1]}, "favour"),
    "favour beyond any table": ({"favour": [10**400, 1]}, "favour"),
    "favour is negative": ({"favour": [-994, 1]}, "favour"),
    "tile count is text": ({"tiles": [{"exchange": "x"}, {}]}, "exchange"),
    "tile count is null": ({"tiles": [{"plus_one": None}, {}]}, "plus_one"),
    "tile count is negative": ({"tiles": [{"exchange": -994}, {}]}, "exchange"),
    "tile of no such face": ({"tiles": [{"gloden": 1}, {}]}, "tiles"),
    "generals are lists": ({"generals": [[1], [2]]}, "generals"),
    "a general twice": ({"generals": ["honda", "honda"], "titles": {"honda": "daimyo"}}, "general"),
    "a title twice": ({"titles": {"honda": "daimyo", "ii": "daimyo"}}, "title"),
    "kamon seat is a float": ({"provinces": {"kanto": [{"seat": 0.0, "face": "simple"}]}}, "kamons"),
    "kamon seat is true": ({"provinces": {"kanto": [{"seat": True, "face": "simple"}]}}, "kamons"),
    "kamon face is a list": ({"provinces": {"kanto": [{"seat": 0, "face": []}]}}, "kamons"),
    "an unknown field": ({"junk": 1}, "junk"),
    "an unknown termination": ({"termination": ["x"]}, "termination"),
    "NUL in a name": ({"generals": ["honda\x00", "ii"]}, "nul"),
}


@pytest.mark.parametrize("changes", [pytest.param(v, id=k) for k, v in BAD_ENDS.items()])
def test_it_refuses_a_final_count_it_cannot_read(api, changes):
    changes, word = changes
    before = snapshot()
    assert_refused(api.post("/api/final-count/", {"end": _end(**changes)}), word)
    assert snapshot() == before


def test_it_counts_the_sound_end_it_was_given(api):
    response = api.post("/api/final-count/", {"end": _end()})
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize("favour", [10**400, 2**31, 3.9, -1])
def test_it_refuses_to_save_a_final_count_with_a_favour_beyond_any_table(api, alice, bob, favour):
    api.login(alice)
    before = snapshot()
    players = [player_for_user(alice).pk, player_for_user(bob).pk]
    response = api.post("/api/final-count/", {"end": _end(favour=[favour, 1]), "save_with_players": players})
    assert_refused(response, "favour")
    assert snapshot() == before


# --- NUL in the address and in stored JSON -----------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/players/?search=%00",
        "/players/?q=%00",
        "/api/ratings/?game=%00",
        "/players/claim/%00/",
        "/api/tables/%00/",
        "/rankings/?scope=a%00",
    ],
)
def test_it_refuses_nul_in_the_address(client, alice, url):
    client.force_login(alice)
    before = snapshot()
    assert_refused(client.get(url), "NUL")
    assert_refused(client.post(url), "NUL")
    assert snapshot() == before


def test_the_api_refuses_nul_with_json_and_pages_with_a_page(client):
    assert client.get("/api/players/?search=%00")["Content-Type"] == "application/problem+json"
    assert client.get("/players/?q=%00")["Content-Type"].startswith("text/html")


def test_it_refuses_nul_inside_a_tables_set_up(api, alice, bob):
    api.login(alice)
    setup = two_player_setup()
    setup["gates"]["kanto"] = "bushi\u0000"
    before = snapshot()
    response = api.post(
        "/api/tables/", {"players": [player_for_user(alice).pk, player_for_user(bob).pk], "setup": setup}
    )
    assert_refused(response, "NUL")
    assert snapshot() == before


def test_it_refuses_nul_in_an_extra_key_of_a_move(api, alice, table):
    api.login(alice)
    before = snapshot()
    move = {"type": "accept", "seat": 0, "note\u0000": "x"}
    assert_refused(api.post(f"/api/tables/{table.code}/moves/", {"seq": 0, "move": move}), "NUL")
    assert snapshot() == before


# --- digits that str.isdigit() takes and int() refuses -------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/ratings/?game=shitenno&min_games=%C2%B2",
        "/rankings/?min_games=%C2%B2",
        "/api/ratings/?game=shitenno&min_games=-1",
        "/api/ratings/?league=%C2%B2",
        "/rankings/?min_games=99999999999999999999",
    ],
)
def test_it_refuses_a_min_games_that_is_not_a_whole_number(client, url):
    assert_refused(client.get(url), "whole number")


@pytest.mark.parametrize(
    "form",
    [
        {"type": "place", "province": "kanto", "pay": "k:²:0"},
        {"type": "end_turn", "golden": "kanto:²"},
        {"type": "draw", "n_samurai": "²"},
    ],
)
def test_the_move_form_refuses_superscript_digits_from_an_anonymous_phone(table, form):
    phone = Client(enforce_csrf_checks=True)
    phone.get(table.get_absolute_url())
    token = phone.cookies["csrftoken"].value
    before = snapshot()
    response = phone.post(f"/tables/{table.code}/move/", {"csrfmiddlewaretoken": token, "seq": "0", **form})
    assert_refused(response, status=(400, 403))  # the sentence is in the move panel, which only writers see
    assert snapshot() == before


@pytest.mark.parametrize(
    ("form", "word"),
    [
        ({"type": "place", "province": "kanto", "pay": "k:²:0", "bonus": "exchange", "next_troop": "bushi"}, "cannot"),
        ({"type": "end_turn", "golden": "kanto:²"}, "cannot"),
        ({"type": "draw", "n_samurai": "²"}, "whole numbers"),
    ],
)
def test_the_move_form_tells_a_seated_player_why_a_superscript_move_is_refused(client, alice, table, form, word):
    client.force_login(alice)
    before = snapshot()
    response = client.post(f"/tables/{table.code}/move/", {"seq": "0", **form})
    assert_refused(response, word, status=400)
    assert snapshot() == before


# --- the Idempotency-Key -----------------------------------------------------------------------------------


def _draw() -> dict:
    return {"type": "draw", "seat": 0, "troops": ["samurai", "samurai", "bushi", "bushi"], "kokus": [1, 1]}


def test_the_api_refuses_an_idempotency_key_longer_than_its_column(api, alice, table):
    api.login(alice)
    before = snapshot()
    response = api.post(f"/api/tables/{table.code}/moves/", {"seq": 0, "move": _draw()}, HTTP_IDEMPOTENCY_KEY="k" * 81)
    assert_refused(response, "at most 80")
    response = api.post(f"/api/tables/{table.code}/undo/", {"seq": 0}, HTTP_IDEMPOTENCY_KEY="k" * 81)
    assert_refused(response, "at most 80")
    assert snapshot() == before
    response = api.post(f"/api/tables/{table.code}/moves/", {"seq": 0, "move": _draw()}, HTTP_IDEMPOTENCY_KEY="k" * 80)
    assert response.status_code == 201, response.json()


def test_the_move_form_refuses_a_key_longer_than_its_column(client, alice, table):
    client.force_login(alice)
    before = snapshot()
    form = {"seq": "0", "type": "draw", "n_samurai": "2", "n_bushi": "2", "k_1": "2", "key": "k" * 81}
    assert_refused(client.post(f"/tables/{table.code}/move/", form), "at most 80")
    assert_refused(client.post(f"/tables/{table.code}/undo/", {"seq": "0", "key": "k" * 81}), "at most 80")
    assert snapshot() == before


# --- seasons: min_games and custom points ------------------------------------------------------------------


def _season(**changes) -> dict:
    return {"name": "Spring", "starts_on": "2031-03-01", "ends_on": "2031-05-31", **changes}


@pytest.mark.parametrize(
    ("changes", "word"),
    [
        ({"min_games": 2**31}, "min_games"),
        ({"min_games": 2**63}, "min_games"),
        ({"min_games": True}, "whole number"),
        ({"min_games": 1.5}, "whole number"),
        ({"points_scheme": "custom", "custom_points": {"2": [1e308, 0]}}, "custom_points"),
        ({"points_scheme": "custom", "custom_points": {"²": [1, 0]}}, "custom_points"),
        ({"points_scheme": "custom", "custom_points": {"2": ["nan", 0]}}, "custom_points"),
        ({"starts_on": "0001-01-01"}, "starts_on"),
        ({"name": "\u200b"}, "visible"),
        ({"name": "\u202eeuqaL"}, "direction"),
        ({"junk": 1}, "junk"),
    ],
)
def test_the_api_refuses_a_season_it_cannot_store(api, alices_club, alice, changes, word):
    api.login(alice)
    before = snapshot()
    assert_refused(api.post(f"/api/leagues/{alices_club.league.pk}/seasons/", _season(**changes)), word)
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "word"),
    [
        ({"min_games": str(2**31)}, "less than or equal"),
        ({"points_scheme": "custom", "custom_points": "2: nan, inf"}, "Points are numbers"),
        ({"points_scheme": "custom", "custom_points": "2: 1e308, 0"}, "Points are numbers"),
        ({"points_scheme": "custom", "custom_points": "²: 1, 0"}, "one line per player count"),
        ({"starts_on": "0001-01-01"}, "Give a date from"),
        ({"name": "\u200b"}, "visible"),
    ],
)
def test_the_season_form_refuses_what_it_cannot_store(client, alices_club, alice, changes, word):
    client.force_login(alice)
    form = {"points_scheme": "3-2-1-0", "min_games": "0", **_season(**changes)}
    before = snapshot()
    assert_refused(client.post(f"/leagues/{alices_club.league.pk}/seasons/new/", form), word)
    assert snapshot() == before


# --- set-ups and moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "word"),
    [
        (lambda s: s["players"][0].update(general=["sakai"]), "general"),
        (lambda s: s["players"][0].update(name="Alice"), "players"),
        (lambda s: s.update(junk="x" * 1000), "junk"),
    ],
)
def test_it_refuses_a_set_up_it_cannot_read(api, alice, bob, change, word):
    api.login(alice)
    setup = two_player_setup()
    change(setup)
    before = snapshot()
    players = [player_for_user(alice).pk, player_for_user(bob).pk]
    assert_refused(api.post("/api/tables/", {"players": players, "setup": setup}), word)
    assert_refused(api.post("/api/tables/", {"players": players, "setup": setup, "deal_titles": True}), word)
    assert snapshot() == before


def test_it_refuses_a_choice_of_lot_that_is_not_0_or_1(api, alice, bob):
    players = [player_for_user(alice), player_for_user(bob)] + [
        Player.objects.create(name=n, created_by=alice) for n in ("Carl", "Dora")
    ]
    session = game_services.session_create(
        game="shitenno", created_by=alice, players=players, setup=four_player_setup()
    )
    choose = EVEN_YEAR_EXAMPLE.index(next(m for m in EVEN_YEAR_EXAMPLE if m["type"] == "choose"))
    for seq, move in enumerate(EVEN_YEAR_EXAMPLE[:choose]):
        session = game_services.move_record(session=session, seq=seq, move=move, user=alice).event.session
    api.login(alice)
    before = snapshot()
    move = {**EVEN_YEAR_EXAMPLE[choose], "lot": 1.0}
    assert_refused(api.post(f"/api/tables/{session.code}/moves/", {"seq": choose, "move": move}), "lot")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("move", "word"),
    [
        ({**_draw(), "junk": "x" * 2_000_000}, "junk"),
        ({**_draw(), "seat": True}, "seat"),
        ({"type": "accept", "seat": 0.0}, "seat"),
        ("draw", "object"),
    ],
)
def test_it_refuses_a_move_with_fields_it_does_not_take(api, alice, table, move, word):
    api.login(alice)
    before = snapshot()
    body = {"seq": 0, "move": move}
    response = api.post(f"/api/tables/{table.code}/moves/", body)
    assert_refused(response, word, status=(400, 413))
    assert snapshot() == before


def test_it_refuses_a_misspelt_golden_rather_than_passing(api, alice, bob):
    """ "gloden" on end_turn once became a plain pass: now the move is refused, naming the field."""
    from games.engines.shitenno import ShitennoEngine
    from games.engines.shitenno.simulation import random_legal_game

    setup, moves = random_legal_game(3, 2)
    engine = ShitennoEngine()
    state = engine.initial_state(setup)
    at = next(i for i, m in enumerate(moves) if m["type"] == "end_turn")
    for move in moves[:at]:
        state = engine.apply(state, move)
    from games.engines.base import InvalidMove

    with pytest.raises(InvalidMove, match="gloden"):
        engine.apply(state, {**moves[at], "gloden": {"province": "kanto", "position": 1}})


# --- results, names, bodies ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "word"),
    [
        ({"played_on": "0001-01-01"}, "played_on"),
        ({"played_on": 20260101}, "played_on"),
        ({"game": "\u200b"}, "visible"),
        ({"season": True}, "whole number"),
    ],
)
def test_it_refuses_a_result_it_cannot_store(api, alices_club, alice, carol, changes, word):
    api.login(alice)
    body = {
        "game": "Go",
        "played_on": TODAY.isoformat(),
        "season": None,
        "entries": [{"player": player_for_user(alice).pk, "rank": 1}, {"player": player_for_user(carol).pk, "rank": 2}],
    }
    before = snapshot()
    assert_refused(api.post("/api/results/", body | changes), word)
    assert snapshot() == before


@pytest.mark.parametrize("name", ["\u200b", "\u202eecilA", " \u200d ", "a\x07b"])
def test_it_refuses_a_name_nobody_can_read(api, client, alice, name):
    api.login(alice)
    before = snapshot()
    assert_refused(api.post("/api/players/", {"name": name}), "name")
    assert_refused(api.post("/api/clubs/", {"name": name}), "name")
    assert_refused(client.post("/players/new-guest/", {"name": name}), "name")
    assert snapshot() == before


def test_the_new_table_page_refuses_a_guest_nobody_can_read(client, alice):
    from tests.games.engines.shitenno.tables import GATES

    client.force_login(alice)
    form = {
        "game": "shitenno",
        "is_public": "on",
        "deal_titles": "on",
        "seat0_player": player_for_user(alice).pk,
        "seat1_guest": "\u202eecilA",
    } | {f"seat{i}_general": g for i, g in enumerate(("honda", "ii", "sakai", "sakakibara"))}
    form |= {f"seat{i}_colour": c for i, c in enumerate(("red", "blue", "yellow", "green"))}
    form |= {f"gate_{slug}": troop for slug, troop in GATES.items()}
    before = snapshot()
    assert_refused(client.post("/tables/new/", form), "direction")
    assert snapshot() == before


def test_the_api_answers_a_body_too_large_with_a_json_413(api, alice):
    api.login(alice)
    before = snapshot()
    response = api.post("/api/players/", json.dumps({"name": "x" * (10 * 1024 * 1024)}))
    assert response.status_code == 413
    assert response["Content-Type"] == "application/problem+json"
    assert re.search(r"too large", response.json()["detail"])
    assert snapshot() == before


@pytest.mark.parametrize(("body", "word"), [({"name": 5}, "Text"), ({"name": "Hanzo", "is_guest": True}, "is_guest")])
def test_it_refuses_a_guest_of_the_wrong_shape(api, alice, body, word):
    api.login(alice)
    before = snapshot()
    assert_refused(api.post("/api/players/", body), word)
    assert snapshot() == before
