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
    """A move the engine will not apply; `message` is a sentence a player understands."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidMove(MoveError):
    """Malformed: wrong shape, unknown names, missing fields."""


class IllegalMove(MoveError):
    """Well-formed, but the rules do not allow it now."""


@dataclass(frozen=True)
class Placing:
    seat: int
    rank: int
    favour: int
    tiebreak: str | None = None  # words naming the rule that decided this rank, else None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "rank": self.rank, "favour": self.favour, "tiebreak": self.tiebreak}


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

    def initial_state(self, setup: dict) -> dict: ...

    def apply(self, state: dict, move: dict) -> dict: ...

    def hint(self, state: dict) -> dict: ...

    def outcome(self, state: dict) -> Outcome | None: ...

    def favour(self, state: dict) -> list[int]: ...

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str: ...


def replay(engine: Engine, setup: dict, moves: Iterable[dict]) -> dict:
    """The state reached by applying `moves` in order to the game `setup` describes."""
    state = engine.initial_state(setup)
    for move in moves:
        state = engine.apply(state, move)
    return state
