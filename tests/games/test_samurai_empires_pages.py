"""Small Samurai Empires at the table (issue 16): the set-up form with the club's saved boards, the era score
sheet to a winner through the pages, the solo moves through their forms, and the 4xx answers to hostile input.
"""

from __future__ import annotations

import json
import random

import pytest

from games import services
from games.models import BoardSetup, TableSession
from leagues.models import Membership, Result
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import (
    BOARD,
    SOLO_BOARD,
    random_legal_game,
    random_legal_move,
)
from tests.games.samurai_empires_site import ENGINE, HTMX, form_of, query_dict

pytestmark = pytest.mark.django_db
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}


def _new_table(client, **fields):
    data = {"game": "samurai_empires", "mode": "multiplayer", "is_public": "on", **fields}
    return client.post("/tables/new/", data)


def _post_move(client, session, fields: dict, **headers):
    data = {"seq": session.head_seq, "key": f"k{session.head_seq}-{random.random()}", **fields}
    return client.post(f"/tables/{session.code}/move/", data, **headers)


def _solo_session(alice, seed: int = 7) -> TableSession:
    return services.session_create(
        game="samurai_empires",
        created_by=alice,
        players=[player_for_user(alice)],
        setup={"mode": "solo", "players": [{"name": "alice", "training_ground": 1}], "board": SOLO_BOARD, "seed": seed},
    )


# --- the adapter ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("mode", "seed"), [("multiplayer", 1), ("multiplayer", 2), ("solo", 3), ("solo", 4)])
def test_every_move_of_a_legal_game_can_be_entered_through_the_forms(mode, seed):
    from games.plugins import get_game

    adapter = get_game("samurai_empires")
    setup, moves = random_legal_game(seed, mode)
    state = ENGINE.initial_state(setup)
    for move in moves:
        entered = adapter.move_from_post(state, query_dict(form_of(move, state)))
        expected = ENGINE.apply(state, move)
        assert ENGINE.apply(state, entered) == expected, (move, entered)
        state = expected
    assert state["phase"] == "over"


def test_the_site_draws_a_solo_seed_and_deals_nothing_else():
    from games.plugins import get_game

    adapter = get_game("samurai_empires")
    solo = adapter.deal({"mode": "solo", "players": [{"name": "A"}], "board": SOLO_BOARD}, random.Random(0))
    assert isinstance(solo["seed"], int) and solo["seed"] >= 0
    assert adapter.deal({"mode": "solo", "seed": 5}, random.Random(0))["seed"] == 5
    assert "seed" not in adapter.deal({"mode": "multiplayer"}, random.Random(0))


# --- pages ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("headers", "words"), [({}, "Board set-up (JSON)"), (DUTCH, "Bordopzet (JSON)")])
def test_the_new_table_page_renders_in_english_and_dutch(client, alice, headers, words):
    client.force_login(alice)
    html = client.get("/tables/new/?game=samurai_empires", **headers).content.decode()
    assert words in html and 'name="seat4_ground"' in html


@pytest.mark.parametrize(("headers", "words"), [({}, "What each AI holds"), (DUTCH, "Wat elke AI heeft")])
def test_the_solo_table_page_renders_in_english_and_dutch(client, alice, headers, words):
    session = _solo_session(alice)
    client.force_login(alice)
    html = client.get(f"/tables/{session.code}/", **headers).content.decode()
    assert words in html and 'data-move="ai_step"' in html


def test_the_game_templates_carry_no_inline_script_or_event_handler():
    """A strict Content-Security-Policy is coming: no <script> and no on...= attributes in this game's pages."""
    import re
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "templates" / "games" / "samurai_empires"
    for template in folder.glob("*.html"):
        text = template.read_text()
        assert "<script" not in text and not re.search(r"\son[a-z]+=", text), template.name


def test_a_three_player_score_sheet_is_played_to_a_winner_through_the_pages(client, alice, carol, club):
    client.force_login(alice)
    response = _new_table(
        client,
        seat0_player=str(player_for_user(alice).pk),
        seat0_ground="1",
        seat1_player=str(player_for_user(carol).pk),
        seat2_guest="Sora",
        seat2_ground="3",
        board=json.dumps(BOARD),
    )
    assert response.status_code == 302, response.context["form"].errors
    session = TableSession.objects.get(game="samurai_empires")
    assert session.state["parties"][2]["name"] == "Sora"
    eras = [  # Sora leads after era 1 and the turn order puts them last
        {
            "p0_place0": 2,
            "p0_shrines": 1,
            "p1_place0": 1,
            "p2_place1": 1,
            "p2_place2": 1,
            "p2_sieges": 1,
            "p2_archers": 1,
        },
        {"p0_place1": 1, "p1_place2": 1, "p1_other": 2, "p1_note": "destiny card", "p2_place3": 2},
        {"p0_place3": 1, "p0_place2": 1, "p1_place1": 2, "p2_shrines": 2},
    ]
    for era in eras:
        session.refresh_from_db()
        response = _post_move(client, session, {"type": "era_score", **era}, **HTMX)
        assert response.status_code == 200, response.content.decode()[:2000]
    session.refresh_from_db()
    assert session.state["era"] == 3 and session.state["phase"] == "final_score"
    html = client.get(f"/tables/{session.code}/?era=1").content.decode()
    assert "Era 1" in html and "sse-totals" in html
    final = {"type": "final_score"}
    for p in range(3):
        final |= {f"p{p}_inf{r}": 1 for r in range(4)} | {
            f"p{p}_bushido": p,
            f"p{p}_food": 0,
            f"p{p}_resource_points": 1,
        }
    response = _post_move(client, session, final, **HTMX)
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED
    totals = ENGINE.score(session.state)
    assert totals == [(3 + 1) + 6 + (6 + 6) + 4 + 1, 6 + (6 + 2) + 3 + 4 + 1, (6 + 6 + 1) + 3 + 2 + 4 + 1]
    html = response.content.decode()
    assert "alice wins with 27 points." in html
    result = Result.objects.get(session=session)
    assert result.status == Result.Status.PENDING
    assert sorted(result.entries.values_list("rank", flat=True)) == [1, 2, 3]


