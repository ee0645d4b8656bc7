"""Feasibility first (issue 49): does tonight have a split at all, and ("fill") which mix of tables it allows.

Why a model of its own: the local search can miss every split of a night whose pairs kept apart are dense (or
planted so that a few splits exist), and the assignment model of pods_solver, with a cell per player, seat and
game, is too big to decide such a night in the request's budget. This one keeps the hard rules only (table
sizes, the games each player plays and the sizes each game allows, pairs kept apart; locked tables are already
seated), a cell per player and table, so CP-SAT decides it completely: a night is refused only on its
INFEASIBLE, which is a proof, never because a search ran out of time.
"""

from __future__ import annotations

from collections.abc import Hashable

from ortools.sat.python import cp_model

from .pods_budget import Cpu
from .pods_model import Evaluator, Night, fill_mix, keep_apart, reachable, sort_key
from .pods_search import fill_plans

FEASIBLE_SECONDS = 20.0  # CPU seconds at most for deciding a night (one worker: CPU and wall time agree)
MIX_PLANS = 12  # "fill": the better mixes asked at most, after the plain one
PLAIN_SHARE = 0.15  # of the CPU ceiling (pods_budget): the plain "fill" mix's check
COUNT_SHARE = 0.35  # of the CPU ceiling: "fill"'s fewest tables, halving the count (_fewest)
MIX_SHARE = 0.1  # of the CPU ceiling: the more even "fill" mixes' checks, in all
KEEP = 0.3  # of the CPU ceiling, kept by these checks for the phases that settle the split found


class Feasibility:
    """Player p at table slot t (x), each slot's size (y, 0 for a slot not used) and game (g)."""

    def __init__(  # noqa: C901 one model, read once
        self,
        players,
        evaluator: Evaluator,
        night: Night,
        plan=None,
        objective: str = "none",
    ):
        self.model = m = cp_model.CpModel()
        self.players = sorted(players, key=sort_key)
        self.evaluator, self.plan = evaluator, plan
        sizes = tuple(sorted(set(plan))) if plan else evaluator.sizes
        self.slots = len(plan) if plan else len(players) // min(sizes)
        index = {p: i for i, p in enumerate(self.players)}
        self.x, self.y = {}, {}
        games = sorted(evaluator.games)
        many_games = len(games) > 1
        for t in range(self.slots):
            for size in sizes if plan else (0, *sizes):
                self.y[t, size] = m.NewConstant(int(size == plan[t])) if plan else m.NewBoolVar("")
            m.AddExactlyOne(self.y[t, size] for size in (sizes if plan else (0, *sizes)))
            g = {G: m.NewBoolVar("") for G in games} if many_games else {}
            if many_games:
                m.Add(sum(g.values()) == 1 - (self.y[t, 0] if not plan else 0))
                for G in games:
                    for size in sizes:
                        if size not in evaluator.games[G]:
                            m.AddBoolOr([self.y[t, size].Not(), g[G].Not()])
            cells = []
            for p in self.players:
                self.x[p, t] = x = m.NewBoolVar("")
                cells.append(x)
                if not self._may_sit(index[p], t):
                    m.Add(x == 0)
                for G in games if many_games else ():
                    if G not in evaluator.accepts(p):
                        m.AddBoolOr([x.Not(), g[G].Not()])
                if not many_games and not evaluator.accepts(p):
                    m.Add(x == 0)
            m.Add(sum(cells) == sum(size * self.y[t, size] for size in sizes))
        for p in self.players:
            m.AddExactlyOne(self.x[p, t] for t in range(self.slots))
        if not plan:
            for t in range(1, self.slots):
                m.AddImplication(self.y[t - 1, 0], self.y[t, 0])  # the slots in use come first
        keep_apart(m, self.x, self.players, night.forbidden, self.slots)
        if objective == "mix":  # "fill": the fewest tables, then the smallest sum of squares
            used = sum(1 - self.y[t, 0] for t in range(self.slots)) if not plan else len(plan)
            squares = sum(size * size * self.y[t, size] for t in range(self.slots) for size in sizes)
            m.Minimize(used * (len(players) * max(sizes) ** 2 + 1) + squares)

    def _may_sit(self, i: int, t: int) -> bool:
        """Symmetry: tables (of one size, under a plan) are ordered by their lowest player, so the i-th player
        sits at none of the tables after the i-th."""
        if not self.plan:
            return t <= i
        return sum(1 for u in range(t) if self.plan[u] == self.plan[t]) <= i

    def hint(self, tables) -> None:
        order = sorted(tables, key=lambda t: min(self.players.index(p) for p in t))
        where = {p: t for t, members in enumerate(order) for p in members}
        if self.plan:
            return  # a plan's slots are laid out by size: the hint would seldom fit them
        for (p, t), v in self.x.items():
            self.model.AddHint(v, where[p] == t)

    def solve(self, seconds: float | tuple[float, float], seed: int = 0) -> tuple[str, list | None]:
        """(status, tables or None): OPTIMAL/FEASIBLE with a split, INFEASIBLE (proven: no split), UNKNOWN."""
        solver = _solver(seconds, seed)
        code = solver.Solve(self.model)
        self.spent = solver.deterministic_time
        status = solver.StatusName(code)
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return status, None
        tables: dict[int, set] = {}
        for (p, t), v in self.x.items():
            if solver.Value(v):
                tables.setdefault(t, set()).add(p)
        return status, list(tables.values())


