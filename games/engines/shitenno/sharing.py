"""Even year: the sharing in Edo (rulebook "EVEN YEAR: THE SHARING"; rulings 9 and 10).

The sharing's state, under state["sharing"]:

    tairo      seat of the Tairō (always the highest-titled player still without a lot)
    table      None before the draw, then {"troops": [cards], "kokus": [values]} not yet in a lot
    hierarchy  [hierarchy tiles (title slugs) not yet in a lot]
    lots       [title slug of the hierarchy tile each seat took, or None]
    offer      None, or the lot on offer: {"troops", "kokus", "hierarchy", "to": seat, "refused_by": [seats]}
    split      None, or the Tairō's two lots [{"troops", "kokus", "hierarchy"}, {...}] awaiting a choice
"""

from __future__ import annotations

from games.engines.base import Phrase
from games.engines.shitenno.board import (
    DRAW_BY_PLAYERS,
    TITLE_NAMES,
    TITLES,
    check_koku,
    check_troop_card,
    illegal,
    in_card_order,
    invalid,
)
from games.engines.shitenno.state import (
    add_count,
    cards_in_words,
    cards_phrase,
    check_plausible,
    count_of,
    draw_troop_cards,
    general_name,
    title_order,
    troop_cards_available,
)


def start_sharing(state: dict) -> None:
    order = title_order(state)
    state["phase"] = "sharing"
    state["turn"] = None
    state["sharing"] = {
        "tairo": order[0],
        "table": None,
        "hierarchy": list(TITLES),
        "lots": [None] * len(order),
        "offer": None,
        "split": None,
    }


def without_lot(state: dict) -> list[int]:
    """Seats still without a lot, in title order; the first is the Tairō."""
    lots = state["sharing"]["lots"]
    return [seat for seat in title_order(state) if lots[seat] is None]


def draw_size(state: dict) -> tuple[int, int]:
    """How many troop and koku cards the Tairō must draw: the table's count, or what is left (ruling 10)."""
    troops, kokus = DRAW_BY_PLAYERS[len(state["generals"])]
    return min(troops, troop_cards_available(state)), min(kokus, sum(state["koku_deck"].values()))


def to_move(state: dict) -> int:
    sharing = state["sharing"]
    if sharing["offer"]:
        return sharing["offer"]["to"]
    if sharing["split"]:
        return without_lot(state)[1]
    return sharing["tairo"]


def open_moves(state: dict) -> list[str]:
    sharing = state["sharing"]
    if sharing["table"] is None:
        return ["draw"]
    if sharing["offer"]:
        return ["accept", "refuse"]
    if sharing["split"]:
        return ["choose"]
    return ["split"] if len(without_lot(state)) == 2 else ["offer"]


# --- reading lots -------------------------------------------------------------------------------------


LOT_NAMES = {"The draw": "draw", "A lot": "lot", "Lot A": "lot_a", "Lot B": "lot_b"}  # for the site's words


def _cards(move: dict, key: str = "The draw") -> tuple[list[str], list[int]]:
    troops, kokus = move.get("troops", []), move.get("kokus", [])
    if not isinstance(troops, list) or not isinstance(kokus, list):
        raise invalid(
            f'{key}: "troops" and "kokus" must be lists, e.g. {{"troops": ["bushi+sohei"], "kokus": [1, 2]}}.',
            "cards_not_lists",
            what=LOT_NAMES[key],
        )
    return [check_troop_card(c) for c in troops], [check_koku(v) for v in kokus]


def _lot(state: dict, move: dict, what: str) -> dict:
    if not isinstance(move, dict):
        raise invalid(
            f"{what} must be an object with troops, kokus and hierarchy.", "lot_not_an_object", what=LOT_NAMES[what]
        )
    troops, kokus = _cards(move, what)
    tile = move.get("hierarchy")
    if tile not in TITLES:
        raise invalid(
            f'{what} needs a "hierarchy" tile: one of {", ".join(TITLES)}.',
            "lot_hierarchy",
            what=LOT_NAMES[what],
            titles=", ".join(TITLES),
        )
    if tile not in state["sharing"]["hierarchy"]:
        raise illegal(f"The {TITLE_NAMES[tile]} hierarchy tile is already in a lot.", "hierarchy_taken", title=tile)
    return {"troops": in_card_order(troops), "kokus": sorted(kokus), "hierarchy": tile}


