"""A season's table: placement points and the ordered tie-breakers. Pure Python, no Django.

Points schemes (points by finishing place, for the number of players at the table):
- "3-2-1-0": 3-2-1-0 at four players, 3-1.5-0 at three. In general the places are spaced evenly from
  3 down to 0, so two players score 3-0 and five 3-2.25-1.5-0.75-0.
- "7-5-3-1": 7-5-3-1 at four, 7-4-1 at three; evenly from 7 down to 1 likewise.
- "percent": the percentage of opponents beaten (100 for a win, 0 for last).
- "custom": points by place for each player count, e.g. {"4": [4, 2, 1, 0], "3": [4, 2, 0]}; a count
  with no list is spaced evenly between the first and last values of the longest list.
Ranks are standard competition ranks: a player's rank is one more than the number of players who finished
ahead, so two tied winners of a four-player game are 1, 1 and the next is 3 (`competition_ranks` turns any
finishing order, such as the dense 1, 1, 2, into these at entry).
Tied players share the places they cover: each scores the average of those places' points (so a tie
counts as half an opponent beaten).

Tie-breakers, applied in the season's order to players still level (the order is what the season stores:
`season_tie_breakers` puts "points" first in a list that does not name it):
- "points": placement points; "wins": first places (shared firsts count);
- "countback": more first places, then more second places (second: exactly one player finished ahead, so
  at 1,1,3 nobody is second and at 1,2,2 both are);
- "opponents_points": the sum, over every game played, of each opponent's season points;
- "head_to_head": only when exactly two players are level: who finished ahead of the other more often
  in the games they both played;
- "margin": average score margin, a game's margin being own score minus the opponents' average score
  (games without scores are left out).
Players level on every tie-breaker share a position. For each row after the first, `separated_by`
names the tie-breaker that put it below the row above ("" when they are tied). Players short of the
season's minimum games follow, unranked, by games then points.

Two ways to the same table: `standings(games)` from all the season's games, and `apply_game(rows, game,
co_play)` then `settle` that fold one more game into a stored table without the other games: only the new game's
players' tallies change, and the opponents' points of everyone who ever shared a game with them, since
opponents_points(p) = sum over o of n(p, o) * points(o), n(p, o) being the games p and o shared.
Points and opponents' points are exact (Fractions), so the two ways give the very same numbers; margins are
floats and differ by rounding only (far below the 1e-9 the tie-breakers compare them to).

Each row carries a sort key: bytes holding its tie-breakers' values in the season's order, so that the table
is the rows sorted by key (then by player), rows with equal keys share a position, and the tie-breaker that
separates two neighbours is the first part of their keys that differs (`place`). A new game changes the keys
of its players and of their past opponents only, so a stored table is updated by rewriting those rows, and
positions are worked out when the table is read.
"""

from __future__ import annotations

import math
import re
import struct
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import NamedTuple

SCHEMES = ("3-2-1-0", "7-5-3-1", "percent", "custom")
TIE_BREAKERS = ("points", "wins", "countback", "opponents_points", "head_to_head", "margin")
DEFAULT_TIE_BREAKERS = list(TIE_BREAKERS)
MAX_POINTS = 1_000_000.0  # custom points per place; beyond it a sum of tied places could reach infinity
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


def exact(number: float | int | str | Fraction) -> Fraction:
    """A points value as the exact number it was written as: 2.5 is 5/2 and 0.1 is 1/10 (its shortest
    repr), not the binary double nearest to it."""
    if isinstance(number, Fraction | int):
        return Fraction(number)
    return Fraction(repr(number) if isinstance(number, float) else number)


def _even(top: Fraction, bottom: Fraction, count: int) -> list[Fraction]:
    if count == 1:
        return [top]
    step = (top - bottom) / (count - 1)
    return [top - step * i for i in range(count)]


