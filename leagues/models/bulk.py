"""Set-based writes for derived tables (rating history, ratings, standings).

`replace_rows(scope, rows, ...)` makes the rows of `scope` be exactly `rows`: new ones inserted, changed
ones updated in place (ids kept), unchanged ones untouched, the rest deleted. On PostgreSQL the rows go
through COPY into a temporary table and one INSERT ... ON CONFLICT, one DELETE; elsewhere (the SQLite
demo) through the ORM's bulk upsert.

For millions of rows (the rating history) PostgreSQL also gets binary COPY both ways: `copy_out_fixed`
reads a query of fixed-size columns as bytes that `field_bytes`/`to_array` slice into columns without a
Python object per row; `binary_rows` builds rows to write the same way; `copy_in_binary` streams them into a
table from a second thread, and `replace_binary` is `replace_rows` for such rows.

A few hundred rows are written in one statement with each column as one array parameter; `array_literal`
spells such an array as PostgreSQL's text literal, several times cheaper to build than psycopg's own
element-by-element adaptation.

A temporary table is made and dropped inside one transaction (the caller's, or one begun here): behind a pooler
in transaction mode (PgBouncer) the next transaction may run on another server connection, which never saw it.
"""

import sys
from array import array
from collections.abc import Iterable, Sequence

from django.db import connection, models, transaction

_TEMP = "bulk_rows"
_ANALYZE_FROM = 1000  # rows; below that the plans are cheap whatever the statistics say


def replace_rows(scope: models.QuerySet, rows: Iterable[dict], *, unique: Sequence[str], update: Sequence[str]) -> None:
    """Make `scope` hold exactly `rows`: dicts of field name -> value (a foreign key by its id), keyed by the
    `unique` fields, which must carry a unique constraint. On PostgreSQL `rows` is streamed, never held."""
    model = scope.model
    if connection.vendor == "postgresql":
        _replace_postgresql(scope, rows, unique, update)
        return
    rows = list(rows)
    attname = {name: model._meta.get_field(name).attname for name in (*unique, *update)}
    model.objects.bulk_create(
        [model(**{attname[name]: value for name, value in row.items()}) for row in rows],
        batch_size=2000,
        update_conflicts=True,
        unique_fields=list(unique),
        update_fields=list(update),
    )
    wanted = {tuple(row[name] for name in unique) for row in rows}
    gone = [pk for pk, *key in scope.values_list("pk", *(attname[name] for name in unique)) if tuple(key) not in wanted]
    model.objects.filter(pk__in=gone).delete()


