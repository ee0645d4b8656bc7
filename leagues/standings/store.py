"""The standings store: each season's stored table, written from its counted results.

`standings_compute` (the whole table) and `standings_apply_result` (one more game) are what the standings jobs
run. The table maths is in `standings`; how rows are read and written (SQL, COPY on PostgreSQL) stays here.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.db import connection, transaction

from leagues import standings as standings_maths
from leagues.models import Result, Season, Standing
from leagues.models.bulk import array_literal

# --- standings ---
# The stored table of a season is the table of its results flagged `in_standings`, and
# `Season.standings_results` counts them (empty: unknown, so the next update recomputes in full). Both
# change only under the season's row lock, with the table: a full recompute flags exactly the counted
# results it read (by id, not by status: a result counted meanwhile is not in the table);
# `standings_apply_result` flags one more and folds it in, so running it twice folds it once.

_STANDING_COLUMNS = (
    "sort_key",
    "ranked",
    "points",
    "games",
    "wins",
    "seconds",
    "opponents_points",
    "margin",
    "margin_sum",
    "margin_games",
)
_PG_TYPES = {
    "player_id": "bigint",
    "sort_key": "bytea",
    "ranked": "bool",
    "points": "text",
    "games": "int",
    "wins": "int",
    "seconds": "int",
    "opponents_points": "text",
    "margin": "float8",
    "margin_sum": "float8",
    "margin_games": "int",
}
_ANALYZE_FROM = 1000  # results whose in_standings flag a recompute changed


def _fetch_all(cursor, sql: str, params: Sequence) -> list[tuple]:
    if connection.vendor == "postgresql":  # binary rows load a third faster than text
        import psycopg  # Django's cursors bind on the client, which cannot ask for binary rows

        with psycopg.Cursor(connection.connection) as raw:
            raw.execute(sql, params, binary=True)
            return raw.fetchall()
    cursor.execute(sql, params)
    return cursor.fetchall()


def _stored_standings(cursor, season_id: int, where: str = "", params: Sequence = ()) -> dict[int, tuple]:
    """player id -> the stored values of _STANDING_COLUMNS, for the season's rows (those matching `where`)."""
    rows = _fetch_all(
        cursor,
        f"SELECT player_id, {', '.join(_STANDING_COLUMNS)} FROM leagues_standing WHERE season_id = %s {where}",
        [season_id, *params],
    )
    return {row[0]: (bytes(row[1]), *row[2:]) for row in rows}


def _values(row: standings_maths.Row) -> tuple:
    """The stored values of a row; points and opponents' points are exact, stored as text ("200/3")."""
    return (
        row.sort_key,
        row.ranked,
        str(row.points),
        row.games,
        row.wins,
        row.seconds,
        str(row.opponents_points),
        row.margin,
        row.margin_sum,
        row.margin_games,
    )


def _write_standings(
    cursor, season_id: int, rows: Sequence[standings_maths.Row], stored: dict[int, tuple], *, complete: bool
) -> int:
    """Store `rows`, writing only those that differ from `stored`; returns how many rows were written. With
    `complete`, `rows` is the whole table and stored rows of other players go."""
    added, changed = [], []
    for row in rows:
        values = _values(row)
        old = stored.get(row.player)
        if old is None:
            added.append((row.player, *values))
        elif old != values:
            changed.append((row.player, *values))
    gone = list(stored.keys() - {row.player for row in rows}) if complete else []
    if gone:
        Standing.objects.filter(season_id=season_id, player_id__in=gone).delete()
    if connection.vendor != "postgresql":
        if added or changed:
            Standing.objects.bulk_create(
                [
                    Standing(season_id=season_id, player_id=player, **dict(zip(_STANDING_COLUMNS, values, strict=True)))
                    for player, *values in added + changed
                ],
                update_conflicts=True,
                unique_fields=["season", "player"],
                update_fields=list(_STANDING_COLUMNS),
            )
        return len(added) + len(changed) + len(gone)
    # PostgreSQL: new rows by COPY (nobody else writes the season's rows: we hold its lock), the changed ones
    # in one statement, each column as one array parameter
    if added:
        columns = f"season_id, player_id, {', '.join(_STANDING_COLUMNS)}"
        with cursor.cursor.copy(f"COPY leagues_standing ({columns}) FROM STDIN") as copy:
            for values in added:
                copy.write_row((season_id, *values))
    if changed:
        columns = ("player_id", *_STANDING_COLUMNS)
        cursor.execute(
            f"UPDATE leagues_standing s SET {', '.join(f'{c} = v.{c}' for c in _STANDING_COLUMNS)} "
            f"FROM unnest({', '.join(f'%s::{_PG_TYPES[c]}[]' for c in columns)}) AS v({', '.join(columns)}) "
            "WHERE s.season_id = %s AND s.player_id = v.player_id",
            [
                *(
                    array_literal(values, _PG_TYPES[c])
                    for c, values in zip(columns, zip(*changed, strict=True), strict=True)
                ),
                season_id,
            ],
        )
    return len(added) + len(changed) + len(gone)


