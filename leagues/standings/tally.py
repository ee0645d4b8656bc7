"""The tally store: each player's stored record (PlayerTally) and head-to-head (RivalTally), from counted results.

The player page sums a few of these rows instead of reading every game of the player, so it costs the same with
10 games and with 1,000. `tallies_recount` is what the tally job runs (one player per outbox row, asked for by
every change to a counted result: counted, corrected, deleted, or a guest's games claimed by an account): it
rewrites the player's rows from all his counted results in two INSERT ... SELECT statements, so it is idempotent
and needs no knowledge of what changed, and a correction or a deletion is as right as a new game. The nightly
repair (`tallies_repair`) recounts everyone and says what it had to change.

Only results of tables anyone may watch (or of no table) are tallied: who may see a private table's game
depends on the viewer (its seats, its creator), so the page adds those few from the results themselves
(leagues.people.player_record.player_stats). The club is kept on each row and chosen when the page reads them, so a club
turning private, or a viewer joining one, needs no job.

The SQL is plain (no vendor branch): the same statements run on PostgreSQL and on the SQLite demo.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connection, transaction

from games.models import TableSession
from leagues.models import Player, PlayerTally, Result, ResultEntry, RivalTally

REPAIR_BATCH = 500  # players recounted per transaction by the nightly repair


def _tables() -> dict[str, str]:
    quote = connection.ops.quote_name
    return {
        "tally": quote(PlayerTally._meta.db_table),
        "rival": quote(RivalTally._meta.db_table),
        "entry": quote(ResultEntry._meta.db_table),
        "result": quote(Result._meta.db_table),
        "session": quote(TableSession._meta.db_table),
    }


# The player's entries in counted results of no table or of a table anyone may watch (alias e, its result r).
_TALLIED = (
    "FROM {entry} e JOIN {result} r ON r.id = e.result_id LEFT JOIN {session} s ON s.id = r.session_id "
    "WHERE e.player_id IN ({players}) AND r.status = %s AND (r.session_id IS NULL OR s.is_public = %s)"
)

_RECORD_SQL = (
    "INSERT INTO {tally} (player_id, club_id, game, players, games, wins, scored, score_sum, best) "
    "SELECT player_id, club_id, game, size, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END), COUNT(score), "
    "COALESCE(SUM(score), 0), MAX(score) FROM ("
    "SELECT e.player_id, r.club_id, r.game, e.rank, e.score, "
    "(SELECT COUNT(*) FROM {entry} x WHERE x.result_id = e.result_id) AS size " + _TALLIED + ") t "
    "GROUP BY player_id, club_id, game, size"
)

_RIVALS_SQL = (
    "INSERT INTO {rival} (player_id, opponent_id, club_id, won, lost) "
    "SELECT e.player_id, o.player_id, r.club_id, SUM(CASE WHEN e.rank < o.rank THEN 1 ELSE 0 END), "
    "SUM(CASE WHEN e.rank > o.rank THEN 1 ELSE 0 END) "
    + _TALLIED.replace("WHERE", "JOIN {entry} o ON o.result_id = e.result_id AND o.player_id <> e.player_id WHERE")
    + " GROUP BY e.player_id, o.player_id, r.club_id"
)


def _recount(cursor, player_ids: list[int]) -> None:
    """Rewrite the rows of these players (locked by the caller) from their counted results."""
    if not player_ids:
        return
    names = _tables()
    placeholders = ", ".join(["%s"] * len(player_ids))
    for table in ("tally", "rival"):
        cursor.execute(f"DELETE FROM {names[table]} WHERE player_id IN ({placeholders})", player_ids)
    params = [*player_ids, Result.Status.COUNTED, True]
    cursor.execute(_RECORD_SQL.format(players=placeholders, **names), params)
    cursor.execute(_RIVALS_SQL.format(players=placeholders, **names), params)


def _lock(player_ids: Iterable[int]) -> list[int]:
    """Lock the players' rows (in id order, so two jobs cannot deadlock) and return those that exist: two runs for
    one player (the hint and the sweep) take turns, so the second never inserts beside the first's rows. NO KEY:
    new entries and seats naming the player are not held up meanwhile."""
    rows = Player.objects.filter(pk__in=sorted(set(player_ids))).order_by("pk")
    if connection.features.has_select_for_no_key_update:
        rows = rows.select_for_update(no_key=True)
    return list(rows.values_list("pk", flat=True))


@transaction.atomic
def tallies_recount(*, players: Iterable[int]) -> int:
    """The tally job: recount these players' stored record and head-to-head from their counted results; returns
    how many players were recounted (a player deleted meanwhile has nothing to recount)."""
    found = _lock(players)
    with connection.cursor() as cursor:
        _recount(cursor, found)
    return len(found)


def _stored(player_ids: list[int]) -> set[tuple]:
    """The stored rows of these players, without ids: what a recount must not change on a healthy site."""
    record = PlayerTally.objects.filter(player__in=player_ids).values_list(
        "player_id", "club_id", "game", "players", "games", "wins", "scored", "score_sum", "best"
    )
    rivals = RivalTally.objects.filter(player__in=player_ids).values_list(
        "player_id", "opponent_id", "club_id", "won", "lost"
    )
    return {("record", *row) for row in record} | {("rival", *row) for row in rivals}


def tallies_repair() -> dict:
    """The nightly repair: recount every player who has a result entry or a stored tally, a batch at a time (each
    batch its own transaction); returns how many players were recounted, whose rows changed, and how many rows."""
    ids = sorted(
        set(ResultEntry.objects.values_list("player_id", flat=True).distinct())
        | set(PlayerTally.objects.values_list("player_id", flat=True).distinct())
        | set(RivalTally.objects.values_list("player_id", flat=True).distinct())
    )
    summary = {"players": 0, "players_changed": [], "tally_rows_changed": 0}
    for start in range(0, len(ids), REPAIR_BATCH):
        with transaction.atomic():
            batch = _lock(ids[start : start + REPAIR_BATCH])
            before = _stored(batch)
            with connection.cursor() as cursor:
                _recount(cursor, batch)
            after = _stored(batch)
        summary["players"] += len(batch)
        changed = before ^ after
        if changed:
            summary["players_changed"] += sorted({row[1] for row in changed})
            summary["tally_rows_changed"] += len(changed)
    return summary
