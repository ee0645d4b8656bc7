"""Placement points: the points schemes, competition ranks, and the season's rules as they are stored.

Pure Python, no Django; see the package docstring (leagues/standings/__init__.py) for the whole table.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .rows import Game

SCHEMES = ("3-2-1-0", "7-5-3-1", "percent", "custom")
TIE_BREAKERS = ("points", "wins", "countback", "opponents_points", "head_to_head", "margin")
DEFAULT_TIE_BREAKERS = list(TIE_BREAKERS)
MAX_POINTS = 1_000_000.0  # custom points per place; beyond it a sum of tied places could reach infinity
_SPAN = {"3-2-1-0": (3.0, 0.0), "7-5-3-1": (7.0, 1.0), "percent": (100.0, 0.0)}


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
                    isinstance(p, int | float) and not isinstance(p, bool) and math.isfinite(p) and abs(p) <= MAX_POINTS
                    for p in table
                )
                # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
                if (
                    not re.fullmatch(r"[0-9]{1,3}", str(count))
                    or not numbers
                    or len(table) != int(count)
                    or int(count) < 1
                ):
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
