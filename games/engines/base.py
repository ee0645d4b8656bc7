"""What every rules engine offers the site: the Engine protocol, typed errors and results, replay().

An engine is a library: state in, move in, new state or a precise error out. States and moves are
plain JSON values (dicts with str keys, lists, ints, bools, None); engines do no I/O, read no clock and
draw no random numbers. Table randomness (draws, hidden cards) reaches an engine as moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class MoveError(Exception):
    """A move the engine will not apply.

    `message` is an English sentence a player understands (the API sends it as it is); `code` names the
    rule broken (e.g. "teikoku.overdraw") and `params` its JSON-serialisable values, so the site can say
    the same thing in the reader's language.
    """

    def __init__(self, message: str, *, code: str = "", params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = dict(params or {})


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
    tiebreak: str | None = None  # words naming the victory or tie-break rule that decided this rank, else None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "rank": self.rank, "score": self.score, "tiebreak": self.tiebreak}


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
    score_unit: str  # what the game counts, in English: "favour", "treasure", "victory points"

    def initial_state(self, setup: dict) -> dict: ...

    def apply(self, state: dict, move: dict) -> dict: ...

    def hint(self, state: dict) -> dict: ...

    def outcome(self, state: dict) -> Outcome | None: ...

    def score(self, state: dict) -> list[int]:
        """Each seat's score so far, in seat order, in the game's own unit."""
        ...

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str: ...


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (much faster than copy.deepcopy on small dicts and lists): engines copy the
    state they are given before changing it, so a caller's state is never mutated."""
    if isinstance(value, dict):
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_json(v) for v in value]
    return value


def replay(engine: Engine, setup: dict, moves: Iterable[dict]) -> dict:
    """The state reached by applying `moves` in order to the game `setup` describes."""
    state = engine.initial_state(setup)
    for move in moves:
        state = engine.apply(state, move)
    return state
