"""Odd year: control of provinces (rulebook "ODD YEAR: CONTROL OF PROVINCES", "BONUS TILES", "TITLES";
rulings 1-8).

The turn's state, under state["turn"]:

    order          [seats in title order]
    index          whose turn it is, as an index into order
    placed         kamons the player has placed this turn (= this year: one turn per odd year)
    hatamoto_used  the Hatamoto has stood in for a troop this turn
"""

from __future__ import annotations

from games.engines.base import IllegalMove, InvalidMove
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
    card_name,
    check_province,
    check_troop,
    check_troop_card,
    ordinal,
)
from games.engines.shitenno.payment import check_payment, parse_payment, payment_in_words, requirement
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
        raise InvalidMove(f'Name the bonus face of the tile taken: "bonus" is one of {", ".join(BONUSES)}.')
    if state["tiles_taken"][troop][bonus] >= TILES_PER_KIND:
        raise IllegalMove(
            f"Both {TROOP_NAMES[troop]} tiles with the {BONUS_NAMES[bonus]} bonus have already been taken."
        )
    return str(bonus)


def _check_tile_revealed(state: dict, troop: object) -> str:
    troop = check_troop(troop, "troop face of the tile revealed")
    shown = sum(n for n in state["tiles_taken"][troop].values()) + sum(
        1 for gate in state["gates"].values() if gate["top"] == troop
    )
    if shown >= TILES_PER_TROOP:
        raise IllegalMove(f"All {TILES_PER_TROOP} {TROOP_NAMES[troop]} tiles are already taken or on show.")
    return troop


# --- moves --------------------------------------------------------------------------------------------


def place(state: dict, move: dict) -> None:
    """Place a kamon on a province's first free position, paying for it (rulings 1-7)."""
    seat = move["seat"]
    who = general_name(state, seat)
    turn = state["turn"]
    province = check_province(move.get("province"))
    payment = parse_payment(move.get("payment"))
    if state["stock"][seat] == 0:
        raise IllegalMove(f"{who} has no control kamon left.")
    if turn["placed"] >= KAMONS_PER_YEAR:
        raise IllegalMove(
            f"{who} has already placed {KAMONS_PER_YEAR} kamons this year, the most a year allows."
        )
    position = next_position(state, province.slug)
    if position is None:
        raise IllegalMove(f"{province.name} is full: all {POSITIONS} positions are taken.")
    gate = state["gates"][province.slug]

    if payment.hatamoto:
        if holder(state, "hatamoto") != seat:
            raise IllegalMove(
                f"Only the Hatamoto may use the Hatamoto tile; {who} is {TITLE_NAMES[state['titles'][seat]]}."
            )
        if turn["hatamoto_used"]:
            raise IllegalMove("The Hatamoto tile may be used only once per turn.")
    tiles = state["hands"][seat]["tiles"]
    for tile in ("exchange", "plus_one"):
        if payment.tiles_used(tile) > tiles[tile]:
            raise IllegalMove(
                f"{who} has {tiles[tile]} {BONUS_NAMES[tile]} tile(s); "
                f"the payment uses {payment.tiles_used(tile)}."
            )
    take_from_hand(state, seat, list(payment.troops))
    take_kokus_from_hand(state, seat, list(payment.kokus))
    check_payment(payment, province.slug, position, gate["top"])

    # The tile taken and the one it reveals, as seen at the table (validated against the 24 tiles).
    bonus = move.get("bonus")
    next_troop = move.get("next_troop")
    taken_troop = gate["top"]
    if gate["tiles"]:
        bonus = _check_tile_taken(state, taken_troop, bonus)
    elif bonus is not None:
        raise InvalidMove(f'{province.name}\'s last position takes no bonus tile; leave "bonus" out.')
    if gate["tiles"] > 1:
        if next_troop is None:
            raise InvalidMove(
                f'Name the troop face of the tile revealed on {province.name}\'s gate ("next_troop").'
            )
        next_troop = _check_tile_revealed(state, next_troop)
    elif next_troop is not None:
        raise InvalidMove(f'No tile is left beneath on {province.name}\'s gate; leave "next_troop" out.')

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
        state["tiles_taken"][taken_troop][bonus] += 1
        gate["tiles"] -= 1
        gate["top"] = next_troop


