"""Odd year: control of provinces (rulebook "ODD YEAR: CONTROL OF PROVINCES", "BONUS TILES", "TITLES";
rulings 1-8).

The turn's state, under state["turn"]:

    order          [seats in title order]
    index          whose turn it is, as an index into order
    placed         kamons the player has placed this turn (= this year: one turn per odd year)
    hatamoto_used  the Hatamoto has stood in for a troop this turn
"""

from __future__ import annotations

from games.engines.base import Phrase
from games.engines.shitenno.board import (
    BONUS_NAMES,
    BONUSES,
    KAMONS_PER_YEAR,
    POSITIONS,
    PROVINCES,
    TILES_PER_KIND,
    TILES_PER_TROOP,
    TITLE_BONUS,
    TITLE_NAMES,
    TROOP_NAMES,
    Province,
    card_name,
    check_province,
    check_troop,
    check_troop_card,
    illegal,
    invalid,
    ordinal,
)
from games.engines.shitenno.payment import (
    Payment,
    check_payment,
    parse_payment,
    payment_in_words,
    payment_phrase,
    requirement,
)
from games.engines.shitenno.state import (
    add_count,
    check_plausible,
    draw_troop_cards,
    general_name,
    holder,
    take_from_hand,
    take_kokus_from_hand,
    title_order,
    troop_cards_available,
)


def start_year(state: dict) -> None:
    state["phase"] = "provinces"
    state["sharing"] = None
    state["turn"] = {"order": title_order(state), "index": 0, "placed": 0, "hatamoto_used": False}


def to_move(state: dict) -> int:
    turn = state["turn"]
    return turn["order"][turn["index"]]


def next_position(state: dict, province: str) -> int | None:
    """The first free position (1-4, the most on the left), or None when the province is full."""
    taken = len(state["board"][province])
    return taken + 1 if taken < POSITIONS else None


def province_hint(state: dict, province: str) -> dict:
    position = next_position(state, province)
    if position is None:
        return {"position": None, "value": None, "requirement": None, "koku_cost": None, "tiles_left": 0}
    gate = state["gates"][province]
    value = PROVINCES[province].positions[position - 1]
    return {
        "position": position,
        "value": value,
        "requirement": requirement(province, gate["top"]),
        "koku_cost": value,
        "tiles_left": gate["tiles"],
        "top_tile": gate["top"],
    }


def can_place(state: dict, seat: int) -> bool:
    return state["turn"]["placed"] < KAMONS_PER_YEAR and state["stock"][seat] > 0


def open_moves(state: dict) -> list[str]:
    seat = to_move(state)
    moves = []
    if can_place(state, seat) and any(next_position(state, p) for p in PROVINCES):
        moves.append("place")
    if state["hands"][seat]["tiles"]["card_taking"] and troop_cards_available(state):
        moves.append("take_card")
    return moves + ["end_turn"]


def golden_candidates(state: dict, seat: int) -> list[dict]:
    """The Sensei's kamons that may turn golden at the end of the turn (ruling 8)."""
    if holder(state, "sensei") != seat:
        return []
    return [
        {"province": p, "position": i + 1}
        for p, kamons in state["board"].items()
        for i, (owner, face) in enumerate(kamons)
        if owner == seat and face == "simple"
    ]


# --- bonus tiles on the gates -----------------------------------------------------------------------


def _check_tile_taken(state: dict, troop: str, bonus: object) -> str:
    if bonus not in BONUSES:
        raise invalid(
            f'Name the bonus face of the tile taken: "bonus" is one of {", ".join(BONUSES)}.',
            "bonus_missing",
            bonuses=list(BONUSES),
        )
    if state["tiles_taken"][troop][bonus] >= TILES_PER_KIND:
        raise illegal(
            f"Both {TROOP_NAMES[troop]} tiles with the {BONUS_NAMES[bonus]} bonus have already been taken.",
            "bonus_gone",
            troop=troop,
            bonus=bonus,
        )
    return str(bonus)


def _check_tile_revealed(state: dict, troop: object) -> str:
    troop = check_troop(troop, "troop face of the tile revealed")
    shown = sum(n for n in state["tiles_taken"][troop].values()) + sum(
        1 for gate in state["gates"].values() if gate["top"] == troop
    )
    if shown >= TILES_PER_TROOP:
        raise illegal(
            f"All {TILES_PER_TROOP} {TROOP_NAMES[troop]} tiles are already taken or on show.",
            "troop_tiles_gone",
            tiles=TILES_PER_TROOP,
            troop=troop,
        )
    return troop


# --- moves --------------------------------------------------------------------------------------------


def _kamon_to_place(state: dict, seat: int, who: str) -> None:
    """A kamon left in stock, and fewer than KAMONS_PER_YEAR placed this year."""
    if state["stock"][seat] == 0:
        raise illegal(f"{who} has no control kamon left.", "no_kamon_left", general=who)
    if state["turn"]["placed"] >= KAMONS_PER_YEAR:
        raise illegal(
            f"{who} has already placed {KAMONS_PER_YEAR} kamons this year, the most a year allows.",
            "kamons_per_year",
            general=who,
            most=KAMONS_PER_YEAR,
        )


