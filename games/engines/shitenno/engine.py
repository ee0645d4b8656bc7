"""The Shitennō engine: dispatches moves to the year they belong to, ends years and the game."""

from __future__ import annotations

from games.engines.base import Outcome, Phrase, copy_json
from games.engines.shitenno import provinces, sharing
from games.engines.shitenno.board import GENERALS, PROVINCES, TITLE_NAMES, illegal, invalid
from games.engines.shitenno.scoring import final_count
from games.engines.shitenno.state import (
    RULES_VERSION,
    general_name,
    initial_state,
    unknown_troops,
)

HANDLERS = {
    "draw": sharing.draw,
    "offer": sharing.offer,
    "accept": sharing.accept,
    "refuse": sharing.refuse,
    "split": sharing.split,
    "choose": sharing.choose,
    "place": provinces.place,
    "take_card": provinces.take_card,
    "end_turn": provinces.end_turn,
}
# The fields each move type may carry; any other is a typo or junk, refused rather than silently stored.
FIELDS = {
    "draw": {"troops", "kokus"},
    "offer": {"troops", "kokus", "hierarchy"},
    "accept": set(),
    "refuse": set(),
    "split": {"lots"},
    "choose": {"lot"},
    "place": {"province", "payment", "bonus", "next_troop"},
    "take_card": {"card"},
    "end_turn": {"golden"},
}


def to_move(state: dict) -> int | None:
    if state["phase"] == "sharing":
        return sharing.to_move(state)
    if state["phase"] == "provinces":
        return provinces.to_move(state)
    return None


def open_moves(state: dict) -> list[str]:
    if state["phase"] == "sharing":
        return sharing.open_moves(state)
    if state["phase"] == "provinces":
        return provinces.open_moves(state)
    return []


def check_move(state: dict, move: object) -> tuple[str, int]:
    """The move's type and seat, once its shape is sound and it is that seat's turn to make it."""
    if not isinstance(move, dict):
        raise invalid('A move is an object with "type" and "seat".', "not_an_object")
    kind, seat = move.get("type"), move.get("seat")
    if not isinstance(kind, str) or kind not in HANDLERS:
        raise invalid(
            f"Unknown move type {kind!r}; move types are {', '.join(HANDLERS)}.",
            "unknown_type",
            value=repr(kind)[:40],
            types=", ".join(HANDLERS),
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["generals"]):
        raise invalid(
            f'"seat" is the seat index of the player moving, 0 to {len(state["generals"]) - 1}.',
            "bad_seat",
            last=len(state["generals"]) - 1,
        )
    unknown = set(move) - {"type", "seat"} - FIELDS[kind]
    if unknown:
        takes = ", ".join(sorted(FIELDS[kind])) or "no other field"
        raise invalid(
            f"Unknown field(s) in a {kind} move: {', '.join(sorted(map(str, unknown)))}; it takes {takes}.",
            "unknown_fields",
            type=kind,
            fields=", ".join(sorted(map(str, unknown)))[:80],
            allowed=", ".join(sorted(FIELDS[kind])) or "-",
        )
    if state["phase"] == "over":
        raise illegal("The game is over.", "game_over")
    mover = to_move(state)
    assert mover is not None  # sharing and provinces always have a general to move; "over" was refused above
    if seat != mover:
        raise illegal(
            f"It is {general_name(state, mover)}'s turn, not {general_name(state, seat)}'s.",
            "not_your_turn",
            mover=general_name(state, mover),
            general=general_name(state, seat),
        )
    allowed = open_moves(state)
    if kind not in allowed:
        raise illegal(
            f"{general_name(state, seat)} cannot {kind.replace('_', ' ')} now; open moves: {', '.join(allowed)}.",
            "not_now",
            general=general_name(state, seat),
            move=kind,
            open=list(allowed),
        )
    return kind, seat


def end_input(state: dict) -> dict:
    """The state's end, in the shape final_count() reads."""
    return {
        "generals": state["generals"],
        "titles": dict(zip(state["generals"], state["titles"], strict=True)),
        "favour": state["scored"],
        "provinces": {p: [{"seat": s, "face": f} for s, f in kamons] for p, kamons in state["board"].items()},
        "kokus": [hand["kokus"] for hand in state["hands"]],
        "troops": [
            [card for card, n in sorted(hand["troops"].items()) for _ in range(n)] + ["hidden"] * hand["hidden"]
            for hand in state["hands"]
        ],
        "tiles": [hand["tiles"] for hand in state["hands"]],
        "termination": (state["end"] or {}).get("termination", "final_count"),
    }


