"""Pairing a Swiss round (or the cut) of multiplayer pods by standings (issue 51), without Django.

Why a module of its own: `manage.py swiss`, the tournament pages and `bench/swiss.py` must get the same answer
from the same function (`pair`), and the tests must check it without a database.

The contract, compared as a tuple (never folded into weights a caller could tune):
1. ``repeats``: for every two players seated together, how often they already met in this tournament (each
   meeting counts, so a third meeting costs more than a second); the fewest any split allows;
2. ``spread``: the sum over pods of the sum over their pairs of |points_i - points_j|: the leaders play each
   other and nobody is paired down without need;
3. the seats follow the standings inside each pod: in Swiss rounds the lowest-placed player takes the first seat
   and the leader the last; in the cut (``seat_rule="cut"``) the top seed takes the first seat;
4. the pods' sizes are the nights' "fill" rule (the fewest pods the table sizes allow, as even as possible: 13 at
   sizes 3-4 sit 4+3+3+3), fixed before 1-3 are met: short pods rather than byes. Were the pod count an objective
   after 1 and 2 it would always lose to them (a smaller pod has fewer pairs), so it is the frame they work in.
Where no split exists at all the round is refused (``PairingError``, code ``unsplittable``, with the fewest byes
that would seat the rest): byes are the tournament's decision, scored by its scheme, never the optimiser's.

The standings: players by points, most first; equal points keep the order the caller lists them in (the caller
has applied the tie-breakers). Dropped players are left out; their meetings with others no longer matter.

How (docs/tournaments.md, "How it is found"): a contiguous split of the standings (the best order of pod sizes
by a small dynamic programme), repaired by swaps; if that is not already proven optimal (no repeat, and the
spread at ``spread_floor``, a bound that holds for any split), a branch and bound on the spread with no repeat
(pairing_search.py), a seeded annealing and the best re-split of every two pods; then, still unproven, CP-SAT
(pairing_solver.py) on one worker with a fixed seed and a deterministic time limit, warm-started by that split.
Every step counts its work and none reads a clock: the same input gives the same pods on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations

from leagues.nights import pods

from . import pairing_search

SEAT_RULES = ("swiss", "cut")
MAX_PLAYERS = 256
MAX_TABLE_SIZE = pods.MAX_TABLE_SIZE
WORK = 0.5  # each CP-SAT solve's deterministic time limit, in its own seconds (about wall seconds on one core)
ANNEAL_STEPS = 60_000  # swaps tried by the annealing before CP-SAT (counted, so the answer never depends on time)
SEARCH_WORK = 20_000  # pods the branch and bound weighs at most (pairing_search)


class PairingError(ValueError):
    """The round cannot be paired: bad input, or no split of the players into pods of the table sizes.

    `code` and `params` let the site say it in the reader's language; the English sentence is for the command.
    Codes: bad_input, duplicate_player, bad_sizes (sizes), no_players, too_many_players (count, max),
    unsplittable (count, sizes, byes)."""

    def __init__(self, message: str, code: str = "bad_input", **params):
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Entrant:
    id: int | str
    points: float = 0
    opponents: tuple = ()  # the ids he met, one entry per meeting
    dropped: bool = False


@dataclass
class Round:
    """What the pairing needs to know: the players in standings order (ties as the tie-breakers put them)."""

    players: list
    table_sizes: tuple = (3, 4)
    seat_rule: str = "swiss"
    work: float = WORK
    anneal_steps: int = ANNEAL_STEPS
    search_work: int = SEARCH_WORK
    seed: int = 0


@dataclass(frozen=True)
class Pairing:
    pods: tuple  # each pod's ids in seat order, the leaders' pod first
    repeats: int  # objective 1
    spread: float  # objective 2, in points
    bound: int  # a proven lower bound on `repeats`
    exact: bool  # proven optimal for objectives 1 and 2
    solver: dict = field(default_factory=dict, compare=False)

    def as_json(self) -> dict:
        return {
            "pods": [list(pod) for pod in self.pods],
            "repeats": self.repeats,
            "spread": self.spread,
            "bound": self.bound,
        }


def standings(players) -> list[Entrant]:
    """The players still in, most points first; equal points keep the caller's order."""
    return sorted((p for p in players if not p.dropped), key=lambda p: -p.points)


