"""Splitting a league night's checked-in players into tables (issues 25 and 37), without Django.

Why a module of its own: the web feature, `manage.py pods` and `bench/league_nights.py` must get the same answer
from the same function (`propose`), and the tests must be able to check it without a database.

One objective for every night size, compared as a tuple (never folded into weights), chosen by ``Night.mix``:
- ``"fill"`` (the default, a club wants full tables): the fewest tables the players and games allow, as even as
  possible (the smallest sum of squared table sizes: 13 players at sizes 3-4 sit 4+3+3+3), then ``repeats``, then
  ``seat_cost``;
- ``"free"``: any sizes of ``table_sizes``: ``repeats`` first, then the fewest tables, then ``seat_cost``.
``repeats``: for every pair seated together, how often they already met (the caller weights tonight's earlier
rounds higher); ``seat_cost``: Tabbycat's Rényi-style cost of each player's seat given his seats in that game
(seat 0 is the first player); optionally the rating spread last (off unless ``rating_weight`` > 0).
Hard rules: table sizes (per game), the games each player accepts, forbidden pairs. Locked tables are checked by
the same rules, kept as given, and counted in the reported figures.

How (leagues/nights/pods_search.py and pods_solver.py): nights of up to ``EXACT_LIMIT`` free players are solved
exactly by a dynamic programme over subsets; larger ones by a deterministic local search whose split warm-starts
OR-Tools (set partitioning by CBC while the possible tables can be listed, about 20 players; else CP-SAT on an
assignment model of the same objective, up to 80 players) for at most ``Night.time_budget`` seconds on one core.
Feasibility comes first (issue 49): when the local search finds no split (or, "fill", not in the plain mix), a
complete search of the hard rules alone (leagues/nights/pods_feasible.py, CP-SAT) finds one or proves there is
none, so "no split" is said only with that proof, in words; the solver states a proven lower bound on
``repeats`` (``Proposal.bound``). When the warm start's repeats already meet that bound, the
solver is not asked. An answer not proven optimal is settled last by ejection rounds and kicks
(leagues/nights/pods_improve.py), which count their work rather than time it.
"""

from __future__ import annotations

from . import pods_search
from .pods_json import night_from_json
from .pods_levels import levels
from .pods_model import (
    DEFAULT_GAME,
    EXACT_LIMIT,
    MAX_PLAYERS,
    MAX_TABLE_SIZE,
    MIXES,
    RENYI_ORDER,
    SCALE,
    TIME_BUDGET,
    Evaluator,
    Night,
    PodsError,
    Proposal,
    Table,
    check,
    fill_mix,
    reachable,
    repeats_lower_bound,
    seat_cost,
    split_key,
    table_key,
)


def propose(night: Night) -> Proposal:
    """The best split of tonight's free players into tables by the night's mix, the locked tables kept first."""
    free = check(night)
    evaluator = Evaluator(night)
    split: list | None
    solver: dict[str, object]
    if not free:
        split, bound, exact, solver = [], 0, True, {"method": "none"}
    elif len(free) <= EXACT_LIMIT:
        split = pods_search.exact(free, evaluator, night.mix)
        if split is None:
            raise pods_search.why_infeasible(
                night, free, lambda relaxed: pods_search.exact(free, Evaluator(relaxed), "free") is not None
            )
        repeats = sum(evaluator.score(t)[0][1] for t in split)
        bound, exact, solver = (
            repeats,
            True,
            {"method": "exact", "status": "OPTIMAL", "levels": levels(split, evaluator, free, repeats, True, True)},
        )
    else:
        from . import pods_solver  # OR-Tools (about 0.7 s) loads on the first night past the exact limit only

        split, bound, exact, solver = pods_solver.solve(free, evaluator, night)
    return _proposal(night, evaluator, split, bound, exact, solver)


def _proposal(night, evaluator, split, bound, exact, solver) -> Proposal:
    tables = [Table(tuple(t.players), t.game, locked=True) for t in night.locked]
    repeats = sum(evaluator.cheap(frozenset(t.players))[1] for t in night.locked)
    seats = sum(evaluator.seated_cost(t) for t in night.locked)
    spread = 0
    locked_repeats = repeats
    for members in split:
        key, game, order = evaluator.score(frozenset(members))
        if key[0]:
            raise AssertionError("a split breaking a hard rule reached the answer")
        repeats, seats, spread = repeats + key[1], seats + key[2], spread + key[3]
        tables.append(Table(order, game))
    return Proposal(
        tables=tuple(tables),
        repeats=round(repeats / SCALE, 6),
        seat_cost=round(seats / SCALE, 6),
        rating_spread=round(spread / SCALE, 6),
        exact=exact,
        bound=round((bound + locked_repeats) / SCALE, 6),
        solver=solver,
    )


# The optimiser's names as callers know them (`pods.Night`, `pods.PodsError`...): the model lives in pods_model.
__all__ = [
    "DEFAULT_GAME",
    "EXACT_LIMIT",
    "MAX_PLAYERS",
    "MAX_TABLE_SIZE",
    "MIXES",
    "RENYI_ORDER",
    "SCALE",
    "TIME_BUDGET",
    "Evaluator",
    "Night",
    "PodsError",
    "Proposal",
    "Table",
    "check",
    "fill_mix",
    "night_from_json",
    "propose",
    "reachable",
    "repeats_lower_bound",
    "seat_cost",
    "split_key",
    "table_key",
]