def _advance(state: dict) -> None:
    """Close the sharing or the odd year once everyone is done."""
    if state["phase"] == "sharing" and sharing.sharing_done(state):
        # End of the even year: each player takes the title of the hierarchy tile he took.
        state["titles"] = list(state["sharing"]["lots"])
        state["year"] += 1
        provinces.start_year(state)
    elif state["phase"] == "provinces" and provinces.year_done(state):
        termination = None
        if min(state["stock"]) == 0:
            termination = "kamon_stock_empty"
        elif state["last_year"]:
            termination = "koku_deck_exhausted"
        if termination:
            state.update(phase="over", turn=None, end={"termination": termination})
        else:
            state["year"] += 1
            sharing.start_sharing(state)


class ShitennoEngine:
    slug = "shitenno"
    name = "Shitennō"
    min_players = 2
    max_players = 4
    rules_version = RULES_VERSION
    score_unit = "favour"

    def initial_state(self, setup: dict) -> dict:
        state = initial_state(setup)
        sharing.start_sharing(state)
        return state

    def apply(self, state: dict, move: dict) -> dict:
        kind, _ = check_move(state, move)
        new = copy_json(state)
        HANDLERS[kind](new, move)
        _advance(new)
        return new

    def hint(self, state: dict) -> dict:
        seat = to_move(state)
        hint: dict = {
            "phase": state["phase"],
            "year": state["year"],
            "to_move": seat,
            "moves": open_moves(state),
            "titles": {GENERALS[g]: TITLE_NAMES[t] for g, t in zip(state["generals"], state["titles"], strict=True)},
            "stock": list(state["stock"]),
            "favour": self.score(state),
            "hands": copy_json(state["hands"]),
            "provinces": {p: provinces.province_hint(state, p) for p in PROVINCES},
            "unknown_troops": unknown_troops(state),
            "troop_deck": state["troop_deck"],
            "koku_deck": dict(state["koku_deck"]),
            "last_year": state["last_year"],
        }
        if state["phase"] == "sharing":
            s = state["sharing"]
            troops, kokus = sharing.draw_size(state)
            hint["sharing"] = {
                "tairo": s["tairo"],
                "draw": {"troops": troops, "kokus": kokus},
                "table": copy_json(s["table"]),
                "hierarchy": list(s["hierarchy"]),
                "without_lot": sharing.without_lot(state),
                "offer": copy_json(s["offer"]),
                "split": copy_json(s["split"]),
            }
        elif state["phase"] == "provinces" and seat is not None:  # a general is always to move in this phase
            turn = state["turn"]
            hint["turn"] = {
                "placed": turn["placed"],
                "can_place": provinces.can_place(state, seat),
                "hatamoto_available": state["titles"][seat] == "hatamoto" and not turn["hatamoto_used"],
                "golden": provinces.golden_candidates(state, seat),
            }
        return hint

    def outcome(self, state: dict) -> Outcome | None:
        if state["phase"] != "over":
            return None
        return final_count(end_input(state))

    def score(self, state: dict) -> list[int]:
        """Each seat's favour: on the track during the game, the final count's total once it is over."""
        outcome = self.outcome(state)
        if outcome:
            return [row["total"] for row in outcome.details["breakdown"]]
        return [s["positions"] + s["title_bonus"] for s in state["scored"]]

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        """The move in words; `checked=True` when the caller has just applied it, so it is known to be legal."""
        return self.describe_phrase(state, move, checked=checked).text

    def describe_phrase(self, state: dict, move: dict, *, checked: bool = False) -> Phrase:
        """The move in words, as a Phrase: "Year 3 — " and the move's own phrase."""
        if not checked:
            self.apply(state, move)  # a move is described only once it is known to be legal
        kind = move["type"]
        said = (
            provinces.describe(state, move)
            if kind in ("place", "take_card", "end_turn")
            else sharing.describe(state, move)
        )
        return Phrase(f"Year {state['year']} — {said}", "shitenno.year", year=state["year"], move=said)