def pod_sizes(count: int, table_sizes) -> tuple[int, ...] | None:
    """The nights' "fill" rule: the fewest pods, the most even; None when no split exists."""
    return pods.fill_mix(count, sorted(set(table_sizes))) if count else ()


def fewest_byes(count: int, table_sizes) -> int | None:
    for byes in range(count + 1):
        if count - byes > 0 and pods.reachable(count - byes, table_sizes):
            return byes
    return None


def meetings(players) -> dict[frozenset, int]:
    """How often each two players here met: one list may be shorter (a late entry's), so the longer one counts."""
    here = {p.id for p in players}
    met: dict[frozenset, int] = {}
    for p in players:
        counts: dict[Hashable, int] = {}
        for other in p.opponents:
            if other in here and other != p.id:
                counts[other] = counts.get(other, 0) + 1
        for other, times in counts.items():
            pair = frozenset((p.id, other))
            met[pair] = max(met.get(pair, 0), times)
    return met


def seat(pod, place: dict, seat_rule: str) -> tuple:
    """A pod in seat order: `place` is each player's place in the standings (0 the leader)."""
    leader_first = sorted(pod, key=place.__getitem__)
    return tuple(leader_first) if seat_rule == "cut" else tuple(reversed(leader_first))


def points_unit(points) -> int:
    """The least multiplier (up to millionths) that makes every score whole, so sums are exact and ties ties."""
    denominator = 1
    for value in points:
        denominator = math.lcm(denominator, Fraction(value).limit_denominator(10**6).denominator)
        if denominator > 10**6:
            return 10**6
    return denominator


def pod_spread(values) -> int:
    """The sum over pairs of |a - b|, from the sorted values: the k-th smallest of s is below s-1-k, above k."""
    ordered = sorted(values)
    size = len(ordered)
    return sum((2 * k - size + 1) * v for k, v in enumerate(ordered))


def spread_floor(values, sizes) -> int:
    """A lower bound on the spread of any split into pods of `sizes`: the pairs of a pod split by a level of points
    are a * (s - a) with a of its s above the level; for each level, the fewest such pairs any pods allow (all but
    one pod on one side), summed over levels times the step between them."""
    ordered = sorted(values, reverse=True)
    levels = sorted(set(values))
    total = 0
    for low, high in zip(levels, levels[1:], strict=False):
        above = sum(v >= high for v in ordered)
        total += (high - low) * split_pairs_floor(above, tuple(sorted(sizes)))
    return total


@lru_cache(maxsize=4096)
def split_pairs_floor(above: int, sizes: tuple) -> int:
    """min over pods of sum a_k * (s_k - a_k) with sum a_k = above: a concave sum, so at an extreme point."""
    best = {0: 0}  # players above placed so far -> fewest split pairs
    for size in sizes:
        nxt: dict[int, int] = {}
        for placed, cost in best.items():
            for a in range(size + 1):
                if placed + a <= above:
                    value = cost + a * (size - a)
                    if nxt.get(placed + a, value + 1) > value:
                        nxt[placed + a] = value
        best = nxt
    return best[above]


def contiguous(values, sizes) -> list[list[int]]:
    """The standings cut into runs of the pod sizes, in the order of sizes with the least spread (players are
    indices into `values`, which is in standings order)."""
    kinds = sorted(set(sizes))
    available = tuple(sizes.count(k) for k in kinds)

    @cache
    def best(used: tuple) -> tuple[int, tuple]:
        start = sum(u * k for u, k in zip(used, kinds, strict=True))
        if start == len(values):
            return 0, ()
        found: tuple[int, tuple] | None = None
        for n, kind in enumerate(kinds):
            if used[n] < available[n]:
                rest, order = best(used[:n] + (used[n] + 1,) + used[n + 1 :])
                value = (rest + pod_spread(values[start : start + kind]), (kind, *order))
                if found is None or value < found:
                    found = value
        assert found is not None  # the sizes add up to the players: some order always fits
        return found

    split, start = [], 0
    for kind in best((0,) * len(kinds))[1]:
        split.append(list(range(start, start + kind)))
        start += kind
    return split


