"""The rating history becomes a table partitioned by scope key (PostgreSQL only; the model does not change).

Why: a full recompute of a scope can then write its history into a fresh table with no index, build the indexes
in bulk and swap the table in for the scope's partition (leagues/rating/partitions.py): at 1,000,000 results,
keeping four indexes up to date row by row was the recompute's critical path (bench/HISTORY.md, issue 18).

LIST on `key` alone: league keys are ids (digits) and game slugs are never all digits, so a key names one scope.
A partitioned table's primary key and unique constraints must hold the partition key: the primary key becomes
(id, key) in the database (Django still uses `id`, which the sequence keeps unique), the unique constraint
(result, kind, key, player) already holds it. The identity column becomes a sequence default (PostgreSQL 15 has
no identity on a partitioned table), owned by the column so that Django's sequence resets still find it. Each
existing scope gets its partition named as the store names them; a DEFAULT partition takes the rows of scopes
without one (the ORM's writes), every partition at fillfactor 50 (migration 0007). The indexes are built after
the rows are in, with the names the plain table had, so later migrations find them.
"""

import hashlib

from django.db import migrations

PARENT = "leagues_ratingevent"
PLAIN = "leagues_ratingevent_plain"
SEQUENCE = "leagues_ratingevent_id_seq"
COLUMNS = "id, kind, key, played_on, mu_before, sigma_before, mu_after, sigma_after, player_id, result_id"


def partition_name(key: str) -> str:
    """A frozen copy of leagues.rating.partitions.partition_name (the store finds the partitions by it)."""
    return f"{PARENT}_{hashlib.md5(key.encode()).hexdigest()[:12]}"


def _indexes(cursor, table):
    """(name, constraint type or None, columns) of each index of `table`."""
    cursor.execute(
        "SELECT i.relname, c.contype, array_agg(a.attname ORDER BY k.n) FROM pg_index x "
        "JOIN pg_class i ON i.oid = x.indexrelid "
        "LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid "
        "CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, n) "
        "JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum "
        "WHERE x.indrelid = %s::regclass GROUP BY i.relname, c.contype ORDER BY i.relname", [table])
    return cursor.fetchall()


def partition(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    from psycopg import sql

    run = schema_editor.execute
    with schema_editor.connection.cursor() as cursor:
        indexes = _indexes(cursor, PARENT)
        run(f"ALTER TABLE {PARENT} RENAME TO {PLAIN}")
        for name, constraint, _ in indexes:
            run(f"ALTER TABLE {PLAIN} DROP CONSTRAINT {name}" if constraint else f"DROP INDEX {name}")
        run(f"ALTER TABLE {PLAIN} ALTER COLUMN id DROP IDENTITY IF EXISTS")
        run(f"ALTER TABLE {PLAIN} ALTER COLUMN id DROP DEFAULT")
        run(f"CREATE SEQUENCE {SEQUENCE} AS bigint")
        run(f"CREATE TABLE {PARENT} (LIKE {PLAIN}) PARTITION BY LIST (key)")
        run(f"ALTER TABLE {PARENT} ALTER COLUMN id SET DEFAULT nextval('{SEQUENCE}')")
        run(f"ALTER SEQUENCE {SEQUENCE} OWNED BY {PARENT}.id")
        run(f"CREATE TABLE {PARENT}_default PARTITION OF {PARENT} DEFAULT WITH (fillfactor = 50)")
        cursor.execute(f"SELECT DISTINCT key FROM {PLAIN}")
        for (key,) in cursor.fetchall():
            bound = sql.Literal(key).as_string(cursor.cursor.connection)
            run(f"CREATE TABLE {partition_name(key)} PARTITION OF {PARENT} FOR VALUES IN ({bound}) "
                "WITH (fillfactor = 50)")
        run(f"INSERT INTO {PARENT} ({COLUMNS}) SELECT {COLUMNS} FROM {PLAIN}")
        run(f"SELECT setval('{SEQUENCE}', COALESCE((SELECT max(id) FROM {PLAIN}), 0) + 1, false)")
        run(f"DROP TABLE {PLAIN}")
        for name, constraint, columns in indexes:
            if constraint == "p":
                run(f"ALTER TABLE {PARENT} ADD CONSTRAINT {name} PRIMARY KEY ({', '.join([*columns, 'key'])})")
            elif constraint == "u":
                run(f"ALTER TABLE {PARENT} ADD CONSTRAINT {name} UNIQUE ({', '.join(columns)})")
            else:
                run(f"CREATE INDEX {name} ON {PARENT} ({', '.join(columns)})")
        run(f"ANALYZE {PARENT}")


def unpartition(apps, schema_editor):
    """Back to one plain table, made by Django from the model as it stood, with the rows and fillfactor 50."""
    if schema_editor.connection.vendor != "postgresql":
        return
    parts = f"{PARENT}_parts"
    run = schema_editor.execute
    with schema_editor.connection.cursor() as cursor:
        indexes = _indexes(cursor, PARENT)
        run(f"ALTER TABLE {PARENT} RENAME TO {parts}")
        for name, constraint, _ in indexes:
            run(f"ALTER TABLE {parts} DROP CONSTRAINT {name}" if constraint else f"DROP INDEX {name}")
        run(f"ALTER TABLE {parts} ALTER COLUMN id DROP DEFAULT")
        run(f"DROP SEQUENCE {SEQUENCE}")
        schema_editor.create_model(apps.get_model("leagues", "RatingEvent"))
        run(f"ALTER TABLE {PARENT} SET (fillfactor = 50)")
        run(f"INSERT INTO {PARENT} ({COLUMNS}) OVERRIDING SYSTEM VALUE SELECT {COLUMNS} FROM {parts}")
        run(f"SELECT setval(pg_get_serial_sequence('{PARENT}', 'id'), "
            f"COALESCE((SELECT max(id) FROM {parts}), 0) + 1, false)")
        run(f"DROP TABLE {parts}")


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0015_latest_first"),
    ]

    operations = [
        migrations.RunPython(partition, unpartition),
    ]
