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
  (games without scores are left out). It compares scores, so only a league of one game may use it
  (leagues.common.tie_breaks, issue 50: one game's points are not another's).
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

The parts: `points` (schemes, competition ranks, the season's rules), `rows` (a row's tallies from games),
`keys` (sort keys, head_to_head and positions); this module joins them into the two ways to a table.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from .keys import _RANKED, _rules_of, _set_key, place, rank_rows, settle, table_in_order
from .points import (
    DEFAULT_TIE_BREAKERS,
    MAX_POINTS,
    SCHEMES,
    TIE_BREAKERS,
    _margins,
    _shares,
    competition_ranks,
    exact,
    game_points,
    place_points,
    points_text,
    season_tie_breakers,
    validate_rules,
)
from .rows import Entry, Game, HeadToHead, Row, _head_to_head_in, _tally

__all__ = [
    "DEFAULT_TIE_BREAKERS",
    "MAX_POINTS",
    "SCHEMES",
    "TIE_BREAKERS",
    "Entry",
    "Game",
    "HeadToHead",
    "Row",
    "apply_game",
    "competition_ranks",
    "exact",
    "game_points",
    "place",
    "place_points",
    "points_text",
    "rank_rows",
    "season_tie_breakers",
    "settle",
    "standings",
    "table_in_order",
    "table_of",
    "validate_rules",
]


def standings(
    games: Sequence[Game],
    *,
    scheme: str = "3-2-1-0",
    custom: Mapping[str, Sequence[float]] | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """The season's table: ranked rows in order with shared positions, then unranked rows by games."""
    return table_of(
        [game.entries for game in games], scheme=scheme, custom=custom, min_games=min_games, tie_breakers=tie_breakers
    )


def table_of(
    games: Sequence[Sequence[tuple]],
    *,
    scheme: str = "3-2-1-0",
    custom: Mapping | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] = DEFAULT_TIE_BREAKERS,
) -> list[Row]:
    """`standings` for games given as plain sequences of (player, rank, score) tuples (cheaper to build)."""
    rows = _tally(games, scheme, custom)
    return rank_rows(
        rows.values(), min_games=min_games, tie_breakers=tie_breakers, head_to_head=_head_to_head_in(games)
    )


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
    for (player, _rank, _score), share, margin, finish in zip(
        game, shares, margins, competition_ranks(ranks), strict=True
    ):
        row = rows.get(player)
        if row is None:
            row = rows[player] = Row(player)
        row.games += 1
        row.points += share
        row.wins += finish == 1
        row.seconds += finish == 2
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
        levels.add(row.sort_key[: rules.level])  # the level it leaves (b"" for a new player)
        _set_key(row, rules, min_games)
        levels.add(row.sort_key[: rules.level])  # and the one it joins
    levels = {level for level in levels if level[:1] == _RANKED} if rules.by_head else set()
    return list(touched.values()), levels