def first_split(
    players, evaluator: Evaluator, night: Night, budget: Cpu, seconds: float = FEASIBLE_SECONDS, known=None
) -> tuple[str, list | None, bool]:
    """(status, split or None, mix proven): a split keeping the hard rules; for "fill" the fewest, most even
    tables that have one. "fill" first asks for its plain mix (PLAIN_SHARE of the CPU ceiling `budget`: found,
    it is the best there can be); then any split is looked for until found or proven impossible (`seconds` at
    most, outside the ceiling: a split is never missed for want of time); "fill" then asks each mix between the
    plain one and the split's in the rule's order, each a plan of fixed sizes (an exact cover CP-SAT decides at
    once, where minimising the mix as an objective did not finish in seconds), for MIX_SHARE of the ceiling in
    all: the first with a split is the night's mix, proven when every mix before it was proven to have none.
    `known`: a split the local search found (only its mix is in question)."""
    tables = possible_tables(players, evaluator, night, set(evaluator.sizes))  # listed once for every plan

    cover = Columns(tables, players) if tables is not None else None

    def model(plan=None):
        return Feasibility(players, evaluator, night, plan) if cover is None else cover.fix(plan)

    plain = fill_mix(len(players), evaluator.sizes) if night.mix == "fill" else None
    plain_status = None
    if plain is not None:
        plain_status, found = model(plain).solve(budget.limits(PLAIN_SHARE, keep=KEEP), night.seed)
        if found is not None:
            return plain_status, found, True
    status, found = ("FEASIBLE", known) if known is not None else model().solve(seconds, night.seed)
    if found is None or night.mix != "fill":
        return status, found, True
    counted = False  # every count of tables below the found split's proven to have none
    if cover is not None:  # the fewest tables first, by halving; then the most even mix at that count
        found, counted = _fewest(cover, night, found, budget, len(plain or ()))
    proven = (
        plain_status == "INFEASIBLE"
        if cover is None
        else (counted and (plain_status == "INFEASIBLE" or len(found) > len(plain or ())))
    )
    return _best_mix(players, evaluator.sizes, model, night, found, budget, proven, counted)


