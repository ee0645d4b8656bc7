"""The rating history's partitions (PostgreSQL only): each scope's rows in a table of its own.

`leagues_ratingevent` is partitioned by LIST on `key` (migration 0016): a league scope's key is its league's id,
all digits, and a game scope's key is the game's slug, never all digits (`check_key`), so one key names one scope.
Rows of a scope without a partition of its own land in the DEFAULT partition (the ORM writes of tests and admin);
the store's first write to a scope gives it its partition (`ensure_partition`), moving those rows out first.

Why: a full recompute writes millions of rows, and keeping the table's four indexes up to date row by row cost
PostgreSQL twice as long as writing the rows (28-31 s of a 1,000,000-result recompute, bench/HISTORY.md). A full
recompute of a scope holding no rows therefore fills a fresh table with no index (`fill_partition`), builds its
indexes in bulk afterwards, and swaps it in for the scope's partition at the very end (`swap_partition`). Until
the swap nothing of the work touches the partitioned table, so readers and writers of every scope go on; the
swap (DETACH of the old partition) takes ACCESS EXCLUSIVE on the partitioned table until the commit, so it comes
last, waits at most `LOCK_TIMEOUT_MS` per try, and after `SWAP_TRIES` tries puts the rows into the scope's
partition in place instead (the old, slower path, which no reader waits for).

A partition's indexes are built from the partitioned table's own (`pg_get_indexdef`), so ATTACH adopts them
rather than building them again, and a future index on the model reaches the partitions by itself.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from typing import NamedTuple

from django.db import OperationalError, connection, transaction

from leagues.models import RatingEvent, RatingScope

log = logging.getLogger(__name__)

PARENT = RatingEvent._meta.db_table
DEFAULT = f"{PARENT}_default"
FILLFACTOR = 50  # room for the in-place (HOT) updates of a re-rate from a date: migration 0007
LOCK_TIMEOUT_MS = 200  # the longest a reader of the history waits behind one try of the swap
SWAP_TRIES = 5
INDEX_MEMORY = "256MB"  # maintenance_work_mem for building a full scope's indexes: sorts in memory at 1M results


class Swap(NamedTuple):
    """How a swap went: tries of the lock, seconds spent waiting, and whether it swapped or wrote in place."""

    key: str
    tries: int
    waited: float
    swapped: bool


def check_key(kind: str, key: str) -> None:
    """One partition per key holds one scope only if league keys (ids) and game slugs never look alike."""
    if (kind == RatingScope.LEAGUE) != key.isdigit():
        raise ValueError(f"a {kind} scope's key cannot be {key!r}: league keys are digits, game slugs never are")


def partition_name(key: str) -> str:
    """The scope's partition (migration 0016 names them the same way): the key hashed, as keys are free text."""
    return f"{PARENT}_{hashlib.md5(key.encode()).hexdigest()[:12]}"


def _literal(cursor, value: str) -> str:
    """A partition bound or CHECK is DDL, which takes no parameters: the key quoted by the driver."""
    from psycopg import sql

    return sql.Literal(value).as_string(cursor.cursor.connection)


def _exists(cursor, table: str) -> bool:
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [table])  # a catalog lookup: no lock on anything
    return cursor.fetchone()[0]


def _create_table(cursor, table: str, key: str) -> None:
    """An empty table shaped like the history, read from the catalog rather than `LIKE`, which would hold a lock
    on the partitioned table for the rest of the transaction. Its CHECK (key = ...) lets ATTACH skip the scan
    that proves every row belongs."""
    cursor.execute(
        "SELECT quote_ident(a.attname), format_type(a.atttypid, a.atttypmod), a.attnotnull, "
        "pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a "
        "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
        "WHERE a.attrelid = %s::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
        [PARENT],
    )
    columns = [
        f"{name} {kind}" + (" NOT NULL" if not_null else "") + (f" DEFAULT {default}" if default else "")
        for name, kind, not_null, default in cursor.fetchall()
    ]
    cursor.execute(
        f"CREATE TABLE {table} ({', '.join(columns)}, "
        f"CONSTRAINT scope_key CHECK (key = {_literal(cursor, key)})) WITH (fillfactor = {FILLFACTOR})"
    )


def _build_indexes(cursor, table: str) -> None:
    """The partitioned table's indexes and constraints on `table`, named after it, built in bulk."""
    cursor.execute(
        "SELECT pg_get_indexdef(x.indexrelid), c.contype, pg_get_constraintdef(c.oid) FROM pg_index x "
        "LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid "
        "WHERE x.indrelid = %s::regclass ORDER BY x.indexrelid",
        [PARENT],
    )
    for n, (index, constraint, definition) in enumerate(cursor.fetchall()):
        if constraint == "p":
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_pkey {definition}")
        elif constraint is not None:  # a unique constraint: ATTACH adopts only a constraint for a constraint
            cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_{n} {definition}")
        else:
            head = re.match(r"^CREATE (UNIQUE )?INDEX \S+ ON ONLY \S+ ", index)
            cursor.execute(f"CREATE {head.group(1) or ''}INDEX {table}_{n} ON {table} {index[head.end() :]}")