def _rows_of(stored: dict[int, tuple]) -> dict[int, standings_maths.Row]:
    Row = standings_maths.Row
    return {  # positional arguments: cheaper than by keyword
        player: Row(
            player,
            Fraction(points),
            games,
            wins,
            seconds,
            Fraction(opponents),
            margin,
            ranked,
            None,
            "",
            margin_sum,
            margin_games,
            key,
        )
        for player, (
            key,
            ranked,
            points,
            games,
            wins,
            seconds,
            opponents,
            margin,
            margin_sum,
            margin_games,
        ) in stored.items()
    }


def _in(column: str, values, pg_type: str, *, hashed: bool = False) -> tuple[str, list]:
    """`column IN values` as SQL and its parameters: on PostgreSQL one array parameter spelled as a literal
    (parsed faster than hundreds of placeholders, built faster than psycopg adapts a list), `hashed` for a
    column no index serves (the list is hashed, not compared element by element with each row); a placeholder
    each elsewhere."""
    if connection.vendor != "postgresql":
        return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)
    if hashed:
        return f"{column} IN (SELECT unnest(%s::{pg_type}[]))", [array_literal(values, pg_type)]
    return f"{column} = ANY(%s::{pg_type}[])", [array_literal(values, pg_type)]


def _rules(season: Season) -> dict:
    return {
        "scheme": season.points_scheme,
        "custom": season.custom_points,
        "min_games": season.min_games,
        "tie_breakers": season.tie_breakers,
    }


@transaction.atomic
def standings_compute(*, season: Season) -> int:
    """Rewrite the season's stored table from its counted results; unchanged rows are left alone."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    counted = Result.Status.COUNTED
    with connection.cursor() as cursor:
        entries = _fetch_all(
            cursor,
            "SELECT e.result_id, e.player_id, e.rank, e.score FROM leagues_resultentry e "
            "JOIN leagues_result r ON r.id = e.result_id WHERE r.season_id = %s AND r.status = %s "
            "ORDER BY e.result_id, e.id",
            [season.pk, counted],
        )
        games: list[list[tuple]] = []
        game_ids: list[int] = []
        last = None
        for result_id, player, rank, score in entries:
            if result_id != last:
                last = result_id
                game: list[tuple] = []
                games.append(game)
                game_ids.append(result_id)
            game.append((player, rank, score))
        table = standings_maths.table_of(games, **_rules(season))
        _write_standings(cursor, season.pk, table, _stored_standings(cursor, season.pk), complete=True)
        # Flag exactly the results read above, by id: a result counted since (READ COMMITTED: this statement
        # would see it) is not in the table, so it must stay unflagged for its own fold-in job to add it.
        read, params = _in("id", game_ids, "bigint", hashed=True)
        cursor.execute(
            f"UPDATE leagues_result SET in_standings = ({read}) WHERE season_id = %s AND in_standings <> ({read})",
            [*params, season.pk, *params],
        )
        if cursor.rowcount > _ANALYZE_FROM and connection.vendor == "postgresql":
            cursor.execute("ANALYZE leagues_result")  # the first recompute of a big season: plans need to know
    Season.objects.filter(pk=season.pk).update(standings_results=len(games), standings_rules=_rules(season))
    return len(table)


def _head_to_head_in_season(cursor, season_id: int):
    def head_to_head(a: int, b: int) -> int:
        cursor.execute(
            "SELECT x.rank, y.rank FROM leagues_resultentry x "
            "JOIN leagues_resultentry y ON y.result_id = x.result_id "
            "JOIN leagues_result r ON r.id = x.result_id "
            "WHERE x.player_id = %s AND y.player_id = %s AND r.season_id = %s AND r.in_standings = %s",
            [a, b, season_id, True],
        )
        return sum((x < y) - (y < x) for x, y in cursor.fetchall())

    return head_to_head


def _game_and_shared_games(cursor, season_id: int, result_id: int) -> tuple[list[tuple], dict[int, list[int]]]:
    """The game's (player, rank, score) entries, and the players of each other game its players played that is
    folded into this season's table (by result id)."""
    # The game, and every entry of every game its players played, each marked whether it is folded into
    # this season's table: who shared a folded-in game with them, and how often. The query is driven by
    # ids (the game's entries, its players' entries, their games), so no plan can scan the season whatever
    # the statistics say of in_standings (a full recompute may just have set it on thousands of results).
    cursor.execute(
        "SELECT e.result_id, e.player_id, e.rank, e.score, r.season_id = %s AND r.in_standings "
        "FROM leagues_resultentry e JOIN leagues_result r ON r.id = e.result_id "
        "WHERE e.result_id IN (SELECT m.result_id FROM leagues_resultentry m WHERE m.player_id IN "
        "(SELECT g.player_id FROM leagues_resultentry g WHERE g.result_id = %s)) ORDER BY e.result_id, e.id",
        [season_id, result_id],
    )
    game, shared_games = [], {}
    for entry_result_id, player, rank, score, folded in cursor.fetchall():
        if entry_result_id == result_id:
            game.append((player, rank, score))
        elif folded:
            shared_games.setdefault(entry_result_id, []).append(player)
    return game, shared_games


