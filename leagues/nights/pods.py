"""Splitting a league night's checked-in players into tables (issue 25), without Django.

Why a module of its own: the web feature, `manage.py pods` and `bench/league_nights.py` must get the same answer
from the same function (`propose`), and the tests must be able to check it without a database.

The objective is lexicographic, compared as a tuple (never folded into weights):
1. ``repeats``: for every pair seated together, how often they already met (the caller weights tonight's
   earlier rounds higher by passing a larger ``met`` figure for them);
2. ``seat_cost``: for every player, Tabbycat's Rényi-style cost of the seat he takes given his seat history in
   the table's game (seat 0 is the first player);
3. optionally ``rating_spread`` (max - min rating per table, summed; off unless ``rating_weight`` > 0).
Hard constraints: table sizes (per game), the games each player accepts, forbidden pairs; locked tables are
kept as given and their players are not seated again.

How: nights of up to ``EXACT_LIMIT`` free players are solved by an exhaustive branch-and-bound over every split
(exact, and the bench checks it against a plain enumeration). Larger nights use a deterministic iterated local
search (pair swaps and single moves between tables, seeded perturbations, a fixed budget of rounds, so the
same input gives the same tables); ``repeats_lower_bound`` states how far from optimal its repeats can be.
We chose this over OR-Tools CP-SAT: the exact search covers the nights a club actually has, and the heuristic
meets the 2 s target in pure Python without a 30 MB native dependency (figures in bench/league_nights.py).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations, permutations

EXACT_LIMIT = 12
MAX_TABLE_SIZE = 6  # seat orders are found by trying every permutation (720 at six)
RENYI_ORDER = 2.0
DEFAULT_GAME = ""


class PodsError(ValueError):
    """The request cannot be answered: bad input or no split satisfies the hard constraints.

    The English sentence is for `manage.py pods` and the bench; `code` and `params` let the site say it in the
    reader's language (leagues.nights.services.pods_message), so the optimiser stays free of Django.
    Codes: duplicate_player, no_game, bad_sizes (game, sizes), locked_absent (player), locked_twice (player),
    unsplittable (count, sizes), infeasible, bad_input (the JSON contract only)."""

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
    met: dict = field(default_factory=dict)        # frozenset({a, b}) -> times (weighted)
    seats: dict = field(default_factory=dict)      # (player, game) -> counts per seat
    forbidden: set = field(default_factory=set)    # frozenset({a, b})
    games: dict | None = None                      # game -> allowed table sizes; None: one game, table_sizes
    accepts: dict = field(default_factory=dict)    # player -> set of games (missing: every game)
    locked: list = field(default_factory=list)     # Tables kept as they are
    ratings: dict = field(default_factory=dict)
    rating_weight: float = 0.0
    renyi_order: float = RENYI_ORDER
    seed: int = 0
    search_rounds: int = 20  # perturb-and-descend rounds for large nights (a fixed budget, not a clock)


@dataclass(frozen=True)
class Proposal:
    tables: tuple
    repeats: float
    seat_cost: float
    rating_spread: float
    exact: bool
    repeats_lower_bound: float

    def as_json(self) -> dict:
        return {"tables": [list(table.players) for table in self.tables], "repeats": self.repeats,
                "seat_cost": self.seat_cost}


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
        entropy = math.log2(sum(p ** order for p in shares)) / (1 - order)
    return total * (math.log2(k) - entropy)


def _key_add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


_ZERO = (0, 0.0, 0.0, 0.0)


def _rounded(key):
    return (key[0], round(key[1], 9), round(key[2], 9), round(key[3], 9))


class _Evaluator:
    """Scores one table (a set of players): its violations, repeats, best game and best seat order.

    `cheap` (violations, repeats) is all most search steps need: the seat order is only worked out when two
    candidate splits tie on repeats, which keeps the large nights fast.
    """

    def __init__(self, night: Night):
        self.night = night
        self.games = night.games if night.games is not None else {DEFAULT_GAME: tuple(night.table_sizes)}
        self.positions = max(max(sizes) for sizes in self.games.values())
        self.all_games = frozenset(self.games)
        self.score = lru_cache(maxsize=None)(self._score)
        self.cheap = lru_cache(maxsize=None)(self._cheap)
        self._rows = {}

    def _cheap(self, members: frozenset):
        night = self.night
        violations = 0
        repeats = 0.0
        for a, b in combinations(members, 2):
            pair = frozenset((a, b))
            if pair in night.forbidden:
                violations += 1
            repeats += night.met.get(pair, 0)
        return violations, round(repeats, 9)

    def _score(self, members: frozenset):
        """(key, game, seat order) for a table; key = (violations, repeats, seat cost, rating spread)."""
        night = self.night
        ordered = sorted(members, key=_sort_key)
        violations, repeats = self.cheap(members)
        spread = 0.0
        if night.rating_weight:
            values = [night.ratings.get(p, 0.0) for p in ordered]
            spread = night.rating_weight * (max(values) - min(values))
        best = None
        for game in sorted(self.games):
            if len(ordered) not in self.games[game]:
                continue
            if any(game not in night.accepts.get(p, self.all_games) for p in ordered):
                continue
            cost, order = self._seat_order(ordered, game)
            if best is None or cost < best[0] - 1e-12:
                best = (cost, game, order)
        if best is None:  # no game fits these players at this size
            return (violations + 1, repeats, 0.0, spread), DEFAULT_GAME, tuple(ordered)
        return (violations, repeats, round(best[0], 9), spread), best[1], best[2]

    def _row(self, player, game):
        row = self._rows.get((player, game))
        if row is None:
            history = self.night.seats.get((player, game), ())
            row = [seat_cost(history, s, self.positions, self.night.renyi_order) for s in range(self.positions)]
            self._rows[(player, game)] = row
        return row

    def _seat_order(self, ordered, game):
        costs = [self._row(p, game) for p in ordered]
        best_cost, best_order = None, None
        for perm in permutations(range(len(ordered))):  # perm[s] = index of the player in seat s
            cost = sum(costs[i][s] for s, i in enumerate(perm))
            if best_cost is None or cost < best_cost - 1e-12:
                best_cost, best_order = cost, tuple(ordered[i] for i in perm)
        return best_cost, best_order


def _sort_key(player):
    return (isinstance(player, str), player)


def _reachable(total: int, sizes) -> bool:
    ok = [True] + [False] * total
    for n in range(1, total + 1):
        ok[n] = any(s <= n and ok[n - s] for s in sizes)
    return ok[total]


def repeats_lower_bound(night: Night, players=None) -> float:
    """Half the sum, over players, of the smallest met figures he must take on at the smallest table.

    Valid because every table's repeats are half the sum of each member's repeats with his table-mates, and a
    member has at least (smallest size - 1) table-mates, whose met figures cannot sum below his cheapest ones.
    """
    players = list(night.players if players is None else players)
    sizes = night.games.values() if night.games is not None else [night.table_sizes]
    smallest = min(min(s) for s in sizes)
    total = 0.0
    for p in players:
        others = sorted(night.met.get(frozenset((p, q)), 0) for q in players if q != p)
        total += sum(others[:smallest - 1])
    return total / 2


def _check(night: Night) -> list:
    """The free players (not at a locked table), after refusing what cannot be answered."""
    if len(set(night.players)) != len(night.players):
        raise PodsError("A player is listed twice.", "duplicate_player")
    games = night.games if night.games is not None else {DEFAULT_GAME: tuple(night.table_sizes)}
    if not games:
        raise PodsError("No game is on offer.", "no_game")
    for game, sizes in games.items():
        if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or not 2 <= s <= MAX_TABLE_SIZE
                            for s in sizes):
            raise PodsError(f"Table sizes must be whole numbers from 2 to {MAX_TABLE_SIZE} (game {game!r}: {sizes}).",
                             "bad_sizes", game=game, sizes=list(sizes or ()))
    locked = set()
    for table in night.locked:
        for p in table.players:
            if p not in night.players:
                raise PodsError(f"Locked table seats {p!r}, who is not checked in.", "locked_absent", player=p)
            if p in locked:
                raise PodsError(f"{p!r} sits at two locked tables.", "locked_twice", player=p)
            locked.add(p)
    free = [p for p in night.players if p not in locked]
    all_sizes = sorted({s for sizes in games.values() for s in sizes})
    if free and not _reachable(len(free), all_sizes):
        raise PodsError(f"{len(free)} players cannot be split into tables of {all_sizes}.", "unsplittable",
                        count=len(free), sizes=all_sizes)
    return free


def propose(night: Night) -> Proposal:
    """The best split of tonight's free players into tables, with the locked tables kept first."""
    free = _check(night)
    evaluator = _Evaluator(night)
    if not free:
        split, exact = [], True
    elif len(free) <= EXACT_LIMIT:
        split, exact = _exact(free, evaluator), True
    else:
        split, exact = _search(free, evaluator, night), False
    total = _ZERO
    tables = [Table(tuple(t.players), t.game, locked=True) for t in night.locked]
    for members in split:
        key, game, order = evaluator.score(members)
        total = _key_add(total, key)
        tables.append(Table(order, game))
    if total[0]:
        raise PodsError("No split keeps every hard rule (forbidden pairs, accepted games, table sizes).", "infeasible")
    return Proposal(tables=tuple(tables), repeats=round(total[1], 6), seat_cost=round(total[2], 6),
                    rating_spread=round(total[3], 6), exact=exact,
                    repeats_lower_bound=repeats_lower_bound(night, free))


