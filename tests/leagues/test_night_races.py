# ruff: noqa: F811  (the fixtures imported from test_night_games are parameters here, by name)
"""Race-free league nights, on the real PostgreSQL (issues 34 and 36).

Every change to a night's round takes the night's row lock and reads the round again inside it: "open" and
"propose again" at once follow one another, and every opened table keeps its table session. A lock takes only the
row it needs (`of=("self",)`, no ordering join): "leave early" does not lock the night, season, league or club
rows, so it cannot deadlock an import that holds the club's row."""

import re
import threading
import time
from pathlib import Path
from unittest import mock

import pytest
from django.db import connection, transaction

from games.models import TableSession
from leagues.models import NightRound, NightTable
from leagues.nights import services

from .test_night_games import SHITENNO, members, open_night, season  # noqa: F401 (fixtures)


def on_postgresql(test):
    """Row locks seen from a second connection: PostgreSQL's, with the rows committed for it to see."""
    test = pytest.mark.django_db(transaction=True)(test)
    return pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks seen from a second connection")(test)


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def _second_connection():
    import psycopg

    db = connection.settings_dict
    return psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], password=db["PASSWORD"] or None
    )


def _in_thread(target, outcome: dict, name: str) -> threading.Thread:
    def run() -> None:
        try:
            outcome[name] = target()
        except Exception as error:  # noqa: BLE001 (reported by the test's assertions)
            outcome[name] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@on_postgresql
def test_open_and_propose_again_at_once_follow_one_another_and_every_table_keeps_its_session(season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    first = services.round_propose(night=night, user=alice)
    real_open = services.game_services.table_open
    opening, go = threading.Event(), threading.Event()

    def table_open_held(**kwargs):
        """The first table's session is being made: hold "open" here, inside its transaction."""
        if not opening.is_set():
            opening.set()
            assert go.wait(30), "the test never let the opening go on"
        return real_open(**kwargs)

    outcome: dict = {}
    with mock.patch.object(services.game_services, "table_open", table_open_held):
        opener = _in_thread(lambda: services.tables_open(night_round=first, user=alice), outcome, "open")
        assert opening.wait(30), "the opening never reached its first table"
        proposer = _in_thread(lambda: services.round_propose(night=night, user=alice), outcome, "propose")
        deadline = time.monotonic() + 30
        while not _waiting_on_a_lock() and time.monotonic() < deadline and proposer.is_alive():
            time.sleep(0.02)
        raced = _waiting_on_a_lock()  # the race happened: "propose again" came while "open" was half-way
        go.set()
        opener.join(60)
        proposer.join(60)
    assert raced, f"'propose again' did not wait for the opening: {outcome}"
    assert not isinstance(outcome["open"], Exception), outcome["open"]
    assert not isinstance(outcome["propose"], Exception), outcome["propose"]
    opened = NightTable.objects.filter(round=first).order_by("position")
    assert [t.session_id is not None for t in opened] == [True, True]
    assert TableSession.objects.count() == 2
    assert sorted(TableSession.objects.values_list("pk", flat=True)) == sorted(t.session_id for t in opened)
    for table in opened:  # each session seats its table's players, in seat order
        assert list(table.session.seats.order_by("position").values_list("player_id", flat=True)) == table.players
    assert outcome["propose"].number == 2  # it read the round after the opening: the next round, not this one
    assert NightRound.objects.get(pk=first.pk).opened_at is not None


def _nowait(holder, table: str, pk: int) -> bool:
    """Whether a second connection can lock the row at once (False: someone holds it)."""
    import psycopg

    try:
        holder.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE NOWAIT", [pk])  # noqa: S608 (our names)
    except psycopg.errors.LockNotAvailable:
        holder.rollback()
        return False
    holder.rollback()
    return True


@on_postgresql
def test_leave_early_locks_only_the_check_in_s_row(season, alice, members):
    night = open_night(season, alice, members[:4], games=[SHITENNO], table_sizes=[4])
    check_in = night.check_ins.get(player=members[1].player)
    league, club = season.league, season.league.club
    holder = _second_connection()
    try:
        with transaction.atomic():
            services.night_leave(night=night, user=members[1])
            free = {
                name: _nowait(holder, table, pk)
                for name, table, pk in [
                    ("club", "leagues_club", club.pk),
                    ("league", "leagues_league", league.pk),
                    ("season", "leagues_season", season.pk),
                    ("night", "leagues_night", night.pk),
                    ("check-in", "leagues_nightcheckin", check_in.pk),
                ]
            }
    finally:
        holder.close()
    assert free == {"club": True, "league": True, "season": True, "night": True, "check-in": False}


@on_postgresql
def test_a_round_change_locks_the_night_s_row_and_no_other(season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    league, club = season.league, season.league.club
    holder = _second_connection()
    try:
        with transaction.atomic():
            services.round_propose(night=night, user=alice)
            free = {
                name: _nowait(holder, table, pk)
                for name, table, pk in [
                    ("club", "leagues_club", club.pk),
                    ("league", "leagues_league", league.pk),
                    ("season", "leagues_season", season.pk),
                    ("night", "leagues_night", night.pk),
                ]
            }
    finally:
        holder.close()
    assert free == {"club": True, "league": True, "season": True, "night": False}


def test_every_row_lock_in_league_nights_names_its_own_row_only():
    """A source rule, so a new service cannot bring the ordering join back: `select_for_update(of=("self",))`."""
    source = "\n".join(p.read_text() for p in Path(services.__file__).parent.glob("*.py"))
    calls = re.findall(r"select_for_update\(.*", source)
    assert calls and all(call.startswith('select_for_update(of=("self",))') for call in calls), calls
