"""Small Samurai Empires statistics over finished tables entered move by move.

Solo tables (the player against the two AIs): the win rate, the win rate by the era after which the player
was first ahead of the AIs together (or never), and the average margin (the player's points less the AIs'
together). Multiplayer tables: the win rate by seat. Pure functions over plain rows: no database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from games.engines.samurai_empires.board import ERAS
from games.plugins import TableRow

NEVER = 0  # "first ahead after era 0": never ahead after an era


def _rate(plays: int, wins: int) -> dict:
    return {"plays": plays, "wins": wins, "win_rate": wins / plays if plays else 0.0}


def first_ahead(breakdown: list[dict]) -> int:
    """The first era after which the player's running total beat the AIs' together; NEVER if none did."""
    player, *ais = sorted(breakdown, key=lambda row: row["party"])
    mine = theirs = 0
    for era in range(len(player["eras"])):
        mine += player["eras"][era]
        theirs += sum(ai["eras"][era] for ai in ais)
        if mine > theirs:
            return era + 1
    return NEVER


def game_stats(rows: Iterable[TableRow]) -> dict:
    solo_plays = solo_wins = 0
    margins: list[int] = []
    era_plays: Counter = Counter()
    era_wins: Counter = Counter()
    tables = 0
    seat_plays: Counter = Counter()
    seat_wins: Counter = Counter()
    for row in rows:
        outcome = row.outcome or {}
        placings = outcome.get("placings") or []
        details = outcome.get("details") or {}
        if not placings:
            continue
        if outcome.get("termination") in ("solo_victory", "solo_defeat"):
            won = bool(details.get("won"))
            solo_plays += 1
            solo_wins += won
            margins.append(int(details.get("player", 0)) - int(details.get("ais", 0)))
            era = first_ahead(details.get("breakdown") or [])
            era_plays[era] += 1
            era_wins[era] += won
            continue
        tables += 1
        for placing in placings:
            seat_plays[placing["seat"]] += 1
            seat_wins[placing["seat"]] += placing["rank"] == 1
    return {
        "solo": {**_rate(solo_plays, solo_wins),
                 "average_margin": sum(margins) / len(margins) if margins else None,
                 "by_era": [{"era": e, **_rate(era_plays[e], era_wins[e])} for e in (*range(1, ERAS + 1), NEVER)
                            if era_plays[e]]},
        "multiplayer": {"tables": tables,
                        "by_seat": [{"seat": s, **_rate(seat_plays[s], seat_wins[s])} for s in sorted(seat_plays)]},
        "tables": tables + solo_plays,
    }


def player_stats(rows: Iterable[tuple]) -> dict:
    """A player's solo record (played, won, average margin) and multiplayer wins, from (position, outcome) rows."""
    solo_plays = solo_wins = tables = wins = 0
    margins = []
    for position, outcome in rows:
        outcome = outcome or {}
        details = outcome.get("details") or {}
        if outcome.get("termination") in ("solo_victory", "solo_defeat"):
            solo_plays += 1
            solo_wins += bool(details.get("won"))
            margins.append(int(details.get("player", 0)) - int(details.get("ais", 0)))
            continue
        tables += 1
        wins += any(p["seat"] == position and p["rank"] == 1 for p in outcome.get("placings") or [])
    return {"tables": tables + solo_plays, "multiplayer": _rate(tables, wins), "solo": _rate(solo_plays, solo_wins),
            "average_margin": sum(margins) / len(margins) if margins else None}
