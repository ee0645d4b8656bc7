"""A simulated Shitennō table that plays complete legal games, driven by the engine's hint().

The table holds the real, shuffled decks and bonus tiles (as players would), so every draw, every
hidden card revealed and every tile turned over is something that could happen at a real table; the
players' choices are random. `random_legal_game(seed, players)` returns (setup, moves).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from games.engines.base import MoveError
from games.engines.shitenno import ShitennoEngine, deal_titles
from games.engines.shitenno.board import (
    BONUSES,
    GENERALS,
    KOKU_DECK,
    PROVINCES,
    TILES_PER_GATE,
    TILES_PER_KIND,
    TROOP_DECK,
    TROOPS,
    troops_on,
)

ENGINE = ShitennoEngine()


class Table:
    """The physical components: decks and gate stacks in their shuffled order, and the true hands."""

    def __init__(self, rng: random.Random, players: int) -> None:
        self.rng = rng
        self.troop_deck = [card for card, n in TROOP_DECK.items() for _ in range(n)]
        rng.shuffle(self.troop_deck)
        self.discard: list[str] = []
        self.koku_deck = [int(v) for v, n in KOKU_DECK.items() for _ in range(n)]
        rng.shuffle(self.koku_deck)
        tiles = [(t, b) for t in TROOPS for b in BONUSES for _ in range(TILES_PER_KIND)]
        rng.shuffle(tiles)
        self.gates = {p: [tiles.pop() for _ in range(TILES_PER_GATE)] for p in PROVINCES}
        self.hidden: list[list[str]] = [[self.draw_troop(), self.draw_troop()] for _ in range(players)]

    def draw_troop(self) -> str:
        if not self.troop_deck:
            self.troop_deck, self.discard = self.discard, []
            self.rng.shuffle(self.troop_deck)
        return self.troop_deck.pop()


def _subsets(items: list, limit: int) -> list[tuple]:
    found = []
    for size in range(1, len(items) + 1):
        for combo in itertools.combinations(items, size):
            found.append(combo)
            if len(found) >= limit:
                return found
    return found


def _candidate_payments(rng: random.Random, hint: dict, hand_cards: list[str], kokus: list[int]) -> list[dict]:
    """Payments worth trying; the engine decides which are legal."""
    tiles = hint["hands"][hint["to_move"]]["tiles"]
    candidates: list[dict] = []
    for size in range(1, len(kokus) + 1):
        for combo in itertools.combinations(sorted(kokus, reverse=True), size):
            candidates.append({"kokus": list(combo)})
            if tiles["plus_one"]:
                candidates.append({"kokus": list(combo), "bonuses": [{"tile": "plus_one", "on": "koku"}]})
    for cards in _subsets(hand_cards, 400):
        candidates.append({"troops": list(cards)})
        extra: list[tuple[str, Any]] = []
        if hint["turn"]["hatamoto_available"]:
            extra.append(("hatamoto", rng.choice(TROOPS)))
        if tiles["plus_one"]:
            played = sorted({t for c in cards for t in troops_on(c)})
            extra.append(("bonuses", [{"tile": "plus_one", "on": rng.choice(played)}]))
        if tiles["exchange"]:
            played = sorted({t for c in cards for t in troops_on(c)})
            extra.append(("bonuses", [{"tile": "exchange", "from": rng.choice(played), "to": rng.choice(TROOPS)}]))
        for key, value in extra:
            candidates.append({"troops": list(cards), key: value})
    rng.shuffle(candidates)
    return candidates


def _share(rng: random.Random, table: Table, state: dict, hint: dict) -> dict:
    seat, sharing = hint["to_move"], hint["sharing"]
    kind = hint["moves"][0] if len(hint["moves"]) == 1 else rng.choice(hint["moves"])
    if kind == "draw":
        troops = [table.draw_troop() for _ in range(sharing["draw"]["troops"])]
        kokus = [table.koku_deck.pop() for _ in range(sharing["draw"]["kokus"])]
        return {"type": "draw", "seat": seat, "troops": troops, "kokus": kokus}
    if kind == "offer":
        cards = [("troops", c) for c in sharing["table"]["troops"]] + [("kokus", v) for v in sharing["table"]["kokus"]]
        lot = rng.sample(cards, rng.randint(0, len(cards)))
        return {
            "type": "offer",
            "seat": seat,
            "troops": [c for k, c in lot if k == "troops"],
            "kokus": [c for k, c in lot if k == "kokus"],
            "hierarchy": rng.choice(sharing["hierarchy"]),
        }
    if kind == "split":
        lots: list[dict] = [{"troops": [], "kokus": []}, {"troops": [], "kokus": []}]
        for key in ("troops", "kokus"):
            for card in sharing["table"][key]:
                lots[rng.randint(0, 1)][key].append(card)
        first, second = rng.sample(sharing["hierarchy"], 2)
        lots[0]["hierarchy"], lots[1]["hierarchy"] = first, second
        return {"type": "split", "seat": seat, "lots": lots}
    if kind == "choose":
        return {"type": "choose", "seat": seat, "lot": rng.randint(0, 1)}
    return {"type": kind, "seat": seat}  # accept / refuse


def _province_move(rng: random.Random, table: Table, state: dict, hint: dict) -> dict:
    seat = hint["to_move"]
    hand = hint["hands"][seat]
    if "take_card" in hint["moves"] and rng.random() < 0.5:
        card = table.draw_troop()
        if rng.random() < 0.5:
            table.hidden[seat].append(card)
            return {"type": "take_card", "seat": seat, "card": None}
        return {"type": "take_card", "seat": seat, "card": card}
    if "place" in hint["moves"] and rng.random() < 0.85:
        cards = [c for c, n in sorted(hand["troops"].items()) for _ in range(n)] + table.hidden[seat]
        open_provinces = [p for p, info in hint["provinces"].items() if info["position"]]
        rng.shuffle(open_provinces)
        for province in open_provinces[:3]:
            for payment in _candidate_payments(rng, hint, cards, hand["kokus"])[:250]:
                move = _place_move(table, province, hint, seat, payment)
                try:
                    ENGINE.apply(state, move)
                except MoveError:
                    continue
                _reveal(table, seat, hand, payment)
                _take_tile(table, province)
                return move
    golden = hint["turn"]["golden"]
    if golden and rng.random() < 0.7:
        return {"type": "end_turn", "seat": seat, "golden": rng.choice(golden)}
    return {"type": "end_turn", "seat": seat}


def _place_move(table: Table, province: str, hint: dict, seat: int, payment: dict) -> dict:
    move: dict = {"type": "place", "seat": seat, "province": province, "payment": payment}
    stack = table.gates[province]
    if stack:
        move["bonus"] = stack[0][1]
    if len(stack) > 1:
        move["next_troop"] = stack[1][0]
    return move


def _take_tile(table: Table, province: str) -> None:
    if table.gates[province]:
        table.gates[province].pop(0)


def _reveal(table: Table, seat: int, hand: dict, payment: dict) -> None:
    """Cards paid beyond those known come out of the true hidden hand."""
    known = dict(hand["troops"])
    for card in payment.get("troops", []):
        if known.get(card):
            known[card] -= 1
        else:
            table.hidden[seat].remove(card)
        table.discard.append(card)


def random_legal_game(seed: int, players: int) -> tuple[dict, list[dict]]:
    """A complete legal game for `players` players, played at random from random.Random(seed)."""
    rng = random.Random(seed)
    generals = rng.sample(list(GENERALS), players)
    table = Table(rng, players)
    setup = {
        "players": [{"general": g} for g in generals],
        "titles": deal_titles(generals, rng),
        "gates": {p: stack[0][0] for p, stack in table.gates.items()},
    }
    state = ENGINE.initial_state(setup)
    moves = []
    while ENGINE.outcome(state) is None:
        hint = ENGINE.hint(state)
        if hint["phase"] == "sharing":
            move = _share(rng, table, state, hint)
        else:
            move = _province_move(rng, table, state, hint)
        state = ENGINE.apply(state, move)
        moves.append(move)
    return setup, moves
