"""Random legal Teikoku games, played through the engine's hint(), for tests and the site's demo tables.

`random_legal_game(rng, players)` returns (setup, moves): a set-up with the variants drawn at random now and
then, and moves a table could have entered until a victory ends the game. Dice are drawn from `rng` and
written into the moves (as the site's dice roller does), so replaying the moves needs no generator.
"""

from __future__ import annotations

import random

from games.engines.teikoku.engine import TeikokuEngine
from games.engines.teikoku.rules import CLANS_BY_PLAYERS, DECKS, SPECIAL_DECK_SIZE, SPECIAL_DECKS

ENGINE = TeikokuEngine()
MAX_MOVES = 20_000  # a safety net: every game ends long before (at the latest, Autumn of the last year)


def random_setup(rng: random.Random, players: int) -> dict:
    """A set-up the players could agree on; variants now and then."""
    setup: dict = {
        "clans": list(CLANS_BY_PLAYERS[players]),
        "units_deck": rng.randint(3, 40),
        "chosen_specials": [rng.choice(SPECIAL_DECKS) for _ in range(players)],
    }
    if rng.random() < 0.3:
        setup["special_deck_size"] = rng.randint(SPECIAL_DECK_SIZE[players], 20)
    if rng.random() < 0.2:
        setup["starting_treasure"] = rng.randint(10, 30)
    start = setup.get("starting_treasure", 25)
    if rng.random() < 0.2:
        setup["aggression_target"] = [rng.randint(start + 10, start + 35) for _ in range(players)]
    elif rng.random() < 0.1:
        setup["aggression_target"] = rng.randint(start + 10, start + 35)
    if rng.random() < 0.1:
        setup["special_card_cost"] = [rng.randint(3, 7) for _ in range(players)]
    if rng.random() < 0.2:
        setup["years"] = 4
    return setup


def anytime_move(rng: random.Random, state: dict, hint: dict) -> dict:
    """A card effect, correction, deck count, fortification or roll, by any seat."""
    seat = rng.randrange(len(state["clans"]))
    kind = rng.choice(hint["anytime_moves"])
    if kind in ("card_effect", "correction"):
        wealth: dict[int | str, int] = {
            **dict(enumerate(state["treasure"])),
            "port": state["port"]["treasure"],
            "supply": 8,
        }
        source = rng.choice([h for h, held in wealth.items() if held > 0])
        target = rng.choice([h for h in wealth if h != source])
        amount = rng.randint(1, min(wealth[source], 8))
        move = {"type": kind, "seat": seat, "from": source, "to": target, "amount": amount}
        if kind == "card_effect":
            move["card"] = rng.choice(["Tunnels", "Opium Trader", "Tax Collector"])
        if kind == "correction" or rng.random() < 0.3:
            move["note"] = rng.choice(["miscounted", "forgotten payment", "card text"])
        return move
    if kind == "cards_leave":
        decks = [deck for deck in DECKS if state["decks"][deck] > 0]
        deck = rng.choice(decks)
        return {"type": kind, "seat": seat, "deck": deck, "count": 1, "note": "card effect"}
    if kind == "fortify":
        return {"type": kind, "seat": seat, "fortified": rng.random() < 0.3}
    return {
        "type": "roll",
        "seat": seat,
        "dice": [rng.randint(1, 6) for _ in range(rng.randint(1, 4))],
        "rolled_by": "site",
    }


def turn_move(rng: random.Random, state: dict, hint: dict) -> dict:
    """One of the moves open to the player on turn; ending the turn is always among them."""
    seat, limits = hint["to_move"], hint["limits"]
    weights = {
        "end_turn": 4,
        "bounty": 2,
        "acquire": 2,
        "port_attack": 2,
        "raid": 3,
        "commerce": 2,
        "trade": 1,
        "pit_fee": 1,
        "banish": 1,
    }
    kinds = hint["moves"]
    kind = rng.choices(kinds, weights=[weights[k] for k in kinds])[0]
    move: dict = {"type": kind, "seat": seat}
    if kind == "bounty":
        move["blood"] = rng.randint(0, 12)
        if rng.random() < 0.3:
            move["amount"] = rng.randint(0, min(move["blood"], limits["bounty"]["max"]))
    elif kind == "port_attack":
        move["blood"] = rng.randint(1, 12)
    elif kind == "raid":
        move["defender"] = rng.choice(limits["raid"]["defenders"])["seat"]
        move["dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
        move["cubes"] = rng.randint(0, 4)
        move["rolled_by"] = rng.choice(["table", "site"])
    elif kind in ("commerce", "trade"):
        move["deck"] = rng.choice(limits[kind]["decks"])
    elif kind == "pit_fee":
        move["cards"] = rng.randint(1, min(3, limits["pit_fee"]["max_cards"]))
    return move


def random_legal_game(rng: random.Random, players: int | None = None) -> tuple[dict, list[dict]]:
    players = players or rng.choice([2, 3, 4])
    setup = random_setup(rng, players)
    state = ENGINE.initial_state(setup)
    moves: list[dict] = []
    while state["end"] is None and len(moves) < MAX_MOVES:
        hint = ENGINE.hint(state)
        chooser = anytime_move if rng.random() < 0.04 else turn_move
        move = chooser(rng, state, hint)
        state = ENGINE.apply(state, move)
        moves.append(move)
    return setup, moves
