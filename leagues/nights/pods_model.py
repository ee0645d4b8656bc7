"""The night optimiser's model: tonight's players and rules (`Night`), a table, a proposal, the refusal, and the
scoring every search shares (`Evaluator`, the table mix by `fill_mix`, the order of splits by `split_key`).

Kept apart from `pods` (which answers `propose`) so the searches (`pods_search`, `pods_solver`) and the JSON
contract (`pods_json`) import the model without importing the optimiser that calls them: one direction, no cycle.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

EXACT_LIMIT = 12
MAX_TABLE_SIZE = 6
MAX_PLAYERS = 200  # a night proposes for at most this many players (docs/operations.md: the optimiser's budget)
TIME_BUDGET = 1.0  # seconds of solver time per proposal, on one core
RENYI_ORDER = 2.0
DEFAULT_GAME = ""
MIXES = ("fill", "free")
SCALE = 10**6  # figures are compared as whole millionths, so sums are exact and ties are ties


class PodsError(ValueError):
    """The request cannot be answered: bad input or no split satisfies the hard constraints.

    The English sentence is for `manage.py pods` and the bench; `code` and `params` let the site say it in the
    reader's language (leagues.nights.services.pods_message), so the optimiser stays free of Django.
    Codes: duplicate_player, no_game, bad_sizes (game, sizes), bad_mix (mix), too_many_players (count, max),
    locked_absent (player), locked_twice (player), locked_size (size, game), locked_pair (a, b),
    locked_game (player, game), unsplittable (count, sizes), infeasible (rule: forbidden, games, both),
    undecided (seconds), bad_input (the JSON contract only)."""

    def __init__(self, message: str, code: str = "bad_input", **params):
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Table:
    players: tuple  # in seat order, seat 0 first
    game: str = DEFAULT_GAME
    locked: bool = False


@dataclass
class Night:
    """What the optimiser needs to know about one round of one evening."""

    players: list
    table_sizes: tuple = (3, 4)
    met: dict = field(default_factory=dict)  # frozenset({a, b}) -> times (weighted)
    seats: dict = field(default_factory=dict)  # (player, game) -> counts per seat
    forbidden: set = field(default_factory=set)  # frozenset({a, b})
    games: dict | None = None  # game -> allowed table sizes; None: one game, table_sizes
    accepts: dict = field(default_factory=dict)  # player -> set of games (missing: every game)
    locked: list = field(default_factory=list)  # Tables kept as they are
    ratings: dict = field(default_factory=dict)
    rating_weight: float = 0.0
    renyi_order: float = RENYI_ORDER
    seed: int = 0
    mix: str = "fill"
    time_budget: float = TIME_BUDGET  # the solver's limit in seconds (wall and deterministic), one core
    search_rounds: int = 200  # perturb-and-descend rounds of the warm start at most (its work limit comes first)


@dataclass(frozen=True)
class Proposal:
    tables: tuple
    repeats: float  # every table's, locked ones included
    seat_cost: float  # every table's, locked ones included
    rating_spread: float
    exact: bool  # proven optimal for the night's mix
    bound: float  # proven lower bound on `repeats` (locked tables' repeats included)
    solver: dict = field(default_factory=dict, compare=False)  # method, status, limit_seconds, wall_seconds

    @property
    def repeats_lower_bound(self) -> float:
        return self.bound

    def as_json(self) -> dict:
        """The command's contract (docs/api.md), with whether the answer is proven optimal for the mix and each
        level of the rule with its value, bound and proof (issue 49: the levels were in the proposal only)."""
        return {
            "tables": [list(table.players) for table in self.tables],
            "repeats": self.repeats,
            "seat_cost": self.seat_cost,
            "bound": self.bound,
            "exact": self.exact,
            "levels": self.solver.get("levels", {}),
        }


def seat_cost(history, seat: int, positions: int, order: float = RENYI_ORDER) -> float:
    """Tabbycat's position cost: rounds played x (log2 k - Rényi entropy of the seat shares after this seat).

    Zero when the seats would be perfectly even; grows with how lopsided taking this seat would leave him.
    """
    counts = list(history) + [0] * max(0, positions - len(history))
    counts[seat] += 1
    k = max(positions, len(counts))
    total = sum(counts)
    shares = [c / total for c in counts if c]
    if order == 1:
        entropy = -sum(p * math.log2(p) for p in shares)
    else:
        entropy = math.log2(sum(p**order for p in shares)) / (1 - order)
    return total * (math.log2(k) - entropy)


def _q(value: float) -> int:
    return round(value * SCALE)


def sort_key(player) -> tuple:
    """Players are ints (members) or strings (the JSON contract's names): both sort, ints first."""
    return (isinstance(player, str), player)


class Evaluator:
    """Scores one table (a set of players): (violations, repeats, seat cost, rating spread) in millionths, its
    best game and best seat order. `cheap` (violations, repeats) is all most search steps need."""

    def __init__(self, night: Night):
        self.night = night
        self.games = night.games if night.games is not None else {DEFAULT_GAME: tuple(night.table_sizes)}
        self.sizes = tuple(sorted({s for sizes in self.games.values() for s in sizes}))
        self.positions = max(self.sizes)
        self.all_games = frozenset(self.games)
        self.score = lru_cache(maxsize=None)(self._score)
        self.cheap = lru_cache(maxsize=None)(self._cheap)
        self._rows: dict[tuple, list[int]] = {}
        self._accepts: dict[Hashable, frozenset] = {}
        self.settled: set[tuple] = set()  # (mix, tables) whose exact re-split is no better (pods_search._resplit)
        self.work_left = 10**9  # the local search's remaining tries (pods_solver sets it from the time budget)

    def accepts(self, player) -> frozenset:
        found = self._accepts.get(player)
        if found is None:
            found = self._accepts[player] = frozenset(self.night.accepts.get(player, self.all_games)) & self.all_games
        return found

    def _cheap(self, members: frozenset) -> tuple[int, int]:
        night = self.night
        violations = repeats = 0
        for a, b in combinations(members, 2):
            pair = frozenset((a, b))
            violations += pair in night.forbidden
            repeats += _q(night.met.get(pair, 0))
        return violations, repeats

    def fits(self, members: frozenset) -> bool:
        """Some game allows a table of this size and every member plays it."""
        return any(
            len(members) in sizes and all(game in self.accepts(p) for p in members)
            for game, sizes in self.games.items()
        )

    def _score(self, members: frozenset):
        """(key, game, seat order); a table no game fits at its size counts one violation more."""
        night = self.night
        ordered = sorted(members, key=sort_key)
        violations, repeats = self.cheap(members)
        spread = 0
        if night.rating_weight:
            values = [night.ratings.get(p, 0.0) for p in ordered]
            spread = _q(night.rating_weight * (max(values) - min(values)))
        best = None
        for game in sorted(self.games):
            if len(ordered) not in self.games[game] or any(game not in self.accepts(p) for p in ordered):
                continue
            cost, order = self._seat_order(ordered, game)
            if best is None or cost < best[0]:
                best = (cost, game, order)
        if best is None:
            return (violations + 1, repeats, 0, spread), DEFAULT_GAME, tuple(ordered)
        return (violations, repeats, best[0], spread), best[1], best[2]

    def row(self, player, game) -> list[int]:
        """His cost in each seat of the game, in millionths."""
        row = self._rows.get((player, game))
        if row is None:
            history = self.night.seats.get((player, game), ())
            row = [_q(seat_cost(history, s, self.positions, self.night.renyi_order)) for s in range(self.positions)]
            self._rows[(player, game)] = row
        return row

    def _seat_order(self, ordered, game) -> tuple[int, tuple]:
        """The cheapest seat order: a dynamic programme over who already sits in seats 0..k-1 (2^6 states)."""
        costs = [self.row(p, game)[: len(ordered)] for p in ordered]
        if all(min(c) == max(c) for c in costs):  # nobody cares where he sits
            return sum(c[0] for c in costs), tuple(ordered)
        size = len(ordered)
        best = [0] * (1 << size)  # best[mask]: the least cost of seating the players of `mask` in the first seats
        last = [0] * (1 << size)  # who takes the last of those seats in that best
        for mask in range(1, 1 << size):
            seat = mask.bit_count() - 1
            found: int | None = None
            for i in range(size):
                if mask >> i & 1:
                    cost = best[mask ^ (1 << i)] + costs[i][seat]
                    if found is None or cost < found:
                        found, last[mask] = cost, i
            assert found is not None  # a mask with a bit has a last seat
            best[mask] = found
        order, mask = [], (1 << size) - 1
        while mask:
            order.append(ordered[last[mask]])
            mask ^= 1 << last[mask]
        return best[(1 << size) - 1], tuple(reversed(order))

    def seated_cost(self, table: Table) -> int:
        """A locked table's seat cost as it is seated (its order is kept, not re-chosen)."""
        return sum(self.row(p, table.game)[s] for s, p in enumerate(table.players))


def split_key(keys, sizes, mix: str) -> tuple:
    """The night's objective for tables with these (violations, repeats, seat, spread) keys and sizes."""
    violations = sum(k[0] for k in keys)
    repeats = sum(k[1] for k in keys)
    seats = sum(k[2] for k in keys)
    spread = sum(k[3] for k in keys)
    if mix == "fill":
        return (violations, len(sizes), sum(s * s for s in sizes), repeats, seats, spread)
    return (violations, repeats, len(sizes), seats, spread)


def table_key(key, size: int, mix: str) -> tuple:
    """One table's share of `split_key` (the objective is a sum of these, compared as tuples)."""
    if mix == "fill":
        return (key[0], 1, size * size, key[1], key[2], key[3])
    return (key[0], key[1], 1, key[2], key[3])


def reachable(total: int, sizes) -> bool:
    ok = [True] + [False] * total
    for n in range(1, total + 1):
        ok[n] = any(s <= n and ok[n - s] for s in sizes)
    return ok[total]


def keep_apart(model, x: dict, players, forbidden, slots: int) -> None:
    """The pairs kept apart as a CP-SAT model's clauses: no slot seats both (x[p, t]: player p at slot t), for
    each forbidden pair whose players are both here. Both OR-Tools models (pods_feasible, pods_ortools) say it
    so."""
    here = set(players)
    for pair in forbidden:
        a, b = tuple(pair)
        if a in here and b in here:
            for t in range(slots):
                model.AddBoolOr([x[a, t].Not(), x[b, t].Not()])


def fill_mix(count: int, sizes) -> tuple[int, ...] | None:
    """The "fill" mix when only the count matters: the fewest tables, then the smallest sum of squares
    (the most even); None if no mix seats `count`."""
    for tables in range(math.ceil(count / max(sizes)), count // min(sizes) + 1):
        plans = {0: (0, ())}  # players seated -> (least sum of squares, its sizes) with this many tables
        for _ in range(tables):
            nxt: dict[int, tuple[int, tuple]] = {}
            for used, (squares, plan) in plans.items():
                for size in sizes:
                    if used + size <= count:
                        value = (squares + size * size, tuple(sorted((*plan, size), reverse=True)))
                        if used + size not in nxt or value < nxt[used + size]:
                            nxt[used + size] = value
            plans = nxt
        best = plans.get(count)
        if best:
            return best[1]
    return None


def repeats_lower_bound(night: Night, players, smallest: int) -> int:
    """Half the sum, over players, of the smallest met figures he must take on at a table of `smallest` or more
    (millionths). Valid because a table's repeats are half the sum of each member's repeats with his table-mates."""
    total = 0
    for p in players:
        others = sorted(_q(night.met.get(frozenset((p, q)), 0)) for q in players if q != p)
        total += sum(others[: smallest - 1])
    return total // 2


def check(night: Night) -> list:
    """The free players (not at a locked table), after refusing what cannot be answered."""
    if night.mix not in MIXES:
        raise PodsError(f'"mix" must be "fill" or "free", not {night.mix!r}.', "bad_mix", mix=night.mix)
    if len(night.players) > MAX_PLAYERS:
        raise PodsError(
            f"A night proposes tables for at most {MAX_PLAYERS} players ({len(night.players)} here).",
            "too_many_players",
            count=len(night.players),
            max=MAX_PLAYERS,
        )
    if len(set(night.players)) != len(night.players):
        raise PodsError("A player is listed twice.", "duplicate_player")
    games = night.games if night.games is not None else {DEFAULT_GAME: tuple(night.table_sizes)}
    if not games:
        raise PodsError("No game is on offer.", "no_game")
    for game, sizes in games.items():
        if not sizes or any(
            not isinstance(s, int) or isinstance(s, bool) or not 2 <= s <= MAX_TABLE_SIZE for s in sizes
        ):
            raise PodsError(
                f"Table sizes must be whole numbers from 2 to {MAX_TABLE_SIZE} (game {game!r}: {sizes}).",
                "bad_sizes",
                game=game,
                sizes=list(sizes or ()),
            )
    locked = _check_locked(night, games)
    free = [p for p in night.players if p not in locked]
    all_sizes = sorted({s for sizes in games.values() for s in sizes})
    if free and not reachable(len(free), all_sizes):
        raise PodsError(
            f"{len(free)} players cannot be split into tables of {all_sizes}.",
            "unsplittable",
            count=len(free),
            sizes=all_sizes,
        )
    return free


def _check_locked(night: Night, games: dict) -> set:
    """A locked table keeps every rule an optimised one keeps: checked-in players, once each, a size its game
    allows, a game each of them plays, no forbidden pair."""
    locked = set()
    for table in night.locked:
        for p in table.players:
            if p not in night.players:
                raise PodsError(f"Locked table seats {p!r}, who is not checked in.", "locked_absent", player=p)
            if p in locked:
                raise PodsError(f"{p!r} sits at two locked tables.", "locked_twice", player=p)
            locked.add(p)
        size = len(table.players)
        if size not in games.get(table.game, ()):
            raise PodsError(
                f"A locked table of {size} is not a size allowed for its game {table.game!r} "
                f"({sorted(games.get(table.game, ()))}).",
                "locked_size",
                size=size,
                game=table.game,
            )
        for p in table.players:
            if table.game not in night.accepts.get(p, games):
                raise PodsError(
                    f"A locked table seats {p!r} at {table.game!r}, a game he does not play.",
                    "locked_game",
                    player=p,
                    game=table.game,
                )
        for a, b in combinations(table.players, 2):
            if frozenset((a, b)) in night.forbidden:
                raise PodsError(f"A locked table seats {a!r} with {b!r}, a pair kept apart.", "locked_pair", a=a, b=b)
    return locked
