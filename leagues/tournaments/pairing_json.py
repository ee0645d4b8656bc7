"""The `manage.py swiss` contract (docs/tournaments.md): a JSON round in, refused for the first fault it has."""

from __future__ import annotations

import math

from .pairing import SEAT_RULES, Entrant, PairingError, Round


def _is_id(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, str) and value != "")


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def round_from_json(data) -> Round:
    """{"players": [{"id", "points", "opponents", "dropped"}], "table_sizes", "seat_rule"}: players listed in
    standings order (equal points keep it); points default 0 (a late entry), opponents [], dropped false."""
    if not isinstance(data, dict):
        raise PairingError('The input must be a JSON object with at least "players".')
    raw = data.get("players")
    if not isinstance(raw, list) or not raw:
        raise PairingError('"players" must be a non-empty list of {"id", "points", "opponents", "dropped"}.')
    players = [_entrant(entry) for entry in raw]
    sizes = data.get("table_sizes", [3, 4])
    if not isinstance(sizes, list) or not sizes:
        raise PairingError('"table_sizes" must be a non-empty list of whole numbers, e.g. [3, 4].')
    seat_rule = data.get("seat_rule", "swiss")
    if seat_rule not in SEAT_RULES:
        raise PairingError(
            f'"seat_rule" must be "swiss" (the leader seated last) or "cut" (the top seed '
            f"seated first), not {seat_rule!r}."
        )
    return Round(players=players, table_sizes=tuple(sizes), seat_rule=seat_rule)


def _entrant(entry) -> Entrant:
    if not isinstance(entry, dict) or not _is_id(entry.get("id")):
        raise PairingError(f'Each player must be an object with an "id" (a number or a string): {entry!r}.')
    points = entry.get("points", 0)
    if not _number(points):
        raise PairingError(f'"points" of {entry["id"]!r} must be a number: {points!r}.')
    opponents = entry.get("opponents", [])
    if not isinstance(opponents, list) or not all(_is_id(o) and o != entry["id"] for o in opponents):
        raise PairingError(
            f'"opponents" of {entry["id"]!r} must be a list of other players\' ids, one per meeting: {opponents!r}.'
        )
    dropped = entry.get("dropped", False)
    if not isinstance(dropped, bool):
        raise PairingError(f'"dropped" of {entry["id"]!r} must be true or false: {dropped!r}.')
    return Entrant(id=entry["id"], points=points, opponents=tuple(opponents), dropped=dropped)
