"""Nights past the exact limit: the local search's split warm-starts OR-Tools on the same objective.

Why OR-Tools: it decides feasibility completely (a night is refused only when no split exists), improves on the
local search where it stopped short, and proves a lower bound, all within a stated limit, `Night.time_budget`
seconds, on one core (so two proposals at once leave a core to the site). Two models:
- set partitioning (`Columns`, solved by CBC) while the possible tables number at most MAX_COLUMNS: each table
  scored by the site's own Evaluator, so its optimum is exactly the site's; it proves such nights optimal;
- past that, an assignment model (`Assignment`, CP-SAT): a slot per possible table; w[p, t, s, g] = player p in
  seat s of table t, playing game g; a pair who met (or is kept apart) sits together at t only through their
  x[p, t]. Its objective is the mix's tuple as one weighted sum, each part's weight above the most the parts after
  it can add up to: repeats in their own unit (met figures are whole or simple fractions), seat costs in
  thousandths. It stops at half the budget in deterministic time (the same answer each run) or at the CPU left
  of the proposal's ceiling (pods_budget: 2 s up to 60 players, 5 s at 200, with a margin), less 0.4 of it
  kept for the phases that settle its answer; those stop at the ceiling too.
The models themselves live in pods_ortools. The answer is re-scored by the site's own Evaluator, and the better
of the warm start and the solver's is kept; unless proven optimal, pods_improve.settle finishes it. No solver
runs when the warm start's repeats meet the bound.
"""

from __future__ import annotations

import math
import time
from dataclasses import replace

from .pods_budget import Cpu, ceiling
from .pods_feasible import FEASIBLE_SECONDS, first_split, has_split
from .pods_improve import fewer_tables, settle
from .pods_levels import levels
from .pods_model import Evaluator, Night, PodsError, fill_mix, repeats_lower_bound, split_key
from .pods_ortools import Assignment, Columns, columns_fit, low_repeat_tables, model_for
from .pods_search import improve, local_search, seats_at_floor, start_plans, why_infeasible

WARM_TRIES = 40_000  # the warm start's tries of a swap or a move per second of budget (about 0.5 s of one core)
SETTLE_WORK = 100_000  # the last phase's work per second of budget (pods_improve.Work), at most
SETTLE_AT_BOUND = True  # no solver when the warm start's repeats meet the bound (False: the bench's reference)
SOLVER_SHARE = 0.5  # of the time budget, the solver's deterministic seconds; of the CPU ceiling, its CPU at most
AFTER_SOLVER = 0.4  # of the CPU ceiling, kept from the solver for the swaps and rounds that settle its answer
SOLVER_PLAYERS = 80  # past this the model takes longer to build than the budget: the warm start answers alone,
#                      and CP-SAT is asked only when it must decide feasibility (its model is then much smaller)


def solve(players, evaluator: Evaluator, night: Night) -> tuple[list, int, bool, dict]:
    """(split, bound on repeats in millionths, proven optimal, how) for a night of more than a dozen players."""
    started = time.perf_counter()
    budget = Cpu(ceiling(len(players), night.time_budget))
    warm, warm_key = _warm_start(players, evaluator, night)
    hint = None if warm_key[0] else _fewest_tables(warm, evaluator, night)
    if hint is None and night.mix == "fill":
        hint = _free_split(players, evaluator, night)
    plan = fill_mix(len(players), evaluator.sizes) if night.mix == "fill" else None
    status, mix_proven, method = "WARM_START", True, "local search"
    if hint is None or (plan is not None and _sizes(hint) != plan):  # feasibility first (pods_feasible)
        hint, plan, mix_proven, status = _feasible_start(players, evaluator, night, hint, budget)
        hint = _fewest_tables(hint, evaluator, night)
    bound = repeats_lower_bound(night, players, min(plan) if plan else min(evaluator.sizes))
    if hint is not None and _repeats_settled(players, evaluator, night, plan, hint, bound):
        found, method = None, "local search, repeats at the bound"
    else:
        status, found, bound, method = _search(players, evaluator, night, plan, hint, bound, budget)
    best = hint
    if found is not None and (best is None or _key(found, evaluator, night) < _key(best, evaluator, night)):
        best = found
    if best is None:
        raise _refusal(players, night, status)
    if status != "OPTIMAL" and best is found:  # stopped before its seat costs were settled: the swaps settle them
        evaluator.work_left = int(WARM_TRIES * night.time_budget / 4)
        best = improve(best, evaluator, night.mix)
    if status != "OPTIMAL":  # chains of moves the swaps cannot make, by exact assignments (pods_improve)
        best = settle(best, evaluator, night.mix, int(SETTLE_WORK * night.time_budget), night.seed, budget)
        best = _fewest_tables(best, evaluator, night)
    repeats = _repeats(best, evaluator)
    if found is None and status == "WARM_START" and _proven_by_floor(best, evaluator, night, repeats, bound):
        status = "OPTIMAL"
    proven = status == "OPTIMAL" and mix_proven
    return (
        [frozenset(t) for t in best],
        min(bound, repeats),
        proven,
        {
            "method": method,
            "status": status,
            "limit_seconds": night.time_budget,
            "cpu_limit_seconds": round(budget.seconds, 3),
            "cpu_seconds": round(budget.spent(), 3),
            "wall_seconds": round(time.perf_counter() - started, 3),
            "levels": levels(best, evaluator, players, bound, proven, mix_proven),
        },
    )


