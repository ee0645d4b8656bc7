"""Issues 25 and 37's benchmark: the league-night optimiser (leagues/nights/pods.py), no database needed.

Run: `.venv/bin/python bench/league_nights.py [--small-cases 30] [--sizes 13,16,20,24,30,40,50,60] [--nights 6]
      [--reference-seconds 10] [--reference-columns 40000] [--big-players 200] [--season-nights 10]`

Prints, each beside a reference measured in the same run:
1. exactness: 6-12 players, random histories, both mixes: `propose` against a plain enumeration of every split
   scored by the same objective (no pruning): the whole objective tuple equal in every case;
2. random nights of 13-60 players after 3-12 earlier rounds (tables of 4, shuffled), mixes "fill" and "free"
   alternating: per size, the share of nights whose `repeats` equal the proven optimum, the worst seat-cost gap
   at equal repeats, the worst time, and the site's own stated bound. The reference is the same solver given
   `--reference-seconds` instead of the request's budget and set partitioning up to `--reference-columns` tables
   (about 30 players at sizes 3-4: proven optimal); past that the assignment model, whose optimum is proven only
   where its bound meets its best;
3. times: 12 players at sizes 2-6 (target <= 0.3 s), 60 (<= 2 s) and `--big-players` (<= 5 s) after 12 rounds;
4. a simulated season (N nights x 3 rounds, the same 20 players): each player's seat-count spread with the
   optimiser against random seating.
"""

import argparse
import os
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leagues.nights import pods_ortools, pods_solver  # noqa: E402
from leagues.nights.pods import Evaluator, Night, PodsError, propose, reachable, split_key  # noqa: E402


