"""Seat and faction balance on each game's statistics page (issue 29): is the first seat, the first player, a
general or a clan really favoured?

The counts ride in the game's own stored tally (games.plugins.tally, games/stats_store.py), so the page reads
them in the query it already makes: each plug-in's `stats_table` adds `table_tally(row, adapter)` to its own
part. A table counts when exactly one seat placed first (a shared first place says nothing about who is
favoured); for each dimension (the seat, and what the plug-in names in `GameAdapter.balance_dimensions`:
the turn order of the first round, a general, a clan) it counts, per player count, each key's games and wins,
because the expected rate and the test are per player count (a seat of a 3-player table expects 1/3 of the
wins, of a 5-player table 1/5). `present` turns the counts into the page's rows and sentence with the pure
statistics of games/balance.py (Wilson 95% intervals, the expected rate, the exact or chi-square test).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.balance import MIN_GAMES, Balance, balance_from_counts
from games.plugins import TableRow, tally
from games.plugins.tally import Tally

if TYPE_CHECKING:
    from games.plugins import GameAdapter

PLAYS, WINS = "balance_plays", "balance_wins"  # the tally's names; keys are [dimension, players, key]
SEAT, TURN = "seat", "turn"


def table_tally(row: TableRow, adapter: GameAdapter) -> Tally:
    """One finished table's part of the balance counts (empty for a shared first place, a solo game, or a table
    without placings for every seat)."""
    placings = (row.outcome or {}).get("placings") or []
    n = len(placings)
    seats = sorted(p.get("seat") for p in placings if isinstance(p.get("seat"), int))
    first = [p["seat"] for p in placings if p.get("rank") == 1]
    if n < 2 or seats != list(range(n)) or len(first) != 1:
        return {}
    factions = adapter.balance_factions(row)
    if factions is None:
        return {}
    found: Tally = {}
    for dimension, keys in {SEAT: list(range(n)), **factions}.items():
        if len(keys) != n or any(key is None for key in keys):
            continue  # an older set-up without it: counted in the other dimensions only
        for seat, key in enumerate(keys):
            tally.bump(found, PLAYS, [dimension, n, key])
            tally.bump(found, WINS, [dimension, n, key], seat == first[0])
    return tally.add({}, found)  # drops the zero counts, as adding tallies does


def balances(found: Tally) -> dict[str, Balance]:
    """Each dimension's Balance from the tally's counts."""
    wins = {tuple(tally.unkey(k)): w for k, w in (found.get(WINS) or {}).items()}
    strata: dict[str, dict[int, dict]] = {}
    for k, games in (found.get(PLAYS) or {}).items():
        dimension, n, key = tally.unkey(k)
        strata.setdefault(dimension, {}).setdefault(n, {})[key] = (games, wins.get((dimension, n, key), 0))
    return {dimension: balance_from_counts(counts) for dimension, counts in strata.items()}


def _p(p: float) -> str:
    if p < 0.001:
        return _("p < %(p)s") % {"p": number_format(0.001, 3)}
    places = 2 if p >= 0.1 else 3
    return _("p = %(p)s") % {"p": number_format(round(p, places), places)}  # number_format cuts, not rounds


def _percent(rate: float) -> int:
    return round(100 * rate)


def label(adapter: GameAdapter, dimension: str, key) -> str:
    if dimension == SEAT:
        return _("Seat %(n)d") % {"n": key + 1}
    if dimension == TURN:
        return _("First player") if key == 0 else _("No. %(n)d in turn order") % {"n": key + 1}
    return adapter.balance_label(dimension, key)


METHODS = {
    "chi-square": lambda: _("Pearson’s χ² test (enough games for every player count)."),
    "exact": lambda: _("Exact multinomial test (too few games for the chi-square approximation)."),
    "exact and chi-square": lambda: _(
        "Exact multinomial test for the player counts with few games, Pearson’s χ² for the others."
    ),
}


def sentence(adapter: GameAdapter, dimension: str, balance: Balance) -> str:
    """The verdict in words: 'not enough games to tell', 'Seat 1 wins more often than chance would give: p = 0.01',
    or that the differences are within chance."""
    if balance.p_value is None:
        return ngettext(
            "Not enough games to tell (%(games)d game with one winner; the test needs at least %(min)d "
            "and, for chosen factions, at least 5 expected wins each).",
            "Not enough games to tell (%(games)d games with one winner; the test needs at least %(min)d "
            "and, for chosen factions, at least 5 expected wins each).",
            balance.games,
        ) % {"games": balance.games, "min": MIN_GAMES}
    if balance.verdict == "uneven":
        return _("%(label)s wins more often than chance would give: %(p)s.") % {
            "label": label(adapter, dimension, balance.most_favoured.key),
            "p": _p(balance.p_value),
        }
    return _("The differences are within what chance gives: %(p)s.") % {"p": _p(balance.p_value)}


def present(adapter: GameAdapter, found: Tally) -> list[dict]:
    """The statistics page's balance sections, in the reader's language: the seat first, then the game's own."""
    found_balances = balances(found)
    titles = {SEAT: _("Balance by seat"), **{d: str(t) for d, t in adapter.balance_dimensions.items()}}
    sections = []
    for dimension, title in titles.items():
        balance = found_balances.get(dimension)
        if balance is None:
            continue
        sections.append(
            {
                "dimension": dimension,
                "title": title,
                "games": balance.games,
                "rows": [
                    {
                        "label": label(adapter, dimension, row.key),
                        "games": row.games,
                        "wins": row.wins,
                        "percent": _percent(row.rate),
                        "low": _percent(row.low),
                        "high": _percent(row.high),
                        "expected": _percent(row.expected),
                    }
                    for row in balance.rows
                ],
                "sentence": sentence(adapter, dimension, balance),
                "verdict": balance.verdict,
                "method": METHODS[balance.method]() if balance.method else "",
            }
        )
    return sections