def take_card(state: dict, move: dict) -> None:
    """Card Taking: draw a troop card, hidden, or named if the player shows it (rulebook "CARD TAKING")."""
    seat = move["seat"]
    hand = state["hands"][seat]
    card = move.get("card")
    if card is not None:
        card = check_troop_card(card)
    if not hand["tiles"]["card_taking"]:
        raise IllegalMove(f"{general_name(state, seat)} has no Card Taking tile.")
    if not troop_cards_available(state):
        raise IllegalMove("The troop deck and the discards are empty: there is no card to take.")
    draw_troop_cards(state, 1)
    if card is None:
        hand["hidden"] += 1
    else:
        check_plausible(state, [card], "drawn")
        add_count(hand["troops"], card)
    hand["tiles"]["card_taking"] -= 1


def end_turn(state: dict, move: dict) -> None:
    """End the turn (a pass if nothing was placed); the Sensei may turn one kamon golden (ruling 8)."""
    seat = move["seat"]
    golden = move.get("golden")
    if golden is not None:
        if not isinstance(golden, dict) or set(golden) - {"province", "position"}:
            raise InvalidMove('"golden" is {"province": ..., "position": 1-4} or null.')
        province = check_province(golden.get("province"))
        position = golden.get("position")
        if not isinstance(position, int) or isinstance(position, bool) or not 1 <= position <= POSITIONS:
            raise InvalidMove(f'"position" is 1 to {POSITIONS}, counted from the left.')
        if holder(state, "sensei") != seat:
            raise IllegalMove(
                f"Only the Sensei may turn a kamon golden; {general_name(state, seat)} is not the Sensei."
            )
        kamons = state["board"][province.slug]
        if position > len(kamons) or kamons[position - 1][0] != seat:
            raise IllegalMove(
                f"{general_name(state, seat)} has no kamon on {province.name}'s {ordinal(position)} position."
            )
        if kamons[position - 1][1] == "golden":
            raise IllegalMove(
                f"The kamon on {province.name}'s {ordinal(position)} position is already golden."
            )
        kamons[position - 1][1] = "golden"
    turn = state["turn"]
    turn.update(index=turn["index"] + 1, placed=0, hatamoto_used=False)


def year_done(state: dict) -> bool:
    return state["turn"]["index"] >= len(state["turn"]["order"])


def describe(state: dict, move: dict) -> str:
    seat, kind = move["seat"], move["type"]
    who = general_name(state, seat)
    if kind == "place":
        province = PROVINCES[move["province"]]
        position = next_position(state, province.slug) or 0
        payment = parse_payment(move["payment"])
        pool = check_payment(payment, province.slug, position, state["gates"][province.slug]["top"])
        score = province.positions[position - 1] + TITLE_BONUS.get(state["titles"][seat], 0)
        paid = payment_in_words(payment, pool, province.positions[position - 1])
        text = f"{who} takes {province.name} {ordinal(position)} position for {paid}: +{score}"
        if move.get("bonus"):
            tile = BONUS_NAMES[move["bonus"]]
            text += f"; takes {'an' if tile[0] in 'AEIOU' else 'a'} {tile} tile"
        if move.get("next_troop"):
            text += f", revealing a {TROOP_NAMES[move['next_troop']]}"
        return text
    if kind == "take_card":
        card = move.get("card")
        shown = f"a {card_name(card)} card, shown" if card else "a hidden card"
        return f"{who} uses Card Taking and draws {shown}"
    if kind == "end_turn":
        verb = "ends the turn" if state["turn"]["placed"] else "passes"
        golden = move.get("golden")
        if golden:
            province = PROVINCES[golden["province"]]
            where = f"{province.name}'s {ordinal(golden['position'])} position"
            return f"{who} {verb} and turns the kamon on {where} golden"
        return f"{who} {verb}"
    raise InvalidMove(f"Unknown move type {kind!r}.")
