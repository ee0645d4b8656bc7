"""Shitennō's table page: the context of its board, favour track, move panel and final count.

Presentation only, read from the engine's state and hint: the seats with their generals, titles and
hands, the provinces as boxes of the SVG board, the cards on the table during the sharing, and the
outcome's breakdown in the reader's language.
"""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.base import MoveError
from games.engines.shitenno import ShitennoEngine
from games.engines.shitenno import final_count as shitenno_final_count
from games.engines.shitenno.board import (
    GENERALS,
    PROVINCES,
    TITLE_NAMES,
    TROOP_DECK,
    TROOP_NAMES,
    TROOPS,
    card_name,
)
from games.phrases import ordinal

from .board_svg import PITCH, board_svg
from .forms import COLOURS
from .phrases import BONUS_WORDS, CATALOGUE

ENGINE = ShitennoEngine()

TERMINATIONS = {
    "kamon_stock_empty": gettext_lazy("a player placed his last kamon"),
    "koku_deck_exhausted": gettext_lazy("the koku deck ran out"),
    "final_count": gettext_lazy("final count"),
}


def _hand_items(hand: dict) -> tuple[list[dict], list[dict]]:
    """A known hand as tappable cards, each with a form value unique among equal cards."""
    troops = [
        {"value": f"t:{card}:{i}", "name": card_name(card), "troop": card.split("+")[0]}
        for card, n in sorted(hand["troops"].items(), key=lambda kv: list(TROOP_DECK).index(kv[0]))
        for i in range(n)
    ]
    kokus = [{"value": f"k:{v}:{i}", "name": _("Koku %(v)d") % {"v": v}, "v": v} for i, v in enumerate(hand["kokus"])]
    return troops, kokus


def _table_items(cards: dict) -> list[dict]:
    troops = [{"value": f"t:{c}:{i}", "name": card_name(c)} for i, c in enumerate(cards["troops"])]
    kokus = [{"value": f"k:{v}:{i}", "name": _("Koku %(v)d") % {"v": v}} for i, v in enumerate(cards["kokus"])]
    return troops + kokus


def _lot_words(lot: dict) -> str:
    cards = [card_name(c) for c in lot["troops"]] + [_("Koku %(v)d") % {"v": v} for v in lot["kokus"]]
    return _("%(cards)s and the %(tile)s tile") % {
        "cards": ", ".join(cards) or _("no cards"),
        "tile": TITLE_NAMES[lot["hierarchy"]],
    }


def _requirement_words(hint: dict) -> str:
    if not hint["position"]:
        return _("full")
    troops = " + ".join(f"{n} {TROOP_NAMES[t]}" for t, n in hint["requirement"].items())
    return _("%(pos)s position (+%(value)d): %(troops)s, or %(cost)d kokus") % {
        "pos": ordinal(hint["position"]),
        "value": hint["value"],
        "troops": troops,
        "cost": hint["koku_cost"],
    }