def _take_from_table(state: dict, lot: dict) -> None:
    table = state["sharing"]["table"]
    troops, kokus = count_of(table["troops"]), count_of([str(v) for v in table["kokus"]])
    for card in lot["troops"]:
        if troops.get(card, 0) == 0:
            raise illegal(
                f"The cards to share hold no more {cards_in_words([card], [])} card.", "no_more_card", card=card
            )
        add_count(troops, card, -1)
    for value in lot["kokus"]:
        if kokus.get(str(value), 0) == 0:
            raise illegal(f"The cards to share hold no more Koku {value} card.", "no_more_koku", value=value)
        add_count(kokus, str(value), -1)
    table["troops"] = in_card_order([c for c, n in troops.items() for _ in range(n)])
    table["kokus"] = sorted(int(v) for v, n in kokus.items() for _ in range(n))
    state["sharing"]["hierarchy"].remove(lot["hierarchy"])


def lot_in_words(lot: dict) -> str:
    cards = cards_in_words(lot["troops"], lot["kokus"])
    return f"{cards} and the {TITLE_NAMES[lot['hierarchy']]} tile"


def lot_phrase(lot: dict) -> Phrase:
    return Phrase(
        lot_in_words(lot), "shitenno.lot", cards=cards_phrase(lot["troops"], lot["kokus"]), title=lot["hierarchy"]
    )


def _give_lot(state: dict, seat: int, lot: dict) -> None:
    hand = state["hands"][seat]
    for card in lot["troops"]:
        add_count(hand["troops"], card)
    hand["kokus"] = sorted(hand["kokus"] + lot["kokus"])
    state["sharing"]["lots"][seat] = lot["hierarchy"]


# --- moves --------------------------------------------------------------------------------------------


def draw(state: dict, move: dict) -> None:
    """The Tairō's draw, as dealt at the real table: {"troops": [cards], "kokus": [values]}."""
    troops, kokus = _cards(move)
    want_troops, want_kokus = draw_size(state)
    if len(troops) != want_troops or len(kokus) != want_kokus:
        raise illegal(
            f"The Tairō's draw is troop cards: {want_troops}, koku cards: {want_kokus}; "
            f"the move has {len(troops)} and {len(kokus)}.",
            "draw_size",
            troops=want_troops,
            kokus=want_kokus,
            got_troops=len(troops),
            got_kokus=len(kokus),
        )
    for value, n in count_of([str(v) for v in kokus]).items():
        if n > state["koku_deck"][value]:
            left = state["koku_deck"][value]
            raise illegal(
                f"The koku deck holds only {left} {'card' if left == 1 else 'cards'} worth {value}.",
                "koku_deck_short",
                left=state["koku_deck"][value],
                value=int(value),
            )
    draw_troop_cards(state, len(troops))
    check_plausible(state, troops)
    for koku in kokus:
        state["koku_deck"][str(koku)] -= 1
    if sum(state["koku_deck"].values()) == 0:
        state["last_year"] = True
    state["sharing"]["table"] = {"troops": in_card_order(troops), "kokus": sorted(kokus)}


def offer(state: dict, move: dict) -> None:
    lot = _lot(state, move, "A lot")
    _take_from_table(state, lot)
    lot["to"] = without_lot(state)[1]
    lot["refused_by"] = []
    state["sharing"]["offer"] = lot


def accept(state: dict, move: dict) -> None:
    sharing = state["sharing"]
    lot = sharing["offer"]
    _give_lot(state, lot["to"], lot)
    sharing["offer"] = None


def refuse(state: dict, move: dict) -> None:
    sharing = state["sharing"]
    lot = sharing["offer"]
    lot["refused_by"].append(lot["to"])
    still_to_ask = [seat for seat in without_lot(state)[1:] if seat not in lot["refused_by"]]
    if still_to_ask:
        lot["to"] = still_to_ask[0]
        return
    # Refused by all: the Tairō keeps it, and the next player without a lot becomes Tairō.
    _give_lot(state, sharing["tairo"], lot)
    sharing["offer"] = None
    sharing["tairo"] = without_lot(state)[0]