def _replace_postgresql(
    scope: models.QuerySet, rows: Iterable[dict], unique: Sequence[str], update: Sequence[str]
) -> None:
    meta = scope.model._meta
    table = connection.ops.quote_name(meta.db_table)
    fields = [*unique, *update]
    columns = [connection.ops.quote_name(meta.get_field(name).column) for name in fields]
    keys = columns[: len(unique)]
    cols = ", ".join(columns)
    scope_sql, scope_params = scope.values("pk").query.sql_with_params()
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:  # the temporary table's life
        cursor.execute(f"CREATE TEMPORARY TABLE {_TEMP} AS SELECT {cols} FROM {table} WITH NO DATA")
        try:
            copied = 0
            with cursor.cursor.copy(f"COPY {_TEMP} ({cols}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row([row[name] for name in fields])
                    copied += 1
            if copied > _ANALYZE_FROM:  # fresh statistics let the planner hash-join, not loop per row
                cursor.execute(f"ANALYZE {_TEMP}")
            changed = " OR ".join(f"{table}.{c} IS DISTINCT FROM EXCLUDED.{c}" for c in columns[len(unique) :])
            cursor.execute(
                f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {_TEMP} "
                f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET "
                + ", ".join(f"{c} = EXCLUDED.{c}" for c in columns[len(unique) :])
                + (f" WHERE {changed}" if changed else "")
            )
            if copied > _ANALYZE_FROM:
                cursor.execute(f"ANALYZE {table}")
            match = " AND ".join(f"{_TEMP}.{c} = {table}.{c}" for c in keys)
            cursor.execute(
                f"DELETE FROM {table} WHERE {connection.ops.quote_name(meta.pk.column)} IN ({scope_sql}) "
                f"AND NOT EXISTS (SELECT 1 FROM {_TEMP} WHERE {match})",
                scope_params,
            )
        finally:
            cursor.execute(f"DROP TABLE {_TEMP}")


# --- binary COPY of fixed-size columns (PostgreSQL only) ---

_SIGNATURE = b"PGCOPY\n\xff\r\n\0" + bytes(8)  # signature, flags, header extension length
_TRAILER = b"\xff\xff"


def copy_out_fixed(sql: str, params: Sequence, sizes: Sequence[int]) -> tuple[bytes, int, list[int]]:
    """Run `COPY (sql) TO STDOUT (FORMAT BINARY)` for a query whose columns are NOT NULL and of the fixed
    `sizes` in bytes (8 for bigint and float8, 4 for integer and date, 2 for smallint). Returns the rows'
    bytes (header and trailer stripped), the row width and the offset of each field's value in a row."""
    width = 2 + sum(4 + size for size in sizes)
    offsets, at = [], 2
    for size in sizes:
        offsets.append(at + 4)
        at += 4 + size
    data = bytearray()
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY ({sql}) TO STDOUT (FORMAT BINARY)", params or None) as copy:
            for block in copy:
                data += block
    body = bytes(memoryview(data)[len(_SIGNATURE) : len(data) - len(_TRAILER)])
    del data
    if len(body) % width or (body and body[:2] != len(sizes).to_bytes(2, "big")):
        raise ValueError("COPY returned rows of another shape than the sizes given")
    return body, width, offsets


def field_bytes(rows: bytes, width: int, offset: int, size: int, start: int = 0, stop: int | None = None) -> bytes:
    """One field of rows start:stop of `rows` (as `copy_out_fixed` returns them): its big-endian values,
    contiguous."""
    stop = len(rows) // width if stop is None else stop
    out = bytearray((stop - start) * size)
    for byte in range(size):
        out[byte::size] = rows[start * width + offset + byte : stop * width : width]
    return bytes(out)


def to_array(big_endian: bytes, typecode: str) -> array:
    """Big-endian values as a native array."""
    values = array(typecode)
    values.frombytes(big_endian)
    if sys.byteorder == "little":
        values.byteswap()
    return values


def big_endian(values: array) -> bytes:
    """A native array's values as contiguous big-endian bytes."""
    if sys.byteorder == "little":
        values = array(values.typecode, values)
        values.byteswap()
    return values.tobytes()


def binary_rows(count: int, fields: Sequence[tuple[int, bytes, bool]]) -> bytearray:
    """`count` rows of binary COPY data. Each field is (size, data, per_row): `data` is either the `size`
    bytes every row holds, or (per_row) `count` big-endian values of `size` bytes, contiguous."""
    template = bytearray(len(fields).to_bytes(2, "big"))
    spots = []
    for size, data, per_row in fields:
        template += size.to_bytes(4, "big")
        if per_row:
            spots.append((len(template), size, data))
            template += bytes(size)
        else:
            template += data
    width = len(template)
    rows = template * count
    for offset, size, data in spots:
        for byte in range(size):
            rows[offset + byte :: width] = data[byte::size]
    return rows


def copy_in_binary(table: str, columns: Sequence[str], chunks: Iterable[bytes]) -> None:
    """COPY binary rows (from `binary_rows`) into `table`. The chunks go to the server from a second thread,
    so PostgreSQL stores one chunk while the caller computes the next."""
    from psycopg.copy import QueuedLibpqWriter

    with connection.cursor() as cursor:
        raw = cursor.cursor
        cols = ", ".join(connection.ops.quote_name(column) for column in columns)
        with raw.copy(
            f"COPY {connection.ops.quote_name(table)} ({cols}) FROM STDIN (FORMAT BINARY)",
            writer=QueuedLibpqWriter(raw),
        ) as copy:
            copy.write(_SIGNATURE)
            for chunk in chunks:
                copy.write(memoryview(chunk))
            copy.write(_TRAILER)


def replace_binary(
    table: str,
    columns: Sequence[str],
    chunks: Iterable[bytes],
    *,
    unique: Sequence[str],
    where: str,
    params: Sequence,
    returning: str | None = None,
    analyze: str | None = None,
) -> set:
    """`replace_rows` for rows given as binary COPY data (`binary_rows`, in the order of `columns`): the rows
    of `table` matching `where` (SQL on the table aliased `t`, with `params`) become exactly those rows,
    matched on the `unique` columns, each step one set-based statement: a row whose key is kept is updated in
    place when a value differs (untouched when none does, id kept either way), the rows whose key is gone
    are deleted and new keys inserted. A new row meeting an old one outside `where` on the `unique` columns
    updates it. Returns the values of the `returning` column that the deleted rows held.

    Updating in place rather than deleting and inserting is what makes rewriting most of a range cheap when
    the table leaves free room on its pages (fillfactor): PostgreSQL then keeps the new version on the same
    page (a HOT update) and, as no indexed column changed, touches none of the table's indexes.

    `analyze` names the table the rows land in (a partition of `table`), analysed with the temporary table when
    more than _ANALYZE_FROM rows come: a partition just made or swapped in has no statistics, and the DELETE's
    anti-join then planned as if it were empty ran 37 minutes on a 1,000 x 100 import's re-rate (issue 46
    finding 3); analysing the partitioned table itself would sample every scope's partition."""
    quote = connection.ops.quote_name
    cols = [quote(column) for column in columns]
    listed = ", ".join(cols)
    keys = [quote(column) for column in unique]
    values = [c for c in cols if c not in keys]
    same_key = " AND ".join(f"n.{c} = t.{c}" for c in keys)
    with transaction.atomic(savepoint=False), connection.cursor() as cursor:  # the temporary table's life
        cursor.execute(f"CREATE TEMPORARY TABLE {_TEMP} AS SELECT {listed} FROM {quote(table)} WITH NO DATA")
        try:
            copy_in_binary(_TEMP, columns, chunks)
            cursor.execute(f"ANALYZE {_TEMP}")
            if analyze:
                cursor.execute(f"SELECT count(*) > %s FROM {_TEMP}", [_ANALYZE_FROM])
                if cursor.fetchone()[0]:
                    cursor.execute(f"ANALYZE {quote(analyze)}")
            cursor.execute(
                f"UPDATE {quote(table)} t SET "
                + ", ".join(f"{c} = n.{c}" for c in values)
                + f" FROM {_TEMP} n WHERE {where} AND {same_key} AND "
                f"({', '.join(f't.{c}' for c in values)}) IS DISTINCT FROM ({', '.join(f'n.{c}' for c in values)})",
                params,
            )
            cursor.execute(
                f"DELETE FROM {quote(table)} t WHERE {where} "
                f"AND NOT EXISTS (SELECT 1 FROM {_TEMP} n WHERE {same_key})"
                + (f" RETURNING t.{quote(returning)}" if returning else ""),
                params,
            )
            gone = {row[0] for row in cursor.fetchall()} if returning else set()
            # Each row left in `where` now shares its key with one new row: as many rows as new ones means
            # no new key (the usual re-rate), and the join that finds new keys can be skipped.
            cursor.execute(
                f"SELECT (SELECT count(*) FROM {_TEMP}) - (SELECT count(*) FROM {quote(table)} t WHERE {where})", params
            )
            if cursor.fetchone()[0]:
                cursor.execute(
                    f"INSERT INTO {quote(table)} ({listed}) SELECT {listed} FROM {_TEMP} n "
                    f"WHERE NOT EXISTS (SELECT 1 FROM {quote(table)} t WHERE {where} AND {same_key}) "
                    f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET "
                    + ", ".join(f"{c} = EXCLUDED.{c}" for c in values),
                    params,
                )
        finally:
            cursor.execute(f"DROP TABLE {_TEMP}")
    return gone


def array_literal(values: Iterable, pg_type: str) -> str:
    """PostgreSQL's text literal of an array of `pg_type` (bigint, int, float8, bool, bytea or text), for a
    parameter cast to that array type. Floats go as their shortest exact repr, which PostgreSQL reads back
    to the same double; None is NULL."""
    if pg_type == "bytea":
        return "{" + ",".join("NULL" if v is None else '"\\\\x' + v.hex() + '"' for v in values) + "}"
    if pg_type == "text":  # quoted, so that any text is one element
        return (
            "{"
            + ",".join(
                "NULL" if v is None else '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"' for v in values
            )
            + "}"
        )
    if pg_type == "bool":
        return "{" + ",".join("NULL" if v is None else "t" if v else "f" for v in values) + "}"
    if pg_type not in ("bigint", "int", "float8"):
        raise ValueError(f"no array literal for {pg_type}")
    return "{" + ",".join("NULL" if v is None else repr(v) for v in values) + "}"


# --- many new rows of one model, fast ---


def insert_rows(template: models.Model, fields: Sequence[str], rows: Iterable[Sequence]) -> None:
    """Insert one row per item of `rows`: each the values of `fields` (attribute names, a foreign key by its
    `_id`), every other column as `template` holds it (its defaults, auto_now dates: prepared once, not once a
    row). On PostgreSQL through COPY; elsewhere through bulk_create. For an import's thousands of entries and
    sign-offs, where bulk_create's per-value preparation was most of the commit's time (issue 34)."""
    model = type(template)
    concrete = [f for f in model._meta.concrete_fields if not f.primary_key]
    if connection.vendor != "postgresql":
        model.objects.bulk_create(
            (
                model(
                    **{
                        **{f.attname: getattr(template, f.attname) for f in concrete},
                        **dict(zip(fields, row, strict=True)),
                    }
                )
                for row in rows
            ),
            batch_size=2000,
        )
        return
    by_attname = {f.attname: f for f in concrete}
    constant = [f for f in concrete if f.attname not in fields]
    values = [f.get_db_prep_save(f.pre_save(template, add=True), connection) for f in constant]
    columns = [by_attname[name].column for name in fields] + [f.column for f in constant]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        with cursor.cursor.copy(
            f"COPY {quote(model._meta.db_table)} ({', '.join(map(quote, columns))}) FROM STDIN"
        ) as copy:
            for row in rows:
                copy.write_row((*row, *values))