def _free_position(state: dict, province: Province) -> int:
    position = next_position(state, province.slug)
    if position is None:
        raise illegal(
            f"{province.name} is full: all {POSITIONS} positions are taken.",
            "province_full",
            province=province.slug,
            positions=POSITIONS,
        )
    return position


def _bonus_tiles_to_pay(state: dict, seat: int, who: str, payment: Payment) -> None:
    """The Hatamoto tile only for the Hatamoto, once a turn; bonus tiles only as many as held."""
    if payment.hatamoto:
        if holder(state, "hatamoto") != seat:
            raise illegal(
                f"Only the Hatamoto may use the Hatamoto tile; {who} is {TITLE_NAMES[state['titles'][seat]]}.",
                "not_hatamoto",
                general=who,
                title=state["titles"][seat],
            )
        if state["turn"]["hatamoto_used"]:
            raise illegal("The Hatamoto tile may be used only once per turn.", "hatamoto_used")
    tiles = state["hands"][seat]["tiles"]
    for tile in ("exchange", "plus_one"):
        if payment.tiles_used(tile) > tiles[tile]:
            raise illegal(
                f"{who} has {tiles[tile]} {BONUS_NAMES[tile]} {'tile' if tiles[tile] == 1 else 'tiles'}; "
                f"the payment uses {payment.tiles_used(tile)}.",
                "tiles_short",
                general=who,
                held=tiles[tile],
                bonus=tile,
                used=payment.tiles_used(tile),
            )


def _gate_tiles_seen(state: dict, province: Province, gate: dict, move: dict) -> tuple:
    """The tile taken from the gate and the one it reveals, as seen at the table (validated against the 24
    tiles): (bonus, next troop face)."""
    bonus = move.get("bonus")
    next_troop = move.get("next_troop")
    if gate["tiles"]:
        bonus = _check_tile_taken(state, gate["top"], bonus)
    elif bonus is not None:
        raise invalid(
            f'{province.name}\'s last position takes no bonus tile; leave "bonus" out.',
            "no_bonus_here",
            province=province.slug,
        )
    if gate["tiles"] > 1:
        if next_troop is None:
            raise invalid(
                f'Name the troop face of the tile revealed on {province.name}\'s gate ("next_troop").',
                "next_troop_missing",
                province=province.slug,
            )
        next_troop = _check_tile_revealed(state, next_troop)
    elif next_troop is not None:
        raise invalid(
            f'No tile is left beneath on {province.name}\'s gate; leave "next_troop" out.',
            "no_next_troop",
            province=province.slug,
        )
    return bonus, next_troop


def _put_kamon(
    state: dict,
    seat: int,
    province: Province,
    position: int,
    payment: Payment,
    bonus: str | None,
    next_troop: str | None,
) -> None:
    """The paid kamon on the board: the bonus tiles spent, favour for the position and the title, the gate's
    tile taken."""
    turn, tiles, gate = state["turn"], state["hands"][seat]["tiles"], state["gates"][province.slug]
    for tile in ("exchange", "plus_one"):
        tiles[tile] -= payment.tiles_used(tile)
    if payment.hatamoto:
        turn["hatamoto_used"] = True
    state["board"][province.slug].append([seat, "simple"])
    state["stock"][seat] -= 1
    turn["placed"] += 1
    state["scored"][seat]["positions"] += province.positions[position - 1]
    state["scored"][seat]["title_bonus"] += TITLE_BONUS.get(state["titles"][seat], 0)
    if gate["tiles"]:
        tiles[bonus] += 1
        state["tiles_taken"][gate["top"]][bonus] += 1
        gate["tiles"] -= 1
        gate["top"] = next_troop


def place(state: dict, move: dict) -> None:
    """Place a kamon on a province's first free position, paying for it (rulings 1-7)."""
    seat = move["seat"]
    who = general_name(state, seat)
    province = check_province(move.get("province"))
    payment = parse_payment(move.get("payment"))
    _kamon_to_place(state, seat, who)
    position = _free_position(state, province)
    gate = state["gates"][province.slug]
    _bonus_tiles_to_pay(state, seat, who, payment)
    take_from_hand(state, seat, list(payment.troops))
    take_kokus_from_hand(state, seat, list(payment.kokus))
    check_payment(payment, province.slug, position, gate["top"])
    bonus, next_troop = _gate_tiles_seen(state, province, gate, move)
    _put_kamon(state, seat, province, position, payment, bonus, next_troop)


