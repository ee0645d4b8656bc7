"""What every rules engine offers the site: the Engine protocol, typed errors and results, replay().

An engine is a library: state in, move in, new state or a precise error out. States and moves are
plain JSON values (dicts with str keys, lists, ints, bools, None); engines do no I/O, read no clock and
draw no random numbers. Table randomness (draws, hidden cards) reaches an engine as moves.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class MoveError(Exception):
    """A move the engine will not apply.

    `message` is an English sentence a player understands (the API sends it as it is); `code` names the
    rule broken (e.g. "<slug>.overdraw") and `params` its JSON-serialisable values, so the site can say
    the same thing in the reader's language.
    """

    def __init__(self, message: str, *, code: str = "", params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self._params = params or {}

    @property
    def params(self) -> dict[str, Any]:
        """The rule's values as JSON (Phrases among them as {"code", "params"}); made only when asked for, since
        engines and simulations raise and catch many refusals nobody reads."""
        return phrase_json(dict(self._params))


class Phrase(str):
    """Words the site shows: the English text (the Phrase is that str) with a `code` and `params`.

    Engines speak English (the API and the logs read the text); the site says a phrase in the reader's language
    from its game's catalogue (games/plugins/<slug>/phrases.py), which maps each code to a sentence with the
    same named parameters. A parameter may itself be a Phrase (or a list of them): a move's description is a
    year, a player and a payment, each translated on its own. `to_json()` is what the move log stores.
    """

    code: str
    params: dict[str, Any]

    def __new__(cls, text: str, code: str, **params: Any) -> Phrase:
        phrase = super().__new__(cls, text)
        phrase.code = code
        phrase.params = params
        return phrase

    @property
    def text(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"Phrase({self.code!r}, {self.params!r})"

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": phrase_json(self.params)}


def phrase_json(value: Any) -> Any:
    """A value with its Phrases turned into {"code", "params"} dicts, so it can be stored as JSON."""
    if isinstance(value, Phrase):
        return value.to_json()
    if isinstance(value, dict):
        return {k: phrase_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [phrase_json(v) for v in value]
    return value


class InvalidMove(MoveError):
    """Malformed: wrong shape, unknown names, missing fields."""


class IllegalMove(MoveError):
    """Well-formed, but the rules do not allow it now."""


@dataclass(frozen=True)
class Placing:
    """Where a seat finished: its rank (shared ranks are ties) and its score in the game's own unit."""

    seat: int
    rank: int
    score: int
    # Words naming the victory or tie-break rule that decided this rank, else None: a Phrase (English, with a
    # code the site says in the reader's language) when the engine made it; stored outcomes keep the English.
    tiebreak: str | None = None

    def to_json(self) -> dict[str, Any]:
        tiebreak = None if self.tiebreak is None else str(self.tiebreak)
        return {"seat": self.seat, "rank": self.rank, "score": self.score, "tiebreak": tiebreak}


@dataclass(frozen=True)
class Outcome:
    termination: str
    placings: tuple[Placing, ...]
    details: dict[str, Any] = field(default_factory=dict)  # JSON-serialisable

    def to_json(self) -> dict[str, Any]:
        return {
            "termination": self.termination,
            "placings": [placing.to_json() for placing in self.placings],
            "details": self.details,
        }


@runtime_checkable
class Engine(Protocol):
    slug: str
    name: str
    min_players: int
    max_players: int
    rules_version: str
    score_unit: str  # what the game counts, in English: "victory points", "pips"

    def initial_state(self, setup: dict) -> dict: ...

    def apply(self, state: dict, move: dict) -> dict: ...

    def hint(self, state: dict) -> dict: ...

    def outcome(self, state: dict) -> Outcome | None: ...

    def score(self, state: dict) -> list[int]:
        """Each seat's score so far, in seat order, in the game's own unit."""
        ...

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        """The move in words, in English. An engine may also offer `describe_phrase(state, move, checked=...)`,
        the same words as a Phrase, so the site logs a code it can say in the reader's language."""
        ...


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value: engines copy the state they are given before changing it, so a caller's state
    is never mutated. marshal copies plain dicts, lists, strings and numbers in C, 5-10x faster than walking them
    in Python (a move post copies the whole state); anything else (a subclass, an object) is walked."""
    try:
        return marshal.loads(marshal.dumps(value, 2))  # version 2: no references, so shared lists come apart
    except ValueError:  # marshal refuses what is not exactly one of its types
        return _copy_walked(value)


def _copy_walked(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy_walked(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_walked(v) for v in value]
    return value


def replay(engine: Engine, setup: dict, moves: Iterable[dict]) -> dict:
    """The state reached by applying `moves` in order to the game `setup` describes."""
    state = engine.initial_state(setup)
    for move in moves:
        state = engine.apply(state, move)
    return state
