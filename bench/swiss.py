"""Issue 51's benchmark: pairing a tournament round (leagues/tournaments/pairing.py), no database needed.

Run: `.venv/bin/python bench/swiss.py [--players 64] [--rounds 5] [--seeds 1,2] [--reference-work 4]`

Prints, each beside a baseline measured in the same run:
1. per round of simulated tournaments (results drawn by a seeded generator, 4/2/1/0 per place, 4/2/0 in a pod of
   three): the pairing's wall and CPU time, repeats and their proven bound, spread, against the floor no split
   can beat, the greedy pairing trackers use (the best-placed left, then the next ones who have not met him) and
   the same pairing given `--reference-work` deterministic seconds per solve, ten times the search and the
   annealing, and the spread solve at every size;
2. `manage.py swiss` for a round of --players after round --rounds - 1, from the shell (the contract's 2 s
   target: Python, Django and OR-Tools start included), beside the same command on round 1 (no solver needed).
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from leagues.tournaments import pairing, pairing_solver  # noqa: E402
from leagues.tournaments.pairing import Entrant, Round, pair  # noqa: E402

PLACES = {4: [4, 2, 1, 0], 3: [4, 2, 0]}


def load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def greedy(players, sizes):
    """The tracker's way: the best-placed player left, then the next ones down who met nobody in the pod yet."""
    left, pods = list(players), []
    for size in sizes:
        pod = [left.pop(0)]
        while len(pod) < size:
            fresh = next((n for n, p in enumerate(left) if not any(p.id in q.opponents for q in pod)), 0)
            pod.append(left.pop(fresh))
        pods.append(pod)
    return pods


def figures(pods) -> tuple[int, float]:
    repeats = spread = 0
    for pod in pods:
        for a, b in combinations(pod, 2):
            repeats += max(a.opponents.count(b.id), b.opponents.count(a.id))
            spread += abs(a.points - b.points)
    return repeats, spread


def tournament(count: int, rounds: int, seed: int, reference_work: float):
    rng = random.Random(seed)
    points = {p: 0 for p in range(1, count + 1)}
    opponents = {p: [] for p in points}
    order = list(points)
    rng.shuffle(order)
    for number in range(1, rounds + 1):
        players = [Entrant(p, points[p], tuple(opponents[p])) for p in order]
        ranked = pairing.standings(players)
        sizes = list(pairing.pod_sizes(count, (3, 4)))
        wall, cpu = time.perf_counter(), time.process_time()
        found = pair(Round(players, (3, 4), seed=seed))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        floor = pairing.spread_floor([p.points for p in ranked], sizes)
        tracker = figures(greedy(ranked, sorted(sizes, reverse=True)))
        limit, pairing_solver.SPREAD_LIMIT = pairing_solver.SPREAD_LIMIT, count  # the reference solves the spread
        reference = pair(
            Round(
                players,
                (3, 4),
                seed=seed,
                work=reference_work,
                anneal_steps=10 * pairing.ANNEAL_STEPS,
                search_work=10 * pairing.SEARCH_WORK,
            )
        )
        pairing_solver.SPREAD_LIMIT = limit
        print(
            f"  seed {seed} round {number}: {wall:.2f} s wall, {cpu:.2f} s CPU; repeats {found.repeats} (bound "
            f"{found.bound}), spread {found.spread} (floor {floor}; proven: {'yes' if found.exact else 'no'}) | "
            f"greedy: repeats {tracker[0]}, spread {tracker[1]} | reference: repeats {reference.repeats}, "
            f"spread {reference.spread} (proven: {'yes' if reference.exact else 'no'}) | {load()}"
        )
        yield number, players, found
        for pod in found.pods:
            for player in pod:
                opponents[player] += [other for other in pod if other != player]
            finish = list(pod)
            rng.shuffle(finish)
            for place, player in enumerate(finish):
                points[player] += PLACES[len(pod)][place]
        order = sorted(points, key=lambda p: -points[p])


def command_seconds(players) -> float:
    data = {
        "players": [{"id": p.id, "points": p.points, "opponents": list(p.opponents)} for p in players],
        "table_sizes": [3, 4],
        "seat_rule": "swiss",
    }
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(data, handle)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", "swiss", "--input", handle.name],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    seconds = time.perf_counter() - started
    os.unlink(handle.name)
    if done.returncode:
        raise SystemExit(done.stderr)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--reference-work", type=float, default=4.0)
    args = parser.parse_args()
    started = time.perf_counter()
    from ortools.sat.python import cp_model  # noqa: F401  (its import is part of the first solved round)

    print(f"OR-Tools import: {time.perf_counter() - started:.2f} s ({load()})")
    print(f"1. {args.players} players, {args.rounds} rounds, pods of 3-4:")
    first = last = None
    for seed in (int(s) for s in args.seeds.split(",")):
        for number, players, _ in tournament(args.players, args.rounds, seed, args.reference_work):
            first = players if number == 1 and first is None else first
            last = players if number == args.rounds else last
    print(
        f"2. manage.py swiss, {args.players} players: round {args.rounds} {command_seconds(last):.2f} s; "
        f"round 1 (baseline: no solver) {command_seconds(first):.2f} s ({load()})"
    )


if __name__ == "__main__":
    main()