def place_points(scheme: str, count: int, custom: Mapping[str, Sequence[float]] | None = None) -> list[Fraction]:
    """Points for places 1..count at a table of `count` players, exactly (the percent scheme's 66 2/3 is
    200/3, so a season's sum is exact and the page and the API show the same number)."""
    if scheme in _SPAN:
        top, bottom = _SPAN[scheme]
        return _even(Fraction(top), Fraction(bottom), count)
    if scheme != "custom":
        raise ValueError(f"Unknown points scheme {scheme!r}.")
    custom = custom or {}
    if str(count) in custom:
        return [exact(p) for p in custom[str(count)]]
    if not custom:
        return [Fraction(0)] * count
    longest = max(custom.values(), key=len)
    return _even(exact(longest[0]), exact(longest[-1]), count)


def points_text(points: Fraction | int) -> str:
    """Points as the page and the API both show them, exactly: an integer ("1725"), a decimal when it ends
    ("12.5", "-0.75"), else a whole part and a proper fraction ("66 2/3", "-1 1/3", "2/3")."""
    points = Fraction(points)
    if points.denominator == 1:
        return str(points.numerator)
    denominator = points.denominator
    while denominator % 2 == 0:
        denominator //= 2
    while denominator % 5 == 0:
        denominator //= 5
    if denominator == 1:  # a finite decimal: as many places as it needs
        text = f"{Decimal(points.numerator) / Decimal(points.denominator):f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    sign, size = ("-" if points < 0 else ""), abs(points)
    whole, part = divmod(size.numerator, size.denominator)
    return f"{sign}{whole} {part}/{size.denominator}" if whole else f"{sign}{part}/{size.denominator}"


def _shares(ranks: tuple[int, ...], scheme: str, custom: Mapping | None) -> tuple[Fraction, ...]:
    """Each entry's points, in the entries' order, from their ranks: tied entries average their places."""
    table = place_points(scheme, len(ranks), custom)
    ordered = sorted(ranks)
    shares = []
    for rank in ranks:
        i, j = bisect_left(ordered, rank), bisect_right(ordered, rank)
        shares.append(sum(table[i:j]) / (j - i))
    return tuple(shares)


def competition_ranks(ranks: Sequence[int]) -> list[int]:
    """Standard competition ranks for the same finishing order: 1 + how many finished strictly ahead.

    [1, 1, 2] (dense) becomes [1, 1, 3]; [1, 3, 3] becomes [1, 2, 2]; competition ranks are left as they are.
    """
    ordered = sorted(ranks)
    return [bisect_left(ordered, rank) + 1 for rank in ranks]


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
                    isinstance(p, int | float) and not isinstance(p, bool) and math.isfinite(p)
                    and abs(p) <= MAX_POINTS for p in table
                )
                # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
                if not re.fullmatch(r"[0-9]{1,3}", str(count)) or not numbers or len(table) != int(count) \
                        or int(count) < 1:
                    errors["custom_points"] = f"Player count {count} needs a list of {count} numbers."
                    break
    unknown = [name for name in tie_breakers if name not in TIE_BREAKERS]
    if unknown or len(set(tie_breakers)) != len(tie_breakers):
        errors["tie_breakers"] = f"Use each of {', '.join(TIE_BREAKERS)} at most once."
    return errors


def season_tie_breakers(names: Sequence[str]) -> list[str]:
    """The tie-breaker order a season stores, which is exactly the order its table applies: as given, with
    "points" put first when the list does not place it (so [] is ["points"]: players level on points share
    a position). Placing "points" anywhere in the list is how a season ranks by something else first."""
    names = list(names)
    return names if "points" in names else ["points", *names]