def _exact(players, evaluator: _Evaluator):
    """Branch and bound over every split: the lowest-numbered unseated player opens the next table."""
    sizes = sorted({s for sizes in evaluator.games.values() for s in sizes})
    ordered = sorted(players, key=_sort_key)
    best = {"key": None, "split": None}

    def walk(remaining, key, split):
        if not remaining:
            if best["key"] is None or _rounded(key) < _rounded(best["key"]):
                best["key"], best["split"] = key, list(split)
            return
        first, rest = remaining[0], remaining[1:]
        for size in sizes:
            if size > len(remaining) or not _reachable(len(remaining) - size, sizes):
                continue
            for mates in combinations(rest, size - 1):
                members = frozenset((first, *mates))
                table_key = evaluator.score(members)[0]
                if table_key[0]:
                    continue  # breaks a hard rule
                new_key = _key_add(key, table_key)
                if best["key"] is not None and _rounded(new_key) >= _rounded(best["key"]):
                    continue  # every cost is non-negative: this branch cannot do better
                left = tuple(p for p in rest if p not in members)
                split.append(members)
                walk(left, new_key, split)
                split.pop()

    walk(tuple(ordered), _ZERO, [])
    if best["split"] is None:
        raise PodsError("No split keeps every hard rule (forbidden pairs, accepted games, table sizes).", "infeasible")
    return best["split"]


