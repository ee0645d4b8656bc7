"""The move log's two hot statements, each with its database branch here and nowhere else (issue 28): appending
an entry together with the table's new projection, and locking a table found by its code. Services call
`append` and `locked_by_code` and never ask which database they run on.

On PostgreSQL both are one plain-SQL round trip; elsewhere (SQLite: the demo, `make run`) the ORM's statements.
What this holds up: bench/README.md's row "Issue 18: move posts >= 0.85x a minimal DRF endpoint" (`bench/load.py`,
the closed loop: 0.88x on the merged main, 3f22d18; the minimal endpoint is one locked row update and one insert,
bench/baseline_urls.py). The ORM's building of an insert, an update and a select cost more than PostgreSQL's
running them, and the ratio had little room. The plain ORM path below is the one to measure against it
(`bench/load.py` with `connection.vendor` forced off "postgresql") before this goes back to the ORM.
"""

from __future__ import annotations

import datetime
import json

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection

from .models import MoveEvent, TableSession


class KeyTaken(Exception):
    """The entry's insert met the table's unique (session, idempotency key): an earlier submission used the key."""


_APPEND_SQL = (
    f"WITH entry AS (INSERT INTO {MoveEvent._meta.db_table}"
    " (session_id, seq, kind, payload, description, phrase, entered_by_id, idempotency_key, created_at)"
    " VALUES (%(session)s, %(seq)s, %(kind)s, %(payload)s::jsonb, %(description)s, %(phrase)s::jsonb, %(user)s,"
    " %(key)s, %(now)s)"
    " ON CONFLICT (session_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id)"
    f" UPDATE {TableSession._meta.db_table} SET state = %(state)s::jsonb, outcome = %(outcome)s::jsonb,"
    " status = %(status)s, finished_at = %(finished_at)s, head_seq = %(seq)s, updated_at = %(now)s"
    " WHERE id = %(session)s AND EXISTS (SELECT 1 FROM entry) RETURNING (SELECT id FROM entry)"
)


def append(
    session: TableSession,
    *,
    user: AbstractBaseUser,
    kind: str,
    payload: dict,
    description: str,
    phrase: dict,
    idempotency_key: str | None,
    now: datetime.datetime,
) -> MoveEvent:
    """Append entry `session.head_seq + 1` and store the projection `session` already holds (state, outcome,
    status, finished_at), under the row lock the caller holds. The table's update happens only if the insert did:
    an insert that meets an earlier entry with the same idempotency key writes nothing and raises KeyTaken.
    On success `session.head_seq` and `updated_at` are the new ones."""
    seq = session.head_seq + 1
    if connection.vendor == "postgresql":
        event = _append_sql(
            session,
            user=user,
            kind=kind,
            payload=payload,
            description=description,
            phrase=phrase,
            idempotency_key=idempotency_key,
            seq=seq,
            now=now,
        )
    else:
        event = _append_orm(
            session,
            user=user,
            kind=kind,
            payload=payload,
            description=description,
            phrase=phrase,
            idempotency_key=idempotency_key,
            seq=seq,
        )
    return event


def _append_sql(
    session: TableSession, *, user, kind, payload, description, phrase, idempotency_key, seq, now
) -> MoveEvent:
    """One statement (one round trip): a WITH that inserts the entry and updates the table."""
    with connection.cursor() as cursor:
        cursor.execute(
            _APPEND_SQL,
            {
                "session": session.pk,
                "seq": seq,
                "kind": kind,
                "payload": json.dumps(payload),
                "description": description,
                "phrase": json.dumps(phrase),
                "user": user.pk,
                "key": idempotency_key,
                "now": now,
                "state": json.dumps(session.state),
                "outcome": None if session.outcome is None else json.dumps(session.outcome),
                "status": session.status,
                "finished_at": session.finished_at,
            },
        )
        row = cursor.fetchone()
    if row is None:
        raise KeyTaken
    session.head_seq, session.updated_at = seq, now
    event = MoveEvent(
        id=row[0],
        session=session,
        seq=seq,
        kind=kind,
        payload=payload,
        description=description,
        phrase=phrase,
        entered_by=user if user.pk else None,
        idempotency_key=idempotency_key,
        created_at=now,
    )
    event._state.adding, event._state.db = False, connection.alias
    return event


def _append_orm(session: TableSession, *, user, kind, payload, description, phrase, idempotency_key, seq) -> MoveEvent:
    """The plain way, for a database without INSERT in a WITH (SQLite): the key looked up first, then the insert
    and the update (`updated_at` is the row's auto_now)."""
    if idempotency_key and session.events.filter(idempotency_key=idempotency_key).exists():
        raise KeyTaken
    event = MoveEvent.objects.create(
        session=session,
        seq=seq,
        kind=kind,
        payload=payload,
        description=description,
        phrase=phrase,
        entered_by=user,
        idempotency_key=idempotency_key,
    )
    session.head_seq = seq
    session.save(update_fields=["state", "outcome", "status", "finished_at", "head_seq", "updated_at"])
    return event


LOCKED_FIELDS = (
    "id",
    "code",
    "game",
    "rules_version",
    "entry",
    "created_by_id",
    "club_id",
    "is_public",
    "status",
    "head_seq",
    "rebuilds",
    "state",
    "outcome",
    "created_at",
    "updated_at",
    "finished_at",
)  # not setup
_LOCKED_JSON = (LOCKED_FIELDS.index("state"), LOCKED_FIELDS.index("outcome"))
_LOCKED_SQL = f"SELECT {', '.join(LOCKED_FIELDS)} FROM {TableSession._meta.db_table} WHERE code = %s FOR UPDATE"


def locked_by_code(code: str) -> TableSession | None:
    """The table's row locked (inside the caller's transaction), found by its code, or None. On PostgreSQL one
    plain-SQL query whose jsonb columns arrive as text and are decoded as the ORM's JSONField would (by their
    place in LOCKED_FIELDS, named once above); elsewhere the ORM's lock. The set-up is left out (a move does not
    need it; it loads if asked)."""
    if connection.vendor != "postgresql":
        return TableSession.objects.select_for_update().filter(code=code).order_by().first()
    with connection.cursor() as cursor:
        cursor.execute(_LOCKED_SQL, [code])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for n in _LOCKED_JSON:
        values[n] = None if values[n] is None else json.loads(values[n])
    return TableSession.from_db(connection.alias, LOCKED_FIELDS, values)