def _fewest(cover: Columns, night: Night, found, budget: Cpu, low: int):
    """(split, proven): the split with the fewest tables the exact cover finds, asked "at most k tables?" for k
    halfway between `low` (the plain mix's: no fewer can be) and the best found. Why not the plans in turn: the
    plans just past the plain mix are the hardest to decide (next to none has a split), so they spent the whole
    budget undecided and a 60-player dense night sat at 24 tables where 17 do; a count halfway is decided in a
    fraction of it, and one INFEASIBLE at k - 1 proves the count. An undecided count is passed over as if it had
    none (unproven)."""
    left = budget.limits(COUNT_SHARE)[0]
    stop = budget.allowed(COUNT_SHARE, KEEP) + budget.spent()  # the CPU clock's reading at which it stops
    proven = True
    while low < len(found) and left > 0.01 and budget.spent() < stop:
        k = (low + len(found) - 1) // 2 if low < len(found) - 1 else low
        solver = cover.at_most(k)
        status, split = solver.solve((left / 2, budget.wall(stop - budget.spent())), night.seed)
        left -= solver.spent
        if split is not None:
            found = split
        else:
            low, proven = k + 1, proven and status == "INFEASIBLE"
    return found, proven and low >= len(found)


def _best_mix(players, sizes, model, night: Night, found, budget: Cpu, proven: bool, counted: bool = False):
    """(status, split, proven): the first plan in the rule's order before the found split's that has a split;
    `counted`: the fewer tables are settled (_fewest), only the more even plans at the found count are asked."""
    shape = (len(found), sum(len(t) ** 2 for t in found))
    left = budget.limits(MIX_SHARE)[0]  # deterministic seconds, shared by the plans in turn
    stop = budget.allowed(MIX_SHARE, KEEP) + budget.spent()  # the CPU clock's reading at which the plans stop
    tried = 0
    for plan in fill_plans(len(players), sizes)[1:]:
        if (len(plan), sum(s * s for s in plan)) >= shape:
            break
        if counted and len(plan) < len(found):
            continue
        tried += 1
        if left <= 0.01 or tried > MIX_PLANS or budget.spent() >= stop:
            return "FEASIBLE", found, False
        solver = model(plan)
        status, split = solver.solve((left, budget.wall(stop - budget.spent())), night.seed)
        left -= solver.spent
        if split is not None:
            return status, split, proven
        proven = proven and status == "INFEASIBLE"
    return "FEASIBLE", found, proven


def has_split(players, night: Night, seconds: float = FEASIBLE_SECONDS) -> bool | None:
    """True, False (proven), or None when undecided in the time: `why_infeasible`'s question about a relaxed
    night."""
    evaluator = Evaluator(night)
    if not night.forbidden and len(evaluator.games) == 1 and all(evaluator.accepts(p) for p in players):
        return reachable(len(players), evaluator.sizes)  # the counting argument: sizes alone decide
    status, _found = feasibility(players, evaluator, night).solve(seconds, night.seed)
    return None if status == "UNKNOWN" or status == "MODEL_INVALID" else status != "INFEASIBLE"


MAX_TABLES = 60_000  # past this many possible tables the night is decided by the slot model instead


class _TooMany(Exception):
    pass


def possible_tables(
    players, evaluator: Evaluator, night: Night, sizes, limit: int = MAX_TABLES
) -> list[frozenset] | None:
    """Every table keeping the hard rules (sizes, games, no pair kept apart), or None past `limit`. Dense pairs
    kept apart leave few (a table is a clique of the pairs allowed), which is where the local search fails."""
    ordered = sorted(players, key=sort_key)
    bit = {p: 1 << i for i, p in enumerate(ordered)}
    allowed = {p: sum(bit[q] for q in ordered if q != p and frozenset((p, q)) not in night.forbidden) for p in ordered}
    found: list[frozenset] = []
    largest = max(sizes)

    def grow(table: list, candidates: int, start: int) -> None:
        if len(table) in sizes and evaluator.fits(frozenset(table)):
            found.append(frozenset(table))
            if len(found) > limit:
                raise _TooMany
        if len(table) == largest:
            return
        for j in range(start, len(ordered)):
            q = ordered[j]
            if candidates & bit[q]:
                grow([*table, q], candidates & allowed[q], j + 1)

    try:
        for i, p in enumerate(ordered):
            grow([p], allowed[p], i + 1)
    except _TooMany:
        return None
    return found


