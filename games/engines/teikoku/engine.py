"""The Teikoku engine: reads a move, applies it to a copy of the state, then checks the victories."""

from __future__ import annotations

from games.engines.base import Outcome, Phrase, copy_json
from games.engines.teikoku import describe as sentences
from games.engines.teikoku import hint as hints
from games.engines.teikoku import moves, victory
from games.engines.teikoku.rules import RULES_VERSION
from games.engines.teikoku.setup import initial_state


class TeikokuEngine:
    slug = "teikoku"
    name = "Teikoku"
    min_players = 2
    max_players = 4
    rules_version = RULES_VERSION
    score_unit = "treasure"

    def initial_state(self, setup: dict) -> dict:
        return initial_state(setup)

    def _applied(self, state: dict, move: dict) -> tuple[dict, dict]:
        read = moves.read_move(state, move)
        new = copy_json(state)
        calendar_over = moves.play(new, read)
        victory.check(new, calendar_over=calendar_over)
        return new, read

    def apply(self, state: dict, move: dict) -> dict:
        return self._applied(state, move)[0]

    def hint(self, state: dict) -> dict:
        return hints.hint(state)

    def outcome(self, state: dict) -> Outcome | None:
        return victory.outcome(state)

    def score(self, state: dict) -> list[int]:
        """Each seat's treasure: what every victory counts."""
        return list(state["treasure"])

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        """The move in words; it is applied again to know its effect, so an illegal move raises MoveError
        whatever `checked` says."""
        return self.describe_phrase(state, move, checked=checked).text

    def describe_phrase(self, state: dict, move: dict, *, checked: bool = False) -> Phrase:
        """The move in words as a Phrase (code and params for the site's languages)."""
        after, read = self._applied(state, move)
        return sentences.describe_phrase(state, after, read)