def take_card(state: dict, move: dict) -> None:
    """Card Taking: draw a troop card, hidden, or named if the player shows it (rulebook "CARD TAKING")."""
    seat = move["seat"]
    hand = state["hands"][seat]
    card = move.get("card")
    if card is not None:
        card = check_troop_card(card)
    if not hand["tiles"]["card_taking"]:
        raise illegal(
            f"{general_name(state, seat)} has no Card Taking tile.", "no_card_taking", general=general_name(state, seat)
        )
    if not troop_cards_available(state):
        raise illegal("The troop deck and the discards are empty: there is no card to take.", "no_card_to_take")
    draw_troop_cards(state, 1)
    if card is None:
        hand["hidden"] += 1
    else:
        check_plausible(state, [card])
        add_count(hand["troops"], card)
    hand["tiles"]["card_taking"] -= 1


def end_turn(state: dict, move: dict) -> None:
    """End the turn (a pass if nothing was placed); the Sensei may turn one kamon golden (ruling 8)."""
    seat = move["seat"]
    golden = move.get("golden")
    if golden is not None:
        if not isinstance(golden, dict) or set(golden) - {"province", "position"}:
            raise invalid('"golden" is {"province": ..., "position": 1-4} or null.', "golden_shape")
        province = check_province(golden.get("province"))
        position = golden.get("position")
        if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= POSITIONS:
            raise invalid(
                f'"position" is 1 to {POSITIONS}, counted from the left.', "golden_position", positions=POSITIONS
            )
        if holder(state, "sensei") != seat:
            raise illegal(
                f"Only the Sensei may turn a kamon golden; {general_name(state, seat)} is not the Sensei.",
                "not_sensei",
                general=general_name(state, seat),
            )
        kamons = state["board"][province.slug]
        if position > len(kamons) or kamons[position - 1][0] != seat:
            raise illegal(
                f"{general_name(state, seat)} has no kamon on {province.name}'s {ordinal(position)} position.",
                "golden_not_yours",
                general=general_name(state, seat),
                province=province.slug,
                position=position,
            )
        if kamons[position - 1][1] == "golden":
            raise illegal(
                f"The kamon on {province.name}'s {ordinal(position)} position is already golden.",
                "already_golden",
                province=province.slug,
                position=position,
            )
        kamons[position - 1][1] = "golden"
    turn = state["turn"]
    turn.update(index=turn["index"] + 1, placed=0, hatamoto_used=False)


def year_done(state: dict) -> bool:
    return state["turn"]["index"] >= len(state["turn"]["order"])


def describe(state: dict, move: dict) -> Phrase:
    seat, kind = move["seat"], move["type"]
    who = general_name(state, seat)
    if kind == "place":
        province = PROVINCES[move["province"]]
        position = next_position(state, province.slug) or 0
        payment = parse_payment(move["payment"])
        pool = check_payment(payment, province.slug, position, state["gates"][province.slug]["top"])
        score = province.positions[position - 1] + TITLE_BONUS.get(state["titles"][seat], 0)
        paid = payment_in_words(payment, pool, province.positions[position - 1])
        paid_phrase = payment_phrase(payment, pool, province.positions[position - 1])
        text = f"{who} takes {province.name} {ordinal(position)} position for {paid}: +{score}"
        said = Phrase(
            text,
            "shitenno.describe.place",
            general=who,
            province=province.slug,
            position=position,
            paid=paid_phrase,
            score=score,
        )
        if move.get("bonus"):
            tile = BONUS_NAMES[move["bonus"]]
            text += f"; takes {'an' if tile[0] in 'AEIOU' else 'a'} {tile} tile"
            said = Phrase(text, "shitenno.describe.place_bonus", placed=said, bonus=move["bonus"])
        if move.get("next_troop"):
            text += f", revealing a {TROOP_NAMES[move['next_troop']]}"
            said = Phrase(text, "shitenno.describe.place_reveal", placed=said, troop=move["next_troop"])
        return said
    if kind == "take_card":
        card = move.get("card")
        if card:
            return Phrase(
                f"{who} uses Card Taking and draws a {card_name(card)} card, shown",
                "shitenno.describe.take_card_shown",
                general=who,
                card=card,
            )
        return Phrase(f"{who} uses Card Taking and draws a hidden card", "shitenno.describe.take_card", general=who)
    if kind == "end_turn":
        placed = bool(state["turn"]["placed"])
        verb = "ends the turn" if placed else "passes"
        golden = move.get("golden")
        if golden:
            province = PROVINCES[golden["province"]]
            where = f"{province.name}'s {ordinal(golden['position'])} position"
            return Phrase(
                f"{who} {verb} and turns the kamon on {where} golden",
                "shitenno.describe.end_turn_golden" if placed else "shitenno.describe.pass_golden",
                general=who,
                province=province.slug,
                position=golden["position"],
            )
        return Phrase(
            f"{who} {verb}", "shitenno.describe.end_turn" if placed else "shitenno.describe.pass", general=who
        )
    raise invalid(f"Unknown move type {kind!r}.", "unknown_type", value=repr(kind)[:40], types="")
