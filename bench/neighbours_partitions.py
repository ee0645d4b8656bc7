"""Issue 46 finding 5: a scope's win chances as the site grows to more scopes (rating-history partitions).

Run: `.venv/bin/python bench/neighbours_partitions.py [--scopes 80 1080] [--runs 15] [--database NAME]`

Reads a table's chances query (four players' ratings in one game, with their latest game day and the scope's
figures) the old way (the rating history's kind and key from OuterRef: PostgreSQL plans every partition) and the
new way (`leagues.common.selectors.last_played_in_scope` with a literal kind and key: one partition), the median of
`--runs` each, after the site has grown to each number of scopes in `--scopes` (empty partitions, as a scope has).
"""

import argparse
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _django  # noqa: E402


def chances_players() -> list[int]:
    """Four players with a Shitennō rating each (the table whose chances are read); call after setup()."""
    from leagues.models import Player, Rating
    from leagues.rating import partitions

    ids = [p.pk for p in Player.objects.bulk_create(Player(name=f"chances {i}") for i in range(4))]
    Rating.objects.bulk_create(Rating(kind="game", key="shitenno", player_id=p, mu=25, sigma=8, games=1) for p in ids)
    partitions.ensure_partition("shitenno")
    return ids


def partition_count() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_inherits WHERE inhparent = 'leagues_ratingevent'::regclass")
        return cursor.fetchone()[0]


def measure(ids: list[int], scopes: list[int], runs: int) -> list[tuple[int, float, float]]:
    """(partitions, old median s, new median s) once the site has grown to each number of `scopes` (a partition
    each, empty, as a new scope's is; those the database holds already count), printing each line."""
    from django.db.models import OuterRef, Subquery

    from leagues.common import selectors
    from leagues.models import Rating, RatingEvent
    from leagues.rating import partitions

    def ratings():
        return Rating.objects.filter(kind="game", key="shitenno", player_id__in=ids)

    def old():
        last = Subquery(
            RatingEvent.objects.filter(player=OuterRef("player_id"), kind=OuterRef("kind"), key=OuterRef("key"))
            .order_by("-played_on")
            .values("played_on")[:1]
        )
        return list(
            ratings().annotate(
                last=last, performance_sd=selectors.scope_performance_sd(), skill_sd=selectors.scope_skill_sd()
            )
        )

    def new():
        return list(
            ratings().annotate(
                last=selectors.last_played_in_scope("game", "shitenno"),
                performance_sd=selectors.scope_performance_sd("game", "shitenno"),
                skill_sd=selectors.scope_skill_sd("game", "shitenno"),
            )
        )

    def median(read):
        read()
        return statistics.median(_django.timed(read) for _ in range(runs))

    figures = []
    for scopes_wanted in scopes:
        made = 0
        while (count := partition_count()) < scopes_wanted + 1:  # the scopes' partitions and the default one
            partitions.ensure_partition(f"scope-{made:04d}-{scopes_wanted}")
            made += 1
        before, after = median(old), median(new)
        print(
            f"{count} partitions: old (key from OuterRef) {_django.ms(before)}, new (literal key) "
            f"{_django.ms(after)}; load average {os.getloadavg()[0]:.2f}",
            flush=True,
        )
        figures.append((count, before, after))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scopes", type=int, nargs="+", default=[80, 1080])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--database", default="shitenno_bench_partitions")
    args = parser.parse_args()
    _django.setup(args.database)
    measure(chances_players(), args.scopes, args.runs)


if __name__ == "__main__":
    main()
