"""The three victories, checked after every move (rulebook "Winning The Game" and "Adjusting The Game"):

1. Aggression: "If one player acquires 50 treasure they win the game" (or the player's own target).
2. Attrition: "When any 2 of the 5 decks becomes empty the game ends and the player with the most Treasure at
   that moment wins"; "the game ends immediately at the moment the 2nd deck is empty".
3. Longevity: "the game ends at the conclusion of Autumn in Year 3 and the player with the most Treasure at
   that moment wins" (Year 4 by agreement).

"The game ends if any one of the three following victory conditions is met." The rulebook gives no tie-break,
so players tied on most treasure (or reaching their targets with the same entry) share the victory.
"""

from __future__ import annotations

from games.engines.base import Outcome, Phrase, Placing
from games.engines.teikoku.rules import DECKS, DECKS_EMPTY_FOR_ATTRITION

TERMINATIONS = ("aggression", "attrition", "longevity")


def empty_decks(state: dict) -> list[str]:
    return [deck for deck in DECKS if state["decks"][deck] == 0]


def richest(state: dict) -> list[int]:
    most = max(state["treasure"])
    return [seat for seat, treasure in enumerate(state["treasure"]) if treasure == most]


def check(state: dict, *, calendar_over: bool) -> None:
    """End the game (mutates `state`) if a victory has just happened, checked in the rulebook's order."""
    if state["end"] is not None:
        return
    reached = [seat for seat, treasure in enumerate(state["treasure"]) if treasure >= state["targets"][seat]]
    if reached:
        end(state, "aggression", reached)
    elif len(empty_decks(state)) >= DECKS_EMPTY_FOR_ATTRITION:
        end(state, "attrition", richest(state))
    elif calendar_over:
        end(state, "longevity", richest(state))


def end(state: dict, termination: str, winners: list[int]) -> None:
    state["end"] = {"termination": termination, "winners": winners}
    state["turn"] = None


def outcome(state: dict) -> Outcome | None:
    """Winners rank 1 (all of them when shared); the others follow by treasure, for the leagues."""
    if state["end"] is None:
        return None
    termination, winners = state["end"]["termination"], state["end"]["winners"]
    treasure = state["treasure"]
    shared = len(winners) > 1
    words = Phrase(
        f"{'shared ' if shared else ''}victory by {termination}",
        "teikoku.tiebreak.shared_victory" if shared else "teikoku.tiebreak.victory",
        termination=termination,
    )
    others = [seat for seat in range(len(treasure)) if seat not in winners]
    placings = [Placing(seat=seat, rank=1, score=treasure[seat], tiebreak=words) for seat in winners]
    for seat in others:
        ahead = sum(1 for other in others if treasure[other] > treasure[seat])
        placings.append(Placing(seat=seat, rank=1 + len(winners) + ahead, score=treasure[seat]))
    placings.sort(key=lambda p: (p.rank, p.seat))
    return Outcome(
        termination=termination,
        placings=tuple(placings),
        details={
            "winners": list(winners),
            "shared": shared,
            "treasure": list(treasure),
            "targets": list(state["targets"]),
            "port": state["port"]["treasure"],
            "empty_decks": empty_decks(state),
            "year": state["year"],
            "season": state["season"],
        },
    )
