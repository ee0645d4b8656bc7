"""Teikoku statistics from finished tables entered move by move: win rate by clan and by seat, victories by
kind (aggression, attrition, longevity; shared ones counted apart) and the game's length in seasons.

Pure functions over plain rows (set-up, outcome), so they need no database; `games.selectors.game_stats`
reads the rows. A seat wins when it is ranked first, so every winner of a shared victory wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.engines.teikoku.rules import CLANS, SEASONS
from games.engines.teikoku.victory import TERMINATIONS
from games.plugins import TableRow


def seasons_played(details: dict) -> int | None:
    """The season the game ended in, counted from Winter of year 1 (= 1)."""
    year, season = details.get("year"), details.get("season")
    if not isinstance(year, int) or season not in SEASONS:
        return None
    return 4 * (year - 1) + SEASONS.index(season) + 1


def _rates(keys: Iterable, plays: Counter, wins: Counter) -> list[dict]:
    return [{"key": key, "plays": plays[key], "wins": wins[key], "win_rate": wins[key] / plays[key]}
            for key in keys if plays[key]]


def game_stats(rows: Iterable[TableRow]) -> dict:
    tables = 0
    plays = {"clan": Counter(), "seat": Counter()}
    wins = {"clan": Counter(), "seat": Counter()}
    victories: Counter = Counter()
    shared: Counter = Counter()
    lengths: list[int] = []
    by_players: Counter = Counter()
    for row in rows:
        outcome = row.outcome or {}
        placings = outcome.get("placings") or []
        clans = (row.setup or {}).get("clans") or []
        if not placings or len(clans) != len(placings):
            continue
        tables += 1
        by_players[len(clans)] += 1
        details = outcome.get("details") or {}
        termination = outcome.get("termination")
        victories[termination] += 1
        if details.get("shared"):
            shared[termination] += 1
        length = seasons_played(details)
        if length is not None:
            lengths.append(length)
        for placing in placings:
            seat = placing.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(clans):
                continue
            won = placing.get("rank") == 1
            for group, key in (("clan", clans[seat]), ("seat", seat)):
                plays[group][key] += 1
                wins[group][key] += won
    return {
        "tables": tables,
        "by_clan": _rates(CLANS, plays["clan"], wins["clan"]),
        "by_seat": _rates(sorted(plays["seat"]), plays["seat"], wins["seat"]),
        "victories": [{"kind": kind, "tables": victories[kind], "shared": shared[kind]}
                      for kind in TERMINATIONS if victories[kind]],
        "length": {
            "average": sum(lengths) / len(lengths) if lengths else None,
            "shortest": min(lengths, default=None),
            "longest": max(lengths, default=None),
            "histogram": sorted(Counter(lengths).items()),
        },
        "by_players": [{"players": n, "tables": by_players[n]} for n in sorted(by_players)],
    }
