"""The state of a Small Samurai Empires table, and its set-up.

rules_version  str
mode           "multiplayer" | "solo"
board          the club's board set-up, checked (board.check_board)
parties        [{"name", "training_ground" (1-5 or None), "ai" (None, "yellow", "blue")}]
               multiplayer: the seats; solo: the player (party 0), the yellow AI (1), the blue AI (2)
era            1..3
phase          multiplayer: "era_score" | "final_score" | "over";
               solo: "planning" | "resolution" | "era_score" | "final_score" | "over"
turn_order     [party] for this era
orders         [[party] per era played]   the turn order each era was played in
sheet          {"eras": [[era row per party] per era], "final": [final row per party] | None}
rng, solo      solo only: the generator {"seed", "position"} and the table (solo.py)
"""

from __future__ import annotations

from games.engines.base import IllegalMove
from games.engines.samurai_empires.board import AIS, TRAINING_GROUNDS, check_board
from games.engines.samurai_empires.checks import check_choice, check_int, check_list, check_object, check_text

RULES_VERSION = "rise-of-tokugawa-en+site-rulings-1"
MODES = ("multiplayer", "solo")
SEED_LIMIT = (1 << 63) - 1


def _check_players(value: object, solo: bool) -> list[dict]:
    players = check_list(value, "players", shortest=1, longest=5)
    out = []
    for i, player in enumerate(players):
        p = check_object(player, f"Player {i + 1}", required=("name",), optional=("training_ground",))
        ground = p.get("training_ground")
        if ground is not None:
            ground = check_int(ground, f"Player {i + 1}'s Training Ground", low=1, high=len(TRAINING_GROUNDS))
        out.append({"name": check_text(p["name"], f"Player {i + 1}'s name"), "training_ground": ground, "ai": None})
    grounds = [p["training_ground"] for p in out if p["training_ground"] is not None]
    if len(set(grounds)) != len(grounds):
        raise IllegalMove(
            "Each house has its own Training Ground: two players cannot share one.",
            code="samurai_empires.shared_training_ground",
        )
    if solo and len(out) != 1:
        raise IllegalMove(
            "The solo mode has one player against the two AIs.",
            code="samurai_empires.solo_players",
            params={"players": len(out)},
        )
    if len({p["name"] for p in out}) != len(out):
        raise IllegalMove("Every player needs their own name.", code="samurai_empires.duplicate_player")
    return out


def initial_state(setup: object) -> dict:
    from games.engines.samurai_empires import solo  # the solo table's set-up lives beside its moves

    fields = ("mode", "players", "board")
    s = check_object(setup, "The set-up", required=fields, optional=("turn_order", "seed", "seeding"))
    mode = check_choice(s["mode"], "mode", MODES)
    is_solo = mode == "solo"
    players = _check_players(s["players"], is_solo)
    board = check_board(s["board"], solo=is_solo)
    if len(players) == 5 and len(board["regions"]) != 5:
        raise IllegalMove(
            "When playing with 5 players you must use the New Region.", code="samurai_empires.new_region_needed"
        )
    state: dict = {
        "rules_version": RULES_VERSION,
        "mode": mode,
        "board": board,
        "parties": players,
        "era": 1,
        "phase": "era_score",
        "turn_order": list(range(len(players))),
        "orders": [],
        "sheet": {"eras": [], "final": None},
    }
    if not is_solo:
        for extra in ("seed", "seeding"):
            if extra in s:
                raise IllegalMove(f'"{extra}" belongs to the solo mode.', code="samurai_empires.solo_only")
        if "turn_order" in s:
            order = [
                check_int(p, "turn_order", high=len(players) - 1)
                for p in check_list(s["turn_order"], "turn_order", shortest=len(players), longest=len(players))
            ]
            if sorted(order) != list(range(len(players))):
                raise IllegalMove(
                    "The first era's turn order names every seat once.", code="samurai_empires.turn_order"
                )
            state["turn_order"] = order
        return state
    if "turn_order" in s:
        raise IllegalMove(
            "In the solo mode the player is last in the first era's turn order.", code="samurai_empires.solo_turn_order"
        )
    state["parties"] += [{"name": f"{ai.capitalize()} AI", "training_ground": None, "ai": ai} for ai in AIS]
    state["turn_order"] = [1, 2, 0]  # "Both of the AI's play before the player."
    state["rng"] = {"seed": check_int(s.get("seed"), "seed", high=SEED_LIMIT), "position": 0}
    solo.set_up(state, s.get("seeding"))
    return state
