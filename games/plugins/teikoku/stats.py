"""Teikoku statistics from finished tables entered move by move: win rate by clan and by seat, victories by
kind (aggression, attrition, longevity; shared ones counted apart) and the game's length in seasons.

Pure functions over plain rows (set-up, outcome), so they need no database. The count is additive
(games.plugins.tally): each table's part (`table_tally`) adds up to the game's tally, which `present` turns into
the page's figures; the site keeps the public tables' tally stored (games/stats_store.py). A seat wins when it
is ranked first, so every winner of a shared victory wins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.engines.teikoku.rules import CLANS, SEASONS
from games.engines.teikoku.victory import TERMINATIONS
from games.plugins import TableRow, tally
from games.plugins.tally import Tally


def seasons_played(details: dict) -> int | None:
    """The season the game ended in, counted from Winter of year 1 (= 1)."""
    year, season = details.get("year"), details.get("season")
    if not isinstance(year, int) or season not in SEASONS:
        return None
    return 4 * (year - 1) + SEASONS.index(season) + 1


def _rates(keys: Iterable, plays: Counter, wins: Counter) -> list[dict]:
    return [
        {"key": key, "plays": plays[key], "wins": wins[key], "win_rate": wins[key] / plays[key]}
        for key in keys
        if plays[key]
    ]


def table_tally(row: TableRow) -> Tally:
    """One finished table's part of the statistics (games.plugins.tally): plays and wins by clan and seat,
    victories by kind (and shared ones), the game's length by number of seasons, tables by number of players."""
    outcome = row.outcome or {}
    placings = outcome.get("placings") or []
    clans = (row.setup or {}).get("clans") or []
    if not placings or len(clans) != len(placings):
        return {}
    found: Tally = {"tables": 1}
    tally.bump(found, "by_players", len(clans))
    details = outcome.get("details") or {}
    termination = outcome.get("termination")
    tally.bump(found, "victories", termination)
    if details.get("shared"):
        tally.bump(found, "shared", termination)
    length = seasons_played(details)
    if length is not None:
        tally.bump(found, "lengths", length)
    for placing in placings:
        seat = placing.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(clans):
            continue
        won = placing.get("rank") == 1
        for group, key in (("clan", clans[seat]), ("seat", seat)):
            tally.bump(found, f"plays_{group}", key)
            tally.bump(found, f"wins_{group}", key, won)
    return tally.add({}, found)  # drops the zero counts, as adding tallies does


def present(found: Tally) -> dict:
    plays = {group: tally.counter(found, f"plays_{group}") for group in ("clan", "seat")}
    wins = {group: tally.counter(found, f"wins_{group}") for group in ("clan", "seat")}
    victories, shared = tally.counter(found, "victories"), tally.counter(found, "shared")
    lengths, by_players = tally.counter(found, "lengths"), tally.counter(found, "by_players")
    played = sum(lengths.values())
    return {
        "tables": found.get("tables", 0),
        "by_clan": _rates(CLANS, plays["clan"], wins["clan"]),
        "by_seat": _rates(sorted(plays["seat"]), plays["seat"], wins["seat"]),
        "victories": [
            {"kind": kind, "tables": victories[kind], "shared": shared[kind]}
            for kind in TERMINATIONS
            if victories[kind]
        ],
        "length": {
            "average": sum(length * n for length, n in lengths.items()) / played if played else None,
            "shortest": min(lengths, default=None),
            "longest": max(lengths, default=None),
            "histogram": sorted(lengths.items()),
        },
        "by_players": [{"players": n, "tables": by_players[n]} for n in sorted(by_players)],
    }
