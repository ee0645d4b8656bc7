"""Query budgets of Small Samurai Empires' pages (issue 16): the table page (solo and multiplayer), a move post
and the statistics page each cost a fixed number of queries, the same with a short and a long history."""

from __future__ import annotations

import pytest
from django.conf import settings

from games import services as game_services
from games.engines import get_engine
from games.models import GameStatsTally, MoveEvent, Seat, TableSession
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import multiplayer, random_legal_game, solo_setup

pytestmark = pytest.mark.django_db
SESSION = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1
BADGE = 1  # the nav's "to sign" count for a signed-in member (issue 39): one query
SIZES = [10, 1000]
ENGINE = get_engine("samurai_empires")


def _table(alice, players, setup: dict, rows: int, move: dict) -> TableSession:
    """A table whose log holds `rows` entries; its cached state is left at the start so `move` can be posted."""
    session = game_services.session_create(game="samurai_empires", created_by=alice, players=players, setup=setup)
    MoveEvent.objects.bulk_create(
        MoveEvent(
            session=session,
            seq=seq,
            kind=MoveEvent.Kind.MOVE,
            payload=move,
            description=f"move {seq}",
            entered_by=alice,
        )
        for seq in range(1, rows + 1)
    )
    TableSession.objects.filter(pk=session.pk).update(head_seq=rows)
    session.refresh_from_db()
    return session


def _solo(alice, rows):
    return _table(alice, [player_for_user(alice)], solo_setup(seed=9), rows, {"type": "ai_step"})


def _three(alice, bob, carol, rows):
    setup = multiplayer(3)
    move = {"type": "era_score", "era": 1, "scores": [{}, {}, {}]}
    return _table(alice, [player_for_user(u) for u in (alice, bob, carol)], setup, rows, move)


@pytest.mark.parametrize("rows", SIZES)
def test_the_solo_table_page_costs_the_same_with_a_long_log(client, alice, rows, django_assert_num_queries):
    session = _solo(alice, rows)
    client.force_login(alice)
    with django_assert_num_queries(4 + SESSION + BADGE):
        response = client.get(f"/tables/{session.code}/")
    assert response.status_code == 200 and f"move {rows - 1}" in response.content.decode()


@pytest.mark.parametrize("rows", SIZES)
def test_the_score_sheet_page_costs_the_same_with_a_long_log(
    client, alice, bob, carol, rows, django_assert_num_queries
):
    session = _three(alice, bob, carol, rows)
    client.force_login(bob)
    with django_assert_num_queries(4 + SESSION + BADGE):
        response = client.get(f"/tables/{session.code}/")
    assert response.status_code == 200 and 'data-move="era_score"' in response.content.decode()


@pytest.mark.parametrize("rows", SIZES)
def test_a_solo_move_post_costs_the_same_with_a_long_log(api, alice, rows, django_assert_num_queries):
    session = _solo(alice, rows)
    api.login(alice)
    with django_assert_num_queries(5 + SESSION):  # the log entry and the new state in one statement
        response = api.post(f"/api/tables/{session.code}/moves/", {"seq": rows, "move": {"type": "ai_step"}})
    assert response.status_code == 201, response.content


@pytest.mark.parametrize("rows", SIZES)
def test_a_score_sheet_post_through_the_page_costs_the_same_with_a_long_log(
    client, alice, bob, carol, rows, django_assert_num_queries
):
    session = _three(alice, bob, carol, rows)
    client.force_login(alice)
    # a new key is not looked up (its unique index would meet an earlier one), the entry and state in one statement;
    # the answer renders the row as the write left it, not read again with its seats (docs/architecture.md)
    with django_assert_num_queries(8 + SESSION):
        response = client.post(
            f"/tables/{session.code}/move/",
            {"seq": rows, "key": "k", "type": "era_score", "p0_place0": "1"},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200, response.content.decode()[:2000]


@pytest.mark.parametrize("tables", [1, 30])
def test_the_statistics_page_costs_the_same_with_many_tables(client, alice, tables, django_assert_num_queries):
    me = player_for_user(alice)
    solo_setup_, solo_moves = random_legal_game(4, "solo")
    three_setup, three_moves = random_legal_game(4, "multiplayer", 3)
    finished = []
    for setup, moves in ((solo_setup_, solo_moves), (three_setup, three_moves)):
        state = ENGINE.initial_state(setup)
        for move in moves:
            state = ENGINE.apply(state, move)
        finished.append((setup, state, ENGINE.outcome(state).to_json()))
    sessions = TableSession.objects.bulk_create(
        TableSession(
            game="samurai_empires",
            rules_version="1",
            setup=setup,
            state=state,
            outcome=outcome,
            status=TableSession.Status.FINISHED,
            created_by=alice,
        )
        for _ in range(tables)
        for setup, state, outcome in finished
    )
    Seat.objects.bulk_create(Seat(session=s, position=0, player=me) for s in sessions)
    client.get("/games/samurai_empires/")  # the first read counts the tables into the game's stored tally, once
    with django_assert_num_queries(1):  # then a visitor's page reads that one row, however many tables it holds
        response = client.get("/games/samurai_empires/")
    page = response.content.decode()
    assert response.status_code == 200 and "Solo against the AIs" in page
    assert GameStatsTally.objects.get(game="samurai_empires").tally  # counted, not empty


@pytest.mark.parametrize("boards", [1, 30])
def test_the_new_table_page_costs_the_same_with_many_saved_boards(
    client, alice, club, boards, django_assert_num_queries
):
    from games.models import BoardSetup

    BoardSetup.objects.bulk_create(
        BoardSetup(club=club, game="samurai_empires", name=f"Board {i}", board={}) for i in range(boards)
    )
    client.force_login(alice)
    with django_assert_num_queries(6 + SESSION + BADGE):  # one of them: the club a new table starts in (issue 34)
        response = client.get("/tables/new/?game=samurai_empires")
    assert response.status_code == 200 and f"Board {boards - 1} ({club.name})" in response.content.decode()
