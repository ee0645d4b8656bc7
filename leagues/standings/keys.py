"""A row's sort key: its tie-breakers' values in the season's order as bytes, so that the table is the rows
sorted by key, equal keys share a position, and the first part of two keys that differs names what separates
them. head_to_head, which compares two players rather than measuring one, is one byte settled per level group.

Pure Python, no Django; see the package docstring (leagues/standings/__init__.py).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from .points import DEFAULT_TIE_BREAKERS
from .rows import HeadToHead, Row

_INF = math.inf
_UNSIGNED = struct.Struct(">Q")
_DOUBLE = struct.Struct(">d")


def _sortable(x: float | Fraction) -> bytes:
    """Eight bytes that sort as the numbers do: IEEE 754 with the sign bit set, negatives inverted. A Fraction
    goes as its nearest double: equal points give equal bytes; two different sums would need to lie within
    one double's precision of each other (a step of 1e-7 at a billion points) to share one."""
    (bits,) = _UNSIGNED.unpack(_DOUBLE.pack(float(x) + 0.0))  # + 0.0: -0.0 and 0.0 are level
    return _UNSIGNED.pack(bits ^ 0xFFFF_FFFF_FFFF_FFFF if bits >> 63 else bits | 0x8000_0000_0000_0000)


_PARTS: dict[str, Callable[[Row], tuple[float, ...]]] = {  # ascending: the better sorts first
    "points": lambda r: (-r.points,),
    "wins": lambda r: (-r.wins,),
    "countback": lambda r: (-r.wins, -r.seconds),
    "opponents_points": lambda r: (-r.opponents_points,),
    "margin": lambda r: (_INF if r.margin is None else -round(r.margin, 9),),
}
_WIDTH = {"points": 8, "wins": 8, "countback": 16, "opponents_points": 8, "margin": 8, "head_to_head": 1}
_RANKED, _UNRANKED = b"\x00", b"\x01"
_AHEAD, _BEHIND = b"\x00", b"\x01"  # head_to_head's byte: only the one behind in a decided pair has _BEHIND


def _parts(row: Row, names: Sequence[str]) -> bytes:
    return b"".join([_sortable(x) for name in names for x in _PARTS[name](row)])


class _Rules(NamedTuple):
    """Where a season's tie-breakers put their parts in a ranked row's key."""

    before: list[str]
    after: list[str]
    level: int  # key[:level] is the row's level: ranked, and its parts before head_to_head
    by_head: bool
    ends: list[tuple[str, int]]  # each tie-breaker with the end of its part in the key


def _rules_of(tie_breakers: Sequence[str]) -> _Rules:
    names = list(tie_breakers)
    for name in names:
        if name not in _WIDTH:
            raise ValueError(name)
    by_head = "head_to_head" in names
    cut = names.index("head_to_head") if by_head else len(names)
    ends, end = [], 1
    for name in names:
        end += _WIDTH[name]
        ends.append((name, end))
    return _Rules(names[:cut], names[cut + 1 :], 1 + sum(_WIDTH[name] for name in names[:cut]), by_head, ends)


def _set_key(row: Row, rules: _Rules, min_games: int) -> None:
    """The row's key with head_to_head's byte at _AHEAD (`_settle` decides pairs), and whether it is ranked."""
    row.ranked = row.games >= min_games
    if row.ranked:
        head = _AHEAD if rules.by_head else b""
        row.sort_key = _RANKED + _parts(row, rules.before) + head + _parts(row, rules.after)
    else:  # unranked rows follow, by games then points
        row.sort_key = _UNRANKED + _sortable(-row.games) + _sortable(-row.points)


def _in_order(rows: Iterable) -> list:
    return sorted(rows, key=lambda row: (row.sort_key, str(row.player)))


def _settle(group: list[Row], rules: _Rules, head_to_head: HeadToHead) -> list[Row]:
    """Set head_to_head's byte in a level group; returns the rows whose key changed. Only a group of exactly
    two is separated by head_to_head (`head_to_head(a, b)` positive: a finished ahead of b more often)."""
    behind = None
    if len(group) == 2:
        first, second = group
        balance = head_to_head(first.player, second.player)
        behind = second if balance > 0 else first if balance < 0 else None
    changed = []
    at = rules.level
    for row in group:
        mark = _BEHIND if row is behind else _AHEAD
        if row.sort_key[at : at + 1] != mark:
            row.sort_key = row.sort_key[:at] + mark + row.sort_key[at + 1 :]
            changed.append(row)
    return changed


def place(table: Sequence, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> Sequence:
    """Set `position` and `separated_by` on rows already in table order (by key, then player), from their
    keys alone: rows with equal keys share a position; `separated_by` names the tie-breaker whose part of the
    key first differs from the row above. Works on any objects with `sort_key` (bytes)."""
    ends = _rules_of(tie_breakers).ends
    previous = None
    for index, row in enumerate(table):
        key = row.sort_key
        row.separated_by = ""
        if key[:1] != _RANKED:
            row.position = None
            continue
        if previous is None:
            row.position = 1
        elif key == previous:
            row.position = table[index - 1].position
        else:
            row.position = index + 1
            start = 1
            for name, end in ends:
                if key[start:end] != previous[start:end]:
                    row.separated_by = name
                    break
                start = end
        previous = key
    return table


def rank_rows(
    rows: Iterable[Row],
    *,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
    head_to_head: HeadToHead,
) -> list[Row]:
    """Order tallied rows into the table, setting `sort_key`, `ranked`, `position` and `separated_by`.

    A ranked row's key holds its tie-breakers' values in the season's order, so rows sort by key (then by
    player, for rows level on everything). The tie-breakers before head_to_head sort the rows into level
    groups; head_to_head separates a group of exactly two; other groups go on to the tie-breakers after it.
    """
    rules = _rules_of(tie_breakers)
    rows = list(rows)
    for row in rows:
        _set_key(row, rules, min_games)
    settle(rows, None, tie_breakers=tie_breakers, head_to_head=head_to_head)
    return table_in_order(rows, tie_breakers)


def settle(
    rows: Iterable[Row], levels: set[bytes] | None, *, tie_breakers: Sequence[str], head_to_head: HeadToHead
) -> list[Row]:
    """Decide head_to_head afresh in the level groups of `levels` (None: all); `rows` must hold every ranked
    row at those levels. Returns the rows whose key changed."""
    rules = _rules_of(tie_breakers)
    if not rules.by_head:
        return []
    return [row for group in _groups(rows, rules, levels).values() for row in _settle(group, rules, head_to_head)]


def _groups(rows: Iterable[Row], rules: _Rules, levels: set[bytes] | None) -> dict[bytes, list[Row]]:
    """The ranked rows by level (only those of `levels`, unless it is None)."""
    groups: dict[bytes, list[Row]] = {}
    at = rules.level
    for row in rows:
        key = row.sort_key
        if key[:1] == _RANKED:
            level = key[:at]
            if levels is None or level in levels:
                groups.setdefault(level, []).append(row)
    return groups


def table_in_order(rows: Iterable[Row], tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> list[Row]:
    """Rows with their keys, in table order, with positions and separations (see `place`)."""
    return list(place(_in_order(rows), tie_breakers))
