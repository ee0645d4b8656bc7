"""Issue 25's benchmark: the league-night optimiser (leagues/nights/pods.py), no database needed.

Run: `.venv/bin/python bench/league_nights.py [--small-cases 200] [--big-players 60] [--nights 10]`

Prints, each against a baseline measured in the same run:
1. exactness: for 6-12 players and N random histories each, `propose` against a plain enumeration of every
   split (no pruning): repeats equal in every case, seat cost equal to the best among the repeat-optimal splits;
2. a large night (60 players, 4 rounds of history): the proposal's time and its repeats against the stated
   lower bound (`pods.repeats_lower_bound`: half the sum over players of his cheapest table-mates' met figures);
3. a simulated season (N nights, 3 rounds each, the same 20 players): each player's seat-count spread (max - min
   over the four seats, averaged over players) with the optimiser against random seating.
"""

import argparse
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leagues.nights.pods import Night, _Evaluator, _reachable, propose  # noqa: E402


def random_night(rng: random.Random, n: int) -> Night:
    players = list(range(1, n + 1))
    met = {}
    for a, b in combinations(players, 2):
        if rng.random() < 0.35:
            met[frozenset((a, b))] = rng.choice([1, 1, 2, 3, 0.5])
    seats = {(p, ""): tuple(rng.randint(0, 3) for _ in range(4)) for p in players if rng.random() < 0.8}
    forbidden = {frozenset(rng.sample(players, 2))} if rng.random() < 0.3 else set()
    return Night(players=players, table_sizes=(3, 4), met=met, seats=seats, forbidden=forbidden)


def every_split(players, sizes):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sizes:
        if size > len(players) or not _reachable(len(players) - size, sizes):
            continue
        for mates in combinations(rest, size - 1):
            table = frozenset((first, *mates))
            for split in every_split([p for p in rest if p not in table], sizes):
                yield [table, *split]


def enumerated_optimum(night: Night):
    """(repeats, seat cost) of the best split by brute force; None if no split keeps the hard rules."""
    evaluator = _Evaluator(night)
    best = None
    for split in every_split(sorted(night.players), sorted(night.table_sizes)):
        keys = [evaluator.score(t)[0] for t in split]
        if any(k[0] for k in keys):
            continue
        value = (round(sum(k[1] for k in keys), 9), round(sum(k[2] for k in keys), 6))
        if best is None or value < best:
            best = value
    return best


def exactness(cases: int, seed: int):
    print(f"1. exactness: propose vs a plain enumeration of every split, {cases} random histories per size")
    all_equal = True
    for n in range(6, 13):
        rng = random.Random(seed * 1000 + n)
        equal_repeats = equal_seats = infeasible = 0
        took, brute = 0.0, 0.0
        for _ in range(cases):
            night = random_night(rng, n)
            t0 = time.perf_counter()
            optimum = enumerated_optimum(night)
            brute += time.perf_counter() - t0
            t0 = time.perf_counter()
            try:
                got = propose(night)
            except ValueError:
                got = None
            took += time.perf_counter() - t0
            if optimum is None or got is None:
                infeasible += 1
                equal_repeats += optimum is None and got is None
                equal_seats += optimum is None and got is None
                continue
            equal_repeats += abs(got.repeats - optimum[0]) < 1e-6
            equal_seats += abs(got.seat_cost - optimum[1]) < 1e-5
        all_equal &= equal_repeats == cases and equal_seats == cases
        print(f"   {n:2d} players: repeats equal {equal_repeats}/{cases}, seat cost equal {equal_seats}/{cases}"
              f" (no valid split: {infeasible}); propose {took / cases * 1000:.1f} ms each,"
              f" enumeration {brute / cases * 1000:.1f} ms each")
    print(f"   every case optimal: {'yes' if all_equal else 'NO'}")
    return all_equal


def history_rounds(rng, players, rounds, size=4):
    met, seats = {}, {}
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        for i in range(0, len(order), size):
            table = order[i:i + size]
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            for s, p in enumerate(table):
                counts = list(seats.get((p, ""), (0, 0, 0, 0)))
                counts[s] += 1
                seats[(p, "")] = tuple(counts)
    return met, seats