def _tally(games: Iterable[Sequence[tuple]], scheme: str, custom: Mapping | None) -> dict[Hashable, Row]:
    """Rows from games given as sequences of (player, rank, score); margins as `_margins` gives them."""
    rows: dict[Hashable, Row] = {}
    games = games if isinstance(games, list) else list(games)
    # Points are summed exactly, as integers in units of 1/unit (the common denominator of every share the
    # season's finishing orders give), which is as fast as floats; rows get their Fractions at the end.
    exact_shares = {ranks: _shares(ranks, scheme, custom) for ranks in {tuple([e[1] for e in g]) for g in games}}
    unit = math.lcm(*(share.denominator for shares in exact_shares.values() for share in shares))
    shares_by_ranks = {ranks: (tuple([int(share * unit) for share in shares]), competition_ranks(ranks))
                       for ranks, shares in exact_shares.items()}
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
    for game in games:
        players = [rows[e[0]] for e in game]
        total = sum([row.points for row in players])
        for row in players:
            row.opponents_points += total - row.points
    for row in rows.values():
        row.margin = row.margin_sum / row.margin_games if row.margin_games else None
        row.points = Fraction(row.points, unit)
        row.opponents_points = Fraction(row.opponents_points, unit)
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
    return _Rules(names[:cut], names[cut + 1:], 1 + sum(_WIDTH[name] for name in names[:cut]), by_head, ends)


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
        if row.sort_key[at:at + 1] != mark:
            row.sort_key = row.sort_key[:at] + mark + row.sort_key[at + 1:]
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
    rows: Iterable[Row], *, min_games: int = 0, tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
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


def settle(rows: Iterable[Row], levels: set[bytes] | None, *, tie_breakers: Sequence[str],
           head_to_head: HeadToHead) -> list[Row]:
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
) -> tuple[list[Row], set[bytes]]:
    """Fold one more game into a table of some games G. `rows` (player -> Row with its key) must hold the
    rows of the game's players who are in G and of everyone who shared a game of G with them; they are
    updated in place and new players added. Returns the rows whose tallies changed, with their new keys, and
    the levels whose head_to_head must be decided afresh (`settle`, which may change more keys). Every other
    row of the table keeps its key, so a stored table needs only those rows rewritten, and `place` orders it
    when it is read.

    `game` is a sequence of (player, rank, score); `co_play[o][x]` is how many games of G the game's player
    o shared with x (x != o; absent means none).
    """
    rules = _rules_of(tie_breakers)
    ranks = tuple(e[1] for e in game)
    shares = _shares(ranks, scheme, custom)
    gained = {e[0]: share for e, share in zip(game, shares, strict=True)}
    touched: dict[Hashable, Row] = {}
    # opponents' points before the game's own players change: sum over o in the game of n(x, o) * gained(o)
    for player, share in gained.items():
        if share:
            for other, shared in co_play.get(player, {}).items():
                row = rows.get(other)
                if row is None:
                    raise ValueError(f"co_play names {other!r}, who has no row")
                row.opponents_points += shared * share
                touched[other] = row
    margins = _margins([e[2] for e in game])
    players = []
    for (player, _rank, _score), share, margin, place in zip(game, shares, margins, competition_ranks(ranks),
                                                             strict=True):
        row = rows.get(player)
        if row is None:
            row = rows[player] = Row(player)
        row.games += 1
        row.points += share
        row.wins += place == 1
        row.seconds += place == 2
        if margin is not None:
            row.margin_sum += margin
            row.margin_games += 1
            row.margin = row.margin_sum / row.margin_games
        players.append(row)
        touched[player] = row
    # and each of the game's players gains the others' season points (as they stand now) once more
    total = sum(row.points for row in players)
    for row in players:
        row.opponents_points += total - row.points
    levels = set()
    for row in touched.values():
        levels.add(row.sort_key[:rules.level])  # the level it leaves (b"" for a new player)
        _set_key(row, rules, min_games)
        levels.add(row.sort_key[:rules.level])  # and the one it joins
    levels = {level for level in levels if level[:1] == _RANKED} if rules.by_head else set()
    return list(touched.values()), levels


def table_in_order(rows: Iterable[Row], tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS) -> list[Row]:
    """Rows with their keys, in table order, with positions and separations (see `place`)."""
    return list(place(_in_order(rows), tie_breakers))
