"""Issue 49's benchmark: the night optimiser (leagues/nights/pods.py) on hard nights, against CP-SAT's optima.

Run: `.venv/bin/python bench/optimiser_hard.py [--sizes 13,20,24,30,40,60,100,150,200] [--per-size 4]
      [--reference-seconds 10] [--reference-tables 8000] [--seed 1]`

Nights of 13-200 players after 3-10 earlier rounds, each of one density of pairs kept apart: "none", "sparse"
(1% of pairs), "dense" (60-90% of the pairs across a planted split, so that few splits exist) and "impossible"
(a planted night one player too many for its group); half of them with a locked table; table sizes [3, 4],
[4, 5], [2, 3, 4] or [3, 4, 5, 6]; both mixes. Per night-mix the reference is the rule's optimum level by level,
by CP-SAT (one worker) over every possible table (exact cover; each level minimised with the ones before held
at their optimum, `--reference-seconds` for each), when those tables number at most `--reference-tables`; past
that the site's own optimiser given the reference seconds as its budget (proven only where its levels say so).
Prints per size and density: night-mixes, rightly refused, false refusals (refused though a split exists; target
0), at the optimum per level (fill: tables, then repeats; free: repeats, then tables), seat cost within 1% at
equal repeats and tables, the worst seat gap, and the CPU seconds of `propose` (time.process_time, the whole
process: targets 60 players <= 2 s, 200 <= 5 s).
"""

import argparse
import random
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ortools.sat.python import cp_model  # noqa: E402

from leagues.nights import pods_feasible  # noqa: E402
from leagues.nights.pods import Evaluator, Night, PodsError, Table, propose, reachable  # noqa: E402
from leagues.nights.pods_search import fill_plans  # noqa: E402

SIZE_LISTS = [(3, 4), (4, 5), (2, 3, 4), (3, 4, 5, 6)]
DENSITIES = ["none", "sparse", "dense", "impossible"]


def planted_plan(rng, n, sizes):
    plan, left = [], n
    while left:
        size = rng.choice([s for s in sizes if s <= left and reachable(left - s, sizes)])
        plan.append(size)
        left -= size
    return plan


