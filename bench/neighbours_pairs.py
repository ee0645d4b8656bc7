"""Issue 46 finding 1: who met whom, as a night's proposal reads it, on the attack's season.

Run: `.venv/bin/python bench/neighbours_pairs.py [--plays 1000] [--players 100] [--at-play 100]
      [--tonight 12 100] [--guests 12] [--runs 3]`

A season of `--plays` results, each of `--at-play` of the club's `--players` players (the import's cap is 100 a
play: the attack's worst case), and a night of `--tonight` of them plus `--guests` guests with no results. Prints,
in the same run, the proposal's history (`leagues.nights.services._history`) read the old way (every entry of the
season paired in Python, kept here as the reference) and the new way (one aggregate query about tonight's players),
the best of `--runs` each, and checks that both say the same of tonight's players.
"""

import argparse
import os
import random
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _django  # noqa: E402


def old_history(night):
    """The pair loop before issue 46 (as tests/leagues/test_night_meetings.py keeps it)."""
    from leagues.models import NightTable, ResultEntry
    from leagues.nights.services import TONIGHT_WEIGHT

    met: Counter = Counter()
    by_result: dict[int, list[int]] = {}
    for result_id, player_id in ResultEntry.objects.filter(result__season=night.season).values_list(
        "result_id", "player_id"
    ):
        by_result.setdefault(result_id, []).append(player_id)
    for players in by_result.values():
        for a, b in combinations(sorted(set(players)), 2):
            met[frozenset((a, b))] += 1
    seats: dict = {}
    for table in NightTable.objects.filter(
        round__night__season=night.season, round__opened_at__isnull=False
    ).select_related("round"):
        if table.round.night_id == night.pk:
            for a, b in combinations(table.players, 2):
                met[frozenset((a, b))] += TONIGHT_WEIGHT
        for seat, player_id in enumerate(table.players):
            counts = list(seats.get((player_id, table.game), ()))
            counts += [0] * (seat + 1 - len(counts))
            counts[seat] += 1
            seats[(player_id, table.game)] = tuple(counts)
    return dict(met), seats


def build(args):
    import datetime

    from django.db import connection

    from leagues.models import Night, Player, Result, ResultEntry

    season, ids = _django.club_season(args.players, "Attack", 365)
    rng = random.Random(46)
    day = datetime.date(2020, 1, 1)
    results = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=day + datetime.timedelta(days=i % 365),
            season=season,
            status=Result.Status.COUNTED,
        )
        for i in range(args.plays)
    )
    batch = []
    for result in results:
        for rank, player in enumerate(rng.sample(ids, args.at_play), start=1):
            batch.append(ResultEntry(result=result, player_id=player, rank=rank))
        if len(batch) >= 20000:
            ResultEntry.objects.bulk_create(batch)
            batch = []
    ResultEntry.objects.bulk_create(batch)
    guests = [p.pk for p in Player.objects.bulk_create(Player(name=f"guest {i}") for i in range(args.guests))]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE leagues_resultentry; ANALYZE leagues_result")
    night = Night.objects.create(season=season, date=day, games=["shitenno"])
    return night, ids, guests


def best(work, runs):
    return min(_django.timed(work) for _ in range(runs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=1000)
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--at-play", type=int, default=100)
    parser.add_argument("--tonight", type=int, nargs="+", default=[12, 100])
    parser.add_argument("--guests", type=int, default=12)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    _django.setup("shitenno_bench_neighbours")
    from leagues.nights import services

    night, ids, guests = build(args)
    print(
        f"season: {args.plays} results x {args.at_play} of {args.players} players; "
        f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    old = best(lambda: old_history(night), args.runs)
    reference = old_history(night)[0]
    print(f"old: every entry of the season paired in Python: {_django.ms(old)}")
    for count in args.tonight:
        here = sorted(ids[:count] + guests)
        new = best(lambda here=here: services._history(night, here), args.runs)
        same = services._history(night, here)[0] == {pair: n for pair, n in reference.items() if pair <= set(here)}
        print(
            f"new: one query, {count} players + {len(guests)} guests tonight: {_django.ms(new)} "
            f"({old / new:.1f}x faster; same meetings: {'yes' if same else 'NO'})"
        )
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
