"""The move vocabulary: each move type's fields, its handler, and reading a move strictly.

Every move is {"type": ..., "seat": ..., ...fields}. Moves of a phase are made by the player whose turn it
is; card effects, corrections, cards leaving a deck, fortification and dice rolls may be entered at any time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.engines.teikoku import table, treasure
from games.engines.teikoku.calendar import end_turn
from games.engines.teikoku.checks import illegal, invalid, read_fields, seat
from games.engines.teikoku.rules import MAX_NOTE

Fields = dict[str, Any]  # "required"/"optional" field specs, and a roll's dice
# type: (fields for n players, handler returning True when the calendar has run out, made at any time)
MOVES: dict[str, tuple[Callable[[int], Fields], Callable[[dict, dict], Any], bool]] = {
    "end_turn": (lambda n: {"required": {}}, lambda state, move: end_turn(state, move["seat"]), False),
    "bounty": (lambda n: treasure.BOUNTY, treasure.bounty, False),
    "acquire": (lambda n: table.ACQUIRE, table.acquire, False),
    "port_attack": (lambda n: treasure.PORT_ATTACK, treasure.port_attack, False),
    "raid": (treasure.raid_fields, treasure.raid, False),
    "commerce": (lambda n: treasure.DECK_CHOICE, treasure.commerce, False),
    "trade": (lambda n: treasure.DECK_CHOICE, treasure.trade, False),
    "pit_fee": (lambda n: treasure.PIT, treasure.pit_fee, False),
    "banish": (lambda n: table.BANISH, table.banish, False),
    "card_effect": (lambda n: treasure.transfer_fields(n, note_required=False), treasure.card_effect, True),
    "correction": (lambda n: treasure.transfer_fields(n, note_required=True), treasure.correction, True),
    "cards_leave": (lambda n: table.CARDS_LEAVE, table.cards_leave, True),
    "fortify": (lambda n: table.FORTIFY, table.fortify, True),
    "roll": (lambda n: table.ROLL, table.roll, True),
}
ANYTIME = tuple(kind for kind, (_, _, anytime) in MOVES.items() if anytime)


def read_move(state: dict, move: Any) -> dict:
    """The move, checked field by field (InvalidMove) and against the game being over (IllegalMove)."""
    if not isinstance(move, dict):
        raise invalid('A move is an object with "type" and "seat".', "not_an_object")
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVES:
        shown = repr(kind) if isinstance(kind, str) and len(kind) <= MAX_NOTE else "that"
        raise invalid(
            f"Unknown move type {shown}; move types are {', '.join(MOVES)}.",
            "unknown_type",
            allowed=list(MOVES),
        )
    fields = MOVES[kind][0](len(state["clans"]))
    read = read_fields(
        move,
        f"A {kind} move",
        {"type": lambda v, f: v, "seat": seat(len(state["clans"])), **fields["required"]},
        fields.get("optional", {}),
    )
    if state["end"] is not None:
        raise illegal("The game is over.", "game_over", termination=state["end"]["termination"])
    return read


def play(state: dict, move: dict) -> bool:
    """Apply a read move to `state` (mutates it); True when Autumn of the last year has just ended."""
    return bool(MOVES[move["type"]][1](state, move))
