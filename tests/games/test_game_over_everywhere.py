"""A move on a finished table is refused as the engines refuse it: IllegalMove, rule `<game>.game_over`, for every
game, whether the site's own check (the table is no longer playing) or the engine says so."""

import random

import pytest

from games import services
from games.engines import get_engine
from games.engines.base import IllegalMove, replay
from games.models import MoveEvent, TableSession
from games.plugins import get_game
from leagues.models import Player
from tests.games.engines.samurai_empires.tables import random_legal_move, solo_setup

pytestmark = pytest.mark.django_db


def _game(slug: str) -> tuple[dict, list[dict], int]:
    """A complete legal game of `slug` (set-up, moves) and its number of seats."""
    if slug == "samurai_empires":
        engine, rng, setup, moves = get_engine(slug), random.Random(5), solo_setup(seed=5), []
        state = engine.initial_state(setup)
        while state["phase"] != "over":
            moves.append(random_legal_move(rng, state))
            state = engine.apply(state, moves[-1])
        return setup, moves, 1
    setup, moves = get_game(slug).demo_game(1, 2)
    return setup, moves, len(setup["players"] if slug == "shitenno" else setup["clans"])


def _finished(slug: str, alice) -> tuple[TableSession, dict]:
    """A table of `slug` played to its end (its log written as the services write it, in one go for speed), and
    its last move, to try again."""
    setup, moves, seats = _game(slug)
    players = [Player.objects.create(name=f"Seat {i}", created_by=alice) for i in range(seats)]
    session = services.session_create(game=slug, created_by=alice, players=players, setup=setup)
    engine = get_engine(slug)
    final = replay(engine, setup, moves)
    MoveEvent.objects.bulk_create(
        MoveEvent(
            session=session,
            seq=seq,
            kind=MoveEvent.Kind.MOVE,
            payload=move,
            description=f"move {seq}",
            entered_by=alice,
        )
        for seq, move in enumerate(moves, start=1)
    )
    TableSession.objects.filter(pk=session.pk).update(
        state=final, head_seq=len(moves), status=TableSession.Status.FINISHED, outcome=engine.outcome(final).to_json()
    )
    session.refresh_from_db()
    return session, moves[-1]


@pytest.mark.parametrize("slug", ["shitenno", "teikoku", "samurai_empires"])
def test_a_move_on_a_finished_table_is_illegal_for_the_game_over_rule(api, alice, slug):
    session, last = _finished(slug, alice)
    engine_says = pytest.raises(IllegalMove)
    with engine_says as refused:
        get_engine(slug).apply(session.state, last)
    assert refused.value.code == f"{slug}.game_over"  # the engine's own words for it

    before = (session.head_seq, MoveEvent.objects.filter(session=session).count(), session.state)
    response = api.login(alice).post(f"/api/tables/{session.code}/moves/", {"seq": session.head_seq, "move": last})
    assert response.status_code == 400
    assert (response.json()["code"], response.json()["rule"]) == ("IllegalMove", f"{slug}.game_over")
    session.refresh_from_db()
    assert (session.head_seq, MoveEvent.objects.filter(session=session).count(), session.state) == before
