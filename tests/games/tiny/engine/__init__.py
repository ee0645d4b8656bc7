"""Pile's rules: a game registered only in the tests (tests/games/tiny), never in the site.

Two to six seats take turns adding one to three stones to a shared pile; the seat whose stones make the pile
reach the goal wins, the others share second place. Small on purpose: it exists so the shared tests meet a game
they were not written for (six seats, no final-count calculator, no statistics, its own Dutch), the way a fourth
game would. Like the site's engines it is pure Python and turns any JSON into a precise MoveError.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalMove, InvalidMove, Outcome, Phrase, Placing

MAX_GOAL = 60


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class PileEngine:
    slug, name, min_players, max_players, rules_version, score_unit = "pile", "Pile", 2, 6, "1", "stones"

    def initial_state(self, setup: dict) -> dict:
        if not isinstance(setup, dict):
            raise InvalidMove("The set-up is a JSON object.", code="pile.setup")
        players, goal = setup.get("players"), setup.get("goal", 10)
        if not _whole(players) or not self.min_players <= players <= self.max_players:
            raise InvalidMove(
                "Pile seats 2 to 6 players.",
                code="pile.players",
                params={"low": self.min_players, "high": self.max_players},
            )
        if not _whole(goal) or not 3 <= goal <= MAX_GOAL:
            raise InvalidMove("The goal is 3 to 60 stones.", code="pile.goal", params={"high": MAX_GOAL})
        return {"goal": goal, "pile": 0, "taken": [0] * players, "turn": 0, "winner": None}

    def apply(self, state: dict, move: dict) -> dict:
        if not isinstance(move, dict) or move.get("type") != "add":
            raise InvalidMove('A move adds stones: {"type": "add", ...}.', code="pile.move")
        stones, seat = move.get("stones"), move.get("seat")
        if not _whole(stones) or not 1 <= stones <= 3:
            raise InvalidMove("Add 1 to 3 stones.", code="pile.stones")
        if state["winner"] is not None:
            raise IllegalMove("The pile is complete: the game is over.", code="pile.over")
        if seat != state["turn"] or not _whole(seat):
            raise IllegalMove(
                f"It is seat {state['turn'] + 1}'s turn.", code="pile.turn", params={"seat": state["turn"] + 1}
            )
        taken = list(state["taken"])
        taken[seat] += stones
        pile = state["pile"] + stones
        return {
            **state,
            "pile": pile,
            "taken": taken,
            "turn": (seat + 1) % len(taken),
            "winner": seat if pile >= state["goal"] else None,
        }

    def hint(self, state: dict) -> dict:
        over = state["winner"] is not None
        return {
            "to_move": None if over else state["turn"],
            "moves": [] if over else ["add"],
            "left": max(state["goal"] - state["pile"], 0),
        }

    def outcome(self, state: dict) -> Outcome | None:
        if state["winner"] is None:
            return None
        placings = [
            Placing(seat, 1 if seat == state["winner"] else 2, taken, "goal" if seat == state["winner"] else None)
            for seat, taken in enumerate(state["taken"])
        ]
        return Outcome("goal", tuple(sorted(placings, key=lambda p: (p.rank, p.seat))))

    def score(self, state: dict) -> list[int]:
        return list(state["taken"])

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        return str(self.describe_phrase(state, move, checked=checked))

    def describe_phrase(self, state: dict, move: dict, *, checked: bool = False) -> Phrase:
        return Phrase(
            f"Seat {move['seat'] + 1} adds {move['stones']} stones",
            "pile.describe.add",
            seat=move["seat"] + 1,
            stones=move["stones"],
        )


ENGINE = PileEngine()