def test_the_result_page_explains_the_tie_break(alice, bob, client):
    session = services.session_create(
        game="samurai_empires",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup={"mode": "multiplayer", "players": [{"name": "alice"}, {"name": "bob"}], "board": BOARD},
    )
    empty = {"type": "era_score", "era": 1, "scores": [{}, {}]}
    for era in (1, 2, 3):
        services.move_record(session=session, seq=session.head_seq, move={**empty, "era": era}, user=alice)
        session.refresh_from_db()
    final = {
        "type": "final_score",
        "scores": [
            {
                "influence": {r["name"]: 2 for r in BOARD["regions"]},
                "resources": {"bushido": 2, "food": 1},
                "resource_points": 0,
            },
            {
                "influence": {r["name"]: 2 for r in BOARD["regions"]},
                "resources": {"bushido": 0, "food": 1},
                "resource_points": 0,
            },
        ],
    }
    services.move_record(session=session, seq=session.head_seq, move=final, user=alice)
    client.force_login(alice)
    html = client.get(f"/tables/{session.code}/").content.decode()
    # the resources left decided it (bob 1 against alice 3), not the points they gave (0 each)
    assert "bob wins the tie on 8 points with the fewest resources left (bob 1, alice 3)." in html
    nl = client.get(f"/tables/{session.code}/", **DUTCH).content.decode()
    assert "bob wint de gelijke stand op 8 punten met de minste grondstoffen over (bob 1, alice 3)." in nl


def test_one_solo_era_is_played_through_the_forms(client, alice):
    session = _solo_session(alice, seed=11)
    client.force_login(alice)
    rng = random.Random(11)
    while session.state["era"] == 1:
        move = random_legal_move(rng, session.state)
        response = _post_move(client, session, form_of(move, session.state), **HTMX)
        assert response.status_code == 200, (move, response.content.decode()[:2000])
        session.refresh_from_db()
    assert session.state["phase"] == "planning" and len(session.state["sheet"]["eras"]) == 1
    assert Result.objects.count() == 0


# --- the club's saved board -------------------------------------------------------------------------------


def test_a_club_member_saves_the_board_and_a_later_table_only_picks_it(client, alice, carol, club):
    Membership.objects.get_or_create(club=club, player=player_for_user(alice))
    client.force_login(alice)
    response = _new_table(
        client,
        club=str(club.pk),
        seat0_player=str(player_for_user(alice).pk),
        seat1_player=str(player_for_user(carol).pk),
        board=json.dumps(BOARD),
        save_board_as="Our board",
    )
    assert response.status_code == 302, response.context["form"].errors
    saved = BoardSetup.objects.get(club=club, name="Our board")
    assert saved.board == BOARD and saved.game == "samurai_empires"
    page = client.get("/tables/new/?game=samurai_empires").content.decode()
    assert f"Our board ({club.name})" in page
    response = _new_table(
        client, seat0_player=str(player_for_user(alice).pk), seat1_guest="Ren", board_setup=str(saved.pk)
    )
    assert response.status_code == 302
    assert TableSession.objects.filter(game="samurai_empires").count() == 2
    again = _new_table(
        client,
        club=str(club.pk),
        seat0_player=str(player_for_user(alice).pk),
        seat1_guest="Ren",
        board=json.dumps(BOARD),
        save_board_as="Our board",
    )
    assert again.status_code == 400 and "already has a board of that name" in again.content.decode()


def test_an_outsider_cannot_pick_a_clubs_saved_board(client, alice, dave, club):
    saved = BoardSetup.objects.create(club=club, game="samurai_empires", name="Secret", board=BOARD)
    client.force_login(dave)
    response = _new_table(
        client, seat0_player=str(player_for_user(dave).pk), seat1_guest="Ren", board_setup=str(saved.pk)
    )
    assert response.status_code == 400 and "Secret" not in response.content.decode()


