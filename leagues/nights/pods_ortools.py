"""The two OR-Tools models of a night past the exact limit (pods_solver decides which runs and when).

- `Columns`, set partitioning solved by CBC, while the possible tables number at most MAX_COLUMNS: each table
  scored by the site's own Evaluator, so its optimum is exactly the site's; it proves such nights optimal;
- `Assignment`, CP-SAT, past that: a slot per possible table, a player's seat and game as booleans, the mix's
  tuple as one weighted sum (see pods_solver's docstring).
Both answer (status, tables or None, bound on repeats in millionths) within the limits they are given.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from itertools import combinations
from typing import Any

from ortools.linear_solver import pywraplp
from ortools.sat.python import cp_model

from .pods_model import MAX_TABLE_SIZE, SCALE, Evaluator, Night, keep_apart

SEAT_UNIT = 1000  # millionths per seat-cost unit of the model


def repeat_unit(values) -> int:
    """The smallest whole multiplier making every met figure whole (met figures are counts, or counts x 3, or
    halves); 1000 for anything finer, which the final re-scoring then settles."""
    unit = 1
    for value in values:
        fraction = Fraction(value).limit_denominator(1000)
        unit = math.lcm(unit, fraction.denominator)
        if unit > 1000:
            return 1000
    return unit


MAX_COLUMNS = 6_000  # set partitioning when the night has at most this many possible tables (20 players at
#                      sizes 3-4; listing and scoring them takes about 0.3 s), the assignment model past it


def model_for(players, evaluator: Evaluator, night: Night, plan, objective: str = "tables") -> Columns | Assignment:
    """Set partitioning while the tables can be listed (its bound is strong: it proves such nights optimal in a
    fraction of a second), else the assignment model."""
    if columns_fit(players, set(plan) if plan else evaluator.sizes):
        return Columns(players, evaluator, night, plan, objective)
    return Assignment(players, evaluator, night, plan, objective)


def columns_fit(players, sizes) -> bool:
    return sum(math.comb(len(players), size) for size in sizes) <= MAX_COLUMNS


class _TooMany(Exception):
    pass


def low_repeat_tables(players, evaluator: Evaluator, sizes, hint) -> list[frozenset] | None:
    """Every table (of these sizes, no pair kept apart) whose repeats are at most the warm start's worst table's,
    or None past MAX_COLUMNS of them. Set partitioning over these improves on the warm start (its tables are
    among them), mostly in seat cost; it proves nothing about tables left out."""
    limit = max(evaluator.cheap(frozenset(t))[1] for t in hint)
    night, ordered = evaluator.night, sorted(players, key=lambda p: (isinstance(p, str), p))
    found: list[frozenset] = []

    def grow(table: list, start: int, repeats: int) -> None:
        if len(table) in sizes:
            found.append(frozenset(table))
            if len(found) > MAX_COLUMNS:
                raise _TooMany
        if len(table) == max(sizes):
            return
        for q in ordered[start:]:
            start += 1
            if any(frozenset((p, q)) in night.forbidden for p in table):
                continue
            more = sum(round(night.met.get(frozenset((p, q)), 0) * SCALE) for p in table)
            if repeats + more <= limit:
                grow([*table, q], start, repeats + more)

    try:
        for i, p in enumerate(ordered):
            grow([p], i + 1, 0)
    except _TooMany:
        return None
    return found


class Columns:
    """Set partitioning, solved as a MIP by CBC (which OR-Tools ships; on these models it proved optimality
    several times faster than CP-SAT): one variable per table that keeps every hard rule, scored by the site's
    Evaluator (seat order and game included), each player at exactly one chosen table, `plan` fixing how many of
    each size. Two stages with whole coefficients: repeats (and, for "free", the tables) first; then, with that
    part held at its optimum, the seat cost in millionths: the optimum is exactly the site's own."""

    def __init__(self, players, evaluator: Evaluator, night: Night, plan, objective: str = "tables", candidates=None):
        self.pywraplp, self.solver = pywraplp, pywraplp.Solver.CreateSolver("CBC")
        self.evaluator, self.night, self.objective = evaluator, night, objective
        self.columns: dict[frozenset, Any] = {}
        self.keys: dict[frozenset, tuple] = {}
        by_player: dict = {p: [] for p in players}
        sizes = sorted(set(plan) if plan else evaluator.sizes)
        for members in candidates or (frozenset(t) for size in sizes for t in combinations(players, size)):
            if evaluator.cheap(members)[0] or (key := evaluator.score(members)[0])[0]:
                continue
            self.columns[members] = v = self.solver.BoolVar("")
            self.keys[members] = key
            for p in members:
                by_player[p].append(v)
        for cells in by_player.values():
            self.solver.Add(self.solver.Sum(cells) == 1)
        counts = {}  # tables of each size: whole numbers seating everyone (a cut the solver cannot find by itself)
        for size in sizes:
            counts[size] = self.solver.IntVar(0, len(players) // size, "")
            self.solver.Add(self.solver.Sum(v for m, v in self.columns.items() if len(m) == size) == counts[size])
            if plan:
                self.solver.Add(counts[size] == plan.count(size))
        self.solver.Add(self.solver.Sum(size * n for size, n in counts.items()) == len(players))
        self.unit = repeat_unit(v for v in night.met.values() if v)
        self.repeat_weight = 1 if plan else len(players) + 1
        self.plan = plan

    def _first(self, members: frozenset) -> int:
        """A table's part of the first stage: "mix" its count and squares; else its repeats (and a table)."""
        if self.objective == "mix":
            return len(self.night.players) * MAX_TABLE_SIZE**2 + 1 + len(members) ** 2
        repeats = round(self.keys[members][1] * self.unit / SCALE)
        return repeats * self.repeat_weight + (0 if self.plan else 1)

    def hint(self, tables) -> None:
        chosen = {frozenset(t) for t in tables}
        self.solver.SetHint(list(self.columns.values()), [float(m in chosen) for m in self.columns])

    def solve(self, limits: tuple[float, float]) -> tuple[str, list | None, int]:
        """(status, tables or None, bound on repeats in millionths) within the wall seconds of `limits` (CBC
        has no deterministic clock; it stops early once optimal, which a night of this size always was)."""
        started = time.perf_counter()
        first = self.solver.Sum(self._first(m) * v for m, v in self.columns.items()) if self.columns else 0
        if self.objective != "none" and self.columns:
            self.solver.Minimize(first)
        status = self._run(limits[1])
        if status not in ("OPTIMAL", "FEASIBLE"):
            return status, None, 0
        chosen = {m: v.solution_value() > 0.5 for m, v in self.columns.items()}
        bound = 0
        if self.objective == "tables" and self.unit < 1000:  # thousandths were rounded: no proof
            best = math.ceil(self.solver.Objective().BestBound() - 1e-6)
            bound = best // self.repeat_weight * SCALE // self.unit
        if status == "OPTIMAL" and self.objective == "tables" and self.columns:
            left = limits[1] - (time.perf_counter() - started)
            self.solver.Add(first == round(self.solver.Objective().Value()))
            self.solver.Minimize(self.solver.Sum(self.keys[m][2] * v for m, v in self.columns.items()))
            self.solver.SetHint(list(self.columns.values()), [float(chosen[m]) for m in self.columns])
            second = self._run(max(0.05, left))
            if second in ("OPTIMAL", "FEASIBLE"):
                chosen = {m: v.solution_value() > 0.5 for m, v in self.columns.items()}
            status = "OPTIMAL" if second == "OPTIMAL" else "FEASIBLE"
        return status, [set(m) for m, on in chosen.items() if on], bound

    def _run(self, seconds: float) -> str:
        solver, lp = self.solver, self.pywraplp.Solver
        solver.SetTimeLimit(max(1, int(seconds * 1000)))
        params = self.pywraplp.MPSolverParameters()
        params.SetDoubleParam(params.RELATIVE_MIP_GAP, 0.0)
        started = time.perf_counter()
        code = solver.Solve(params)
        if code == lp.OPTIMAL:
            return "OPTIMAL"
        if code == lp.FEASIBLE:
            return "FEASIBLE"
        if code == lp.INFEASIBLE and time.perf_counter() - started < 0.9 * seconds:
            return "INFEASIBLE"  # CBC may say infeasible when stopped by the clock: only a finished search proves it
        return "UNKNOWN"


def cp_solver(cp_model, limits: tuple[float, float], seed: int) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time, solver.parameters.max_time_in_seconds = limits
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_probing_level = 0  # set partitioning: probing took most of the time
    return solver


class Assignment:
    """The CP-SAT model of one night (see the module's docstring); `plan` fixes the table sizes ("fill")."""

    def __init__(self, players, evaluator: Evaluator, night: Night, plan, objective: str = "tables"):
        self.cp_model = cp_model
        self.model = cp_model.CpModel()
        self.players = sorted(players, key=lambda p: (isinstance(p, str), p))
        self.index = {p: i for i, p in enumerate(self.players)}
        self.evaluator, self.night, self.plan = evaluator, night, plan
        self.games = sorted(evaluator.games)
        self.slots = len(plan) if plan else len(players) // min(evaluator.sizes)
        self.w: dict[tuple, Any] = {}  # (player, table, seat, game) -> its boolean
        self.x: dict[tuple, Any] = {}  # (player, table)
        self.g: dict[tuple, Any] = {}  # (table, game), None where the table has one game
        self.y: dict[tuple, Any] = {}  # (table, size)
        self.r: dict[frozenset, tuple[Any, int]] = {}  # a pair who met -> (together, weight)
        self.in_seat: dict[tuple, list] = {}  # (table, seat) -> its w cells
        self._seats()
        self._pairs(with_met=objective == "tables")
        self._objective(objective)

    def _slot_games(self, t: int) -> list[str]:
        if self.plan:
            return [g for g in self.games if self.plan[t] in self.evaluator.games[g]]
        return self.games

    def _seats(self) -> None:
        for t in range(self.slots):
            games = self._slot_games(t)
            size_max = self.plan[t] if self.plan else max(self.evaluator.sizes)
            self._slot(t, games)
            for p in self.players:
                self._cells(p, t, games, size_max)
            for s in range(size_max):
                seated = sum(self.in_seat.get((t, s), []))
                if self.plan:
                    self.model.Add(seated == 1)
                else:
                    self.model.Add(seated == sum(self.y[t, size] for size in self.evaluator.sizes if size > s))
        for p in self.players:
            self.model.AddExactlyOne(self.x[p, t] for t in range(self.slots))
        if not self.plan:
            for t in range(1, self.slots):
                self.model.AddImplication(self.y[t - 1, 0], self.y[t, 0])  # the tables in use come first

    def _slot(self, t: int, games: list[str]) -> None:
        """Table t's game (g) and, without a plan, its size (y, size 0 for a table not used)."""
        m, ev = self.model, self.evaluator
        for G in games:
            self.g[t, G] = m.NewBoolVar("") if len(games) > 1 or not self.plan else None
        if self.plan:
            if len(games) > 1:
                m.AddExactlyOne(self.g[t, G] for G in games)
            return
        for size in (0, *ev.sizes):
            self.y[t, size] = m.NewBoolVar("")
        m.AddExactlyOne(self.y[t, size] for size in (0, *ev.sizes))
        m.Add(sum(self.g[t, G] for G in games) == 1 - self.y[t, 0])
        for G in games:
            for size in ev.sizes:
                if size not in ev.games[G]:
                    m.AddBoolOr([self.y[t, size].Not(), self.g[t, G].Not()])

    def _cells(self, p, t: int, games: list[str], size_max: int) -> None:
        """Player p's seats at table t, one per game he plays; x[p, t] says he sits there at all."""
        m, ev = self.model, self.evaluator
        cells = []
        for G in games:
            if G not in ev.accepts(p):
                continue
            for s in range(min(size_max, max(ev.games[G]))):
                self.w[p, t, s, G] = cell = m.NewBoolVar("")
                cells.append(cell)
                self.in_seat.setdefault((t, s), []).append(cell)
                if self.g[t, G] is not None:
                    m.AddImplication(cell, self.g[t, G])
        self.x[p, t] = x = m.NewBoolVar("")
        m.Add(sum(cells) == x)
        if not cells or not self._may_sit(p, t):
            m.Add(x == 0)

    def _may_sit(self, p, t: int) -> bool:
        """Symmetry: tables (of one size, under a plan) are ordered by their lowest player, so the i-th player
        sits at none of the tables after the i-th."""
        if not self.plan:
            return t <= self.index[p]
        group = sum(1 for u in range(t) if self.plan[u] == self.plan[t])
        return group <= self.index[p]

    def _pairs(self, with_met: bool) -> None:
        m, night = self.model, self.night
        here = set(self.players)
        keep_apart(m, self.x, self.players, night.forbidden, self.slots)
        if not with_met:
            return
        self.unit = repeat_unit(v for v in night.met.values() if v)
        for pair, times in night.met.items():
            a, b = tuple(pair)
            weight = round(times * self.unit)
            if a in here and b in here and weight > 0:
                self.r[pair] = (together := m.NewBoolVar(""), weight)
                for t in range(self.slots):
                    m.AddBoolOr([self.x[a, t].Not(), self.x[b, t].Not(), together])

    def _objective(self, objective: str) -> None:
        m, ev = self.model, self.evaluator
        if objective == "none":
            return
        tables = sum(1 - self.y[t, 0] for t in range(self.slots)) if not self.plan else len(self.plan)
        if objective == "mix":  # fewest tables, then the smallest sum of squares
            squares = sum(size * size * self.y[t, size] for t in range(self.slots) for size in ev.sizes)
            m.Minimize(tables * (len(self.players) * max(ev.sizes) ** 2 + 1) + squares)
            return
        seats = sum(ev.row(p, G)[s] // SEAT_UNIT * v for (p, t, s, G), v in self.w.items())
        seat_max = sum(max(max(ev.row(p, G)) for G in ev.accepts(p)) // SEAT_UNIT for p in self.players) + 1
        repeats = sum(weight * together for together, weight in self.r.values())
        self.repeat_weight = seat_max if self.plan else seat_max * (self.slots + 1)
        m.Minimize(repeats * self.repeat_weight + (0 if self.plan else tables * seat_max) + seats)

    def hint(self, tables) -> None:
        """The warm start, laid out the way the symmetry rules expect."""
        order = sorted(tables, key=lambda t: min(self.index[p] for p in t))
        if self.plan:
            by_size = {size: [t for t in order if len(t) == size] for size in set(self.plan)}
            order = [by_size[size].pop(0) for size in self.plan]
        place = {}
        for t, members in enumerate(order):
            _score, game, seating = self.evaluator.score(frozenset(members))
            for s, p in enumerate(seating):
                place[p] = (t, s, game)
        for (p, t, s, G), v in self.w.items():
            self.model.AddHint(v, place[p] == (t, s, G))
        for (p, t), v in self.x.items():
            self.model.AddHint(v, place[p][0] == t)
        for (t, size), v in self.y.items():
            self.model.AddHint(v, (len(order[t]) if t < len(order) else 0) == size)
        for (t, G), v in self.g.items():
            if v is not None:
                self.model.AddHint(v, t < len(order) and place[next(iter(order[t]))][2] == G)
        for pair, (v, _weight) in self.r.items():
            a, b = tuple(pair)
            self.model.AddHint(v, place[a][0] == place[b][0])

    def solve(self, limits: tuple[float, float]) -> tuple[str, list | None, int]:
        """(status, tables or None, bound on repeats in millionths) within (deterministic, wall) seconds."""
        solver = cp_solver(self.cp_model, limits, self.night.seed)
        code = solver.Solve(self.model)
        status = solver.StatusName(code)
        if code not in (self.cp_model.OPTIMAL, self.cp_model.FEASIBLE):
            return status, None, 0
        tables: dict[int, set] = {}
        for (p, t), v in self.x.items():
            if solver.Value(v):
                tables.setdefault(t, set()).add(p)
        bound = 0
        if self.r and hasattr(self, "repeat_weight"):
            bound = math.floor(solver.BestObjectiveBound() / self.repeat_weight) * SCALE // self.unit
            if self.unit == 1000:  # figures were rounded to thousandths: the bound is not proven
                bound = 0
        return status, list(tables.values()), bound