def night_for(rng, n: int, sizes, density: str, mix: str, lock: bool) -> Night:
    players = list(range(1, n + 1))
    met = {}
    for _ in range(rng.randint(3, 10)):  # earlier rounds at tables of 4
        order = players[:]
        rng.shuffle(order)
        for i in range(0, n, 4):
            for a, b in combinations(order[i : i + 4], 2):
                met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    seats = {(p, ""): tuple(rng.randint(0, 3) for _ in range(max(sizes))) for p in players}
    forbidden, locked = set(), []
    plan = planted_plan(rng, n, sizes)
    order = players[:]
    rng.shuffle(order)
    groups, at = [], 0
    for size in plan:
        groups.append(order[at : at + size])
        at += size
    if density == "sparse":
        forbidden = {frozenset(rng.sample(players, 2)) for _ in range(max(1, n * (n - 1) // 200))}
    elif density in ("dense", "impossible"):
        group = {p: i for i, g in enumerate(groups) for p in g}
        cut = rng.uniform(0.6, 0.9)
        forbidden = {
            frozenset((a, b)) for a, b in combinations(players, 2) if group[a] != group[b] and rng.random() < cut
        }
        if density == "impossible":  # a player allowed with nobody
            forbidden |= {frozenset((players[0], q)) for q in players[1:]}
    if lock:
        candidates = [g for g in groups if not any(frozenset(pr) in forbidden for pr in combinations(g, 2))]
        if density == "impossible":
            candidates = [g for g in candidates if players[0] not in g]
        if candidates and len(candidates) < len(groups):
            locked = [Table(tuple(sorted(candidates[0])), "", locked=True)]
    return Night(
        players=players,
        table_sizes=tuple(sizes),
        met=met,
        seats=seats,
        forbidden=forbidden,
        locked=locked,
        mix=mix,
        seed=rng.randint(0, 999),
    )


def _solve(model, seconds):
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    return solver, solver.Solve(model)


def reference(night: Night, seconds: float, max_tables: int, hint=None):
    """(levels or None when no split, proven, how): levels as the rule orders them, free players only."""
    locked = {p for t in night.locked for p in t.players}
    free = [p for p in night.players if p not in locked]
    evaluator = Evaluator(night)
    tables = pods_feasible.possible_tables(free, evaluator, night, set(evaluator.sizes), limit=max_tables)
    if tables is None:
        return _reference_by_site(night, seconds)
    model = cp_model.CpModel()
    v = [model.NewBoolVar("") for _ in tables]
    if hint:  # the site's answer as a start: the reference is never worse than it, and proves or beats it
        chosen = set(hint)
        for t, x in zip(tables, v, strict=True):
            model.AddHint(x, t in chosen)
    for p in free:
        model.AddExactlyOne(x for t, x in zip(tables, v, strict=True) if p in t)
    parts = {
        "tables": [1] * len(tables),
        "repeats": [evaluator.cheap(t)[1] for t in tables],
        "seat_cost": [evaluator.score(t)[0][2] for t in tables],
    }
    order = ["repeats", "tables", "seat_cost"]
    proven = True
    if night.mix == "fill":  # the mix first: the first plan of fixed sizes, in the rule's order, that has a split
        order = ["repeats", "seat_cost"]
        for plan in fill_plans(len(free), evaluator.sizes):
            trial = cp_model.CpModel()
            w = [trial.NewBoolVar("") for _ in tables]
            for p in free:
                trial.AddExactlyOne(x for t, x in zip(tables, w, strict=True) if p in t)
            for size in set(plan):
                trial.Add(sum(x for t, x in zip(tables, w, strict=True) if len(t) == size) == plan.count(size))
            for t, x in zip(tables, w, strict=True):
                trial.AddHint(x, t in set(hint or ()))
            _solver, code = _solve(trial, seconds)
            if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                for size in set(plan):
                    model.Add(sum(x for t, x in zip(tables, v, strict=True) if len(t) == size) == plan.count(size))
                break
            if code != cp_model.INFEASIBLE:
                proven = False
        else:
            return (None if proven else {}), proven, "cp-sat"
    for level in order:
        objective = sum(c * x for c, x in zip(parts[level], v, strict=True))
        model.Minimize(objective)
        solver, code = _solve(model, seconds)
        if code == cp_model.INFEASIBLE:
            return None, True, "cp-sat"
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return {}, False, "cp-sat"
        proven &= code == cp_model.OPTIMAL
        chosen = [t for t, x in zip(tables, v, strict=True) if solver.Value(x)]
        value = round(solver.ObjectiveValue())
        if not proven:
            break
        model.Add(objective == value)
        hint = [solver.Value(x) for x in v]
        model.ClearHints()
        for x, h in zip(v, hint, strict=True):
            model.AddHint(x, h)
    found = _levels(chosen, evaluator, night.mix)
    return found, proven, "cp-sat"


def _reference_by_site(night: Night, seconds: float):
    roomy = Night(**{**night.__dict__, "time_budget": seconds})
    try:
        got = propose(roomy)
    except PodsError:
        return None, False, "site"
    tables = [frozenset(t.players) for t in got.tables if not t.locked]
    proven = all(level["proven"] for level in got.solver.get("levels", {}).values()) and got.exact
    return _levels(tables, Evaluator(night), night.mix), proven, "site"


def _levels(tables, evaluator, mix):
    repeats = sum(evaluator.cheap(frozenset(t))[1] for t in tables)
    seats = sum(evaluator.score(frozenset(t))[0][2] for t in tables)
    shape = (len(tables), sum(len(t) ** 2 for t in tables)) if mix == "fill" else len(tables)
    return {"tables": shape, "repeats": repeats, "seat_cost": seats}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="13,20,24,30,40,60,100,150,200")
    parser.add_argument("--per-size", type=int, default=4)
    parser.add_argument("--reference-seconds", type=float, default=10.0)
    parser.add_argument("--reference-tables", type=int, default=8_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = {}
    totals = {"count": 0, "refused_ok": 0, "false": 0, "first": 0, "second": 0, "seat": 0, "proven_refs": 0}
    worst_cpu = {}
    for n in (int(s) for s in args.sizes.split(",")):
        rng = random.Random(args.seed * 10007 + n)
        for case in range(args.per_size):
            density = DENSITIES[case % len(DENSITIES)]
            sizes = SIZE_LISTS[(case + n) % len(SIZE_LISTS)]
            lock = rng.random() < 0.5
            base = night_for(rng, n, sizes, density, "fill", lock)
            for mix in ("fill", "free"):
                night = Night(**{**base.__dict__, "mix": mix})
                row = rows.setdefault((n, density), {k: 0 for k in totals} | {"cpu": 0.0, "gap": 0.0})
                started = time.process_time()
                try:
                    got = propose(night)
                except PodsError as error:
                    got = error
                cpu = time.process_time() - started
                worst_cpu[n] = max(worst_cpu.get(n, 0.0), cpu)
                row["cpu"] = max(row["cpu"], cpu)
                mine = (
                    None if isinstance(got, PodsError) else [frozenset(t.players) for t in got.tables if not t.locked]
                )
                ref, proven, how = reference(night, args.reference_seconds, args.reference_tables, mine)
                row["count"] += 1
                row["proven_refs"] += proven
                first, second = ("tables", "repeats") if mix == "fill" else ("repeats", "tables")
                if isinstance(got, PodsError):
                    if ref is None:
                        row["refused_ok"] += 1
                    else:
                        row["false"] += 1
                        print(f"   FALSE REFUSAL n={n} {density} {sizes} {mix}: {got}")
                    continue
                if ref is None or not ref:
                    print(
                        f"   n={n} {density} {sizes} {mix}: reference {'says no split' if ref is None else 'none'}"
                        f" ({how}), the site answered"
                    )
                    continue
                mine = _levels(mine, Evaluator(night), mix)
                at_first = mine[first] <= ref[first]
                at_second = mine[first] < ref[first] or (mine[first] == ref[first] and mine[second] <= ref[second])
                row["first"] += at_first
                row["second"] += at_second
                gap = 0.0
                if (mine[first], mine[second]) == (ref[first], ref[second]):
                    gap = (mine["seat_cost"] - ref["seat_cost"]) / max(1, ref["seat_cost"])
                    row["gap"] = max(row["gap"], gap)
                row["seat"] += at_second and gap <= 0.01
                if not at_second or gap > 0.01:
                    print(
                        f"   n={n} {density} {sizes} {mix}: site {mine} reference {ref} ({how},"
                        f" {'proven' if proven else 'unproven'})"
                    )
                print(f"   n={n} {density} {sizes} {mix}: cpu {cpu:.2f} s", flush=True)
    print(
        "players | density | night-mixes | rightly refused | false refusals | at optimum, 1st level | 2nd level |"
        " seat within 1% | worst seat gap | worst CPU s | proven references"
    )
    for (n, density), row in sorted(rows.items()):
        print(
            f"{n:7d} | {density:10s} | {row['count']:2d} | {row['refused_ok']:2d} | {row['false']:2d} |"
            f" {row['first']:2d} | {row['second']:2d} | {row['seat']:2d} | {row['gap'] * 100:5.2f}% |"
            f" {row['cpu']:5.2f} | {row['proven_refs']:2d}"
        )
        for key in totals:
            totals[key] += row[key]
    answered = totals["count"] - totals["refused_ok"] - totals["false"]
    print(
        f"total: {totals['count']} night-mixes, {totals['refused_ok']} rightly refused, {totals['false']} false"
        f" refusals; of {answered} answered: at optimum 1st level {totals['first']}, 2nd level {totals['second']},"
        f" seat cost within 1% {totals['seat']}; references proven {totals['proven_refs']}"
    )
    print("worst CPU per size: " + ", ".join(f"{n}: {cpu:.2f} s" for n, cpu in sorted(worst_cpu.items())))


if __name__ == "__main__":
    main()