def _fewest_tables(tables, evaluator: Evaluator, night: Night):
    """ "free": the table level at the repeats found (pods_improve.fewer_tables), seat costs settled again."""
    if night.mix != "free":
        return tables
    fewer = fewer_tables(tables, evaluator)
    if len(fewer) == len(tables):
        return tables
    evaluator.work_left = int(WARM_TRIES * night.time_budget / 8)
    return improve(fewer, evaluator, night.mix)


def _proven_by_floor(tables, evaluator: Evaluator, night: Night, repeats: int, bound: int) -> bool:
    """Nothing is better: repeats at their bound, ("free") the fewest tables the sizes allow, every seat at its
    floor."""
    fewest = math.ceil(sum(map(len, tables)) / max(evaluator.sizes))
    return (
        repeats <= bound
        and not night.rating_weight
        and (night.mix == "fill" or len(tables) <= fewest)
        and seats_at_floor(tables, evaluator)
    )


def _repeats_settled(players, evaluator: Evaluator, night: Night, plan, hint, bound: int) -> bool:
    """Repeats at the proven bound and ("free") tables as few as any split's: only seat costs are left, which
    pods_improve wins in a fraction of a solver's time (nights whose tables can all be listed go to CBC)."""
    sizes = set(plan) if plan else evaluator.sizes
    if not SETTLE_AT_BOUND or columns_fit(players, sizes) or _repeats(hint, evaluator) > bound:
        return False
    return night.mix == "fill" or len(hint) == len(fill_mix(len(players), evaluator.sizes) or ())


def _search(players, evaluator: Evaluator, night: Night, plan, hint, bound: int, budget):
    """(status, split or None, bound, method): OR-Tools on the night, warm-started from `hint`."""
    found, status, method = None, "WARM_START", "local search"
    model: Columns | Assignment
    listed = (
        None
        if hint is None or columns_fit(players, set(plan) if plan else evaluator.sizes)
        else (low_repeat_tables(players, evaluator, set(plan) if plan else evaluator.sizes, hint))
    )
    if listed is not None:  # the tables no worse than the warm start's worst: the best split among them
        model, method = Columns(players, evaluator, night, plan, candidates=listed), "cbc, low-repeat tables"
        model.hint(hint)
        status, found, _unproven = model.solve(  # its limits read once its model is built
            budget.limits(SOLVER_SHARE, SOLVER_SHARE * night.time_budget, AFTER_SOLVER)
        )
        if status == "OPTIMAL" and not _listed_is_enough(found, hint, evaluator, bound):
            status = "FEASIBLE"  # optimal among the tables listed only
    elif len(players) <= SOLVER_PLAYERS or hint is None:
        model = model_for(
            players, evaluator, night, plan, objective="tables" if len(players) <= SOLVER_PLAYERS else "none"
        )
        method = "cbc, every table" if isinstance(model, Columns) else "cp-sat"
        if hint is not None:
            model.hint(hint)
        status, found, solver_bound = model.solve(
            budget.limits(SOLVER_SHARE, SOLVER_SHARE * night.time_budget, AFTER_SOLVER)
        )
        bound = max(bound, solver_bound)
    return status, found, bound, method


