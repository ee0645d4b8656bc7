"""The backup procedure of docs/operations.md works: .ci/backup-restore-check dumps the test database with
pg_dump -Fc, restores it into a scratch database and finds the same row counts in every table."""

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.db import connection

from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent
from leagues.club.clubs import club_create, club_join
from leagues.people.players import player_for_user

SCRIPT = Path(__file__).resolve().parents[2] / ".ci" / "backup-restore-check"

pytestmark = [
    pytest.mark.django_db(transaction=True),  # the script reads the database from outside: rows must be committed
    pytest.mark.skipif(shutil.which("pg_dump") is None, reason="needs the PostgreSQL client tools"),
]


def run_check(database: str) -> subprocess.CompletedProcess:
    db = connection.settings_dict
    env = {
        **os.environ,
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"] or "postgres",
    }
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = db["PASSWORD"]
    return subprocess.run([str(SCRIPT), database], env=env, capture_output=True, text=True, timeout=240)


def scratch_databases() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database WHERE datname LIKE 'restore_check_%%'")
        return {row[0] for row in cursor.fetchall()}


def test_the_backup_restores_with_the_same_row_counts(alice, bob, carol):
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump backs up PostgreSQL only")
    club = club_create(name="Edo Gamers", owner=alice)
    club_join(token=club.invite_token, user=carol)
    setup, moves = random_legal_game(1, 2)
    session = game_services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
        club=club,
    )
    for move in moves[:3]:
        game_services.move_record(session=session, seq=session.head_seq, move=move, user=alice)
        session.refresh_from_db()
    game_services.move_undo(session=session, seq=session.head_seq, user=alice)
    scratch_before = scratch_databases()

    done = run_check(connection.settings_dict["NAME"])

    assert done.returncode == 0, done.stdout + done.stderr
    assert "pg_dump -Fc" in done.stdout and "pg_restore" in done.stdout
    assert re.search(r"^leagues_player\s+3\s+3$", done.stdout, re.M), done.stdout
    assert re.search(r"^leagues_membership\s+2\s+2$", done.stdout, re.M)
    assert re.search(r"^games_tablesession\s+1\s+1$", done.stdout, re.M)
    assert MoveEvent.objects.filter(session=session).count() == 4
    assert re.search(r"^games_moveevent\s+4\s+4$", done.stdout, re.M)
    assert re.search(r"^leagues_auditentry\s+2\s+2$", done.stdout, re.M)  # carol's joining and the undo
    assert re.search(r"^OK: \d+ tables, the same row counts", done.stdout, re.M)
    assert scratch_databases() == scratch_before  # the scratch copy is dropped


def test_it_fails_on_a_database_it_cannot_back_up():
    done = run_check("no_such_database_for_backup_check")
    assert done.returncode != 0
    assert "no_such_database_for_backup_check" in done.stderr