def _initial_sizes(count: int, sizes) -> list:
    """As many of the largest tables as still leave a splittable rest."""
    plan, left = [], count
    for size in sorted(sizes, reverse=True):
        while left >= size and _reachable(left - size, sizes):
            plan.append(size)
            left -= size
    return plan


def _search(players, evaluator: _Evaluator, night: Night):
    """Iterated local search with a fixed budget: deterministic for a given input and seed."""
    sizes = sorted({s for sizes in evaluator.games.values() for s in sizes})
    rng = random.Random(night.seed)
    ordered = sorted(players, key=_sort_key)
    floor = round(repeats_lower_bound(night, ordered), 9)
    seat_floor = round(_seat_floor(ordered, evaluator), 9)
    current = _greedy(ordered, _initial_sizes(len(ordered), sizes), evaluator)
    current, current_key = _descend(current, evaluator, sizes)
    best, best_key = [set(t) for t in current], current_key
    for _ in range(night.search_rounds):
        if best_key[0] == 0 and best_key[1] <= floor + 1e-6 and best_key[2] <= seat_floor + 1e-6:
            break  # both bounds reached: nothing left to win
        trial = [set(t) for t in best]
        for _ in range(max(2, len(trial) // 4)):
            a, b = rng.sample(range(len(trial)), 2)
            x, y = rng.choice(sorted(trial[a], key=_sort_key)), rng.choice(sorted(trial[b], key=_sort_key))
            trial[a].remove(x), trial[b].remove(y)
            trial[a].add(y), trial[b].add(x)
        trial, trial_key = _descend(trial, evaluator, sizes)
        if _rounded(trial_key) < _rounded(best_key):
            best, best_key = [set(t) for t in trial], trial_key
    return [frozenset(t) for t in best]


def _seat_floor(players, evaluator: _Evaluator) -> float:
    """Every player in his cheapest seat of his cheapest accepted game: no split can cost less."""
    night = evaluator.night
    return sum(min(min(evaluator._row(p, game)) for game in night.accepts.get(p, evaluator.all_games)
                   if game in evaluator.games) for p in players)


def _greedy(ordered, plan, evaluator: _Evaluator):
    """Fill tables one at a time, each newcomer the one who adds least to the table so far."""
    left = list(ordered)
    tables = []
    for size in plan:
        table = {left.pop(0)}
        while len(table) < size:
            pick = min(left, key=lambda p: _rounded(_partial(table | {p}, evaluator)))
            left.remove(pick)
            table.add(pick)
        tables.append(table)
    return tables


def _partial(members, evaluator):
    night = evaluator.night
    violations = sum(frozenset(pair) in night.forbidden for pair in combinations(members, 2))
    repeats = sum(night.met.get(frozenset(pair), 0) for pair in combinations(members, 2))
    return (violations, repeats, 0.0, 0.0)


def _descend(tables, evaluator: _Evaluator, sizes):
    """First-improvement descent over swaps of two players and moves of one player between tables."""
    tables = [set(t) for t in tables]
    keys = [evaluator.score(frozenset(t))[0] for t in tables]
    improved = True
    while improved:
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, len(tables)):
                if _improve_pair(tables, keys, a, b, evaluator, sizes):
                    improved = True
    total = _ZERO
    for key in keys:
        total = _key_add(total, key)
    return tables, total


def _improve_pair(tables, keys, a, b, evaluator, sizes) -> bool:
    changed = False
    for x in sorted(tables[a], key=_sort_key):
        for y in sorted(tables[b], key=_sort_key):
            if x not in tables[a] or y not in tables[b]:
                continue
            if _try(tables, keys, a, b, frozenset(tables[a] - {x} | {y}), frozenset(tables[b] - {y} | {x}),
                    evaluator):
                changed = True
    for src, dst in ((a, b), (b, a)):  # a single player changes tables when both sizes stay allowed
        for x in sorted(tables[src], key=_sort_key):
            if len(tables[src]) - 1 not in sizes or len(tables[dst]) + 1 not in sizes or x not in tables[src]:
                continue
            if _try(tables, keys, src, dst, frozenset(tables[src] - {x}), frozenset(tables[dst] | {x}), evaluator):
                changed = True
    return changed


def _try(tables, keys, a, b, new_a, new_b, evaluator) -> bool:
    """Take the change if it is lexicographically better; seat orders are only scored on a tie in repeats."""
    ca, cb = evaluator.cheap(new_a), evaluator.cheap(new_b)
    cheap_after = (ca[0] + cb[0], round(ca[1] + cb[1], 9))
    cheap_before = (keys[a][0] + keys[b][0], round(keys[a][1] + keys[b][1], 9))
    if cheap_after > cheap_before:
        return False
    ka, kb = evaluator.score(new_a)[0], evaluator.score(new_b)[0]
    if cheap_after == cheap_before and _rounded(_key_add(ka, kb)) >= _rounded(_key_add(keys[a], keys[b])):
        return False
    tables[a], tables[b], keys[a], keys[b] = set(new_a), set(new_b), ka, kb
    return True


def _is_id(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and value != "")


def night_from_json(data) -> Night:
    """The `manage.py pods` contract: players, table_sizes, met, seats, forbidden (and optionally locked).

    History about players who are not here tonight is ignored: a season's record naturally names absentees.
    Each part is checked in that order, so a file with several mistakes is refused for the first.
    """
    if not isinstance(data, dict):
        raise PodsError("The input must be a JSON object with at least \"players\".")
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(_is_id(p) for p in players):
        raise PodsError("\"players\" must be a non-empty list of player ids (numbers or strings).")
    sizes = data.get("table_sizes", [3, 4])
    if not isinstance(sizes, list) or not sizes:
        raise PodsError("\"table_sizes\" must be a non-empty list of whole numbers, e.g. [3, 4].")
    met = _met_from_json(data, set(players))
    seats = _seats_from_json(data, {str(p): p for p in players})
    forbidden = _forbidden_from_json(data)
    locked = _locked_from_json(data)
    return Night(players=list(players), table_sizes=tuple(sizes), met=met, seats=seats, forbidden=forbidden,
                 locked=locked)


def _met_from_json(data, here: set) -> dict[frozenset, float]:
    """`met`: [a, b, times] entries; the times of one pair add up; pairs with someone not `here` are left out."""
    met = {}
    for entry in _list(data, "met"):
        if (not isinstance(entry, list) or len(entry) != 3 or not _is_id(entry[0]) or not _is_id(entry[1])
                or not _number(entry[2]) or entry[2] < 0 or entry[0] == entry[1]):
            raise PodsError(f"Each \"met\" entry must be [a, b, times] with two different ids and times >= 0: "
                            f"{entry!r}.")
        if entry[0] in here and entry[1] in here:
            pair = frozenset(entry[:2])
            met[pair] = met.get(pair, 0) + entry[2]
    return met


def _seats_from_json(data, by_text: dict) -> dict[tuple, tuple]:
    """`seats`: {"<id>": [times in seat 0, seat 1, ...]} (JSON keys are text: `by_text` maps them back to the
    players here; others are left out)."""
    seats = {}
    raw_seats = data.get("seats", {})
    if not isinstance(raw_seats, dict):
        raise PodsError("\"seats\" must be an object: {\"<id>\": [times in seat 0, seat 1, ...]}.")
    for key, counts in raw_seats.items():
        if not isinstance(counts, list) or not all(_number(c) and c >= 0 for c in counts):
            raise PodsError(f"Seat history for {key!r} must be a list of counts >= 0: {counts!r}.")
        if key in by_text:
            seats[(by_text[key], DEFAULT_GAME)] = tuple(counts)
    return seats


def _forbidden_from_json(data) -> set[frozenset]:
    """`forbidden`: [a, b] pairs who must not share a table."""
    forbidden = set()
    for entry in _list(data, "forbidden"):
        if not isinstance(entry, list) or len(entry) != 2 or not all(_is_id(p) for p in entry) or entry[0] == entry[1]:
            raise PodsError(f"Each \"forbidden\" entry must be [a, b] with two different ids: {entry!r}.")
        forbidden.add(frozenset(entry))
    return forbidden


def _locked_from_json(data) -> list[Table]:
    """`locked`: tables already seated, as lists of ids in seat order."""
    locked = []
    for entry in _list(data, "locked"):
        if not isinstance(entry, list) or not entry or not all(_is_id(p) for p in entry):
            raise PodsError(f"Each \"locked\" entry must be a table: a list of ids in seat order: {entry!r}.")
        locked.append(Table(tuple(entry), DEFAULT_GAME, locked=True))
    return locked


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _list(data, name):
    value = data.get(name, [])
    if not isinstance(value, list):
        raise PodsError(f"\"{name}\" must be a list.")
    return value
