"""Typed values from untrusted input, shared by the API's serializers and the pages' forms (issue 14).

Every surface parses its input in one place: serializers with the strict fields of shitenno_site.api for
bodies, forms for pages, and `query_int` / `query_text` here for query strings. What cannot be parsed is
an `InputError`: a 400 with a sentence saying what is wrong (the API's exception handler and the pages'
handler400 both read it), never a 500 from a value that reached the database or an engine un-typed.
"""

from __future__ import annotations

import datetime
import math
import re
import unicodedata
from collections.abc import Mapping

from django.core.exceptions import BadRequest, ValidationError
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

# Bounds that no real table, league or query comes near; they keep numbers inside the database's columns.
MAX_INT = 2**31 - 1
MAX_MIN_GAMES = 10_000
MAX_POINTS = 1_000_000.0
EARLIEST_DATE = datetime.date(1900, 1, 1)
LATEST_DATE = datetime.date(2999, 12, 31)
IDEMPOTENCY_KEY_LENGTH = 80  # MoveEvent.idempotency_key's column
ASCII_DIGITS = re.compile(r"[0-9]+")  # str.isdigit() also accepts "²", which int() refuses
# Characters that reorder or hide text: a name starting with U+202E reads backwards on every page.
DIRECTION_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# The API schema's patterns for the rules above (JSON Schema regexes: no Unicode classes, so name_problem stays
# the rule; the pattern is what a client can check first). The dates: EARLIEST_DATE to LATEST_DATE's years.
_NOT_IN_NAME = (
    r"\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e"
    r"\u2060-\u2064\u2066-\u2069\u2800\u3164\ufeff\uffa0"
)
NAME_PATTERN = rf"^[^{_NOT_IN_NAME}]*[^{_NOT_IN_NAME}\s][^{_NOT_IN_NAME}]*$"
DATE_PATTERN = r"^(19[0-9]{2}|2[0-9]{3})-"
# Text fields: white space around the text is trimmed before the rule applies (a trailing line break is dropped,
# not refused), so the patterns let any run of it through at either end.
_DIRECTION_RANGES = r"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
TEXT_PATTERN = rf"^\s*[^\u0000-\u001f\u007f-\u009f{_DIRECTION_RANGES}]*\s*$"
FREE_TEXT_PATTERN = rf"^\s*[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f{_DIRECTION_RANGES}]*\s*$"


