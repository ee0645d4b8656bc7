"""A receiver of a table's signals refuses by raising (docs/architecture.md): raised after the move's entry is
inserted, the refusal takes the whole move back, even when the post carries an idempotency key. (move_record's
handling of refusals covers the writer's checks, the engine and the key only: it used to cover the signal too, so
a refusal there found the entry just inserted under the post's own key and answered it as a replay, keeping it.)"""

import pytest
from django.core.exceptions import PermissionDenied

from games import services, signals
from games.engines.base import IllegalMove
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, TableSession
from leagues.models import Result
from leagues.people.players import player_for_user
from shitenno_site.errors import Conflict

pytestmark = pytest.mark.django_db  # move_record's transaction is a savepoint here: a refusal rolls it back the same


@pytest.fixture
def last_move(alice, bob):
    """A two-player table one move from its end, and that move."""
    setup, moves = random_legal_game(3, 2)
    session = services.session_create(
        game="shitenno", created_by=alice, players=[player_for_user(alice), player_for_user(bob)], setup=setup
    )
    for seq, move in enumerate(moves[:-1]):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    session.refresh_from_db()
    return session, moves[-1]


@pytest.mark.parametrize(
    "refusal",
    [
        Conflict("This table's result already counts."),
        PermissionDenied("Not yours."),
        IllegalMove("The league says no.", code="league.no"),
    ],
)
def test_a_receiver_refusing_a_finished_table_takes_the_last_move_back(last_move, alice, refusal):
    session, move = last_move
    head, state = session.head_seq, session.state

    def refuse(sender, session, **kwargs):
        raise refusal

    signals.table_finished.connect(refuse, dispatch_uid="refuse-in-test")
    try:
        with pytest.raises(type(refusal)):
            services.move_record(session=session, seq=head, move=move, user=alice, idempotency_key="the-last-move")
    finally:
        signals.table_finished.disconnect(dispatch_uid="refuse-in-test")
    session.refresh_from_db()
    assert session.head_seq == head and session.state == state and session.status == TableSession.Status.PLAYING
    assert MoveEvent.objects.filter(session=session).count() == head
    assert not MoveEvent.objects.filter(idempotency_key="the-last-move").exists()
    assert not Result.objects.filter(session=session).exists()
    # the same post, once nothing refuses, is written as new: the refused one left no entry under its key
    recorded = services.move_record(session=session, seq=head, move=move, user=alice, idempotency_key="the-last-move")
    assert not recorded.replayed and recorded.session.status == TableSession.Status.FINISHED
