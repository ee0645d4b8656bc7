"""A season's table: placement points and the ordered tie-breakers. Pure Python, no Django.

Points schemes (points by finishing place, for the number of players at the table):
- "3-2-1-0": 3-2-1-0 at four players, 3-1.5-0 at three. In general the places are spaced evenly from
  3 down to 0, so two players score 3-0 and five 3-2.25-1.5-0.75-0.
- "7-5-3-1": 7-5-3-1 at four, 7-4-1 at three; evenly from 7 down to 1 likewise.
- "percent": the percentage of opponents beaten (100 for a win, 0 for last).
- "custom": points by place for each player count, e.g. {"4": [4, 2, 1, 0], "3": [4, 2, 0]}; a count
  with no list is spaced evenly between the first and last values of the longest list.
Tied players share the places they cover: each scores the average of those places' points (so a tie
counts as half an opponent beaten).

Tie-breakers, applied in the season's order to players still level:
- "points": placement points; "wins": first places (shared firsts count);
- "countback": more first places, then more second places;
- "opponents_points": the sum, over every game played, of each opponent's season points;
- "head_to_head": only when exactly two players are level: who finished ahead of the other more often
  in the games they both played;
- "margin": average score margin, a game's margin being own score minus the opponents' average score
  (games without scores are left out).
Players level on every tie-breaker share a position. For each row after the first, `separated_by`
names the tie-breaker that put it below the row above ("" when they are tied). Players short of the
season's minimum games follow, unranked, by games then points.

Two ways to the same table: `standings(games)` from all the season's games, and `apply_game(rows, game,
co_play)` that folds one more game into a stored table without the other games: only the new game's
players' tallies change, and the opponents' points of everyone who ever shared a game with them, since
opponents_points(p) = sum over o of n(p, o) * points(o), n(p, o) being the games p and o shared. Both
order the rows with `rank_rows`. Floating-point sums differ between the two by rounding only (far below
the 1e-9 the tie-breakers compare to).
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import NamedTuple

SCHEMES = ("3-2-1-0", "7-5-3-1", "percent", "custom")
TIE_BREAKERS = ("points", "wins", "countback", "opponents_points", "head_to_head", "margin")
DEFAULT_TIE_BREAKERS = list(TIE_BREAKERS)
_SPAN = {"3-2-1-0": (3.0, 0.0), "7-5-3-1": (7.0, 1.0), "percent": (100.0, 0.0)}

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
    points: float = 0.0
    games: int = 0
    wins: int = 0
    seconds: int = 0
    opponents_points: float = 0.0
    margin: float | None = None
    ranked: bool = True
    position: int | None = None
    separated_by: str = ""
    margin_sum: float = 0.0  # the margins of the games with scores, summed, and how many: margin is their mean
    margin_games: int = 0


def _even(top: float, bottom: float, count: int) -> list[float]:
    if count == 1:
        return [top]
    step = (top - bottom) / (count - 1)
    return [top - step * i for i in range(count)]


def place_points(scheme: str, count: int, custom: Mapping[str, Sequence[float]] | None = None) -> list[float]:
    """Points for places 1..count at a table of `count` players."""
    if scheme in _SPAN:
        return _even(*_SPAN[scheme], count)
    if scheme != "custom":
        raise ValueError(f"Unknown points scheme {scheme!r}.")
    custom = custom or {}
    if str(count) in custom:
        return [float(p) for p in custom[str(count)]]
    if not custom:
        return [0.0] * count
    longest = max(custom.values(), key=len)
    return _even(float(longest[0]), float(longest[-1]), count)


def _shares(ranks: tuple[int, ...], scheme: str, custom: Mapping | None) -> tuple[float, ...]:
    """Each entry's points, in the entries' order, from their ranks: tied entries average their places."""
    table = place_points(scheme, len(ranks), custom)
    ordered = sorted(ranks)
    shares = []
    for rank in ranks:
        i, j = bisect_left(ordered, rank), bisect_right(ordered, rank)
        shares.append(sum(table[i:j]) / (j - i))
    return tuple(shares)


def _margins(scores: Sequence[float | None]) -> list[float | None]:
    """Each entry's margin in one game: own score minus the other scores' average (None without scores)."""
    scored = [s for s in scores if s is not None]
    if len(scored) < 2:
        return [None] * len(scores)
    total, others = sum(scored), len(scored) - 1
    return [None if s is None else s - (total - s) / others for s in scores]


def game_points(game: Game, scheme: str, custom: Mapping[str, Sequence[float]] | None = None) -> dict:
    """Each player's points for one game; tied players average the places they cover."""
    shares = _shares(tuple(e.rank for e in game.entries), scheme, custom)
    return {entry.player: share for entry, share in zip(game.entries, shares, strict=True)}