def large_night(n: int, runs: int, seed: int):
    print(f"2. a large night: {n} players, 4 earlier rounds of tables of 4 (random), tables of 3-4")
    times, gaps = [], []
    for run in range(runs):
        rng = random.Random(seed + run)
        players = list(range(1, n + 1))
        met, seats = history_rounds(rng, players, 4)
        night = Night(players=players, table_sizes=(3, 4), met=met, seats=seats)
        t0 = time.perf_counter()
        got = propose(night)
        took = time.perf_counter() - t0
        times.append(took)
        bound = got.repeats_lower_bound
        gap = (got.repeats - bound) / bound if bound else (0.0 if got.repeats == 0 else float("inf"))
        gaps.append(gap)
        print(f"   run {run + 1}: {took:.3f} s, repeats {got.repeats:g} vs lower bound {bound:g}"
              f" (gap {gap:.1%}), seat cost {got.seat_cost:.2f}, {len(got.tables)} tables")
    print(f"   worst time {max(times):.3f} s (target <= 2 s), worst gap {max(gaps):.1%} (target <= 5%)")
    # a harder variant: 10 earlier rounds, where no repeat-free split need exist, so the bound is not trivially 0
    rng = random.Random(seed + 99)
    players = list(range(1, n + 1))
    met, seats = history_rounds(rng, players, 10)
    night = Night(players=players, table_sizes=(3, 4), met=met, seats=seats)
    t0 = time.perf_counter()
    got = propose(night)
    took = time.perf_counter() - t0
    print(f"   harder (10 earlier rounds): {took:.3f} s, repeats {got.repeats:g} vs lower bound"
          f" {got.repeats_lower_bound:g}")


def season(nights: int, seed: int, players_count=20, rounds=3):
    print(f"3. a simulated season: {nights} nights x {rounds} rounds, {players_count} players, tables of 4")
    players = list(range(1, players_count + 1))

    def run(optimised: bool):
        rng = random.Random(seed)
        met, seats = {}, {}
        for _ in range(nights):
            tonight = {}
            for _ in range(rounds):
                if optimised:
                    weighted = dict(met)
                    for pair, times in tonight.items():
                        weighted[pair] = weighted.get(pair, 0) + 2 * times  # tonight counts three times
                    tables = [t.players for t in propose(Night(players=players, table_sizes=(4,), met=weighted,
                                                                seats=seats, seed=rng.randint(0, 10**6))).tables]
                else:
                    order = players[:]
                    rng.shuffle(order)
                    tables = [tuple(order[i:i + 4]) for i in range(0, len(order), 4)]
                for table in tables:
                    for a, b in combinations(table, 2):
                        tonight[frozenset((a, b))] = tonight.get(frozenset((a, b)), 0) + 1
                    for s, p in enumerate(table):
                        counts = list(seats.get((p, ""), (0, 0, 0, 0)))
                        counts[s] += 1
                        seats[(p, "")] = tuple(counts)
            for pair, times in tonight.items():
                met[pair] = met.get(pair, 0) + times
        spread = statistics.mean(max(seats[(p, "")]) - min(seats[(p, "")]) for p in players)
        repeats = sum(t - 1 for t in met.values() if t > 1)
        return spread, repeats

    t0 = time.perf_counter()
    optimised, optimised_repeats = run(True)
    took = time.perf_counter() - t0
    random_spread, random_repeats = run(False)
    cut = 1 - optimised / random_spread
    print(f"   seat-count spread (max - min per player, mean): optimiser {optimised:.2f}, random {random_spread:.2f}:"
          f" {cut:.0%} less (target >= 20%); repeated meetings {optimised_repeats} vs {random_repeats};"
          f" {took:.1f} s for the season's {nights * rounds} proposals")
    return cut


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small-cases", type=int, default=200)
    parser.add_argument("--big-players", type=int, default=60)
    parser.add_argument("--big-runs", type=int, default=5)
    parser.add_argument("--nights", type=int, default=10)
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    exactness(args.small_cases, args.seed)
    large_night(args.big_players, args.big_runs, args.seed)
    season(args.nights, args.seed)


if __name__ == "__main__":
    main()
