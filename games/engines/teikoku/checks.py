"""Strict reading of moves and set-ups: every field named, typed and bounded, or an InvalidMove saying which.

JSON has no int/bool distinction in Python (True is an int), so booleans are refused where a number is
expected; floats, strings of digits, lists and numbers beyond the bounds in rules.py are refused too.
Each error carries a stable `code` and `params` so the site can say it in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.base import IllegalMove, InvalidMove
from games.engines.teikoku.rules import MAX_NOTE

Checker = Callable[[Any, str], Any]


def invalid(message: str, code: str, **params: Any) -> InvalidMove:
    return InvalidMove(message, code=f"teikoku.{code}", params=params)


def illegal(message: str, code: str, **params: Any) -> IllegalMove:
    return IllegalMove(message, code=f"teikoku.{code}", params=params)


def type_name(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number with a fraction"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "value"


def integer(low: int, high: int) -> Checker:
    def check(value: Any, field: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise invalid(
                f'"{field}" must be a whole number from {low} to {high}, not a {type_name(value)}.',
                "wrong_type",
                field=field,
                expected="integer",
                got=type_name(value),
            )
        if not low <= value <= high:
            shown = value if abs(value) <= 10**12 else ("a huge number" if value > 0 else "a huge negative number")
            raise invalid(
                f'"{field}" must be from {low} to {high}, not {shown}.',
                "out_of_range",
                field=field,
                low=low,
                high=high,
            )
        return value

    return check


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise invalid(
            f'"{field}" must be true or false, not a {type_name(value)}.',
            "wrong_type",
            field=field,
            expected="boolean",
            got=type_name(value),
        )
    return value


def text(*, required: bool) -> Checker:
    """A short note or name: a string without control characters (NUL included), at most MAX_NOTE long."""

    def check(value: Any, field: str) -> str:
        if not isinstance(value, str):
            raise invalid(
                f'"{field}" must be a text, not a {type_name(value)}.',
                "wrong_type",
                field=field,
                expected="string",
                got=type_name(value),
            )
        if any(ord(c) < 32 and c not in "\t\n" for c in value) or "\x7f" in value:
            raise invalid(f'"{field}" must not contain control characters.', "bad_text", field=field)
        if len(value) > MAX_NOTE:
            raise invalid(f'"{field}" is at most {MAX_NOTE} characters long.', "bad_text", field=field)
        if required and not value.strip():
            raise invalid(f'"{field}" must say something: it is the reason the log shows.', "bad_text", field=field)
        return value.strip()

    return check


def one_of(names: tuple[str, ...]) -> Checker:
    def check(value: Any, field: str) -> str:
        if not isinstance(value, str) or value not in names:
            shown = repr(value) if isinstance(value, str) and len(value) <= 40 else f"a {type_name(value)}"
            raise invalid(
                f'"{field}" must be one of {", ".join(names)}, not {shown}.',
                "unknown_name",
                field=field,
                allowed=list(names),
            )
        return value

    return check


def seat(players: int) -> Checker:
    return integer(0, players - 1)


def holder(players: int) -> Checker:
    """A treasury: a seat number, "port", or "supply" (the treasure kept outside the game)."""
    seats = integer(0, players - 1)

    def check(value: Any, field: str) -> int | str:
        if value in ("port", "supply") and isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return seats(value, field)
        raise invalid(
            f'"{field}" must be a seat number (0 to {players - 1}), "port" or "supply".',
            "wrong_type",
            field=field,
            expected="seat, port or supply",
            got=type_name(value),
        )

    return check


def dice(count: int) -> Checker:
    """`count` six-sided dice as a list of their faces, e.g. [3, 5]."""
    face = integer(1, 6)

    def check(value: Any, field: str) -> list[int]:
        if not isinstance(value, list) or len(value) != count:
            raise invalid(
                f'"{field}" must list the {count} dice rolled, e.g. [3, 5].',
                "wrong_type",
                field=field,
                expected=f"list of {count} dice",
                got=type_name(value),
            )
        return [face(v, f"{field}[{i}]") for i, v in enumerate(value)]

    return check


def read_fields(
    value: Any, what: str, required: dict[str, Checker], optional: dict[str, Checker] | None = None
) -> dict[str, Any]:
    """The fields of an object, checked: no unknown key, every required key present, each value well-formed."""
    optional = optional or {}
    if not isinstance(value, dict):
        raise invalid(f"{what} must be an object, not a {type_name(value)}.", "not_an_object", got=type_name(value))
    unknown = sorted(
        (k if isinstance(k, str) and k.isprintable() else repr(k))[:40]
        for k in value
        if k not in required and k not in optional
    )
    if unknown:
        allowed = sorted([*required, *optional])
        raise invalid(
            f"{what} has unknown field(s) {', '.join(unknown)}; its fields are {', '.join(allowed)}.",
            "unknown_field",
            fields=unknown,
            allowed=allowed,
        )
    missing = [k for k in required if k not in value]
    if missing:
        raise invalid(f"{what} needs {', '.join(missing)}.", "missing_field", fields=missing)
    read = {k: check(value[k], k) for k, check in required.items()}
    read.update({k: check(value[k], k) for k, check in optional.items() if k in value})
    return read
