"""The standings maths as first written (commit 5951353, leagues/standings.py): a slow, plainly recursive
oracle for the property tests. One change: unranked rows compare points rounded to 1e-9, as the site does now.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

SCHEMES = ("3-2-1-0", "7-5-3-1", "percent", "custom")
TIE_BREAKERS = ("points", "wins", "countback", "opponents_points", "head_to_head", "margin")
DEFAULT_TIE_BREAKERS = list(TIE_BREAKERS)
_SPAN = {"3-2-1-0": (3.0, 0.0), "7-5-3-1": (7.0, 1.0), "percent": (100.0, 0.0)}


@dataclass(frozen=True)
class Entry:
    player: Hashable
    rank: int
    score: float | None = None


@dataclass(frozen=True)
class Game:
    entries: tuple[Entry, ...]


@dataclass
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
    margins: list[float] = field(default_factory=list, repr=False)


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


def game_points(game: Game, scheme: str, custom: Mapping[str, Sequence[float]] | None = None) -> dict:
    """Each player's points for one game; tied players average the places they cover."""
    table = place_points(scheme, len(game.entries), custom)
    ordered = sorted(game.entries, key=lambda e: e.rank)
    points: dict = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].rank == ordered[i].rank:
            j += 1
        share = sum(table[i:j]) / (j - i)
        for entry in ordered[i:j]:
            points[entry.player] = share
        i = j
    return points


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


def _tally(games: Sequence[Game], scheme: str, custom: Mapping | None) -> dict[Hashable, Row]:
    rows: dict[Hashable, Row] = {}
    for game in games:
        points = game_points(game, scheme, custom)
        for entry in game.entries:
            row = rows.setdefault(entry.player, Row(entry.player))
            row.games += 1
            row.points += points[entry.player]
            row.wins += entry.rank == 1
            row.seconds += entry.rank == 2
            others = [o.score for o in game.entries if o is not entry and o.score is not None]
            if entry.score is not None and others:
                row.margins.append(entry.score - sum(others) / len(others))
    for game in games:
        for entry in game.entries:
            rows[entry.player].opponents_points += sum(rows[o.player].points for o in game.entries if o is not entry)
    for row in rows.values():
        row.margin = sum(row.margins) / len(row.margins) if row.margins else None
    return rows


def _head_to_head(a: Hashable, b: Hashable, games: Sequence[Game]) -> int:
    """Positive when a finished ahead of b more often than the reverse."""
    balance = 0
    for game in games:
        ranks = {e.player: e.rank for e in game.entries}
        if a in ranks and b in ranks:
            balance += (ranks[a] < ranks[b]) - (ranks[b] < ranks[a])
    return balance


def _key(name: str, row: Row) -> tuple:
    if name == "points":
        return (round(row.points, 9),)
    if name == "wins":
        return (row.wins,)
    if name == "countback":
        return (row.wins, row.seconds)
    if name == "opponents_points":
        return (round(row.opponents_points, 9),)
    if name == "margin":
        return (round(row.margin, 9) if row.margin is not None else float("-inf"),)
    raise ValueError(name)


def _split(group: list[Row], breakers: Sequence[str], games: Sequence[Game]) -> list[tuple[list[Row], str]]:
    """Order a level group into blocks; each block carries the tie-breaker that put it below the one above."""
    if len(group) < 2 or not breakers:
        return [(sorted(group, key=lambda r: str(r.player)), "")]
    name, rest = breakers[0], breakers[1:]
    if name == "head_to_head":
        if len(group) == 2:
            balance = _head_to_head(group[0].player, group[1].player, games)
            if balance:
                first, second = (group[0], group[1]) if balance > 0 else (group[1], group[0])
                return [([first], ""), ([second], name)]
        return _split(group, rest, games)
    buckets: dict[tuple, list[Row]] = defaultdict(list)
    for row in group:
        buckets[_key(name, row)].append(row)
    blocks: list[tuple[list[Row], str]] = []
    for index, value in enumerate(sorted(buckets, reverse=True)):
        inner = _split(buckets[value], rest, games)
        first_block, first_reason = inner[0]
        blocks.append((first_block, name if index else first_reason))
        blocks.extend(inner[1:])
    return blocks


def standings(
    games: Sequence[Game],
    *,
    scheme: str = "3-2-1-0",
    custom: Mapping[str, Sequence[float]] | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """The season's table: ranked rows in order with shared positions, then unranked rows by games."""
    rows = _tally(games, scheme, custom)
    ranked = [row for row in rows.values() if row.games >= min_games]
    unranked = [row for row in rows.values() if row.games < min_games]
    table: list[Row] = []
    position = 0
    for block, reason in _split(ranked, list(tie_breakers), games):
        position = len(table) + 1
        for index, row in enumerate(block):
            row.position = position
            row.separated_by = reason if index == 0 and table else ""
            table.append(row)
    for row in sorted(unranked, key=lambda r: (-r.games, -round(r.points, 9), str(r.player))):
        row.ranked = False
        table.append(row)
    return table