def _repeats(tables, evaluator: Evaluator) -> int:
    return sum(evaluator.cheap(frozenset(t))[1] for t in tables)


def _sizes(tables) -> tuple:
    return tuple(sorted(map(len, tables), reverse=True))


def _key(tables, evaluator: Evaluator, night: Night) -> tuple:
    return split_key([evaluator.score(frozenset(t))[0] for t in tables], [len(t) for t in tables], night.mix)


def _warm_start(players, evaluator: Evaluator, night: Night):
    """The local search from each starting mix, within a work limit that follows the time budget."""
    plans = start_plans(len(players), evaluator.sizes, night.mix)
    share = 0.25 if columns_fit(players, evaluator.sizes) else 1.0  # set partitioning does the real work there
    best = None
    for plan in plans:
        evaluator.work_left = int(WARM_TRIES * night.time_budget * share / len(plans))
        tables, key = local_search(players, evaluator, night, plan)
        if best is None or key < best[1]:
            best = (tables, key)
    return best


def _free_split(players, evaluator: Evaluator, night: Night):
    """ "fill" when the local search found no split in the plain mix: the local search in "free" (moves that
    change table sizes, so it reaches a planted split the plain mix cannot), its tables then made fewer at any
    repeats (in "fill" the tables come first: a 100-player dense night 35 tables -> 29, CP-SAT's best 27). Found,
    it is the known split whose mix the complete search only has to better (pods_feasible.first_split): the
    search for any split at all took 2.7-5.5 s of CPU on dense 100-150-player nights, this about a second."""
    free = replace(night, mix="free")
    best = None
    plans = start_plans(len(players), evaluator.sizes, "free")
    for plan in plans:
        evaluator.work_left = int(WARM_TRIES * night.time_budget / len(plans))
        tables, key = local_search(players, evaluator, free, plan)
        if not key[0] and (best is None or len(tables) < len(best)):
            best = tables
    return None if best is None else fewer_tables(best, evaluator, repeats_may_grow=True)


def _feasible_start(players, evaluator: Evaluator, night: Night, hint, budget):
    """(split, "fill" plan or None, mix proven, status) when the local search found no split, or ("fill") not
    in the plain mix: the complete search of pods_feasible decides, and a night is refused only on its proof."""
    status, found, mix_proven = first_split(players, evaluator, night, budget, known=hint)
    if found is None:
        raise _refusal(players, night, status)
    if hint is not None and _mix(hint) <= _mix(found):  # the local search's mix was as good
        found, mix_proven = hint, mix_proven and _mix(hint) == _mix(found)
    evaluator.work_left = int(WARM_TRIES * night.time_budget / 4)
    found = improve([set(t) for t in found], evaluator, night.mix)
    return found, (_sizes(found) if night.mix == "fill" else None), mix_proven, "WARM_START"


def _mix(tables) -> tuple:
    return len(tables), sum(len(t) ** 2 for t in tables)


def _refusal(players, night: Night, status: str) -> PodsError:
    """The refusal, with its proof: CP-SAT's INFEASIBLE, and the rule whose removal leaves a split."""
    if status == "INFEASIBLE":
        return why_infeasible(replace(night), players, lambda relaxed: has_split(players, relaxed))
    return PodsError(
        f"No split was found in {FEASIBLE_SECONDS:g} s of complete search, and none was proven "
        f"impossible: the pairs kept apart are too many to decide tonight's night.",
        "undecided",
        seconds=FEASIBLE_SECONDS,
    )


def _listed_is_enough(found, hint, evaluator: Evaluator, bound: int) -> bool:
    """The best split among the tables listed is the best of all when its repeats meet the proven bound and no
    table of a split with that many repeats could have been left out (each has at most the split's repeats)."""
    repeats = _repeats(found, evaluator)
    return repeats <= bound and repeats <= max(evaluator.cheap(frozenset(t))[1] for t in hint)
