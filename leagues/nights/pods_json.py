"""The `manage.py pods` contract (docs/api.md): a JSON night in, refused for the first fault it has."""

from __future__ import annotations

import math

from .pods_model import DEFAULT_GAME, MIXES, Night, PodsError, Table


def _is_id(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and value != "")


def night_from_json(data) -> Night:
    """The `manage.py pods` contract: players, table_sizes, met, seats, forbidden (optionally locked and mix).

    History about players who are not here tonight is ignored: a season's record naturally names absentees.
    Each part is checked in that order, so a file with several mistakes is refused for the first.
    """
    if not isinstance(data, dict):
        raise PodsError('The input must be a JSON object with at least "players".')
    players = data.get("players")
    if not isinstance(players, list) or not players or not all(_is_id(p) for p in players):
        raise PodsError('"players" must be a non-empty list of player ids (numbers or strings).')
    sizes = data.get("table_sizes", [3, 4])
    if not isinstance(sizes, list) or not sizes:
        raise PodsError('"table_sizes" must be a non-empty list of whole numbers, e.g. [3, 4].')
    met = _met_from_json(data, set(players))
    seats = _seats_from_json(data, {str(p): p for p in players})
    forbidden = _forbidden_from_json(data)
    locked = _locked_from_json(data)
    mix = data.get("mix", "fill")
    if mix not in MIXES:
        raise PodsError(
            f'"mix" must be "fill" (the fewest, fullest tables) or "free" (any sizes, fewest '
            f"repeats first), not {mix!r}."
        )
    return Night(
        players=list(players),
        table_sizes=tuple(sizes),
        met=met,
        seats=seats,
        forbidden=forbidden,
        locked=locked,
        mix=mix,
    )


def _met_from_json(data, here: set) -> dict[frozenset, float]:
    """`met`: [a, b, times] entries; the times of one pair add up; pairs with someone not `here` are left out."""
    met: dict[frozenset, float] = {}
    for entry in _list(data, "met"):
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not _is_id(entry[0])
            or not _is_id(entry[1])
            or not _number(entry[2])
            or entry[2] < 0
            or entry[0] == entry[1]
        ):
            raise PodsError(f'Each "met" entry must be [a, b, times] with two different ids and times >= 0: {entry!r}.')
        if entry[0] in here and entry[1] in here:
            pair = frozenset(entry[:2])
            met[pair] = met.get(pair, 0) + entry[2]
    return met


def _seats_from_json(data, by_text: dict) -> dict[tuple, tuple]:
    """`seats`: {"<id>": [times in seat 0, seat 1, ...]} (JSON keys are text: `by_text` maps them back to the
    players here; others are left out)."""
    seats = {}
    raw_seats = data.get("seats", {})
    if not isinstance(raw_seats, dict):
        raise PodsError('"seats" must be an object: {"<id>": [times in seat 0, seat 1, ...]}.')
    for key, counts in raw_seats.items():
        if not isinstance(counts, list) or not all(_number(c) and c >= 0 for c in counts):
            raise PodsError(f"Seat history for {key!r} must be a list of counts >= 0: {counts!r}.")
        if key in by_text:
            seats[(by_text[key], DEFAULT_GAME)] = tuple(counts)
    return seats


def _forbidden_from_json(data) -> set[frozenset]:
    """`forbidden`: [a, b] pairs who must not share a table."""
    forbidden = set()
    for entry in _list(data, "forbidden"):
        if not isinstance(entry, list) or len(entry) != 2 or not all(_is_id(p) for p in entry) or entry[0] == entry[1]:
            raise PodsError(f'Each "forbidden" entry must be [a, b] with two different ids: {entry!r}.')
        forbidden.add(frozenset(entry))
    return forbidden


def _locked_from_json(data) -> list[Table]:
    """`locked`: tables already seated, as lists of ids in seat order."""
    locked = []
    for entry in _list(data, "locked"):
        if not isinstance(entry, list) or not entry or not all(_is_id(p) for p in entry):
            raise PodsError(f'Each "locked" entry must be a table: a list of ids in seat order: {entry!r}.')
        locked.append(Table(tuple(entry), DEFAULT_GAME, locked=True))
    return locked


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _list(data, name):
    value = data.get(name, [])
    if not isinstance(value, list):
        raise PodsError(f'"{name}" must be a list.')
    return value
