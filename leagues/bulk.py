"""Set-based writes for derived tables (rating history, ratings, standings).

`replace_rows(scope, rows, ...)` makes the rows of `scope` be exactly `rows`: new ones inserted, changed
ones updated in place (ids kept), unchanged ones untouched, the rest deleted. On PostgreSQL the rows go
through COPY into a temporary table and one INSERT ... ON CONFLICT, one DELETE; elsewhere (the SQLite
demo) through the ORM's bulk upsert.
"""

from collections.abc import Iterable, Sequence

from django.db import connection, models

_TEMP = "bulk_rows"
_ANALYZE_FROM = 1000  # rows; below that the plans are cheap whatever the statistics say


def replace_rows(
    scope: models.QuerySet, rows: Iterable[dict], *, unique: Sequence[str], update: Sequence[str]
) -> None:
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
        batch_size=2000, update_conflicts=True, unique_fields=list(unique), update_fields=list(update),
    )
    wanted = {tuple(row[name] for name in unique) for row in rows}
    gone = [pk for pk, *key in scope.values_list("pk", *(attname[name] for name in unique)) if tuple(key) not in wanted]
    model.objects.filter(pk__in=gone).delete()


def _replace_postgresql(scope: models.QuerySet, rows: Iterable[dict], unique: Sequence[str],
                        update: Sequence[str]) -> None:
    meta = scope.model._meta
    table = connection.ops.quote_name(meta.db_table)
    fields = [*unique, *update]
    columns = [connection.ops.quote_name(meta.get_field(name).column) for name in fields]
    keys = columns[: len(unique)]
    cols = ", ".join(columns)
    scope_sql, scope_params = scope.values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TEMPORARY TABLE {_TEMP} AS SELECT {cols} FROM {table} WITH NO DATA")
        try:
            copied = 0
            with cursor.cursor.copy(f"COPY {_TEMP} ({cols}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row([row[name] for name in fields])
                    copied += 1
            if copied > _ANALYZE_FROM:  # fresh statistics let the planner hash-join, not loop per row
                cursor.execute(f"ANALYZE {_TEMP}")
            changed = " OR ".join(f"{table}.{c} IS DISTINCT FROM EXCLUDED.{c}" for c in columns[len(unique):])
            cursor.execute(
                f"INSERT INTO {table} ({cols}) SELECT {cols} FROM {_TEMP} "
                f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET "
                + ", ".join(f"{c} = EXCLUDED.{c}" for c in columns[len(unique):])
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

