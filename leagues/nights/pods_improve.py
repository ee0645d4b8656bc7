"""The optimiser's last phase for nights past the exact limit: ejection and re-assignment (issue 37).

Why: the swaps of the local search move one or two players at a time, and a solver stopped by its limit leaves
seat costs unsettled; where several tables each hold two players who want the same seat, no single swap helps
but a chain of moves does. So, round after round, one player is taken from every table and the players taken
are seated again, each at one table, by an exact assignment (OR-Tools' linear sum assignment: every player to
every table at once, by the table's repeats, then its seat cost, then its rating spread). Keeping everyone where
he was is one of the assignments, so a round never makes the split worse; it is kept only when it is strictly
better by the night's whole objective (`split_key`), and never when it breaks a hard rule: a table that breaks
one is no choice of the assignment. Table sizes are kept, so the mix ("fill" or "free") is kept.

Deterministic: the players taken follow their seats and then the night's seed, and the work is a count of
tables scored (`work`), never the clock, so the same night gives the same tables on a loaded machine too.
"""

from __future__ import annotations

import random

from ortools.graph.python import linear_sum_assignment

from .pods_model import Evaluator, sort_key, split_key
from .pods_search import nothing_to_win, polish, resplit_threes

RANDOM_ROUNDS = 6  # rounds of players picked at random after each pass over the seats
QUIET_CYCLES = 2  # the rounds stop after this many passes (seats, then random) without a better split (after a
#                  kick, one)
UNHAPPY_SHARE = 0.7  # of the random picks, those among players not in their cheapest seat
ALTERNATIONS = 6  # ejection rounds and two-table re-splits take turns at most this often
THREES_TABLES = 8  # up to this many tables, every three are also split again exactly (pods_search.resplit_threes)
KICKS = 60  # kicked splits tried at most, while the work lasts
INT_ROOM = 2**62  # the assignment's costs are 64-bit integers: the parts of a key are packed below this


class Work:
    """What is left of a phase's work, in tables scored by the ejection rounds and tries of the local search
    (a re-split of two tables counts as pods_search.RESPLIT_WORK tries): a count, so the same night gives the
    same tables; and, when a proposal's CPU ceiling is given (pods_budget.Cpu), a stop once it is spent, which
    only a slower or loaded machine reaches (a 150-player dense night's rounds took 1.2 s of its 3.9 s)."""

    def __init__(self, left: int, cpu=None):
        self.left, self.cpu = left, cpu

    def done(self) -> bool:
        return self.left <= 0 or (self.cpu is not None and self.cpu.over())


def settle(tables, evaluator: Evaluator, mix: str, work: int, seed: int = 0, cpu=None) -> list[set]:
    """Ejection rounds and the local search's exact two-table re-splits in turn, while either finds better (each
    leaves the other new chances: a chain of moves opens a pair of tables to re-split, and back); then, while
    the work lasts, kicks: a few random swaps that keep the repeats, settled again, kept when better. Stops
    early when no split could be better (no repeats, every player in his cheapest seat)."""
    rng, budget = random.Random(seed), Work(work, cpu)
    best = _alternate(tables, evaluator, mix, budget, rng, QUIET_CYCLES)
    best_key = _key(best, evaluator, mix)
    for _ in range(KICKS):
        if budget.done() or nothing_to_win(best, evaluator):
            break
        trial = _alternate(_kick(best, evaluator, rng), evaluator, mix, budget, rng, 1)
        trial_key = _key(trial, evaluator, mix)
        if trial_key < best_key:
            best, best_key = trial, trial_key
    return best


def _alternate(tables, evaluator: Evaluator, mix: str, budget: Work, rng: random.Random, quiet: int) -> list[set]:
    key = _key(tables, evaluator, mix)
    for turn in range(ALTERNATIONS):
        if budget.done() or nothing_to_win(tables, evaluator):
            break
        tables = _reassign(tables, evaluator, mix, budget, random.Random(rng.randrange(2**31)), quiet)
        evaluator.work_left = 0 if budget.done() else budget.left  # the ceiling spent: no re-splits either
        tables = polish(tables, evaluator, mix)
        if len(tables) <= THREES_TABLES:
            tables = resplit_threes(tables, evaluator, mix)
        budget.left = evaluator.work_left
        new_key = _key(tables, evaluator, mix)
        if new_key >= key and turn:
            break
        key = new_key
    return tables