class Scorer:
    """(repeats, spread) of pods of player indices, and the swaps that improve them."""

    def __init__(self, values, met: dict[tuple, int]):
        self.values = values
        self.met = met  # (i, j) with i < j -> times
        self.partners: dict[int, dict[int, int]] = {}
        for (i, j), times in met.items():
            self.partners.setdefault(i, {})[j] = times
            self.partners.setdefault(j, {})[i] = times

    def times(self, i: int, j: int) -> int:
        return self.partners.get(i, {}).get(j, 0)

    def pod(self, members) -> tuple[int, int]:
        repeats = sum(self.times(i, j) for i, j in combinations(members, 2))
        return repeats, pod_spread([self.values[i] for i in members])

    def split(self, split) -> tuple[int, int]:
        keys = [self.pod(members) for members in split]
        return sum(k[0] for k in keys), sum(k[1] for k in keys)

    def _with(self, player: int, others) -> tuple[int, int]:
        value = self.values[player]
        return (sum(self.times(player, o) for o in others), sum(abs(value - self.values[o]) for o in others))

    def improve(self, split, work: int = 200_000) -> list[list[int]]:
        """Swaps of two players in different pods, the first that lowers (repeats, spread) taken, until none does
        or `work` swaps were weighed (counted, not timed: the same answer on any machine)."""
        split = [list(members) for members in split]
        improved = True
        while improved and work > 0:
            improved = False
            for a, b in combinations(range(len(split)), 2):
                for x in range(len(split[a])):
                    for y in range(len(split[b])):
                        work -= 1
                        i, j = split[a][x], split[b][y]
                        rest_a = [p for p in split[a] if p != i]
                        rest_b = [p for p in split[b] if p != j]
                        before = _add(self._with(i, rest_a), self._with(j, rest_b))
                        after = _add(self._with(j, rest_a), self._with(i, rest_b))
                        if after < before:
                            split[a][x], split[b][y] = j, i
                            improved = True
        return split

    def resplit(self, split, work: int = 200_000) -> list[list[int]]:
        """Every two pods' players split again between them in the best way (all ways of choosing the first pod),
        until no two pods improve or `work` ways were weighed: the move swaps miss when two players must cross
        together."""
        split = [list(members) for members in split]
        improved = True
        while improved and work > 0:
            improved = False
            for a, b in combinations(range(len(split)), 2):
                both = split[a] + split[b]
                best = _add(self.pod(split[a]), self.pod(split[b]))
                first = both[0]  # in the pod of the size it is in: each split of the two weighed once
                for size in dict.fromkeys((len(split[a]), len(split[b]))):  # the first player in either pod
                    for mates in combinations(both[1:], size - 1):
                        work -= 1
                        chosen = [first, *mates]
                        other = [p for p in both if p not in chosen]
                        pods = (chosen, other) if size == len(split[a]) else (other, chosen)
                        value = _add(self.pod(pods[0]), self.pod(pods[1]))
                        if value < best:
                            best, split[a], split[b], improved = value, pods[0], pods[1], True
        return split

    def anneal(self, split, steps: int, seed: int) -> list[list[int]]:
        """Random swaps from a seeded generator, a worse one taken with a chance that falls as the steps run out
        (a repeat weighs more than any spread): it leaves the swaps' local optimum, which holds far more spread
        than the optimum once the repeats pull pods apart. Returns the best split seen. Written for speed (a
        table of meetings, no lists built per step): its steps are what finds a low spread in large rounds."""
        rng = random.Random(seed)
        split = [list(members) for members in split]
        if len(split) < 2:
            return split
        values, count, pods = self.values, len(self.values), len(split)
        times = [[0] * count for _ in range(count)]
        for (i, j), met in self.met.items():
            times[i][j] = times[j][i] = met
        current = self.split(split)
        best = (current, [list(members) for members in split])
        span = max(values) - min(values) + 1
        weight = span * 4  # a repeat outweighs any one swap's spread
        draw, exp = rng.random, math.exp
        for step in range(steps):
            temperature = 0.1 * span * (1 - step / steps) + 0.01
            a = int(draw() * pods)
            b = int(draw() * (pods - 1))
            b += b >= a
            pod_a, pod_b = split[a], split[b]
            x, y = int(draw() * len(pod_a)), int(draw() * len(pod_b))
            i, j = pod_a[x], pod_b[y]
            value_i, value_j, met_i, met_j = values[i], values[j], times[i], times[j]
            repeats = spread = 0
            for p in pod_a:
                if p != i:
                    repeats += met_j[p] - met_i[p]
                    spread += abs(value_j - values[p]) - abs(value_i - values[p])
            for q in pod_b:
                if q != j:
                    repeats += met_i[q] - met_j[q]
                    spread += abs(value_i - values[q]) - abs(value_j - values[q])
            change = repeats * weight + spread
            if change <= 0 or draw() < exp(-change / temperature):
                pod_a[x], pod_b[y] = j, i
                current = (current[0] + repeats, current[1] + spread)
                if current < best[0]:
                    best = (current, [list(members) for members in split])
        return best[1]


