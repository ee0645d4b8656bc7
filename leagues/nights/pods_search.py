"""The optimiser's own searches (leagues/nights/pods.py says what they optimise).

`exact`: small nights, every split, by a dynamic programme over subsets of players (the objective is a sum of
per-table tuples and tuples compare lexicographically, so the best split of a set is its best first table plus
the best split of the rest). `local_search`: the warm start for larger nights, deterministic for a given seed.
`why_infeasible`: which hard rule leaves a night without a split, found by dropping one rule at a time.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from math import comb

from .pods_model import DEFAULT_GAME, SCALE, Evaluator, Night, PodsError, fill_mix, reachable, sort_key, split_key


def _add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def exact(players, evaluator: Evaluator, mix: str) -> list[frozenset] | None:
    """The best split by the mix's objective, or None when no split keeps every hard rule. "fill" tries the
    mixes in their order (fewest tables, then most even) and stops at the first that has a split."""
    ordered = sorted(players, key=sort_key)
    if mix == "free":
        return _Subsets(ordered, evaluator, mix).best_split(None)
    subsets = _Subsets(ordered, evaluator, mix)
    for plan in fill_plans(len(ordered), evaluator.sizes):
        split = subsets.best_split(plan)
        if split is not None:
            return split
    return None


def fill_plans(count: int, sizes) -> list[tuple[int, ...]]:
    """Every multiset of table sizes seating `count` players (sizes largest first), in "fill" order."""
    found = []

    def walk(left, largest, plan):
        if left == 0:
            found.append(tuple(plan))
        for size in sorted(sizes, reverse=True):
            if size <= min(left, largest):
                walk(left - size, size, [*plan, size])

    walk(count, max(sizes), [])
    return sorted(found, key=lambda plan: (len(plan), sum(s * s for s in plan), plan))


_BITS = 64  # each part of a key gets 64 bits of one Python int, so adding keys adds the parts and < compares them
#             lexicographically (no part's sum comes near 2**64 millionths)


class _Subsets:
    """best(mask, plan): the best split of the players in `mask` (with the table sizes left in `plan`, or any
    sizes when None); the table holding the lowest player in the mask is chosen first, so each split is met once.
    Two passes, so that seat orders (the dear part) are worked out only for tables that can be in a best split:
    first the cheap part of the objective (repeats, and the tables for "free"), then the whole of it among the
    tables that keep the cheap part at its best."""

    def __init__(self, ordered, evaluator: Evaluator, mix: str):
        self.ordered, self.evaluator, self.mix = ordered, evaluator, mix
        self.count = len(ordered)
        self.ok = [reachable(n, evaluator.sizes) for n in range(self.count + 1)]
        self.cheap: dict[int, int | None] = {}
        self.full: dict[int, int] = {}
        self.memo: dict = {}
        self._tables(ordered, evaluator)

    def _tables(self, ordered, evaluator: Evaluator) -> None:
        """Each player's met figures and pairs kept apart as rows over the others' bits, and each game's players
        as a bit mask, so a table's cheap part is worked out from bits (the search asks it tens of thousands of
        times: sets and the evaluator's cache took most of a small night's time)."""
        night = evaluator.night
        self.weight = [[round(night.met.get(frozenset((p, q)), 0) * SCALE) for q in ordered] for p in ordered]
        self.apart = [
            sum(1 << j for j, q in enumerate(ordered) if frozenset((p, q)) in night.forbidden) for p in ordered
        ]
        self.game_masks = [
            (frozenset(sizes), sum(1 << i for i, p in enumerate(ordered) if game in evaluator.accepts(p)))
            for game, sizes in sorted(evaluator.games.items())
        ]
        self.repeats = {0: 0}

    def _repeats(self, tmask: int) -> int:
        """The table's repeats in millionths: its highest player's with the rest, plus the rest's."""
        found = self.repeats.get(tmask)
        if found is None:
            top = tmask.bit_length() - 1
            rest = tmask ^ (1 << top)
            row = self.weight[top]
            found = self._repeats(rest) + sum(row[i] for i in range(top) if rest >> i & 1)
            self.repeats[tmask] = found
        return found

    def _keeps_rules(self, tmask: int) -> bool:
        if any(self.apart[i] & tmask for i in range(self.count) if tmask >> i & 1):
            return False
        size = tmask.bit_count()
        return any(size in sizes and tmask & ~players == 0 for sizes, players in self.game_masks)

    def best_split(self, plan) -> list[frozenset] | None:
        found = self.best((1 << self.count) - 1, plan, True)
        if found is None:
            return None
        return [frozenset(self.ordered[i] for i in range(self.count) if t >> i & 1) for t in found[1]]

    def _members(self, tmask: int) -> frozenset:
        return frozenset(self.ordered[i] for i in range(self.count) if tmask >> i & 1)

    def cheap_key(self, tmask: int) -> int | None:
        """fill: the table's repeats (its size is fixed by the plan); free: (repeats, one table). None when the
        table breaks a hard rule."""
        if tmask not in self.cheap:
            key = None
            if self._keeps_rules(tmask):
                repeats = self._repeats(tmask)
                key = (repeats << _BITS | 1) if self.mix == "free" else repeats
            self.cheap[tmask] = key
        return self.cheap[tmask]

    def full_key(self, tmask: int) -> int:
        """The cheap part, then the seat cost, then the rating spread."""
        if tmask not in self.full:
            score = self.evaluator.score(self._members(tmask))[0]
            cheap = self.cheap[tmask]
            assert cheap is not None  # asked only of tables that keep the rules
            self.full[tmask] = (cheap << 2 * _BITS) | (score[2] << _BITS) | score[3]
        return self.full[tmask]

    def best(self, mask: int, plan, full: bool):
        if mask == 0:
            return 0, ()
        state = (mask, plan, full)
        if state not in self.memo:
            if not full:
                self.memo[state] = self._choose(mask, plan, None)
            else:
                cheap = self.best(mask, plan, False)
                self.memo[state] = None if cheap is None else self._choose(mask, plan, cheap[0])
        return self.memo[state]

    def _choose(self, mask: int, plan, target: int | None):
        """The best first table for `mask` and the best split of the rest; with a `target` (the cheap part's
        best), only tables that keep to it, by the whole key."""
        low = (mask & -mask).bit_length() - 1
        rest = [i for i in range(low + 1, self.count) if mask >> i & 1]
        result = None
        for size in sorted(set(plan), reverse=True) if plan else self.evaluator.sizes:
            if size > len(rest) + 1 or (plan is None and not self.ok[len(rest) + 1 - size]):
                continue
            left = _without(plan, size)
            for mates in combinations(rest, size - 1):
                tmask = 1 << low
                for i in mates:
                    tmask |= 1 << i
                key = self.cheap_key(tmask)
                if key is None:
                    continue
                if target is not None:  # only tables on a path that keeps the cheap part at its best
                    cheap_rest = self.best(mask ^ tmask, left, False)
                    if cheap_rest is None or key + cheap_rest[0] != target:
                        continue
                    key = self.full_key(tmask)
                sub = self.best(mask ^ tmask, left, target is not None)
                if sub is not None and (result is None or key + sub[0] < result[0]):
                    result = (key + sub[0], (tmask, *sub[1]))
        return result