def _co_play(players: Sequence[int], shared_games: dict[int, list[int]]) -> dict[int, dict[int, int]]:
    """For each of the game's players who has played before: each past opponent, and in how many games."""
    co_play: dict[int, dict[int, int]] = {}
    for seated in shared_games.values():
        for player in players:
            if player in seated:
                shared = co_play.setdefault(player, {})
                for other in seated:
                    if other != player:
                        shared[other] = shared.get(other, 0) + 1
    return co_play


@transaction.atomic
def standings_apply_result(*, result: Result) -> bool:
    """Fold a newly counted result into its season's stored table without reading the season's other games:
    only its players' rows and the opponents' points of those who shared a game with them change (then the
    order). Returns whether it was folded in now; a result already folded in, not counted or of no season
    is left alone, so a retried job cannot count it twice. A season whose table is not known to match its
    folded-in results (`standings_results` empty), or was made under other rules than the season's now
    (`standings_rules`), is recomputed in full instead."""
    season = (
        Season.objects.select_for_update(of=("self",))
        .only("points_scheme", "custom_points", "min_games", "tie_breakers", "standings_results", "standings_rules")
        .filter(results__pk=result.pk)
        .first()
    )
    if season is None:
        return False
    season_id = season.pk
    # A table made under other rules (changed through the admin, the shell or any other path) cannot take one
    # more game by folding: its rows' keys order by the old tie-breakers. Recompute it instead; the table itself
    # knows, so no editing path has to remember to say so.
    if season.standings_results is None or season.standings_rules != _rules(season):
        if not Result.objects.filter(pk=result.pk, status=Result.Status.COUNTED, in_standings=False).exists():
            return False
        standings_compute(season=season)
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leagues_result SET in_standings = %s "
            "WHERE id = %s AND season_id = %s AND status = %s AND in_standings = %s",
            [True, result.pk, season_id, Result.Status.COUNTED, False],
        )
        if cursor.rowcount != 1:
            return False
        game, shared_games = _game_and_shared_games(cursor, season_id, result.pk)
        players = [entry[0] for entry in game]
        co_play = _co_play(players, shared_games)
        # Only the rows the game changes are read: its players' and their past opponents'.
        concerned = set(players).union(*co_play.values())
        in_concerned, params = _in("player_id", concerned, "bigint")
        stored = _stored_standings(cursor, season_id, f"AND {in_concerned}", params)
        rows = _rows_of(stored)
        rules = _rules(season)
        try:
            changed, levels = standings_maths.apply_game(rows, game, co_play, **rules)
        except ValueError:  # the stored table lacks a player of the folded-in games: it is not to be trusted
            standings_compute(season=season)
            return True
        if levels:  # and the rows that shared a level with a changed row, before or after, for head_to_head
            width = len(next(iter(levels)))
            at_levels, params = _in(f"substr(sort_key, 1, {width})", levels, "bytea", hashed=True)
            mates = {
                player: values
                for player, values in _stored_standings(cursor, season_id, f"AND {at_levels}", params).items()
                if player not in rows
            }
            stored.update(mates)
            rows.update(_rows_of(mates))
            changed.extend(
                standings_maths.settle(
                    rows.values(),
                    levels,
                    tie_breakers=rules["tie_breakers"],
                    head_to_head=_head_to_head_in_season(cursor, season_id),
                )
            )
        _write_standings(cursor, season_id, list({row.player: row for row in changed}.values()), stored, complete=False)
        cursor.execute("UPDATE leagues_season SET standings_results = standings_results + 1 WHERE id = %s", [season_id])
    return True
