"""games/move_store.py: the move log's append and the lock by code, each branch (PostgreSQL's one statement and
the plain ORM, which SQLite runs) giving the same rows; and move_record's two ways of naming a table."""

import pytest
from django.db import connection, transaction
from django.http import Http404
from django.utils import timezone

from games import move_store, services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, TableSession
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["postgresql", "plain ORM"])
def branch(request, monkeypatch):
    """Each test runs on the store's PostgreSQL branch and on its ORM branch (the vendor made to look other)."""
    assert connection.vendor == "postgresql"
    if request.param == "plain ORM":
        monkeypatch.setattr(connection, "vendor", "sqlite")
    return request.param


@pytest.fixture
def table(alice, bob):
    setup, moves = random_legal_game(5, 2)
    session = services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
    )
    return session, moves


def _append(session, user, key):
    with transaction.atomic():
        locked = move_store.locked_by_code(session.code)
        locked.state = {**locked.state, "marker": key}
        return locked, move_store.append(
            locked,
            user=user,
            kind=MoveEvent.Kind.MOVE,
            payload={"type": "x"},
            description="x",
            phrase={},
            idempotency_key=key,
            now=timezone.now(),
        )


def test_append_writes_the_entry_and_the_projection(branch, table, alice):
    session, _moves = table
    locked, event = _append(session, alice, "k1")
    assert (locked.head_seq, event.seq, event.pk is not None) == (1, 1, True)
    stored = TableSession.objects.get(pk=session.pk)
    assert stored.head_seq == 1 and stored.state["marker"] == "k1"
    assert MoveEvent.objects.get(pk=event.pk).idempotency_key == "k1"


def test_a_key_used_before_raises_and_writes_nothing(branch, table, alice):
    session, _moves = table
    _append(session, alice, "k1")
    with pytest.raises(move_store.KeyTaken):
        _append(session, alice, "k1")
    stored = TableSession.objects.get(pk=session.pk)
    assert stored.head_seq == 1 and MoveEvent.objects.filter(session=session).count() == 1


def test_locked_by_code_reads_the_row_as_the_orm_does(branch, table):
    session, _moves = table
    with transaction.atomic():
        locked = move_store.locked_by_code(session.code)
        assert move_store.locked_by_code("NOSUCH") is None
    plain = TableSession.objects.get(pk=session.pk)
    for field in ("pk", "code", "game", "status", "head_seq", "state", "outcome", "created_by_id", "is_public"):
        assert getattr(locked, field) == getattr(plain, field), field
    assert isinstance(locked.state, dict)


def test_move_record_takes_a_session_or_a_code(table, alice):
    session, moves = table
    services.move_record(code=session.code, seq=0, move=moves[0], user=alice)
    services.move_record(session=session, seq=1, move=moves[1], user=alice)
    assert TableSession.objects.get(pk=session.pk).head_seq == 2
    with pytest.raises(Http404):
        services.move_record(code="NOSUCH", seq=2, move=moves[2], user=alice)
    for both_or_neither in ({"session": session, "code": session.code}, {}):
        with pytest.raises(TypeError):
            services.move_record(**both_or_neither, seq=2, move=moves[2], user=alice)
    assert TableSession.objects.get(pk=session.pk).head_seq == 2  # nothing written by the refusals