def validate_rules(*, scheme: str, custom: Mapping, tie_breakers: Sequence[str]) -> dict[str, str]:
    """Field errors for a season's rules (empty when they are sound)."""
    errors: dict[str, str] = {}
    if scheme not in SCHEMES:
        errors["points_scheme"] = f"Choose one of {', '.join(SCHEMES)}."
    if scheme == "custom":
        if not isinstance(custom, Mapping) or not custom:
            errors["custom_points"] = 'Give points by place for each player count, e.g. {"4": [4, 2, 1, 0]}.'
        else:
            for count, table in custom.items():
                numbers = isinstance(table, list) and all(
                    isinstance(p, int | float) and not isinstance(p, bool) for p in table
                )
                if not str(count).isdigit() or not numbers or len(table) != int(count) or int(count) < 1:
                    errors["custom_points"] = f"Player count {count} needs a list of {count} numbers."
                    break
    unknown = [name for name in tie_breakers if name not in TIE_BREAKERS]
    if unknown or len(set(tie_breakers)) != len(tie_breakers):
        errors["tie_breakers"] = f"Use each of {', '.join(TIE_BREAKERS)} at most once."
    return errors


def _tally(games: Iterable[Sequence[tuple]], scheme: str, custom: Mapping | None) -> dict[Hashable, Row]:
    """Rows from games given as sequences of (player, rank, score); margins as `_margins` gives them."""
    rows: dict[Hashable, Row] = {}
    shares_by_ranks: dict[tuple, tuple[float, ...]] = {}
    games = games if isinstance(games, list) else list(games)
    for game in games:
        ranks = tuple([e[1] for e in game])
        shares = shares_by_ranks.get(ranks)
        if shares is None:
            shares = shares_by_ranks[ranks] = _shares(ranks, scheme, custom)
        scores = [e[2] for e in game]
        if None in scores:
            scored = [s for s in scores if s is not None]
            total, others = sum(scored), len(scored) - 1
        else:
            total, others = sum(scores), len(scores) - 1
        for (player, rank, score), share in zip(game, shares):  # noqa: B905 (same length by construction)
            row = rows.get(player)
            if row is None:
                row = rows[player] = Row(player)
            row.games += 1
            row.points += share
            if rank == 1:
                row.wins += 1
            elif rank == 2:
                row.seconds += 1
            if score is not None and others > 0:
                row.margin_sum += score - (total - score) / others
                row.margin_games += 1
    for game in games:
        players = [rows[e[0]] for e in game]
        total = sum([row.points for row in players])
        for row in players:
            row.opponents_points += total - row.points
    for row in rows.values():
        row.margin = row.margin_sum / row.margin_games if row.margin_games else None
    return rows


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


_INF = math.inf
_COLUMNS: dict[str, Callable[[list[Row]], list]] = {  # ascending sort keys of many rows: the better sorts first
    "points": lambda rows: [-round(r.points, 9) for r in rows],
    "wins": lambda rows: [-r.wins for r in rows],
    "countback": lambda rows: [(-r.wins, -r.seconds) for r in rows],
    "opponents_points": lambda rows: [-round(r.opponents_points, 9) for r in rows],
    "margin": lambda rows: [_INF if r.margin is None else -round(r.margin, 9) for r in rows],
}


def _keys(names: Sequence[str], rows: list[Row]) -> list[tuple]:
    for name in names:
        if name not in _COLUMNS:
            raise ValueError(name)
    if not names:
        return [()] * len(rows)
    return list(zip(*(_COLUMNS[name](rows) for name in names)))  # noqa: B905 (same length)


def _first_difference(names: Sequence[str], a: tuple, b: tuple) -> str:
    for name, x, y in zip(names, a, b):  # noqa: B905 (same length)
        if x != y:
            return name
    return ""


