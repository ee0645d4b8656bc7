"""Shitennō statistics from finished tables entered move by move (issue 5): win rate by general, by
starting title and by seat, the average winning score, and where favour comes from (the final count's
breakdown: kamon placements, title bonuses, majorities, koku and bonus tiles).

Pure functions over plain rows, so they need no database. The count is additive (games.plugins.tally): each
table's part (`table_tally`) adds up to the game's tally, which `present` turns into the page's figures; the
site keeps the public tables' tally stored (games/stats_store.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from games.engines.shitenno.board import GENERALS, TITLE_NAMES, TITLES
from games.plugins import TableRow, tally
from games.plugins.tally import Tally

# The final count's parts (scoring.final_count's breakdown), grouped as a player thinks of them.
FAVOUR_SOURCES: dict[str, tuple[str, ...]] = {
    "placements": ("positions", "favour_before_count"),
    "title_bonus": ("title_bonus",),
    "majorities": ("majority_points",),
    "kokus": ("kokus",),
    "tiles": ("exchange_tiles", "plus_one_tiles"),
}


def _generals(setup: dict) -> list[str]:
    return [p.get("general") for p in setup.get("players", [])]


def _rate(plays: int, wins: int) -> dict:
    return {"plays": plays, "wins": wins, "win_rate": wins / plays if plays else 0.0}


def _rates(keys: Iterable, plays: Counter, wins: Counter) -> list[dict]:
    return [{"key": key, **_rate(plays[key], wins[key])} for key in keys if plays[key]]


def table_tally(row: TableRow) -> Tally:
    """One finished table's part of the statistics (games.plugins.tally): plays and wins by general, starting
    title and seat, tables by number of players, winning scores by value, and favour by source over every seat
    and over the winners' seats. A table without placings for each general counts nothing."""
    placings = (row.outcome or {}).get("placings") or []
    generals = _generals(row.setup)
    if not placings or len(generals) != len(placings):
        return {}
    titles = row.setup.get("titles") or {}
    breakdown = {b.get("seat"): b for b in (row.outcome.get("details") or {}).get("breakdown", [])}
    found: Tally = {"tables": 1, "seats": 0, "seats_won": 0}
    tally.bump(found, "by_players", len(generals))
    for placing in placings:
        seat = placing["seat"]
        won = placing["rank"] == 1
        for kind, key in (("general", generals[seat]), ("title", titles.get(generals[seat])), ("seat", seat)):
            tally.bump(found, f"plays_{kind}", key)
            tally.bump(found, f"wins_{kind}", key, won)
        parts = breakdown.get(seat, {})
        by_source = {name: sum(parts.get(k, 0) for k in fields) for name, fields in FAVOUR_SOURCES.items()}
        found["seats"] += 1
        for name, favour in by_source.items():
            tally.bump(found, "sources_all", name, favour)
        if won:
            tally.bump(found, "winning_scores", placing.get("score") or 0)
            found["seats_won"] += 1
            for name, favour in by_source.items():
                tally.bump(found, "sources_won", name, favour)
    return tally.add({}, found)  # drops the zero counts, as adding tallies does


def present(found: Tally) -> dict:
    """Win rates by general, starting title and seat; the winners' average favour; favour by source.

    A seat wins when it is ranked first. Favour sources are averaged over every seat played and over
    the winners' seats; `share` is each source's part of all favour scored.
    """
    plays = {kind: tally.counter(found, f"plays_{kind}") for kind in ("general", "title", "seat")}
    wins = {kind: tally.counter(found, f"wins_{kind}") for kind in ("general", "title", "seat")}
    by_players = tally.counter(found, "by_players")
    winning_scores = tally.counter(found, "winning_scores")
    sources_all = tally.counter(found, "sources_all")
    sources_won = tally.counter(found, "sources_won")
    seats_played, seats_won = found.get("seats", 0), found.get("seats_won", 0)
    winners = sum(winning_scores.values())
    total_favour = sum(sources_all.values())
    return {
        "tables": found.get("tables", 0),
        "seats": seats_played,
        "by_players": [{"players": n, "tables": by_players[n]} for n in sorted(by_players)],
        "by_general": _rates(GENERALS, plays["general"], wins["general"]),
        "by_title": _rates(TITLES, plays["title"], wins["title"]),
        "by_seat": _rates(sorted(plays["seat"]), plays["seat"], wins["seat"]),
        "average_winning_score": (sum(score * n for score, n in winning_scores.items()) / winners if winners else None),
        "best_winning_score": max(winning_scores, default=None),
        "favour_sources": [
            {
                "source": name,
                "average": sources_all[name] / seats_played if seats_played else 0.0,
                "winners_average": sources_won[name] / seats_won if seats_won else 0.0,
                "share": sources_all[name] / total_favour if total_favour else 0.0,
            }
            for name in FAVOUR_SOURCES
        ],
    }


def player_shitenno_stats(seats: Iterable[tuple[int, dict, Sequence[str] | None]]) -> dict:
    """A player's favourite general (most played) and the titles he held most, from his seats.

    `seats` are (position, setup, last-year titles by seat or None). Starting titles come from the
    set-up; the titles held in the last year, when known, count too. Ties go to the board's order.
    """
    generals: Counter = Counter()
    starting: Counter = Counter()
    last_year: Counter = Counter()
    tables = 0
    for position, setup, last_titles in seats:
        names = _generals(setup)
        if not 0 <= position < len(names):
            continue
        tables += 1
        general = names[position]
        generals[general] += 1
        if (dealt := (setup.get("titles") or {}).get(general)) in TITLES:
            starting[dealt] += 1
        if last_titles and position < len(last_titles) and last_titles[position] in TITLES:
            last_year[last_titles[position]] += 1
    held = starting + last_year

    def most(counter: Counter, order: Sequence[str]) -> str | None:
        return max(order, key=lambda k: (counter[k], -order.index(k))) if counter else None

    favourite, title = most(generals, list(GENERALS)), most(held, list(TITLES))
    return {
        "tables": tables,
        "favourite_general": favourite,
        "favourite_general_name": GENERALS.get(favourite, ""),
        "favourite_general_tables": max(generals.values(), default=0),
        "generals": [{"key": g, "name": GENERALS[g], "tables": generals[g]} for g in GENERALS if generals[g]],
        "title_held_most": title,
        "title_held_most_name": TITLE_NAMES.get(title, ""),
        "titles": [
            {"key": t, "name": TITLE_NAMES[t], "starting": starting[t], "last_year": last_year[t], "held": held[t]}
            for t in TITLES
            if held[t]
        ],
    }


def balance_factions(row: TableRow) -> dict[str, list]:
    """Each seat's place in the first year's turn order (the starting titles, highest first: 0 is the first
    player) and its general, for the balance counts (games/balance_stats.py). A set-up without a title for every
    general gives no turn order."""
    generals = _generals(row.setup or {})
    titles = (row.setup or {}).get("titles") or {}
    held = [titles.get(general) for general in generals]
    if not all(title in TITLES for title in held) or len(set(held)) != len(held):
        return {"general": generals}
    order = sorted(range(len(held)), key=lambda seat: TITLES.index(held[seat]))
    return {"turn": [order.index(seat) for seat in range(len(held))], "general": generals}
