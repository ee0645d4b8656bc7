"""Strict checks of the JSON the table sends: exact keys, real ints (not bools or floats), bounded sizes.

Every malformed value is an InvalidMove with a code ("samurai_empires.<what>") and a sentence naming the
field, so bad input is answered with a 4xx and never reaches the rules.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import InvalidMove

BIGGEST = 10**6  # far above any score, count or seed position a table can reach
LONGEST_NAME = 60
LONGEST_NOTE = 200


def bad(message: str, code: str, **params: Any) -> InvalidMove:
    return InvalidMove(message, code=f"samurai_empires.{code}", params=params)


def check_object(value: object, what: str, *, required: tuple[str, ...] = (), optional: tuple[str, ...] = ()) -> dict:
    """`value` as a dict with str keys, all of `required`, and nothing outside `required` + `optional`."""
    if not isinstance(value, dict):
        raise bad(f"{what} must be an object.", "not_an_object", field=what)
    unknown = sorted(str(k) for k in value if k not in required and k not in optional)
    if unknown:
        raise bad(
            f"{what} has unknown field(s): {', '.join(unknown)[:200]}.",
            "unknown_field",
            field=what,
            unknown=unknown[:10],
        )
    missing = [k for k in required if k not in value]
    if missing:
        raise bad(f"{what} needs {', '.join(missing)}.", "missing_field", field=what, missing=missing)
    return value


def check_int(value: object, what: str, *, low: int = 0, high: int = BIGGEST) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise bad(f"{what} must be a whole number.", "not_an_int", field=what)
    if not low <= value <= high:
        raise bad(
            f"{what} must be between {low} and {high}, not {value}.", "out_of_range", field=what, low=low, high=high
        )
    return value


def check_text(value: object, what: str, *, longest: int = LONGEST_NAME, empty: bool = False) -> str:
    if not isinstance(value, str):
        raise bad(f"{what} must be text.", "not_text", field=what)
    if "\x00" in value or len(value) > longest or (not empty and not value.strip()):
        raise bad(f"{what} must be 1 to {longest} characters of plain text.", "bad_text", field=what)
    return value


def check_list(value: object, what: str, *, shortest: int = 0, longest: int = 50) -> list:
    if not isinstance(value, list):
        raise bad(f"{what} must be a list.", "not_a_list", field=what)
    if not shortest <= len(value) <= longest:
        raise bad(
            f"{what} must hold {shortest} to {longest} items, not {len(value)}.",
            "bad_length",
            field=what,
            shortest=shortest,
            longest=longest,
        )
    return value


def check_choice(value: object, what: str, choices: tuple[str, ...] | list[str] | dict) -> str:
    if not isinstance(value, str) or value not in choices:
        shown = ", ".join(choices)
        raise bad(f"{what} must be one of: {shown}.", "unknown_name", field=what, choices=list(choices))
    return value