# --- hostile input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "board",
    [
        "not json",
        "[]",
        "{}",
        json.dumps({"regions": "x"}),
        json.dumps({"regions": [1, 2, 3, 4]}),
        json.dumps({"regions": BOARD["regions"][:3]}),
        json.dumps({"regions": [{"name": "x"}] * 4}),
        json.dumps({"regions": BOARD["regions"], "extra": 1}),
        "1e999",
        json.dumps({"regions": [None] * 4}),
        "",
        "[" * 100_000 + "]" * 100_000,
    ],
)
def test_a_malformed_board_answers_400_and_opens_nothing(client, alice, board):
    client.force_login(alice)
    response = _new_table(client, seat0_player=str(player_for_user(alice).pk), seat1_guest="Ren", board=board)
    assert response.status_code == 400
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"mode": "solo", "seat1_guest": "Ren"},  # solo seats one player
        {"mode": "solo"},  # the multiplayer board lacks the solo parts
        {"seat0_ground": "9"},
        {"seat1_guest": "Ren", "seat1_ground": "1", "seat0_ground": "1"},  # one Training Ground each
        {"seat1_guest": "Ren", "seat2_guest": "Ren"},  # same name twice
        {
            "seat1_guest": "Ren",
            "seat2_guest": "Sora",
            "seat3_guest": "Hana",
            "seat4_guest": "Kenji",
        },  # 5 need 5 regions
        {"seat1_guest": "Ren", "board_setup": "999999"},
        {"seat1_guest": "Ren", "save_board_as": "no club"},
    ],
)
def test_a_hostile_set_up_answers_400(client, alice, fields):
    client.force_login(alice)
    data = {"seat0_player": str(player_for_user(alice).pk), "board": json.dumps(BOARD), **fields}
    response = _new_table(client, **data)
    assert response.status_code == 400
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "era_score", "p0_place0": "x"},
        {"type": "era_score", "p0_place0": "9"},
        {"type": "era_score", "p0_shrines": "-1"},
        {"type": "era_score", "p0_shrines": "99999999999999999999999"},
        {"type": "era_score", "p0_sieges": "3"},  # alice trained no Archers
        {"type": "final_score"},
        {"type": "ai_step"},
        {"type": "place", "spot": "0:1"},
        {"type": "resolve", "d_yellow_0": "1"},
        {"type": "report", "a_0": "1", "castle": ["999"]},
        {"type": "nonsense"},
        {},
    ],
)
def test_a_hostile_move_form_answers_400_and_writes_nothing(client, alice, bob, fields):
    session = services.session_create(
        game="samurai_empires",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup={
            "mode": "multiplayer",
            "players": [{"name": "alice", "training_ground": 2}, {"name": "bob"}],
            "board": BOARD,
        },
    )
    client.force_login(alice)
    response = _post_move(client, session, fields)
    assert response.status_code == 400, response.content.decode()[:1000]
    session.refresh_from_db()
    assert session.head_seq == 0


@pytest.mark.parametrize(
    "fields",
    [
        {"type": "place", "spot": "x"},
        {"type": "place", "spot": "9:1"},
        {"type": "place", "spot": "-1:1"},
        {"type": "place", "spot": "0:99"},
        {"type": "place"},
        {"type": "resolve"},
        {"type": "report", "castle": ["a"]},
        {"type": "report", "a_0": "17"},
        {"type": "pass"},
        {"type": "era_score"},
    ],
)
def test_a_hostile_solo_move_answers_400(client, alice, fields):
    session = _solo_session(alice)
    client.force_login(alice)
    response = _post_move(client, session, fields)
    assert response.status_code == 400, response.content.decode()[:1000]


def test_the_solo_step_line_and_the_ais_are_said_in_dutch_on_the_dutch_page(alice, client):
    # The AIs plan first in round 1: an AI step's line names "Gele AI"/"Blauwe AI", never "Yellow AI"/"Blue AI".
    session = _solo_session(alice)
    step = {"type": "ai_step"}
    for _ in range(2):
        services.move_record(session=session, seq=session.head_seq, move=step, user=alice)
        session.refresh_from_db()
    client.force_login(alice)
    english = client.get(f"/tables/{session.code}/").content.decode()
    assert "Blue AI draws" in english or "Yellow AI draws" in english
    nl = client.get(f"/tables/{session.code}/", **DUTCH).content.decode()
    line = nl.split('class="sse-step"', 1)[1].split("</p>", 1)[0]
    assert "AI draws" not in line and "places a face-down token" not in line
    assert "Yellow AI" not in nl and "Blue AI" not in nl


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "1 Army in Kanto North", "2 Armies in Kanto North"),
        ("nl", "1 Leger in Kanto North", "2 Legers in Kanto North"),
    ],
)
def test_armies_are_counted_in_words_one_army_never_1_armies(language, one, two):
    from django.utils import translation

    from games.plugins import get_game

    game = get_game("samurai_empires")
    with translation.override(language):
        said = [
            game.say({"code": "samurai_empires.armies_in", "params": {"n": n, "province": "Kanto North"}}, "")
            for n in (1, 2)
        ]
    assert said == [one, two]
