"""Tables played before the log kept phrases: replaying their logs says every entry as it was said when entered."""

import io

import pytest
from django.core.management import call_command

from games import services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent
from games.phrase_backfill import phrases_backfill
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import random_legal_game as samurai_empires_game


def _played(game, setup, moves, user, players, *, undo_after=None):
    session = services.session_create(game=game, created_by=user, players=players, setup=setup)
    seq = 0
    for n, move in enumerate(moves):
        services.move_record(session=session, seq=seq, move=move, user=user)
        seq += 1
        if n == undo_after:  # take it back and enter it again: an undo entry and a move logged twice
            services.move_undo(session=session, seq=seq, user=user)
            services.move_record(session=session, seq=seq + 1, move=move, user=user)
            seq += 2
    return session


def _said(session) -> dict[int, dict]:
    return dict(session.events.values_list("seq", "phrase"))


@pytest.mark.django_db
def test_old_logs_are_said_again_exactly_as_the_site_says_new_ones(alice, bob, carol):
    players = [player_for_user(user) for user in (alice, bob, carol)]
    setup, moves = random_legal_game(3, 3)
    shitenno = _played("shitenno", setup, moves[:40], alice, players, undo_after=5)
    setup, moves = samurai_empires_game(5, mode="multi", n=3)
    empires = _played("samurai_empires", setup, moves[:30], alice, players, undo_after=2)
    as_entered = {table.code: _said(table) for table in (shitenno, empires)}
    assert all(phrase for said in as_entered.values() for phrase in said.values())
    assert any(p["code"] == "site.undo" for p in as_entered[shitenno.code].values())
    english = {table.code: dict(table.events.values_list("seq", "description")) for table in (shitenno, empires)}

    MoveEvent.objects.update(phrase={})  # as games migration 0005 left the tables played before it

    done = phrases_backfill()
    assert (done.tables, done.refused) == (2, {})
    assert done.entries == sum(len(said) for said in as_entered.values())
    for table in (shitenno, empires):
        assert _said(table) == as_entered[table.code]
        assert dict(table.events.values_list("seq", "description")) == english[table.code]  # the rest untouched
    assert phrases_backfill().entries == 0  # run again: nothing left to do


@pytest.mark.django_db
def test_a_log_its_engine_no_longer_replays_is_named_and_left_as_it_is(alice, bob):
    players = [player_for_user(user) for user in (alice, bob)]
    setup, moves = random_legal_game(1, 2)
    table = _played("shitenno", setup, moves[:6], alice, players)
    MoveEvent.objects.update(phrase={})
    MoveEvent.objects.filter(session=table, seq=2).update(payload={"type": "no such move"})

    out = io.StringIO()
    call_command("phrases_backfill", stdout=out)

    assert set(phrases_backfill().refused) == {table.code}
    assert table.code in out.getvalue()
    assert not any(_said(table).values())