def load() -> str:
    """The machine's load beside each figure: a wall time means little without it (the machine is shared)."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def random_night(rng: random.Random, n: int, mix: str) -> Night:
    players = list(range(1, n + 1))
    met = {}
    for a, b in combinations(players, 2):
        if rng.random() < 0.35:
            met[frozenset((a, b))] = rng.choice([1, 1, 2, 3, 0.5])
    seats = {(p, ""): tuple(rng.randint(0, 3) for _ in range(4)) for p in players if rng.random() < 0.8}
    forbidden = {frozenset(rng.sample(players, 2))} if rng.random() < 0.3 else set()
    return Night(
        players=players, table_sizes=rng.choice([(3, 4), (2, 3, 4)]), met=met, seats=seats, forbidden=forbidden, mix=mix
    )


def every_split(players, sizes):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sizes:
        if size > len(players) or not reachable(len(players) - size, sizes):
            continue
        for mates in combinations(rest, size - 1):
            table = frozenset((first, *mates))
            for split in every_split([p for p in rest if p not in table], sizes):
                yield [table, *split]


def enumerated_optimum(night: Night):
    """The best objective tuple by brute force; None if no split keeps the hard rules."""
    evaluator = Evaluator(night)
    best = None
    for split in every_split(sorted(night.players), sorted(night.table_sizes)):
        keys = [evaluator.score(t)[0] for t in split]
        if any(k[0] for k in keys):
            continue
        value = split_key(keys, [len(t) for t in split], night.mix)
        if best is None or value < best:
            best = value
    return best


def proposal_key(night: Night, proposal) -> tuple:
    evaluator = Evaluator(night)
    tables = [frozenset(t.players) for t in proposal.tables]
    return split_key([evaluator.score(t)[0] for t in tables], [len(t) for t in tables], night.mix)


def exactness(cases: int, seed: int) -> bool:
    print(f"1. exactness: propose vs a plain enumeration of every split, {cases} random nights per size and mix")
    all_equal = True
    for n in range(6, 13):
        rng = random.Random(seed * 1000 + n)
        equal, took, brute = 0, 0.0, 0.0
        for case in range(cases):
            night = random_night(rng, n, ("fill", "free")[case % 2])
            t0 = time.perf_counter()
            optimum = enumerated_optimum(night)
            brute += time.perf_counter() - t0
            t0 = time.perf_counter()
            try:
                got = proposal_key(night, propose(night))
            except PodsError:
                got = None
            took += time.perf_counter() - t0
            equal += got == optimum
        all_equal &= equal == cases
        print(
            f"   {n:2d} players: objective equal {equal}/{cases}; propose {took / cases * 1000:.1f} ms each,"
            f" enumeration {brute / cases * 1000:.1f} ms each"
        )
    print(f"   every case optimal: {'yes' if all_equal else 'NO'}")
    return all_equal


def history_night(rng, n: int, rounds: int, mix: str, size=4) -> Night:
    players = list(range(1, n + 1))
    met, seats = {}, {}
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        for i in range(0, len(order), size):
            table = order[i : i + size]
            for a, b in combinations(table, 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            for s, p in enumerate(table):
                counts = list(seats.get((p, ""), (0, 0, 0, 0)))
                counts[s] += 1
                seats[(p, "")] = tuple(counts)
    return Night(players=players, table_sizes=(3, 4), met=met, seats=seats, mix=mix)


def against_reference(sizes, nights: int, reference_seconds: float, reference_columns: int, seed: int) -> None:
    print(
        f"2. random nights after 3-12 earlier rounds, {nights} per size (mixes alternate), against the solver given"
        f" {reference_seconds:g} s and set partitioning up to {reference_columns} tables"
    )
    print(
        "   players | at the proven optimum | unproven | worst seat gap at equal repeats | worst time |"
        " site bound = repeats"
    )
    for n in sizes:
        rng = random.Random(seed * 7919 + n)
        at_optimum = proven_count = equal_bound = 0
        worst_gap, worst_time = 0.0, 0.0
        for case in range(nights):
            night = history_night(rng, n, rng.randint(3, 12), ("fill", "free")[case % 2])
            t0 = time.perf_counter()
            got = propose(night)
            worst_time = max(worst_time, time.perf_counter() - t0)
            equal_bound += got.bound == got.repeats
            reference = Night(**{**night.__dict__, "time_budget": reference_seconds})
            evaluator = Evaluator(reference)
            site_columns, pods_ortools.MAX_COLUMNS = pods_ortools.MAX_COLUMNS, reference_columns
            pods_solver.SETTLE_AT_BOUND = False  # the reference is the solver's own answer
            try:
                split, bound, proven, _how = pods_solver.solve(night.players, evaluator, reference)
            finally:
                pods_ortools.MAX_COLUMNS, pods_solver.SETTLE_AT_BOUND = site_columns, True
            ref_repeats = round(sum(evaluator.score(t)[0][1] for t in split) / 10**6, 6)
            ref_seats = round(sum(evaluator.score(t)[0][2] for t in split) / 10**6, 6)
            optimum_known = proven or bound / 10**6 >= ref_repeats - 1e-9
            proven_count += optimum_known
            if optimum_known:
                at_optimum += got.repeats <= ref_repeats + 1e-9
            if abs(got.repeats - ref_repeats) < 1e-9 and ref_seats:
                worst_gap = max(worst_gap, (got.seat_cost - ref_seats) / ref_seats)
        share = f"{at_optimum}/{proven_count}" if proven_count else "-"
        print(
            f"   {n:7d} | {share:>21} | {nights - proven_count:8d} | {worst_gap:31.2%} | {worst_time:8.2f} s |"
            f" {equal_bound}/{nights} | {load()}"
        )


def times(big: int, seed: int) -> None:
    print("3. times (one worker), each beside the budget the solver was given")
    rng = random.Random(seed)
    cases = [
        (
            "12 players, sizes 2-6, free, 6 rounds",
            Night(**{**history_night(rng, 12, 6, "free").__dict__, "table_sizes": (2, 3, 4, 5, 6)}),
            0.3,
        ),
        ("60 players, 12 rounds, fill", history_night(rng, 60, 12, "fill"), 2.0),
        ("60 players, 12 rounds, free", history_night(rng, 60, 12, "free"), 2.0),
        (f"{big} players, 12 rounds, fill", history_night(rng, big, 12, "fill"), 5.0),
    ]
    for label, night, target in cases:
        t0, c0 = time.perf_counter(), time.process_time()
        got = propose(night)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(
            f"   {label}: {took:.2f} s wall, {cpu:.2f} s CPU (target <= {target:g} s); repeats {got.repeats:g},"
            f" bound {got.bound:g}; {got.solver}; {load()}"
        )


def season(nights: int, seed: int, players_count=20, rounds=3) -> None:
    print(f"4. a simulated season: {nights} nights x {rounds} rounds, {players_count} players, tables of 4")
    players = list(range(1, players_count + 1))

    def run(optimised: bool):
        rng = random.Random(seed)
        met, seats = {}, {}
        for _ in range(nights):
            tonight = {}
            for _ in range(rounds):
                if optimised:
                    weighted = dict(met)
                    for pair, times_met in tonight.items():
                        weighted[pair] = weighted.get(pair, 0) + 2 * times_met  # tonight counts three times
                    tables = [
                        t.players
                        for t in propose(
                            Night(
                                players=players, table_sizes=(4,), met=weighted, seats=seats, seed=rng.randint(0, 10**6)
                            )
                        ).tables
                    ]
                else:
                    order = players[:]
                    rng.shuffle(order)
                    tables = [tuple(order[i : i + 4]) for i in range(0, len(order), 4)]
                for table in tables:
                    for a, b in combinations(table, 2):
                        tonight[frozenset((a, b))] = tonight.get(frozenset((a, b)), 0) + 1
                    for s, p in enumerate(table):
                        counts = list(seats.get((p, ""), (0, 0, 0, 0)))
                        counts[s] += 1
                        seats[(p, "")] = tuple(counts)
            for pair, times_met in tonight.items():
                met[pair] = met.get(pair, 0) + times_met
        spread = statistics.mean(max(seats[(p, "")]) - min(seats[(p, "")]) for p in players)
        return spread, sum(t - 1 for t in met.values() if t > 1)

    t0 = time.perf_counter()
    optimised, optimised_repeats = run(True)
    took = time.perf_counter() - t0
    random_spread, random_repeats = run(False)
    print(
        f"   seat-count spread (max - min per player, mean): optimiser {optimised:.2f}, random {random_spread:.2f}:"
        f" {1 - optimised / random_spread:.0%} less; repeated meetings {optimised_repeats} vs {random_repeats};"
        f" {took:.1f} s for the season's {nights * rounds} proposals"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small-cases", type=int, default=30)
    parser.add_argument("--sizes", default="13,16,20,24,30,40,50,60")
    parser.add_argument("--nights", type=int, default=6)
    parser.add_argument("--reference-seconds", type=float, default=10.0)
    parser.add_argument("--reference-columns", type=int, default=40_000)
    parser.add_argument("--big-players", type=int, default=200)
    parser.add_argument("--season-nights", type=int, default=10)
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, {load()}")
    exactness(args.small_cases, args.seed)
    against_reference(
        [int(n) for n in args.sizes.split(",")], args.nights, args.reference_seconds, args.reference_columns, args.seed
    )
    times(args.big_players, args.seed)
    season(args.season_nights, args.seed)


if __name__ == "__main__":
    main()