def _kick(tables, evaluator: Evaluator, rng: random.Random) -> list[set]:
    """A few swaps of two players at random, each kept only if it breaks no rule and adds no repeats."""
    tables = [set(t) for t in tables]
    for _ in range(max(2, len(tables) // 3)):
        a, b = rng.sample(range(len(tables)), 2)
        x, y = rng.choice(sorted(tables[a], key=sort_key)), rng.choice(sorted(tables[b], key=sort_key))
        new_a, new_b = frozenset(tables[a] - {x} | {y}), frozenset(tables[b] - {y} | {x})
        before = _add(evaluator.cheap(frozenset(tables[a])), evaluator.cheap(frozenset(tables[b])))
        if (
            _add(evaluator.cheap(new_a), evaluator.cheap(new_b)) <= before
            and evaluator.fits(new_a)
            and evaluator.fits(new_b)
        ):
            tables[a], tables[b] = set(new_a), set(new_b)
    return tables


def _add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def reassign(tables, evaluator: Evaluator, mix: str, work: int, seed: int = 0) -> list[set]:
    """The split improved by ejection rounds alone, until two passes find nothing or `work` tables have been
    scored. The same tables in, the same tables out."""
    return _reassign([set(t) for t in tables], evaluator, mix, Work(work), random.Random(seed), QUIET_CYCLES)


def _reassign(tables, evaluator: Evaluator, mix: str, budget: Work, rng: random.Random, quiet_cycles: int) -> list[set]:
    if len(tables) < 2:
        return tables
    key = _key(tables, evaluator, mix)
    widest = max(map(len, tables))
    cycle = widest + RANDOM_ROUNDS
    quiet, layer = 0, 0
    while not budget.done() and quiet < quiet_cycles * cycle:
        picks = _picks(tables, evaluator, layer % cycle, rng, widest)
        budget.left -= len(tables) ** 2
        layer += 1
        trial = _round(tables, picks, evaluator)
        if trial is None:
            quiet += 1
            continue
        trial_key = _key(trial, evaluator, mix)
        if trial_key < key:
            tables, key, quiet = trial, trial_key, 0
        else:
            quiet += 1
    return tables


def _key(tables, evaluator: Evaluator, mix: str) -> tuple:
    return split_key([evaluator.score(frozenset(t))[0] for t in tables], [len(t) for t in tables], mix)


def _picks(tables, evaluator: Evaluator, layer: int, rng: random.Random, widest: int) -> list:
    """Who leaves each table this round: first the player in seat `layer` of every table (all the first
    players at once, then all the second...), then one at random from each, by the night's seed, mostly one
    of those not in their cheapest seat where a table has such."""
    picks = []
    for table in tables:
        _key, game, order = evaluator.score(frozenset(table))
        if layer < widest:
            picks.append(order[layer % len(order)])
            continue
        unhappy = [p for s, p in enumerate(order) if evaluator.row(p, game)[s] > _floor(p, evaluator)]
        picks.append(rng.choice(unhappy if unhappy and rng.random() < UNHAPPY_SHARE else sorted(table, key=sort_key)))
    return picks


def _floor(player, evaluator: Evaluator) -> int:
    return min(min(evaluator.row(player, game)) for game in evaluator.accepts(player))


def _round(tables, picks, evaluator: Evaluator) -> list[set] | None:
    """The best re-seating of `picks`, one to each table (None if it is to keep everyone where he was)."""
    rest = [frozenset(t - {p}) for t, p in zip(tables, picks, strict=True)]
    arcs = []
    for i, left in enumerate(rest):
        for j, player in enumerate(picks):
            score = evaluator.score(left | {player})[0]
            if not score[0]:  # a table breaking a hard rule is not offered
                arcs.append((i, j, score[1:]))
    costs = _pack([parts for _i, _j, parts in arcs], len(tables))
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost([i for i, _j, _parts in arcs], [j for _i, j, _parts in arcs], costs)
    if solver.solve() != solver.OPTIMAL:
        return None
    mates = [solver.right_mate(i) for i in range(len(tables))]
    if mates == list(range(len(tables))):
        return None
    return [set(left | {picks[j]}) for left, j in zip(rest, mates, strict=True)]


def _pack(parts: list[tuple], count: int) -> list[int]:
    """Each arc's (repeats, seat cost, spread) as one integer that orders assignments as the tuples' sums do:
    each part's radix above the most `count` arcs can add up to in the parts after it. Where that would pass
    64 bits, the lowest parts lose their last digits (the round is then checked by the exact key anyway)."""
    columns = [list(column) for column in zip(*parts, strict=True)]
    columns = [column for column in columns if any(column)] or [columns[0]]  # (no rating spread: one part less)
    while True:
        radix, total = [], 1
        for column in reversed(columns):
            radix.append(total)
            total *= count * max(column) + 1
        if total < INT_ROOM:
            break
        columns[-1] = [value >> 8 for value in columns[-1]]
        if len(columns) > 1 and not any(columns[-1]):
            columns.pop()
    radix.reverse()
    packed = [value * radix[0] for value in columns[0]]
    for column, r in zip(columns[1:], radix[1:], strict=True):
        packed = [value + part * r for value, part in zip(packed, column, strict=True)]
    return packed


def fewer_tables(tables, evaluator: Evaluator, repeats_may_grow: bool = False) -> list[set]:
    """ "free": the table level of the rule (issue 49). Swaps and moves keep the number of tables, and the local
    search starts from two mixes only, so a split with as few repeats at fewer tables was out of its reach. Here
    a table is dissolved and its players seated one at each of the other tables that may grow by one, by an
    exact assignment (fewest repeats, then seat cost); kept when the repeats do not grow (one table fewer at
    equal repeats is better by the rule). Smallest tables first, until no table can go.
    A table that could not go is not tried again while it is unchanged: the other tables only grow, so its
    players have fewer tables to go to and no cheaper one (the repeats a player adds to a table never fall as
    it grows); trying every table again after each one dissolved took 3-5 s of a 200-player night's CPU.
    `repeats_may_grow`: "fill", where the tables come before the repeats, dissolves a table at any repeats."""
    tables = [set(t) for t in tables]
    stays: set[frozenset] = set()
    while len(tables) > 1:
        for i in sorted(range(len(tables)), key=lambda i: (len(tables[i]), sorted(tables[i], key=sort_key))):
            if frozenset(tables[i]) in stays:
                continue
            merged = _dissolve(tables, i, evaluator, repeats_may_grow)
            if merged is not None:
                tables = merged
                break
            stays.add(frozenset(tables[i]))
        else:
            return tables
    return tables


def _dissolve(tables, i: int, evaluator: Evaluator, repeats_may_grow: bool = False) -> list[set] | None:
    players = sorted(tables[i], key=sort_key)
    receivers = [j for j, t in enumerate(tables) if j != i and len(t) + 1 in evaluator.sizes]
    if len(receivers) < len(players):
        return None
    arcs = []  # (player, receiver, repeats added, seat cost added)
    for a, p in enumerate(players):
        for b, j in enumerate(receivers):
            grown, now = evaluator.cheap(frozenset(tables[j] | {p})), evaluator.cheap(frozenset(tables[j]))
            if grown[0] or (grown[1] > now[1] and not repeats_may_grow):
                continue  # a pair kept apart, or a repeat added: never part of a dissolve that is kept
            score = evaluator.score(frozenset(tables[j] | {p}))[0]
            if not score[0]:
                before = evaluator.score(frozenset(tables[j]))[0]
                arcs.append((a, b, score[1] - before[1], score[2] - before[2]))
    if not arcs:
        return None
    low = min(arc[3] for arc in arcs)
    radix = len(players) * (max(arc[3] for arc in arcs) - low) + 1  # repeats first, then seat cost
    costed = [(a, b, added * radix + seats - low) for a, b, added, seats in arcs]
    costed += [(a, b, 0) for a in range(len(players), len(receivers)) for b in range(len(receivers))]  # nobody
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    solver.add_arcs_with_cost([a for a, _b, _c in costed], [b for _a, b, _c in costed], [c for _a, _b, c in costed])
    if solver.solve() != solver.OPTIMAL:
        return None
    merged = [set(t) for j, t in enumerate(tables) if j != i]
    index = {j: k for k, j in enumerate(j for j in range(len(tables)) if j != i)}
    for a, p in enumerate(players):
        merged[index[receivers[solver.right_mate(a)]]].add(p)
    repeats = sum(evaluator.cheap(frozenset(t))[1] for t in tables)
    if any(evaluator.score(frozenset(t))[0][0] for t in merged):
        return None
    return merged if repeats_may_grow or sum(evaluator.cheap(frozenset(t))[1] for t in merged) <= repeats else None
