"""CP-SAT for a round the swaps could not prove optimal (leagues/tournaments/pairing.py states the contract).

The model, on players as their places in the standings (0 the leader) and pods of fixed sizes:
- x[i, k]: player i sits in pod k; each player in one pod, each pod its size; pods of one size are
  interchangeable, so they are ordered by their best-placed player (one answer, not k! of them);
- a repeat: together[i, j] >= x[i, k] + x[j, k] - 1 for each pod, only for pairs that met; where none may repeat,
  x[i, k] + x[j, k] <= 1 instead, which the solver propagates far better;
- the spread as a sum over levels of points: the players at or above a level are a prefix of the standings, so a
  pod's count above it is a running sum c[i, k], and the pairs it splits are a * (s - a), a table of s + 1 values;
  each level's pairs are at least the fewest any pods allow (pairing.split_pairs_floor, given), the bound the relaxation
  would otherwise lose.
Two solves, as the contract is lexicographic: the fewest repeats (skipped when the swaps found none), then the
least spread with the repeats held there. One worker, a fixed seed and a deterministic time limit, so the answer
does not depend on the machine's load; each solve is warm-started by the best split so far, so never worse.
"""

from __future__ import annotations

import time

SPREAD_LIMIT = 32  # players: past this the spread solve did not improve the searches' split within its budget
REPEATS_SHARE = 4  # the repeats solve may take this many times the budget: it stops once proven, and a round that
# cannot avoid a rematch (a small field late in the day) is where a proof takes longest (1.15 s for 16 players)


def solve(scorer, sizes: list, hint: list, floors: tuple, work: float, seed: int) -> tuple:
    """(split, bound on repeats, proven optimal, solver facts) for `scorer`'s players (pairing.Scorer: points in
    standings order, meetings by place); `floors`: (the spread's, each level's pairs' after each place)."""
    started = time.perf_counter()
    facts = {"method": "cp-sat", "solves": [], "spent": 0.0}
    values, met = scorer.values, scorer.met
    repeats, spread = scorer.split(hint)
    bound, proven = 0, True
    if repeats:
        found, bound, status = _solve(values, met, sorted(sizes), hint, None, floors, work * REPEATS_SHARE, seed, facts)
        proven = status == "OPTIMAL"
        if found is not None and scorer.split(found) < (repeats, spread):
            hint = found
            repeats, spread = scorer.split(hint)
        bound = min(bound, repeats)
    if spread > floors[0] and len(values) > SPREAD_LIMIT:
        proven = False
    elif spread > floors[0]:
        found, _, status = _solve(values, met, sorted(sizes), hint, repeats, floors, work, seed, facts)
        proven = proven and status == "OPTIMAL"
        if found is not None and scorer.split(found) < (repeats, spread):
            hint = found
    facts["wall_seconds"] = round(time.perf_counter() - started, 3)
    if not facts["solves"]:
        facts["method"] = "anneal"  # no repeat to remove and too many players for the spread solve
    return hint, bound, proven and bound == repeats, facts


def _solve(values, met, sizes, hint, most_repeats, floors, work, seed, facts):
    """One solve: the fewest repeats when `most_repeats` is None, else the least spread with at most that many.
    (split or None, bound on the objective, status name)."""
    from ortools.sat.python import cp_model

    count, pods = len(values), range(len(sizes))
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{i}_{k}") for k in pods] for i in range(count)]
    for i in range(count):
        model.add_exactly_one(x[i])
    for k in pods:
        model.add(sum(x[i][k] for i in range(count)) == sizes[k])
    running = _running(model, x, sizes)
    for k in pods:
        if k and sizes[k] == sizes[k - 1]:
            model.add(x[0][k] == 0)
            for i in range(1, count):
                model.add(x[i][k] <= running[i - 1][k - 1])
    _repeats(model, x, met, most_repeats)
    if most_repeats is not None:
        model.minimize(_spread(model, values, sizes, running, floors))
    _hint(model, x, hint, sizes)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.max_deterministic_time = max(work, 0.05)
    status = solver.solve(model)
    facts["spent"] += solver.deterministic_time
    facts["solves"].append(
        {
            "objective": "repeats" if most_repeats is None else "spread",
            "status": solver.status_name(status),
            "deterministic_seconds": round(solver.deterministic_time, 3),
            "wall_seconds": round(solver.wall_time, 3),
        }
    )
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, 0, solver.status_name(status)
    split = [[i for i in range(count) if solver.boolean_value(x[i][k])] for k in pods]
    return split, int(round(solver.best_objective_bound)), solver.status_name(status)


def _repeats(model, x, met, most_repeats) -> None:
    """No pair that met together (`most_repeats` 0); at most that many meetings; or the fewest (None)."""
    pods = range(len(x[0]))
    if most_repeats == 0:
        for i, j in met:
            for k in pods:
                model.add_at_most_one(x[i][k], x[j][k])
        return
    terms = []
    for (i, j), times in sorted(met.items()):
        together = model.new_bool_var(f"t{i}_{j}")
        for k in pods:
            model.add_bool_or([x[i][k].Not(), x[j][k].Not(), together])
        terms.append(times * together)
    if most_repeats is None:
        model.minimize(sum(terms))
    else:
        model.add(sum(terms) <= most_repeats)


def _hint(model, x, hint, sizes) -> None:
    for k, members in enumerate(_ordered(hint, sizes)):
        for i in range(len(x)):
            model.add_hint(x[i][k], i in members)


def _running(model, x, sizes):
    """running[i][k]: how many of the first i + 1 players in the standings sit in pod k."""
    running = [list(x[0])]
    for i in range(1, len(x)):
        row = []
        for k in range(len(sizes)):
            var = model.new_int_var(0, min(i + 1, sizes[k]), f"c{i}_{k}")
            model.add(var == running[i - 1][k] + x[i][k])
            row.append(var)
        running.append(row)
    return running


def _spread(model, values, sizes, running, floors):
    terms = []
    for i in range(len(values) - 1):
        step = values[i] - values[i + 1]
        if not step:
            continue
        level = []
        for k, size in enumerate(sizes):
            pairs = model.new_int_var(0, (size // 2) * (size - size // 2), f"p{i}_{k}")
            model.add_element(running[i][k], [a * (size - a) for a in range(size + 1)], pairs)
            level.append(pairs)
        model.add(sum(level) >= floors[1][i])
        terms.append(step * sum(level))
    spread = sum(terms)
    model.add(spread >= floors[0])
    return spread


def _ordered(split: list, sizes: list) -> list:
    """The split's pods in the model's order: by size as `sizes`, pods of one size by their best-placed player."""
    pods = sorted(split, key=lambda members: (len(members), min(members)))
    assert [len(p) for p in pods] == sizes
    return [set(p) for p in pods]
