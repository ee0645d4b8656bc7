"""Issue 6's standings benchmark: a season of 10,000 four-player results among a club of 2,000 players.

Run (one benchmark at a time on the shared cores): `flock /tmp/bench.lock .venv/bin/python bench/standings.py`
(uses the database shitenno_bench_standings, dropped and re-made each run).

Prints, in the same run: the baseline (a plain SELECT of the season's 40,000 result entries, nothing else);
the full recompute of the stored table from PostgreSQL (median of several runs) against the 200 ms target;
one more counted result folded in incrementally (median over 50 new results) against the 10 ms target, and
the old way of taking one more result (a full recompute); the ratios; then whether the table left by the
incremental updates equals a full recompute.
"""

import argparse
import datetime
import random
import statistics
import time
from pathlib import Path

import _django

_django.setup("shitenno_bench_standings")

from django.db import connection  # noqa: E402

from leagues import standings as standings_maths  # noqa: E402  # noqa: E402
from leagues.common import selectors  # noqa: E402
from leagues.models import Result, Season, Standing  # noqa: E402
from leagues.standings import store as standings_store  # noqa: E402


def loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def generate(players: int, results: int, extra: int, seed: int = 1) -> tuple[Season, list[int]]:
    """COPY-load the club and `results` counted results, plus `extra` pending ones; returns the season and
    the pending results' ids. Scores are random, equal scores share a rank (ties)."""
    rng = random.Random(seed)
    season, ids = _django.club_season(players, "10,000 games", 366)
    first, club_id = season.starts_on, season.league.club_id
    now = datetime.datetime.now(datetime.UTC)
    raw = connection.connection
    total = results + extra
    with raw.cursor() as cursor:
        cursor.execute("SELECT COALESCE(MAX(id), 0) FROM leagues_result")
        base = cursor.fetchone()[0]
        with cursor.copy(
            "COPY leagues_result (id, game, played_on, club_id, season_id, status, version, "
            "in_standings, created_at, updated_at, ranked_publicly) FROM STDIN"
        ) as copy:
            for n in range(total):
                copy.write_row(
                    (
                        base + n + 1,
                        "shitenno",
                        first + datetime.timedelta(days=n * 366 // total),
                        club_id,
                        season.pk,
                        "counted" if n < results else "pending",
                        1,
                        False,
                        now,
                        now,
                        n < results,
                    )
                )
        with cursor.copy("COPY leagues_resultentry (result_id, player_id, rank, score) FROM STDIN") as copy:
            for n in range(total):
                table = rng.sample(ids, 4)
                for pid, rank, score in _django.placings(rng, table):
                    copy.write_row((base + n + 1, pid, rank, score))
        cursor.execute("SELECT setval(pg_get_serial_sequence('leagues_result', 'id'), %s)", [base + total])
        cursor.execute("ANALYZE")
    raw.commit()
    return season, list(range(base + results + 1, base + total + 1))


def select_entries(season: Season) -> int:
    """The baseline: read the season's counted result entries with one plain SELECT."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT e.result_id, e.player_id, e.rank, e.score FROM leagues_resultentry e "
            "JOIN leagues_result r ON r.id = e.result_id WHERE r.season_id = %s AND r.status = %s "
            "ORDER BY e.result_id, e.id",
            [season.pk, "counted"],
        )
        return len(cursor.fetchall())


def count(result_id: int) -> None:
    """A result's last sign-off, without its jobs: the benchmark times the standings update alone."""
    Result.objects.filter(pk=result_id).update(status=Result.Status.COUNTED, ranked_publicly=True)


def stored(season: Season) -> list[tuple]:
    """The table as the site reads it (positions and separations worked out from the stored keys)."""
    return [
        (
            r.player_id,
            r.position,
            r.ranked,
            r.separated_by,
            r.points,
            r.games,
            r.wins,
            r.seconds,
            r.opponents_points,
            r.margin,
        )
        for r in selectors.standings_of(season)
    ]


def stored_rows(season: Season) -> set[tuple]:
    """The stored rows as they are: a row rewritten by an update differs from its earlier self."""
    return set(
        Standing.objects.filter(season=season).values_list(
            "player_id", "sort_key", "points", "games", "wins", "seconds", "opponents_points", "margin"
        )
    )


def compare(a: list[tuple], b: list[tuple]) -> tuple[bool, float]:
    """Same players in the same order with the same positions, separations and counts; largest float gap."""
    same, worst = len(a) == len(b), 0.0
    for x, y in zip(a, b, strict=False):
        same = same and x[:4] == y[:4] and x[5:8] == y[5:8] and (x[9] is None) == (y[9] is None)
        for i in (4, 8, 9):
            if x[i] is not None and y[i] is not None:
                worst = max(worst, float(abs(x[i] - y[i])))  # points are Fractions: their gap must be 0
    return same, worst


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--incremental", type=int, default=50, help="new results folded in one by one")
    parser.add_argument("--old-way", type=int, default=10, help="new results taken by a full recompute")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    print(f"load average before: {loadavg()}")
    start = time.perf_counter()
    season, pending = generate(args.players, args.results, args.incremental + args.old_way)
    entries = select_entries(season)
    print(
        f"generated {args.results:,} four-player results ({entries:,} entries, ties and scores) "
        f"for {args.players:,} players in {time.perf_counter() - start:.1f} s"
    )

    baseline = statistics.median(_django.timed(lambda: select_entries(season)) for _ in range(args.runs))
    print(
        f"baseline — a plain SELECT of the season's {entries:,} result entries: {_django.ms(baseline)} "
        f"(median of {args.runs})"
    )

    first = _django.timed(lambda: standings_store.standings_compute(season=season))
    print(f"first full recompute (empty table, all {args.results:,} results flagged as folded in): {_django.ms(first)}")

    def from_empty() -> float:
        Standing.objects.filter(season=season).delete()
        return _django.timed(lambda: standings_store.standings_compute(season=season))

    empty = statistics.median(from_empty() for _ in range(args.runs))
    print(
        f"full recompute into an empty table (all {args.players:,} rows written): {_django.ms(empty)} "
        f"(median of {args.runs}); ratio to the baseline {empty / baseline:.1f}; "
        f"target <= 200 ms: {'met' if empty <= 0.2 else 'missed'}"
    )
    same = statistics.median(
        _django.timed(lambda: standings_store.standings_compute(season=season)) for _ in range(args.runs)
    )
    print(f"full recompute, nothing changed (no row written): {_django.ms(same)} (median of {args.runs})")

    # The loops above deleted and rewrote the whole table eight times, which a season's table never is (a
    # recompute rewrites the rows that changed); autovacuum, which would have cleared the dead rows, is off on
    # this machine's PostgreSQL. Compact the table, so that what follows reads a table of a season's size.
    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        autovacuum = cursor.fetchone()[0]
        cursor.execute("VACUUM FULL ANALYZE leagues_standing")
    print(f"table compacted after the rewrites above (VACUUM FULL; autovacuum on this server: {autovacuum})")
    old_way = []
    for result_id in pending[args.incremental :]:
        count(result_id)
        old_way.append(_django.timed(lambda: standings_store.standings_compute(season=season)))
    old = statistics.median(old_way)
    print(
        f"old way — one more result by a full recompute: {_django.ms(old)} (median of {len(old_way)}, "
        f"max {_django.ms(max(old_way))})"
    )

    folded, rewritten = [], []
    for result_id in pending[: args.incremental]:
        count(result_id)
        result = Result.objects.get(pk=result_id)
        before = stored_rows(season)
        seconds = _django.timed(lambda r=result: standings_store.standings_apply_result(result=r))
        folded.append(seconds)
        rewritten.append(len(stored_rows(season) - before))
        assert Result.objects.get(pk=result_id).in_standings
    incremental = statistics.median(folded)
    print(
        f"one more result folded in incrementally: {_django.ms(incremental)} (median of {len(folded)}; "
        f"p90 {_django.ms(statistics.quantiles(folded, n=10)[-1])}, max {_django.ms(max(folded))}); "
        f"target <= 10 ms: {'met' if incremental <= 0.01 else 'missed'}"
    )
    print(
        f"  ratio incremental / old way: {incremental / old:.3f}; incremental / baseline SELECT: "
        f"{incremental / baseline:.2f}"
    )
    print(
        f"  stored rows rewritten per new result (their tallies, so their keys, changed): median "
        f"{statistics.median(rewritten):.0f}, max {max(rewritten)} of {args.players:,}"
    )
    again = _django.timed(lambda: standings_store.standings_apply_result(result=Result.objects.get(pk=pending[0])))
    print(f"  the same job again (already folded in: a no-op): {_django.ms(again)}")

    after_incremental = stored(season)
    Standing.objects.filter(season=season).delete()
    standings_store.standings_compute(season=season)
    equal, worst = compare(after_incremental, stored(season))
    print(
        f"table after {len(folded)} incremental updates vs a full recompute: "
        f"{'same order, positions and separations' if equal else 'DIFFERENT'}; largest difference in "
        f"points, opponents' points and margins {worst:.1e}"
    )
    games = Result.objects.filter(season=season, status="counted").count()
    print(
        f"season now holds {games:,} counted results; stored rows {Standing.objects.filter(season=season).count():,}"
        f"; tie-breakers {standings_maths.DEFAULT_TIE_BREAKERS}"
    )
    print(f"load average after: {loadavg()}")


if __name__ == "__main__":
    main()