def _add(a, b):
    return a[0] + b[0], a[1] + b[1]


def check(round_: Round) -> list[Entrant]:
    """The players to pair, in standings order, after refusing what cannot be paired."""
    if round_.seat_rule not in SEAT_RULES:
        raise PairingError(f'"seat_rule" must be "swiss" or "cut", not {round_.seat_rule!r}.')
    sizes = round_.table_sizes
    if not sizes or any(not isinstance(s, int) or isinstance(s, bool) or not 2 <= s <= MAX_TABLE_SIZE for s in sizes):
        raise PairingError(
            f"Table sizes must be whole numbers from 2 to {MAX_TABLE_SIZE}: {list(sizes)}.",
            "bad_sizes",
            sizes=list(sizes),
        )
    ids = [p.id for p in round_.players]
    if len(set(ids)) != len(ids):
        raise PairingError("A player is listed twice.", "duplicate_player")
    players = standings(round_.players)
    if not players:
        raise PairingError("No player is left to pair.", "no_players")
    if len(players) > MAX_PLAYERS:
        raise PairingError(
            f"A round pairs at most {MAX_PLAYERS} players ({len(players)} here).",
            "too_many_players",
            count=len(players),
            max=MAX_PLAYERS,
        )
    if pod_sizes(len(players), sizes) is None:
        byes = fewest_byes(len(players), sizes)
        raise PairingError(
            f"{len(players)} players cannot be split into pods of {sorted(set(sizes))}"
            + (f"; {byes} bye(s) would seat the rest." if byes else "."),
            "unsplittable",
            count=len(players),
            sizes=sorted(set(sizes)),
            byes=byes,
        )
    return players


def pair(round_: Round) -> Pairing:
    """The round's pods by the contract above."""
    players = check(round_)
    unit = points_unit([p.points for p in players])
    values = [round(Fraction(p.points).limit_denominator(10**6) * unit) for p in players]
    place = {p.id: n for n, p in enumerate(players)}
    met = {tuple(sorted(place[q] for q in pair)): times for pair, times in meetings(players).items()}
    planned = pod_sizes(len(players), round_.table_sizes)
    assert planned is not None  # check() refused a round no split seats
    sizes = list(planned)
    scorer = Scorer(values, met)
    split = scorer.improve(contiguous(values, sizes))
    repeats, spread = scorer.split(split)
    floor = spread_floor(values, sizes)
    solver: dict[str, object]
    proven, solver = (repeats, spread) == (0, floor), {"method": "swaps"}
    if not proven:
        found, complete = pairing_search.search(
            values, scorer.partners, sizes, spread if not repeats else 1 << 62, round_.search_work, spread_floor
        )
        split = found or split
        repeats, spread = scorer.split(split)
        proven, solver = complete and not repeats, {"method": "search", "complete": complete}
    if not proven:
        split = scorer.resplit(scorer.improve(scorer.anneal(split, round_.anneal_steps, round_.seed)))
        repeats, spread = scorer.split(split)
        proven = (repeats, spread) == (0, floor)
    bound = 0
    if not proven:
        from . import pairing_solver  # OR-Tools loads only for a round the searches cannot prove

        levels = tuple(split_pairs_floor(i + 1, tuple(sorted(sizes))) for i in range(len(values)))
        split, bound, proven, solver = pairing_solver.solve(
            scorer, sizes, split, (floor, levels), round_.work, round_.seed
        )
        repeats, spread = scorer.split(split)
    seated = [seat([players[i].id for i in members], place, round_.seat_rule) for members in split]
    seated.sort(key=lambda pod: min(place[p] for p in pod))
    return Pairing(
        pods=tuple(seated),
        repeats=repeats,
        spread=_points(spread, unit),
        bound=min(bound, repeats),
        exact=proven,
        solver=solver,
    )


def _points(value: int, unit: int):
    return value // unit if value % unit == 0 else round(value / unit, 6)
