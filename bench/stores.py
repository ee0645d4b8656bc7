"""Issue 15: do the stores' storage tricks pay for themselves? Each store job run two ways, on the same data, in
the same run.

- "tricks": what the site runs on PostgreSQL: binary COPY out of the results and into the rating history, rows
  updated from array literals, raw psycopg reads of binary rows, synchronous_commit off, advisory locks.
- "simple": the ORM path the same stores take on SQLite (the demo), run here on the same PostgreSQL by showing
  the stores a connection whose vendor is not "postgresql": querysets, bulk_create with update_conflicts,
  placeholders, Django's own cursors.

Jobs timed (median of --runs, each way alternately so that the machine's drift hits both): a full re-rate of the
league scope (a club season: --season-results results) and of the game scope (--game-results; a game's site-wide
scope can reach a million), rating one more result, a season's full standings recompute, and one more result
folded into the standings. After each pair the stored rows of both ways are compared, so a way that is fast
because it is wrong is caught.

Run: `flock /tmp/bench.lock .venv/bin/python bench/stores.py` (database shitenno_bench_stores, made afresh).
"""

import argparse
import datetime
import random
import statistics
import time
from contextlib import contextmanager
from pathlib import Path

import _django

_django.setup("shitenno_bench_stores")

from django.db import connection  # noqa: E402

from leagues.models import (  # noqa: E402
    Rating,
    RatingEvent,
    Result,
    ResultEntry,
    Season,
    Standing,
    bulk,  # noqa: E402
)
from leagues.rating import partitions as rating_partitions  # noqa: E402
from leagues.rating import store as rating_store  # noqa: E402
from leagues.standings import store as standings_store  # noqa: E402


class _Plain:
    """The real connection, except that it does not say it is PostgreSQL: the stores take their ORM path."""

    vendor = "plain"

    def __init__(self, real) -> None:
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)


@contextmanager
def way(name: str):
    if name == "tricks":
        yield
        return
    modules = (rating_store, standings_store, bulk)
    saved = [module.connection for module in modules]
    for module in modules:
        module.connection = _Plain(connection)
    try:
        yield
    finally:
        for module, real in zip(modules, saved, strict=True):
            module.connection = real