class InputError(BadRequest):
    """A value the request gave that cannot be read; `field` names it, `message` says what is wrong."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def whole_number(text: str) -> int | None:
    """The number `text` spells in ASCII digits, else None."""
    return int(text) if ASCII_DIGITS.fullmatch(text) else None


def query_int(params: Mapping, name: str, *, default: int, min_value: int = 0, max_value: int = MAX_INT) -> int:
    """A whole-number query parameter (blank = `default`), else InputError."""
    raw = params.get(name, "")
    if not raw.strip():
        return default
    value = whole_number(raw.strip())
    if value is None or not min_value <= value <= max_value:
        raise InputError(
            name,
            _("%(name)s is a whole number from %(min)d to %(max)d.")
            % {"name": name, "min": min_value, "max": max_value},
        )
    return value


def query_text(params: Mapping, name: str, *, default: str = "", max_length: int = 200) -> str:
    """A text query parameter, stripped; NUL and over-long values are refused."""
    value = params.get(name, default).strip()
    if "\x00" in value:
        raise InputError(name, _("%(name)s cannot hold a NUL character.") % {"name": name})
    if len(value) > max_length:
        raise InputError(name, _("%(name)s is at most %(n)d characters.") % {"name": name, "n": max_length})
    return value


def idempotency_key(raw: str | None) -> str | None:
    """An Idempotency-Key as stored (blank = none), or InputError when it cannot be stored as sent."""
    if not raw:
        return None
    if len(raw) > IDEMPOTENCY_KEY_LENGTH or not raw.isprintable():
        raise InputError(
            "Idempotency-Key",
            _("An idempotency key is at most %(n)d printable characters.") % {"n": IDEMPOTENCY_KEY_LENGTH},
        )
    return raw


# Line breaks and tabs are the only control characters a free text (a note, an imported comment) may hold.
MULTILINE_CONTROLS = frozenset("\n\r\t")
# The rule's characters as patterns (one scan of the text each, C-speed: a 2.5 MB body is read in milliseconds).
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_DIRECTION = re.compile("[" + "".join(sorted(DIRECTION_CONTROLS)) + "]")
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")  # Unicode's category Cc, exactly
_CONTROL_BUT_LINES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_DIRECTION_CLASS = "".join(sorted(DIRECTION_CONTROLS))
# Any character the rule refuses, in one scan: a text without one (nearly every text) is passed at once.
_ANY_REFUSED = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_DIRECTION_CLASS}]")
_ANY_REFUSED_BUT_LINES = re.compile(f"[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f\\ud800-\\udfff{_DIRECTION_CLASS}]")


def text_problem(value: str, *, multiline: bool = False) -> str | None:
    """Why a text from any way in (API, page, import, set-up) cannot be stored or shown, else None.

    One rule for every surface (issue 36): NUL (PostgreSQL refuses it in text and jsonb), a lone surrogate (no
    encoder can write it: the database, the JSON renderer and the page all fail on it), characters that reorder
    text (U+202E makes a name read backwards) and other control characters (a BEL in a name) are refused before
    anything is written; `multiline` lets line breaks and tabs through for notes.
    """
    if not (_ANY_REFUSED_BUT_LINES if multiline else _ANY_REFUSED).search(value):
        return None
    if "\x00" in value:
        return _("The text cannot hold a NUL character.")
    if broken := surrogate_problem(value):
        return broken
    if _DIRECTION.search(value):
        return _("The text cannot hold characters that change the direction of the text.")
    if (_CONTROL_BUT_LINES if multiline else _CONTROL).search(value):
        return _("The text cannot hold control characters.")
    return None


def where_problem(where: str, problem: str) -> str:
    """A refusal that says where: "move.note: The text cannot hold control characters." """
    return _("%(where)s: %(problem)s") % {"where": where, "problem": problem} if where else problem


def surrogate_problem(value: str) -> str | None:
    """Why a text cannot even be written back (a lone surrogate: no encoder takes it), else None."""
    if _LONE_SURROGATE.search(value):
        return _("The text holds a broken character (a lone UTF-16 surrogate).")
    return None


def free_text_problem(value: str) -> str | None:
    """text_problem for free text, where line breaks and tabs may stand."""
    return text_problem(value, multiline=True)


def json_text_problem(value: object, *, where: str = "", rule=free_text_problem) -> str | None:
    """The first text in a JSON value (keys and strings, at any depth) that `rule` refuses, as a sentence naming
    its place ("setup.players[0].name: ..."), else None. A refused key is not repeated: it may be the broken text.
    Places are spelt only for the refusal (each is a chain of steps until then)."""
    stack: list[tuple[object, tuple | None]] = [(value, None)]
    while stack:
        item, place = stack.pop()
        if isinstance(item, str):
            problem = rule(item)
        elif isinstance(item, dict):
            problem = next((rule(key) for key in item if isinstance(key, str) and rule(key)), None)
            stack += [(child, (place, key)) for key, child in reversed(item.items())]
        else:
            problem = None
            if isinstance(item, list):
                stack += [(child, (place, i)) for i, child in reversed(list(enumerate(item)))]
        if problem:
            return where_problem(_spelt(where, place), problem)
    return None


def _spelt(where: str, place: tuple | None) -> str:
    """A chain of steps (parent, key or index) as "where.key[0].key"."""
    steps = []
    while place is not None:
        place, step = place
        steps.append(step)
    path = where
    for step in reversed(steps):
        path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else str(step))
    return path


# Characters that show nothing yet are not format characters (Cf): the Hangul fillers are letters (Lo), the braille
# blank a sign (So), the grapheme joiner and the Khmer inherent vowels marks (Mn). "bob" + U+3164 looked like "bob"
# and passed as a name (issue 47, finding 7).
BLANK_LOOKING = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u2800\u3164\uffa0")
# Unicode categories no name may hold: format characters (zero-width spaces and joiners, U+FEFF, the invisible
# operators U+2060-U+2064, U+180E, the direction controls, the soft hyphen), private use (a glyph only some fonts
# draw, or none) and unassigned (drawn by nobody today). Cn is this Python's Unicode version (14.0 on 3.11).
INVISIBLE_CATEGORIES = frozenset({"Cf", "Co", "Cn"})


def invisible_in_name(value: str) -> bool:
    """Whether `value` holds a character a reader cannot see (INVISIBLE_CATEGORIES or BLANK_LOOKING): two names
    that look the same must be the same name, or a member passes for the owner with "Alice" + U+200B. Names only:
    free text keeps its joiners (an emoji sequence or a Persian word in a note needs U+200D or U+200C)."""
    return any(ch in BLANK_LOOKING or unicodedata.category(ch) in INVISIBLE_CATEGORIES for ch in value)


def name_problem(value: str) -> str | None:
    """Why `value` cannot be a name shown to others (a player, club, league or season), else None."""
    if any("\ud800" <= ch <= "\udfff" for ch in value):
        return _("The text holds a broken character (a lone UTF-16 surrogate).")
    if any(ch in DIRECTION_CONTROLS for ch in value):
        return _("A name cannot hold characters that change the direction of the text.")
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        return _("A name cannot hold control characters.")
    if invisible_in_name(value):
        return _(
            "A name cannot hold invisible characters (zero-width spaces, blank fillers and the like): others "
            "could not tell it from a name without them."
        )
    if not any(unicodedata.category(ch)[0] in "LN" for ch in value):
        return _("A name needs at least one visible letter or digit.")
    return None


def validate_name(value: str) -> None:
    """Django validator for name fields of forms and serializers."""
    problem = name_problem(value)
    if problem:
        raise ValidationError(problem, code="invalid_name")


def validate_date(value: datetime.date) -> None:
    if not EARLIEST_DATE <= value <= LATEST_DATE:
        raise ValidationError(
            _("Give a date from %(first)s to %(last)s.")
            % {"first": EARLIEST_DATE.isoformat(), "last": LATEST_DATE.isoformat()},
            code="date_range",
        )


def validate_points(value: float) -> None:
    if not math.isfinite(value) or not -MAX_POINTS <= value <= MAX_POINTS:
        raise ValidationError(
            _("Points are numbers from %(min)d to %(max)d.") % {"min": -MAX_POINTS, "max": MAX_POINTS},
            code="points_range",
        )


def json_problem(value: object, *, max_depth: int = 32) -> str | None:
    """Why a JSON value cannot be stored (too deep, or a number JSON cannot hold), else None; its text is
    json_text_problem's (a NUL, which PostgreSQL refuses in jsonb, among the rest)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > max_depth:
            return _("The JSON is nested more than %(n)d levels deep.") % {"n": max_depth}
        if isinstance(item, float) and not math.isfinite(item):
            return _("Numbers in the JSON are finite.")
        if isinstance(item, dict):
            stack += [(key, depth) for key in item] + [(child, depth + 1) for child in item.values()]
        elif isinstance(item, list):
            stack += [(child, depth + 1) for child in item]
    return None


def next_page(request: HttpRequest) -> str:
    """Where a form sends its user back (`next`, posted or in the query): after signing up from an invite link, or
    after signing a result off on the page the form was on. Only a page of this site, as the log-in page does
    (a `next` off the site is ignored: "" and the caller's own default)."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else ""