def split(state: dict, move: dict) -> None:
    lots = move.get("lots")
    if not isinstance(lots, list) or len(lots) != 2:
        raise invalid('A split is {"lots": [lot, lot]}: two lots, each with a hierarchy tile.', "split_shape")
    for lot in lots:
        if isinstance(lot, dict) and set(lot) - {"troops", "kokus", "hierarchy"}:
            raise invalid(
                'Each lot of a split is {"troops": [...], "kokus": [...], "hierarchy": ...}.', "split_lot_shape"
            )
    first = _lot(state, lots[0], "Lot A")
    second = _lot(state, lots[1], "Lot B")
    if first["hierarchy"] == second["hierarchy"]:
        raise illegal("Each of the two lots needs its own hierarchy tile.", "split_same_tile")
    _take_from_table(state, first)
    _take_from_table(state, second)
    table = state["sharing"]["table"]
    if table["troops"] or table["kokus"]:
        raise illegal(
            f"The two lots share out every remaining card; {cards_in_words(table['troops'], table['kokus'])} "
            "would be left over.",
            "split_leftover",
            cards=cards_phrase(table["troops"], table["kokus"]),
        )
    state["sharing"]["split"] = [first, second]


def choose(state: dict, move: dict) -> None:
    choice = move.get("lot")
    if not isinstance(choice, int) or isinstance(choice, bool) or choice not in (0, 1):
        raise invalid('Choose a lot with "lot": 0 (lot A) or 1 (lot B).', "choose_shape")
    sharing = state["sharing"]
    tairo, chooser = without_lot(state)
    _give_lot(state, chooser, sharing["split"][choice])
    _give_lot(state, tairo, sharing["split"][1 - choice])
    sharing["split"] = None


def sharing_done(state: dict) -> bool:
    return all(tile is not None for tile in state["sharing"]["lots"])


def describe(state: dict, move: dict) -> Phrase:
    sharing = state["sharing"]
    kind = move["type"]
    who = general_name(state, move["seat"])
    if kind == "draw":
        troops, kokus = _cards(move)
        cards = cards_phrase(in_card_order(troops), sorted(kokus))
        return Phrase(f"{who}, Tairō, draws {cards}", "shitenno.describe.draw", general=who, cards=cards)
    if kind == "offer":
        to = general_name(state, without_lot(state)[1])
        lot = lot_phrase(_lot(state, move, "A lot"))
        return Phrase(f"{who} offers {to} a lot: {lot}", "shitenno.describe.offer", general=who, to=to, lot=lot)
    if kind == "accept":
        lot = lot_phrase(sharing["offer"])
        return Phrase(f"{who} accepts the lot: {lot}", "shitenno.describe.accept", general=who, lot=lot)
    if kind == "refuse":
        lot = sharing["offer"]
        refusers = lot["refused_by"] + [lot["to"]]
        if all(seat in refusers for seat in without_lot(state)[1:]):
            tairo = general_name(state, sharing["tairo"])
            return Phrase(
                f"{who} refuses the lot; refused by all, {tairo} keeps it",
                "shitenno.describe.refuse_last",
                general=who,
                tairo=tairo,
            )
        return Phrase(f"{who} refuses the lot", "shitenno.describe.refuse", general=who)
    if kind == "split":
        a, b = (lot_phrase(_lot(state, lot, "A lot")) for lot in move["lots"])
        return Phrase(f"{who} splits the rest: lot A {a}; lot B {b}", "shitenno.describe.split", general=who, a=a, b=b)
    if kind == "choose":
        lots = sharing["split"]
        mine, theirs = lot_phrase(lots[move["lot"]]), lot_phrase(lots[1 - move["lot"]])
        letter = "AB"[move["lot"]]
        tairo = general_name(state, sharing["tairo"])
        return Phrase(
            f"{who} chooses lot {letter} ({mine}); {tairo} takes {theirs}",
            "shitenno.describe.choose",
            general=who,
            letter=letter,
            mine=mine,
            tairo=tairo,
            theirs=theirs,
        )
    raise invalid(f"Unknown move type {kind!r}.", "unknown_type", value=repr(kind)[:40], types="")