class Columns:
    """Exact cover by the possible tables: one Boolean per table, each player at exactly one; `fix(plan)` sets
    how many tables of each size (the model is built once and asked plan after plan: building it took longer
    than solving it). No slots, so no symmetry to break: CP-SAT proves a planted night at once."""

    def __init__(self, tables, players):
        self.model = m = cp_model.CpModel()
        self.tables, self.count = tables, len(players)
        self.v = [m.NewBoolVar("") for _ in tables]
        by_player: dict[Hashable, list] = {p: [] for p in players}
        by_size: dict[int, list] = {}
        for members, v in zip(tables, self.v, strict=True):
            by_size.setdefault(len(members), []).append(v)
            for p in members:
                by_player[p].append(v)
        for cells in by_player.values():
            m.AddExactlyOne(cells)
        self.sizes = {}
        for size, cells in by_size.items():
            self.sizes[size] = n = m.NewIntVar(0, len(players) // size, "")
            m.Add(sum(cells) == n)
        self.total = m.NewIntVar(0, len(players), "")
        m.Add(sum(self.sizes.values()) == self.total)

    def fix(self, plan) -> Columns:
        """Tables of each size as `plan` has them (None: any)."""
        for size, n in self.sizes.items():
            domain = self.model.proto.variables[n.index].domain
            domain[0] = plan.count(size) if plan else 0
            domain[1] = plan.count(size) if plan else self.count // size
        self.infeasible = bool(plan) and any(size not in self.sizes for size in plan)
        self._total(0, self.count)
        return self

    def at_most(self, tables: int) -> Columns:
        """Any sizes, at most `tables` tables."""
        self.fix(None)
        self._total(0, tables)
        return self

    def _total(self, low: int, high: int) -> None:
        domain = self.model.proto.variables[self.total.index].domain
        domain[0], domain[1] = low, high

    def hint(self, split) -> None:
        chosen = {frozenset(t) for t in split}
        for t, v in zip(self.tables, self.v, strict=True):
            self.model.AddHint(v, t in chosen)

    def solve(self, seconds: float | tuple[float, float], seed: int = 0) -> tuple[str, list | None]:
        self.spent = 0.0
        if getattr(self, "infeasible", False):
            return "INFEASIBLE", None  # a size of the plan has no possible table
        solver = _solver(seconds, seed)
        code = solver.Solve(self.model)
        self.spent = solver.deterministic_time
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return solver.StatusName(code), None
        return solver.StatusName(code), [set(t) for t, v in zip(self.tables, self.v, strict=True) if solver.Value(v)]


def _solver(seconds: float | tuple[float, float], seed: int):
    """One worker, stopped by deterministic time (the same answer on a loaded machine), or by wall time: the CPU
    left of the proposal's ceiling (pods_budget) when `seconds` is a pair, else half as much again (presolve is
    not all counted in deterministic time)."""
    deterministic, wall = seconds if isinstance(seconds, tuple) else (seconds, 1.5 * seconds)
    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = deterministic
    solver.parameters.max_time_in_seconds = max(0.01, wall)
    solver.parameters.num_workers = 1  # one core: the CPU budget is the wall budget
    solver.parameters.random_seed = seed
    return solver


def feasibility(
    players, evaluator: Evaluator, night: Night, plan=None, objective: str = "none"
) -> Columns | Feasibility:
    """The exact cover when the possible tables can be listed, else the slot model."""
    tables = possible_tables(players, evaluator, night, set(plan) if plan else set(evaluator.sizes))
    if tables is not None and objective == "none":
        return Columns(tables, players).fix(plan)
    return Feasibility(players, evaluator, night, plan, objective)
