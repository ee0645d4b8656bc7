"""A season's rows and their tallies: games played, points, wins, seconds, opponents' points and margins.

Pure Python, no Django; see the package docstring (leagues/standings/__init__.py) for the rules they count.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from .points import _shares, competition_ranks

HeadToHead = Callable[[Hashable, Hashable], int]


class Entry(NamedTuple):
    player: Hashable
    rank: int
    score: float | None = None


class Game(NamedTuple):
    entries: tuple[Entry, ...]


@dataclass(slots=True)
class Row:
    player: Hashable
    points: Fraction = Fraction(0)  # exact: see place_points
    games: int = 0
    wins: int = 0
    seconds: int = 0
    opponents_points: Fraction = Fraction(0)
    margin: float | None = None
    ranked: bool = True
    position: int | None = None
    separated_by: str = ""
    margin_sum: float = 0.0  # the margins of the games with scores, summed, and how many: margin is their mean
    margin_games: int = 0
    sort_key: bytes = b""  # the row's place in the table: see rank_rows


def _tally(games: Iterable[Sequence[tuple]], scheme: str, custom: Mapping | None) -> dict[Hashable, Row]:
    """Rows from games given as sequences of (player, rank, score); margins as `_margins` gives them."""
    rows: dict[Hashable, Row] = {}
    games = games if isinstance(games, list) else list(games)
    shares_by_ranks, unit = _shares_in_units(games, scheme, custom)
    for game in games:
        shares, places = shares_by_ranks[tuple([e[1] for e in game])]
        scores = [e[2] for e in game]
        if None in scores:
            scored = [s for s in scores if s is not None]
            total, others = sum(scored), len(scored) - 1
        else:
            total, others = sum(scores), len(scores) - 1
        for (player, _rank, score), share, place in zip(game, shares, places):  # noqa: B905 (same lengths)
            row = rows.get(player)
            if row is None:
                row = rows[player] = Row(player, 0, opponents_points=0)
            row.games += 1
            row.points += share
            if place == 1:
                row.wins += 1
            elif place == 2:
                row.seconds += 1
            if score is not None and others > 0:
                row.margin_sum += score - (total - score) / others
                row.margin_games += 1
    _add_opponents_points(games, rows)
    for row in rows.values():
        row.margin = row.margin_sum / row.margin_games if row.margin_games else None
        row.points = Fraction(row.points, unit)
        row.opponents_points = Fraction(row.opponents_points, unit)
    return rows


def _shares_in_units(
    games: list[Sequence[tuple]], scheme: str, custom: Mapping | None
) -> tuple[dict[tuple, tuple[tuple[int, ...], list[int]]], int]:
    """Each finishing order of the games -> (its places' points as integers in units of 1/unit, its places),
    and that unit.

    Points are summed exactly, as integers in units of 1/unit (the common denominator of every share the
    season's finishing orders give), which is as fast as floats; rows get their Fractions at the end."""
    exact_shares = {ranks: _shares(ranks, scheme, custom) for ranks in {tuple([e[1] for e in g]) for g in games}}
    unit = math.lcm(*(share.denominator for shares in exact_shares.values() for share in shares))
    shares_by_ranks = {
        ranks: (tuple([int(share * unit) for share in shares]), competition_ranks(ranks))
        for ranks, shares in exact_shares.items()
    }
    return shares_by_ranks, unit


def _add_opponents_points(games: list[Sequence[tuple]], rows: dict[Hashable, Row]) -> None:
    """Each player's opponents' points: over their games, the points (the season's, in units) of everyone they
    sat with. A second pass, once every row's points are summed."""
    for game in games:
        players = [rows[e[0]] for e in game]
        total = sum([row.points for row in players])
        for row in players:
            row.opponents_points += total - row.points


def _head_to_head_in(games: Sequence[Sequence[tuple]]) -> HeadToHead:
    """head_to_head(a, b) over these games: positive when a finished ahead of b more often than the reverse."""
    by_player: dict[Hashable, list[int]] = {}

    def head_to_head(a: Hashable, b: Hashable) -> int:
        if not by_player:
            for index, game in enumerate(games):
                for player, _rank, _score in game:
                    games_of = by_player.get(player)
                    if games_of is None:
                        by_player[player] = [index]
                    else:
                        games_of.append(index)
        balance = 0
        for index in by_player.get(a, ()):
            ranks = {e[0]: e[1] for e in games[index]}
            if b in ranks:
                balance += (ranks[a] < ranks[b]) - (ranks[b] < ranks[a])
        return balance

    return head_to_head
