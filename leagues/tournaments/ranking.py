"""A tournament's standings with its tie-breakers (issue 51, docs/tournaments.md), without Django.

Why a pure function: the pairing reads the standings (its seat order and who is "the leader" come from them), the
wall shows them and the cut is decided by them, so one function must give all three the same order, and the tests
must be able to check every tie-breaker without a database.

The order: points (most first), then
1. opponents' average points: the mean over every meeting (an opponent met twice counts twice) of that opponent's
   points now, higher first;
2. average place (1 for first), over the pods he played, lower first; a player with none goes after;
3. head-to-head inside the group still tied: the times he finished ahead of another of them in a pod they shared,
   less the times behind, higher first;
4. a drawn lot: a number drawn from the tournament's recorded seed and the player's id, so the same two players
   are never re-drawn in the other order; the players whose place the lot decided are returned, to be recorded.
Compared exactly (fractions), so a tie is a tie and never a rounding.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Standing:
    player: int | str
    points: Fraction
    opponents_average: Fraction
    average_place: Fraction | None
    head_to_head: int
    lot: float | None  # drawn only where the lot decided his place
    place: int  # 1 for the leader


def points_for(scheme, size: int, place: int) -> Fraction:
    """The scheme's points for a place (1 for first) in a pod of `size`: `scheme` is one list for every size or a
    mapping of size to list; a place past the list scores nothing."""
    row = scheme.get(size, ()) if isinstance(scheme, dict) else scheme
    return Fraction(row[place - 1]) if place - 1 < len(row) else Fraction(0)


def lot(seed, player) -> float:
    return random.Random(f"{seed}:{player}").random()


def standings(players, pods, scheme, seed, byes=(), bye_points=0) -> tuple[list[Standing], set]:
    """(the standings, the players whose place a lot decided). `players`: every entrant's id (dropped ones too:
    they keep their results); `pods`: every pod played, as {player: place}; `byes`: one entry per bye given."""
    points, met, places = _tallies(players, pods, scheme, byes, bye_points)
    opponents = {p: _average([points[o] for o in met[p]]) or Fraction(0) for p in players}
    average_place = {p: _average(places[p]) for p in players}

    def key(p):
        place = average_place[p]
        return (-points[p], -opponents[p], place is None, place or 0)

    ordered = sorted(players, key=key)
    decided: set = set()
    rows: list[Standing] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and key(ordered[end]) == key(ordered[start]):
            end += 1
        group, duels, lots = _break_ties(ordered[start:end], pods, seed)
        decided |= lots
        for p in group:
            rows.append(
                Standing(
                    p,
                    points[p],
                    opponents[p],
                    average_place[p],
                    duels[p],
                    lot(seed, p) if p in lots else None,
                    len(rows) + 1,
                )
            )
        start = end
    return rows, decided


def _tallies(players, pods, scheme, byes, bye_points):
    points = {p: Fraction(0) for p in players}
    met: dict[Hashable, list] = {p: [] for p in players}
    places: dict[Hashable, list[int]] = {p: [] for p in players}
    for pod in pods:
        for player, place in pod.items():
            points[player] += points_for(scheme, len(pod), place)
            places[player].append(place)
            met[player] += [other for other in pod if other != player]
    for player in byes:
        points[player] += Fraction(bye_points)
    return points, met, places


def _average(values):
    return Fraction(sum(values), len(values)) if values else None


def _break_ties(group, pods, seed) -> tuple[list, dict, set]:
    """A group equal on points, opponents and places, ordered by head-to-head, then the lot where that ties."""
    duels = _head_to_head(group, pods)
    same: dict[Fraction, list] = {}
    for p in group:
        same.setdefault(duels[p], []).append(p)
    lots = {p for tied in same.values() if len(tied) > 1 for p in tied}
    group = sorted(group, key=lambda p: (-duels[p], lot(seed, p) if p in lots else 0))
    return group, duels, lots


def _head_to_head(group, pods) -> dict:
    """For each player of a tied group: finishes ahead of another of the group in a shared pod, less behind."""
    inside = set(group)
    count = {p: 0 for p in group}
    for pod in pods:
        here = [p for p in pod if p in inside]
        for a in here:
            for b in here:
                if a != b and pod[a] < pod[b]:
                    count[a] += 1
                    count[b] -= 1
    return count