def generate(players: int, season_results: int, game_results: int, extra: int, seed: int = 1):
    """COPY-load a club season of `season_results` counted results, `game_results - season_results` more results of
    the game outside any club, and `extra` pending results of the season; returns (season, pending ids)."""
    rng = random.Random(seed)
    season, ids = _django.club_season(players, "Bench season", 366)
    first, club_id = season.starts_on, season.league.club_id
    now = datetime.datetime.now(datetime.UTC)
    total = max(game_results, season_results) + extra
    with connection.connection.cursor() as cursor:
        with cursor.copy(
            "COPY leagues_result (id, game, played_on, club_id, season_id, status, version, in_standings, "
            "created_at, updated_at, ranked_publicly) FROM STDIN"
        ) as copy:
            for n in range(total):
                in_season = n < season_results or n >= total - extra
                copy.write_row(
                    (
                        n + 1,
                        "shitenno",
                        first + datetime.timedelta(days=n * 365 // total),
                        club_id if in_season else None,
                        season.pk if in_season else None,
                        "pending" if n >= total - extra else "counted",
                        1,
                        False,
                        now,
                        now,
                        n < total - extra,
                    )
                )
        with cursor.copy("COPY leagues_resultentry (result_id, player_id, rank, score) FROM STDIN") as copy:
            for n in range(total):
                for pid, rank, score in _django.placings(rng, rng.sample(ids, 4)):
                    copy.write_row((n + 1, pid, rank, score))
        cursor.execute("SELECT setval(pg_get_serial_sequence('leagues_result', 'id'), %s)", [total])
        cursor.execute("ANALYZE")
    connection.connection.commit()
    return season, list(range(total - extra + 1, total + 1))


def ratings_rows(kind: str, key: str) -> list[tuple]:
    rounded = lambda rows: [tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows]  # noqa: E731
    return rounded(
        Rating.objects.filter(kind=kind, key=key).order_by("player_id").values_list("player_id", "mu", "sigma", "games")
    ) + rounded(
        RatingEvent.objects.filter(kind=kind, key=key)
        .order_by("result_id", "player_id")
        .values_list("result_id", "player_id", "mu_after", "sigma_after")
    )


def standings_rows(season: Season) -> list[tuple]:
    return list(
        Standing.objects.filter(season=season)
        .order_by("player_id")
        .values_list("player_id", "sort_key", "points", "games", "wins", "seconds", "opponents_points", "margin")
    )


def pair(label: str, runs: int, prepare, job, rows) -> tuple[float, float, bool]:
    """Time `job` each way `runs` times, alternately (`prepare` before each), and compare the rows left."""
    times: dict[str, list[float]] = {"tricks": [], "simple": []}
    left = {}
    for _ in range(runs):
        for name in ("tricks", "simple"):
            prepare()
            with way(name):
                times[name].append(_django.timed(job))
            if rows is not None:
                left[name] = rows()
    tricks, simple = statistics.median(times["tricks"]), statistics.median(times["simple"])
    same = left["tricks"] == left["simple"] if rows is not None else True
    check = "same rows" if same else "DIFFERENT"
    if rows is None:
        check = "checked below"
    print(f"| {label} | {_django.ms(tricks)} | {_django.ms(simple)} | {simple / tricks:.2f}x | {check} |")
    return tricks, simple, same


def fillfactor(runs: int, season: Season) -> None:
    """The rating history keeps half its pages free (migration 0007; each partition since 0014) so that a re-rate
    updates rows in place: the same re-rate from the middle of the game scope with the pages full (PostgreSQL's
    default, 100) and half free (50), and what each costs on disk."""
    middle = season.starts_on + datetime.timedelta(days=183)
    print("| rating history fillfactor | re-rate of the game scope from its middle | history table + indexes |")
    print("|---|---|---|")
    table = rating_partitions.partition_name("shitenno")  # the game scope's partition (migration 0014)
    for setting in (100, 50):  # 50 last: the schema's own setting stays
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {table} SET (fillfactor = {setting})")
            cursor.execute(f"VACUUM FULL ANALYZE {table}")
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            size = cursor.fetchone()[0]
        # an edit in the middle (the finishing order of one game reversed) changes every later rating of its
        # players and, through their opponents, most later rows: the re-rate rewrites them
        edited = Result.objects.filter(status="counted", played_on__gte=middle).order_by("played_on", "id").first()
        times = []
        for _ in range(runs):
            entries = list(ResultEntry.objects.filter(result=edited).order_by("id"))
            for entry, rank in zip(entries, reversed([e.rank for e in entries]), strict=True):
                ResultEntry.objects.filter(pk=entry.pk).update(rank=rank)
            since = edited.played_on
            times.append(
                _django.timed(
                    lambda since=since: rating_store.ratings_recompute(kind="game", key="shitenno", since=since)
                )
            )
        print(f"| {setting} | {_django.ms(statistics.median(times))} (median of {runs}) | {size / 2**20:.0f} MiB |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--season-results", type=int, default=3_000, help="a club season's counted results")
    parser.add_argument("--game-results", type=int, default=100_000, help="the game scope's counted results")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average before: {Path('/proc/loadavg').read_text().strip()}")
    start = time.perf_counter()
    season, pending = generate(args.players, args.season_results, args.game_results, extra=4 * args.runs)
    print(
        f"generated a season of {args.season_results:,} and a game scope of {args.game_results:,} four-player "
        f"results among {args.players:,} players in {time.perf_counter() - start:.1f} s"
    )
    league = str(season.league_id)
    print("| job | tricks (PostgreSQL path) | simple (ORM path) | simple / tricks | rows |")
    print("|---|---|---|---|---|")
    everything_same = True

    def clear(kind: str, key: str):
        return lambda: (
            RatingEvent.objects.filter(kind=kind, key=key).delete(),
            Rating.objects.filter(kind=kind, key=key).delete(),
        )

    for kind, key, size in (("league", league, args.season_results), ("game", "shitenno", args.game_results)):
        *_, same = pair(
            f"full re-rate of the {kind} scope ({size:,} results) into an empty store",
            args.runs,
            clear(kind, key),
            lambda k=kind, s=key: rating_store.ratings_recompute(kind=k, key=s),
            lambda k=kind, s=key: ratings_rows(k, s),
        )
        everything_same &= same
        *_, same = pair(
            f"re-rate of the {kind} scope from its middle (stored rows kept or updated)",
            args.runs,
            lambda: None,
            lambda k=kind, s=key: rating_store.ratings_recompute(
                kind=k, key=s, since=season.starts_on + datetime.timedelta(days=183)
            ),
            lambda k=kind, s=key: ratings_rows(k, s),
        )
        everything_same &= same

    counting = iter(pending)

    def count_one() -> None:
        result_id = next(counting)
        Result.objects.filter(pk=result_id).update(status="counted", ranked_publicly=True)
        count_one.result = Result.objects.get(pk=result_id)

    pair(
        "rate one more result (the latest) in its two scopes",
        args.runs,
        count_one,
        lambda: rating_store.ratings_apply_result(result=count_one.result),
        None,
    )
    # each way rated results of its own: compare what they left with a full re-rate instead
    rated = ratings_rows("league", league)
    rating_store.ratings_recompute(kind="league", key=league)
    everything_same &= rated == ratings_rows("league", league)

    def empty_table() -> None:
        Standing.objects.filter(season=season).delete()
        Season.objects.filter(pk=season.pk).update(standings_results=None)

    *_, same = pair(
        f"season standings, full recompute into an empty table ({args.season_results:,}+ results)",
        args.runs,
        empty_table,
        lambda: standings_store.standings_compute(season=season),
        lambda: standings_rows(season),
    )
    everything_same &= same
    standings_store.standings_compute(season=season)
    pair(
        "one more result folded into the season's table",
        args.runs,
        count_one,
        lambda: standings_store.standings_apply_result(result=count_one.result),
        None,
    )
    # the ways folded different results (one each per run): compare the table with a full recompute instead
    folded = standings_rows(season)
    standings_store.standings_compute(season=season)
    everything_same &= folded == standings_rows(season)
    print(f"every way left the rows the other (or a full recompute) leaves: {'yes' if everything_same else 'NO'}")
    fillfactor(args.runs, season)
    print(f"load average after: {Path('/proc/loadavg').read_text().strip()}")


if __name__ == "__main__":
    main()
