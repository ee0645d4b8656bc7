"""Additive statistics: a game's count over finished tables kept as a tally that adds and subtracts (issue 18).

A tally is plain JSON: each name holds a whole number (a count or a sum) or a mapping of key to whole number
(counts by general, by seat, by winning score...). A key is the counted value written as JSON (`key`), so an
integer seat, a string and None come back as they were (`unkey`). Keeping counts per value rather than a
maximum or a list lets a table's part be taken out again exactly when an undo reopens it: the best score is
the largest value whose count is not zero. The counts are whole numbers, so adding and taking out is exact.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping

Tally = dict


def key(value) -> str:
    return json.dumps(value)


def unkey(text: str) -> object:
    return json.loads(text)


def counter(tally: Tally, name: str) -> Counter:
    """The counts under `name` by their values again, as the count over the tables had them."""
    return Counter({unkey(k): n for k, n in (tally.get(name) or {}).items()})


def add(a: Mapping, b: Mapping, sign: int = 1) -> Tally:
    """a + b (or a - b with sign=-1); keys whose count comes to zero are dropped, so equal tables give equal
    tallies however they were added up."""
    out = {name: dict(value) if isinstance(value, dict) else value for name, value in a.items()}
    _add_into(out, b, sign)
    return out


def _add_into(out: Tally, b: Mapping, sign: int) -> None:
    for name, value in b.items():
        if isinstance(value, dict):
            counts = out.setdefault(name, {})
            for k, n in value.items():
                total = counts.get(k, 0) + sign * n
                if total:
                    counts[k] = total
                else:
                    counts.pop(k, None)
        else:
            out[name] = out.get(name, 0) + sign * value


def add_up(tallies: Iterable[Mapping]) -> Tally:
    total: Tally = {}
    for tally in tallies:
        _add_into(total, tally, 1)
    return total


def bump(tally: Tally, name: str, value, by: int = 1) -> None:
    """Count `value` under `name` (in place, for building one table's tally)."""
    counts = tally.setdefault(name, {})
    counts[key(value)] = counts.get(key(value), 0) + (int(by) if isinstance(by, bool) else by)
