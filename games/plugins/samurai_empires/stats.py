"""Small Samurai Empires statistics over finished tables entered move by move.

Solo tables (the player against the two AIs): the win rate, the win rate by the era after which the player
was first ahead of the AIs together (or never), and the average margin (the player's points less the AIs'
together). Multiplayer tables: the win rate by seat. Pure functions over plain rows: no database. The count is
additive (games.plugins.tally): each table's part (`table_tally`) adds up to the game's tally, which `present`
turns into the page's figures; the site keeps the public tables' tally stored (games/stats_store.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from games.engines.samurai_empires.board import ERAS
from games.plugins import TableRow, tally
from games.plugins.tally import Tally

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


def table_tally(row: TableRow) -> Tally:
    """One finished table's part of the statistics (games.plugins.tally). A solo table: played, won, the
    margin's sum, and plays and wins by the era the player was first ahead after; a multiplayer table: plays
    and wins by seat."""
    outcome = row.outcome or {}
    placings = outcome.get("placings") or []
    details = outcome.get("details") or {}
    if not placings:
        return {}
    if outcome.get("termination") in ("solo_victory", "solo_defeat"):
        won = bool(details.get("won"))
        era = first_ahead(details.get("breakdown") or [])
        found: Tally = {
            "solo_plays": 1,
            "solo_wins": int(won),
            "solo_margin": int(details.get("player", 0)) - int(details.get("ais", 0)),
        }
        tally.bump(found, "era_plays", era)
        tally.bump(found, "era_wins", era, won)
        return tally.add({}, found)  # drops the zero counts, as adding tallies does
    found = {"tables": 1}
    for placing in placings:
        tally.bump(found, "seat_plays", placing["seat"])
        tally.bump(found, "seat_wins", placing["seat"], placing["rank"] == 1)
    return tally.add({}, found)


def present(found: Tally) -> dict:
    solo_plays, solo_wins, tables = found.get("solo_plays", 0), found.get("solo_wins", 0), found.get("tables", 0)
    era_plays, era_wins = tally.counter(found, "era_plays"), tally.counter(found, "era_wins")
    seat_plays, seat_wins = tally.counter(found, "seat_plays"), tally.counter(found, "seat_wins")
    return {
        "solo": {
            **_rate(solo_plays, solo_wins),
            "average_margin": found.get("solo_margin", 0) / solo_plays if solo_plays else None,
            "by_era": [
                {"era": e, **_rate(era_plays[e], era_wins[e])} for e in (*range(1, ERAS + 1), NEVER) if era_plays[e]
            ],
        },
        "multiplayer": {
            "tables": tables,
            "by_seat": [{"seat": s, **_rate(seat_plays[s], seat_wins[s])} for s in sorted(seat_plays)],
        },
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
    return {
        "tables": tables + solo_plays,
        "multiplayer": _rate(tables, wins),
        "solo": _rate(solo_plays, solo_wins),
        "average_margin": sum(margins) / len(margins) if margins else None,
    }


def balance_factions(row: TableRow) -> dict[str, list] | None:
    """Each seat's place in the first era's turn order (the set-up's, or seat order; 0 plays first), for the
    balance counts (games/balance_stats.py); None for a solo game (one player against the AIs: no seats to
    compare)."""
    outcome = row.outcome or {}
    if outcome.get("termination") in ("solo_victory", "solo_defeat") or (row.setup or {}).get("mode") == "solo":
        return None
    n = len(outcome.get("placings") or [])
    order = (row.setup or {}).get("turn_order") or list(range(n))
    if sorted(order) != list(range(n)):
        return {}
    return {"turn": [order.index(seat) for seat in range(n)]}