def rank_rows(
    rows: Iterable[Row], *, min_games: int = 0, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
    head_to_head: HeadToHead,
) -> list[Row]:
    """Order tallied rows into the table, setting `ranked`, `position` and `separated_by`.

    The tie-breakers before head_to_head sort the rows into level groups; head_to_head separates a group
    of exactly two (asking `head_to_head(a, b)`, positive when a finished ahead of b more often); other
    groups go on to the tie-breakers after it. Rows level on everything share a position, by player.
    """
    names = list(tie_breakers)
    if "head_to_head" in names:
        cut = names.index("head_to_head")
        before, after, by_head = names[:cut], names[cut + 1:], True
    else:
        before, after, by_head = names, [], False
    rows = list(rows)
    ranked = [row for row in rows if row.games >= min_games] if min_games else rows
    unranked = [row for row in rows if row.games < min_games] if min_games else []
    items = list(zip(_keys(before, ranked), _keys(after, ranked), [str(r.player) for r in ranked], ranked))  # noqa: B905
    items.sort(key=itemgetter(0, 1, 2))
    table: list[Row] = []
    count = len(items)
    i = 0
    previous: tuple | None = None
    while i < count:
        key = items[i][0]
        j = i + 1
        while j < count and items[j][0] == key:
            j += 1
        row = items[i][3]
        row.ranked, row.position, row.separated_by = True, i + 1, ""
        if previous is not None:
            for name, x, y in zip(before, previous, key):  # noqa: B905 (same length)
                if x != y:
                    row.separated_by = name
                    break
        if j == i + 1:  # alone on the tie-breakers before head_to_head: the common case
            table.append(row)
        else:
            balance = head_to_head(row.player, items[i + 1][3].player) if by_head and j == i + 2 else 0
            if balance:
                first, second = (row, items[i + 1][3]) if balance > 0 else (items[i + 1][3], row)
                first.ranked, first.position, first.separated_by = True, i + 1, row.separated_by
                second.ranked, second.position, second.separated_by = True, i + 2, "head_to_head"
                table.extend((first, second))
            else:
                table.append(row)
                for k in range(i + 1, j):
                    inner = _first_difference(after, items[k - 1][1], items[k][1])
                    other = items[k][3]
                    other.ranked = True
                    other.position = k + 1 if inner else table[-1].position
                    other.separated_by = inner
                    table.append(other)
        previous = key
        i = j
    for row in sorted(unranked, key=lambda r: (-r.games, -round(r.points, 9), str(r.player))):
        row.ranked, row.position, row.separated_by = False, None, ""
        table.append(row)
    return table


def standings(
    games: Sequence[Game],
    *,
    scheme: str = "3-2-1-0",
    custom: Mapping[str, Sequence[float]] | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """The season's table: ranked rows in order with shared positions, then unranked rows by games."""
    return table_of([game.entries for game in games], scheme=scheme, custom=custom, min_games=min_games,
                    tie_breakers=tie_breakers)


def table_of(
    games: Sequence[Sequence[tuple]], *, scheme: str = "3-2-1-0", custom: Mapping | None = None,
    min_games: int = 0, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """`standings` for games given as plain sequences of (player, rank, score) tuples (cheaper to build)."""
    rows = _tally(games, scheme, custom)
    return rank_rows(rows.values(), min_games=min_games, tie_breakers=tie_breakers,
                     head_to_head=_head_to_head_in(games))


def apply_game(
    rows: dict[Hashable, Row],
    game: Sequence[tuple],
    co_play: Mapping[Hashable, Mapping[Hashable, int]],
    *,
    scheme: str = "3-2-1-0",
    custom: Mapping | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
    head_to_head: HeadToHead,
) -> list[Row]:
    """Fold one more game into a table: `rows` (player -> Row, updated in place, new players added) must be
    the table of some games G; the result is the table of G plus `game`, as `standings` would give it.

    `game` is a sequence of (player, rank, score); `co_play[o][x]` is how many games of G the game's player
    o shared with x (x != o; absent means none); `head_to_head(a, b)` must count `game` too.
    """
    ranks = tuple(e[1] for e in game)
    shares = _shares(ranks, scheme, custom)
    gained = {e[0]: share for e, share in zip(game, shares, strict=True)}
    # opponents' points before the game's own players change: sum over o in the game of n(x, o) * gained(o)
    for player, share in gained.items():
        if share:
            for other, shared in co_play.get(player, {}).items():
                row = rows.get(other)
                if row is None:
                    raise ValueError(f"co_play names {other!r}, who has no row")
                row.opponents_points += shared * share
    margins = _margins([e[2] for e in game])
    players = []
    for (player, rank, _score), share, margin in zip(game, shares, margins, strict=True):
        row = rows.get(player)
        if row is None:
            row = rows[player] = Row(player)
        row.games += 1
        row.points += share
        row.wins += rank == 1
        row.seconds += rank == 2
        if margin is not None:
            row.margin_sum += margin
            row.margin_games += 1
            row.margin = row.margin_sum / row.margin_games
        players.append(row)
    # and each of the game's players gains the others' season points (as they stand now) once more
    total = sum(row.points for row in players)
    for row in players:
        row.opponents_points += total - row.points
    return rank_rows(rows.values(), min_games=min_games, tie_breakers=tie_breakers, head_to_head=head_to_head)
