"""The rule's levels, each with its value and a proven lower bound (issue 49): repeats; the tables (in "fill" the
mix, the fewest and most even tables; in "free" the fewest tables at those repeats); the seat cost.

Why: an answer says how far from the best it can be at every level, not only in repeats, and whether it is
proven optimal. The bounds are the solver's where it proved one, else counting arguments that hold for any
split: the fewest tables the sizes allow, and every player in his cheapest seat of his cheapest game.
"""

from __future__ import annotations

import math

from .pods_model import SCALE, Evaluator


def levels(tables, evaluator: Evaluator, players, repeats_bound: int, proven: bool, mix_proven: bool) -> dict:
    """{level: {"value", "bound", "proven"}} in the rule's order, figures in the optimiser's units (repeats and
    seat cost as the proposal states them, tables as a count)."""
    repeats = sum(evaluator.cheap(frozenset(t))[1] for t in tables)
    seats = sum(evaluator.score(frozenset(t))[0][2] for t in tables)
    floor = sum(min(min(evaluator.row(p, g)) for g in evaluator.accepts(p)) for p in players)
    fewest = math.ceil(len(players) / max(evaluator.sizes)) if players else 0
    table_bound = len(tables) if (mix_proven and evaluator.night.mix == "fill") or proven else fewest
    seat_bound = seats if proven else min(floor, seats)
    found = {
        "repeats": (repeats, min(repeats, repeats_bound)),
        "tables": (len(tables), table_bound),
        "seat_cost": (seats, seat_bound),
    }
    out = {}
    for name, (value, bound) in found.items():
        scale = 1 if name == "tables" else SCALE
        out[name] = {"value": round(value / scale, 6), "bound": round(bound / scale, 6), "proven": value <= bound}
    return out