def _rename(cursor, table: str, to: str) -> None:
    """Rename `table` and its indexes (named after it by `_build_indexes`)."""
    cursor.execute(
        "SELECT i.relname FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = %s::regclass",
        [table],
    )
    for (index,) in cursor.fetchall():
        if index.startswith(table):
            cursor.execute(f"ALTER INDEX {index} RENAME TO {to}{index[len(table) :]}")
    cursor.execute(f"ALTER TABLE {table} RENAME TO {to}")


def _attach(cursor, table: str, key: str) -> None:
    cursor.execute(f"ALTER TABLE {PARENT} ATTACH PARTITION {table} FOR VALUES IN ({_literal(cursor, key)})")


def ensure_partition(key: str) -> None:
    """Give the scope its partition if it has none, moving its rows out of the default partition; the store
    calls this under the scope's lock before its incremental writes. Attaching takes SHARE UPDATE EXCLUSIVE on
    the partitioned table, which readers and writers do not wait for (other first writes do)."""
    name = partition_name(key)
    with connection.cursor() as cursor:
        if _exists(cursor, name):
            return
        _create_table(cursor, name, key)
        cursor.execute(
            f"WITH moved AS (DELETE FROM {DEFAULT} WHERE key = %s RETURNING *) INSERT INTO {name} SELECT * FROM moved",
            [key],
        )
        _build_indexes(cursor, name)
        _attach(cursor, name, key)


def holds_rows(key: str) -> bool:
    """Whether the scope's partition has rows (the default partition is not read: reading it would hold a lock
    that every other scope's ATTACH waits for, and its rows of the scope are replaced with the rest)."""
    name = partition_name(key)
    with connection.cursor() as cursor:
        if not _exists(cursor, name):
            return False
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {name})")
        return cursor.fetchone()[0]


def fill_partition(key: str, fill: Callable[[str], None]) -> str:
    """A fresh table for the scope's whole history: `fill(table)` writes the rows into it before it has any
    index, then its indexes are built in bulk and it is analysed, so the partition it becomes has statistics from
    its first query on (autovacuum would come minutes later, if at all before the next re-rate: issue 46 finding
    3). Returns the table, for `swap_partition`."""
    table = f"{partition_name(key)}_next"
    with connection.cursor() as cursor:
        _create_table(cursor, table, key)
        fill(table)
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [INDEX_MEMORY])
        _build_indexes(cursor, table)
        cursor.execute(f"ANALYZE {table}")
    return table


def _wait_before_retry(attempt: int) -> None:
    """Between two tries of the swap, let the readers queued behind the last try through."""
    time.sleep(0.05 * (attempt + 1))


def _lock_parent(cursor) -> tuple[bool, int, float]:
    """ACCESS EXCLUSIVE on the partitioned table, waiting at most LOCK_TIMEOUT_MS a try (in a savepoint, so a
    try that times out leaves the transaction usable). Returns (got it, tries, seconds spent)."""
    cursor.execute("SHOW lock_timeout")
    before = cursor.fetchone()[0]
    started = time.monotonic()
    for attempt in range(SWAP_TRIES):
        try:
            with transaction.atomic():
                cursor.execute("SELECT set_config('lock_timeout', %s, true)", [f"{LOCK_TIMEOUT_MS}ms"])
                cursor.execute(f"LOCK TABLE {PARENT} IN ACCESS EXCLUSIVE MODE")
        except OperationalError as error:
            if getattr(error.__cause__, "sqlstate", None) != "55P03":  # lock_not_available
                raise
            if attempt + 1 < SWAP_TRIES:
                _wait_before_retry(attempt)
            continue
        cursor.execute("SELECT set_config('lock_timeout', %s, true)", [before])
        return True, attempt + 1, time.monotonic() - started
    return False, SWAP_TRIES, time.monotonic() - started


def swap_partition(key: str, table: str) -> Swap:
    """Make `table` (from `fill_partition`) the scope's partition, dropping the old one and any rows of the scope
    left in the default partition. The caller's transaction should commit soon after: the partitioned table
    stays locked until then."""
    name = partition_name(key)
    with connection.cursor() as cursor:
        locked, tries, waited = _lock_parent(cursor)
        swap = Swap(key=key, tries=tries, waited=waited, swapped=locked)
        log.info(
            "rating history of %s: %s after %d tries, %.3f s waiting for the lock",
            key,
            "swapped in" if locked else "put in place",
            tries,
            waited,
        )
        if not locked:  # readers kept the table busy: write the rows in place, which nobody waits for
            cursor.execute(f"DELETE FROM {DEFAULT} WHERE key = %s", [key])
            # without a partition (attaching one would wait for the readers of the default) the rows go to the
            # default partition, and the scope's next store write moves them out
            target = name if _exists(cursor, name) else DEFAULT
            if target == name:
                cursor.execute(f"DELETE FROM {name}")
            cursor.execute(f"INSERT INTO {target} SELECT * FROM {table}")
            if target == name:  # the default partition holds every scope's strays: autovacuum's to analyse
                cursor.execute(f"ANALYZE {name}")
            cursor.execute(f"DROP TABLE {table}")
            return swap
        if _exists(cursor, name):
            cursor.execute(f"ALTER TABLE {PARENT} DETACH PARTITION {name}")
            cursor.execute(f"DROP TABLE {name}")
        cursor.execute(f"DELETE FROM {DEFAULT} WHERE key = %s", [key])
        _rename(cursor, table, name)
        _attach(cursor, name, key)
    return swap