def _without(plan, size):
    if plan is None:
        return None
    at = plan.index(size)
    return plan[:at] + plan[at + 1 :]


def why_infeasible(night: Night, free: list, decide) -> PodsError:
    """The refusal for a night with no split, naming the rule that makes it so. `decide(night)` answers whether a
    night has a split (True, False, or None when it could not tell within its budget)."""
    sizes = sorted({s for sizes in (night.games or {DEFAULT_GAME: night.table_sizes}).values() for s in sizes})
    without_pairs = bool(night.forbidden) and decide(replace(night, forbidden=set()))
    without_games = (night.games is not None or bool(night.accepts)) and decide(
        replace(night, games=None, table_sizes=tuple(sizes), accepts={}, locked=[])
    )
    if without_pairs and not without_games:
        rule, says = "forbidden", "the pairs kept apart"
    elif without_games and not without_pairs:
        rule, says = "games", "the games each player plays and the sizes each game allows"
    else:
        rule, says = "both", "the pairs kept apart together with the games each player plays"
    return PodsError(
        f"No split keeps every hard rule: {says} leave no way to seat the {len(free)} players at tables of {sizes}.",
        "infeasible",
        rule=rule,
        count=len(free),
    )


def local_search(players, evaluator: Evaluator, night: Night, plan: tuple) -> tuple[list[set], tuple]:
    """Iterated local search from a greedy split with the table sizes of `plan`: swaps, and moves of one player
    that the mix allows ("fill": between tables one apart in size, which keeps the mix), then random
    perturbations from the night's seed, so the same night gives the same tables; within the evaluator's work."""
    rng = random.Random(night.seed)
    ordered = sorted(players, key=sort_key)
    moves = _move_rule(night.mix, evaluator.sizes)
    best = _descend(_greedy(ordered, plan, evaluator), evaluator, moves)
    best_key = _key(best, evaluator, night.mix)
    for _ in range(night.search_rounds):
        if evaluator.work_left <= 0 or len(best) < 2 or nothing_to_win(best, evaluator):
            break
        trial = [set(t) for t in best]
        for _ in range(max(2, len(trial) // 4)):
            a, b = rng.sample(range(len(trial)), 2)
            x, y = rng.choice(sorted(trial[a], key=sort_key)), rng.choice(sorted(trial[b], key=sort_key))
            trial[a].remove(x)
            trial[b].remove(y)
            trial[a].add(y)
            trial[b].add(x)
        trial = _descend(trial, evaluator, moves)
        trial_key = _key(trial, evaluator, night.mix)
        if trial_key < best_key:
            best, best_key = trial, trial_key
    best = polish(best, evaluator, night.mix)
    return best, _key(best, evaluator, night.mix)


RESPLIT_WORK = 20  # a re-split of two tables costs about as much as this many swaps
RESPLIT_BASE = 35  # the first tables a re-split of two tables of 4 tries (C(7, 3)); larger ones cost in proportion
THREES_PLAYERS = 12  # three tables are split again exactly only up to this many players among them


def polish(tables, evaluator: Evaluator, mix: str) -> list[set]:
    """Split every two tables again exactly (every swap, move and exchange between them at once, by the whole
    objective), until no two can do better or the work runs out: where swaps stop short, this does not."""
    tables = [set(t) for t in tables]
    improved = True
    while improved and evaluator.work_left > 0:
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, len(tables)):
                if b < len(tables) and evaluator.work_left > 0 and _resplit(tables, [a, b], evaluator, mix):
                    improved = True
    return tables


def resplit_threes(tables, evaluator: Evaluator, mix: str) -> list[set]:
    """`polish` by every three tables (12 players at most: an exact split of them takes about what 30 of two
    tables take), while any three do better and the work lasts; for nights of a few tables, where it reaches
    what no swap or two-table re-split does (20 players: the optimum a solver takes seconds to prove)."""
    tables = [set(t) for t in tables]
    improved = True
    while improved and evaluator.work_left > 0:
        improved = False
        for picked in combinations(range(len(tables)), 3):
            if max(picked) >= len(tables) or sum(len(tables[i]) for i in picked) > THREES_PLAYERS:
                continue  # three tables of 5-6 (15-18 players) take the exact split seconds each (issue 49)
            if evaluator.work_left > 0 and _resplit(tables, list(picked), evaluator, mix, RESPLIT_WORK * 30):
                improved = True
    return tables


def _resplit(tables: list, picked: list[int], evaluator: Evaluator, mix: str, work: int = RESPLIT_WORK) -> bool:
    """Replace the picked tables by the best split of their players ("fill": into the same sizes); True if that
    is strictly better. "free" may seat them at fewer or more tables (the list then shrinks or grows).
    Tables already found to have no better re-split are not split again (the answer depends on them alone)."""
    settled = (mix, frozenset(frozenset(tables[i]) for i in picked))
    if settled in evaluator.settled:
        return False
    largest = max(len(tables[i]) for i in picked)
    count = sum(len(tables[i]) for i in picked)
    evaluator.work_left -= work * max(1, comb(count - 1, largest - 1) // RESPLIT_BASE)  # two tables of 6: 13x 4+4
    members = sorted((p for i in picked for p in tables[i]), key=sort_key)
    subsets = _Subsets(members, evaluator, mix)
    index = {p: i for i, p in enumerate(members)}
    current = 0
    for i in picked:
        tmask = sum(1 << index[p] for p in tables[i])
        if subsets.cheap_key(tmask) is None:
            return False  # only rule-keeping splits are compared
        current += subsets.full_key(tmask)
    plan = tuple(sorted((len(tables[i]) for i in picked), reverse=True)) if mix == "fill" else None
    found = subsets.best((1 << len(members)) - 1, plan, True)
    if found is None or found[0] >= current:
        evaluator.settled.add(settled)
        return False
    new = [{members[i] for i in range(len(members)) if t >> i & 1} for t in found[1]]
    keep = [t for i, t in enumerate(tables) if i not in picked]
    tables[:] = keep + new
    return True


def improve(tables, evaluator: Evaluator, mix: str) -> list[set]:
    """Swaps and moves from a given split (a solver's, stopped before its seat costs were settled)."""
    return polish(_descend(tables, evaluator, _move_rule(mix, evaluator.sizes)), evaluator, mix)


def nothing_to_win(tables, evaluator: Evaluator) -> bool:
    """No repeats and every player in his cheapest seat: no split of these players can do better."""
    return _no_repeats(tables, evaluator) and seats_at_floor(tables, evaluator)


def _move_rule(mix: str, sizes):
    allowed = set(sizes)
    if mix == "fill":
        return lambda src, dst: src == dst + 1 and src - 1 in allowed and dst + 1 in allowed
    return lambda src, dst: src - 1 in allowed and dst + 1 in allowed


def start_plans(count: int, sizes, mix: str) -> list[tuple]:
    """The table sizes the local search starts from: the "fill" mix, and for "free" also the most tables of
    the smallest size (fewer pairs meet at small tables, so fewer repeats)."""
    plans = [fill_mix(count, sizes)]
    if mix == "free":
        small = []
        left = count
        for size in sorted(sizes):
            while left >= size and reachable(left - size, sizes):
                small.append(size)
                left -= size
        plans.append(tuple(small))
    return list(dict.fromkeys(p for p in plans if p))


def _key(tables, evaluator: Evaluator, mix: str) -> tuple:
    return split_key([evaluator.score(frozenset(t))[0] for t in tables], [len(t) for t in tables], mix)


def _no_repeats(tables, evaluator) -> bool:
    return all(evaluator.cheap(frozenset(t))[1] == 0 for t in tables)


def seats_at_floor(tables, evaluator: Evaluator) -> bool:
    """Every player in his cheapest seat of his cheapest game: no split can seat them for less."""
    floor = sum(min(min(evaluator.row(p, g)) for g in evaluator.accepts(p)) for t in tables for p in t)
    return sum(evaluator.score(frozenset(t))[0][2] for t in tables) <= floor


def _greedy(ordered, plan, evaluator: Evaluator) -> list[set]:
    """Fill tables one at a time, each newcomer the one who adds fewest violations and repeats so far."""
    left = list(ordered)
    tables = []
    for size in plan:
        table = {left.pop(0)}
        while len(table) < size:
            added = {p: evaluator.cheap(frozenset(table | {p})) for p in left}
            pick = min(left, key=added.__getitem__)
            left.remove(pick)
            table.add(pick)
        tables.append(table)
    return tables


def _descend(tables, evaluator: Evaluator, moves) -> list[set]:
    """First-improvement descent over swaps of two players and moves of one player between tables."""
    tables = [set(t) for t in tables]
    keys = [evaluator.score(frozenset(t))[0] for t in tables]
    improved = True
    while improved and evaluator.work_left > 0:
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, len(tables)):
                if _improve_pair(tables, keys, a, b, evaluator, moves):
                    improved = True
    return tables


def _improve_pair(tables, keys, a, b, evaluator, moves) -> bool:
    changed = False
    for x in sorted(tables[a], key=sort_key):
        for y in sorted(tables[b], key=sort_key):
            if x not in tables[a] or y not in tables[b]:
                continue
            if _try(tables, keys, a, b, frozenset(tables[a] - {x} | {y}), frozenset(tables[b] - {y} | {x}), evaluator):
                changed = True
    for src, dst in ((a, b), (b, a)):  # a single player changes tables when the mix allows it
        for x in sorted(tables[src], key=sort_key):
            if x not in tables[src] or not moves(len(tables[src]), len(tables[dst])):
                continue
            if _try(tables, keys, src, dst, frozenset(tables[src] - {x}), frozenset(tables[dst] | {x}), evaluator):
                changed = True
    return changed


def _try(tables, keys, a, b, new_a, new_b, evaluator) -> bool:
    """Take the change if it is lexicographically better; seat orders are only scored on a tie in repeats."""
    evaluator.work_left -= 1
    ca, cb = evaluator.cheap(new_a), evaluator.cheap(new_b)
    cheap_after = (ca[0] + cb[0], ca[1] + cb[1])
    cheap_before = (keys[a][0] + keys[b][0], keys[a][1] + keys[b][1])
    if cheap_after > cheap_before:
        return False
    ka, kb = evaluator.score(new_a)[0], evaluator.score(new_b)[0]
    if _add(ka, kb) >= _add(keys[a], keys[b]):
        return False
    tables[a], tables[b], keys[a], keys[b] = set(new_a), set(new_b), ka, kb
    return True
