"""What the page needs to offer the right buttons: whose turn, the season's rules, and each movement's limits.

over, termination, winners          the end, once a victory has happened
year, years, season, season_name, phase, phase_name, first_player, to_move, turn_order
moves                               phase moves open to `to_move` now ("end_turn" first); [] once over
anytime_moves                       card_effect, correction, cards_leave, fortify, roll
season_rules                        attacks_on_players, port_open, draw, hand_limit, autumn_banish, text
treasure, targets                   per seat
port                                {"treasure", "bounty" (gainable now), "waiting" (paid in, not yet bounty)}
decks, empty_decks, decks_to_attrition, port_row, fortified, raided, created
limits                              for the player on turn:
    bounty {allowed, max}  acquire {allowed}  port_attack {allowed, max}
    raid {allowed, defenders: [{seat, treasure, max_loot}], cubes: [0, 4]}
    commerce {allowed, cost, transactions_left, decks}  trade {allowed, transactions_left, decks}
    pit_fee {allowed, per_card, max_cards}  banish {allowed}
"""

from __future__ import annotations

from games.engines.teikoku.calendar import turn_order
from games.engines.teikoku.moves import ANYTIME
from games.engines.teikoku.rules import (
    BATTLE_CUBES,
    DECKS_EMPTY_FOR_ATTRITION,
    PHASE_NAMES,
    PIT_FEE,
    SEASON_NAMES,
    SEASON_TEXT,
    SPECIAL_DECKS,
    TRANSACTIONS_PER_TURN,
    season_rules,
)
from games.engines.teikoku.treasure import available_bounty
from games.engines.teikoku.victory import empty_decks

MAX_LOOT = 2 * 6 + BATTLE_CUBES  # "a maximum of 16 treasure (12+4 from 2D6 + 4 unused cubes)"


def limits(state: dict, seat: int | None) -> dict:
    """Each movement's limits for the player on turn (all closed once the game is over)."""
    phase, rules = state["phase"], season_rules(state["season"])
    playing = seat is not None
    bounty = available_bounty(state)
    port_open = playing and phase == "port" and rules["port_open"]
    wealth = state["treasure"][seat] if playing else 0
    left = TRANSACTIONS_PER_TURN - state["turn"]["transactions"] if playing else 0
    decks = [deck for deck in SPECIAL_DECKS if state["decks"][deck] > 0]
    cost = state["special_card_cost"][seat] if playing else 0
    commerce_turn = playing and phase == "commerce"
    defenders = []
    if playing and phase == "war" and rules["attacks_on_players"]:
        defenders = [
            {"seat": other, "treasure": state["treasure"][other], "max_loot": min(MAX_LOOT, state["treasure"][other])}
            for other in range(len(state["clans"]))
            if other != seat and other not in state["raided"] and not state["fortified"][other]
        ]
    return {
        "bounty": {"allowed": port_open and state["port_row"] > 0, "max": bounty},
        "acquire": {"allowed": port_open and state["port_row"] > 0},
        "port_attack": {"allowed": port_open and state["decks"]["units"] == 0, "max": bounty},
        "raid": {"allowed": bool(defenders), "defenders": defenders, "cubes": [0, BATTLE_CUBES]},
        "commerce": {
            "allowed": commerce_turn and left > 0 and bool(decks) and wealth >= cost,
            "cost": cost,
            "transactions_left": left,
            "decks": decks,
        },
        "trade": {"allowed": commerce_turn and left > 0 and bool(decks), "transactions_left": left, "decks": decks},
        "pit_fee": {
            "allowed": commerce_turn and wealth >= PIT_FEE,
            "per_card": PIT_FEE,
            "max_cards": wealth // PIT_FEE,
        },
        "banish": {
            "allowed": playing and phase == "movement" and rules["autumn_banish"] and not state["turn"]["banished"]
        },
    }


def hint(state: dict) -> dict:
    over = state["end"] is not None
    seat = None if over else state["turn"]["seat"]
    season = state["season"]
    limit = limits(state, seat)
    moves = [] if over else ["end_turn"] + [kind for kind, open_ in limit.items() if open_["allowed"]]
    port = state["port"]
    empty = empty_decks(state)
    return {
        "over": over,
        "termination": state["end"]["termination"] if over else None,
        "winners": list(state["end"]["winners"]) if over else [],
        "year": state["year"],
        "years": state["years"],
        "season": season,
        "season_name": SEASON_NAMES[season],
        "phase": state["phase"],
        "phase_name": PHASE_NAMES[state["phase"]],
        "first_player": state["first_player"],
        "to_move": seat,
        "turn_order": turn_order(state),
        "moves": moves,
        "anytime_moves": [] if over else list(ANYTIME),
        "season_rules": {**season_rules(season), "text": SEASON_TEXT[season]},
        "treasure": list(state["treasure"]),
        "targets": list(state["targets"]),
        "port": {
            "treasure": port["treasure"],
            "bounty": available_bounty(state),
            "waiting": port["treasure"] - available_bounty(state),
        },
        "decks": dict(state["decks"]),
        "empty_decks": empty,
        "decks_to_attrition": max(0, DECKS_EMPTY_FOR_ATTRITION - len(empty)),
        "port_row": state["port_row"],
        "fortified": list(state["fortified"]),
        "raided": list(state["raided"]),
        "created": state["created"],
        "limits": limit,
    }