def _board_boxes(state: dict, seats: list[dict]) -> list[dict]:
    """Each province as a box of the SVG board: its own troop, its gate, its positions with their kamons."""
    boxes = []
    for n, (slug, province) in enumerate(PROVINCES.items()):
        kamons = state["board"][slug]
        x, y = (n % 2) * 180 + 2, (n // 2) * PITCH + 2
        positions = []
        for i, value in enumerate(province.positions):
            kamon = kamons[i] if i < len(kamons) else None
            positions.append(
                {
                    "cx": x + 24 + i * 42,
                    "cy": y + 74,
                    "value": value,
                    "number": i + 1,
                    "seat": seats[kamon[0]] if kamon else None,
                    "golden": bool(kamon and kamon[1] == "golden"),
                }
            )
        gate = state["gates"][slug]
        boxes.append(
            {
                "slug": slug,
                "name": province.name,
                "troop": TROOP_NAMES[province.troop],
                "size": province.size,
                "x": x,
                "y": y,
                "positions": positions,
                "gate": TROOP_NAMES[gate["top"]] if gate["tiles"] else "",
                "tiles_left": gate["tiles"],
            }
        )
    return boxes


def table_context(state: dict, seat_rows: list, query: QueryDict) -> dict:
    """The board, the favour track and the move panel of a table entered move by move."""
    hint = ENGINE.hint(state)
    favour = hint["favour"]
    seats = []
    for seat in seat_rows:
        i = seat.position
        colour = seat.colour if seat.colour in COLOURS else list(COLOURS)[i]
        hand = state["hands"][i]
        troops, kokus = _hand_items(hand)
        seats.append(
            {
                "index": i,
                "name": seat.player.name,
                "general": GENERALS[state["generals"][i]],
                "colour": colour,
                "fill": COLOURS[colour][1],
                "colour_name": COLOURS[colour][0],
                "title": TITLE_NAMES[state["titles"][i]],
                "stock": state["stock"][i],
                "favour": favour[i],
                "hand": hand,
                "troops": troops,
                "kokus": kokus,
                "reveal_slots": [f"reveal_{n}" for n in range(hand["hidden"])],
                "tiles": [(BONUS_WORDS[b], n) for b, n in hand["tiles"].items() if n],
            }
        )
    context: dict = {"province_choice": query.get("province", "")}
    context.update(
        seats=seats,
        hint=hint,
        state=state,
        board_svg=board_svg(_board_boxes(state, seats), seats),
        favour_max=max([*favour, 1]),
    )
    mover = hint["to_move"]
    if mover is not None:
        context["mover"] = seats[mover]
    if hint["phase"] == "sharing":
        sharing = state["sharing"]
        context["sharing"] = {
            "tairo": seats[sharing["tairo"]],
            "table": _table_items(sharing["table"]) if sharing["table"] else [],
            "hierarchy": [(t, TITLE_NAMES[t]) for t in sharing["hierarchy"]],
            "offer": sharing["offer"] and {"words": _lot_words(sharing["offer"]), "to": seats[sharing["offer"]["to"]]},
            "split": sharing["split"] and [_lot_words(lot) for lot in sharing["split"]],
            "lots": [(seats[i], TITLE_NAMES[t]) for i, t in enumerate(sharing["lots"]) if t],
            "draw": hint["sharing"]["draw"],
        }
        context["deck_cards"] = [(c, card_name(c)) for c in TROOP_DECK]
    elif hint["phase"] == "provinces":
        context["provinces"] = [
            {
                "slug": slug,
                "name": p.name,
                "hint": hint["provinces"][slug],
                "words": _requirement_words(hint["provinces"][slug]),
            }
            for slug, p in PROVINCES.items()
        ]
        context["golden"] = [
            {
                "value": f"{g['province']}:{g['position']}",
                "name": f"{PROVINCES[g['province']].name} {ordinal(g['position'])}",
            }
            for g in hint["turn"]["golden"]
        ]
        context["turn_order"] = [seats[s] for s in state["turn"]["order"]]
    context["troop_choices"] = [(t, TROOP_NAMES[t]) for t in TROOPS]
    context["card_choices"] = [(c, card_name(c)) for c in TROOP_DECK]
    context["bonus_choices"] = list(BONUS_WORDS.items())
    return context


def _tiebreaks(state: dict) -> tuple[dict, dict]:
    """The tie-breaks of the end `state` as Phrases, said in the reader's language: {seat: words} and {province:
    words}, counted again from the state (the stored outcome keeps the English only); empty if it cannot be."""
    try:
        fresh = ENGINE.outcome(state) if "generals" in state else shitenno_final_count(state["final_count"])
    except (MoveError, KeyError, TypeError):
        return {}, {}
    if fresh is None:
        return {}, {}
    seats = {p.seat: CATALOGUE.say_phrase(p.tiebreak) for p in fresh.placings if p.tiebreak}
    provinces = {
        slug: CATALOGUE.say_phrase(m["tiebreak"]) for slug, m in fresh.details["majorities"].items() if m["tiebreak"]
    }
    return seats, provinces


def outcome_context(outcome: dict, names: list[str], state: dict) -> dict:
    """The final count: each seat's rank, favour and breakdown, and who won each province's majority."""
    generals = state["generals"] if "generals" in state else state["final_count"]["generals"]
    seat_tiebreaks, province_tiebreaks = _tiebreaks(state)
    breakdown = outcome["details"]["breakdown"]
    rows = []
    for placing in outcome["placings"]:
        row = breakdown[placing["seat"]]
        rows.append(
            {
                **placing,
                "name": names[placing["seat"]],
                "general": GENERALS[generals[placing["seat"]]],
                "tiebreak": seat_tiebreaks.get(placing["seat"]) or placing["tiebreak"],
                "row": row,
                "majority_names": [PROVINCES[p].name for p in row["majorities"]],
            }
        )
    majorities = []
    for slug, result in outcome["details"]["majorities"].items():
        winner = result["winner"]
        majorities.append(
            {
                "name": PROVINCES[slug].name,
                "winner": None if winner is None else f"{names[winner]} ({GENERALS[generals[winner]]})",
                "weights": result["weights"],
                "tiebreak": province_tiebreaks.get(slug) or result["tiebreak"],
            }
        )
    return {
        "rows": rows,
        "majorities": majorities,
        "winner": rows[0],
        "termination": TERMINATIONS.get(outcome["termination"], outcome["termination"]),
    }
