"""Tables for the Small Samurai Empires tests: a club's board set-up and a simulated table.

The region values and influence tables below are a test club's entries, not the printed numbers
(which the seed does not give); the engine only does arithmetic on whatever the club enters.
"""

from __future__ import annotations

import json
import random

from games.engines.samurai_empires import SamuraiEmpiresEngine

ENGINE = SamuraiEmpiresEngine()
REGION_NAMES = ("Tohoku", "Kanto", "Chubu", "Kansai")  # north to south


def region(name: str, values: list[int], spaces: list[str] | None = None) -> dict:
    """A region with a Capital, a Shrine and three resource slots, north to south."""
    out = {
        "name": name,
        "values": values,
        "influence_points": [0, 1, 2, 4, 7],
        "provinces": [
            {"name": f"{name} Capital", "kind": "capital"},
            {"name": f"{name} North", "kind": "resource"},
            {"name": f"{name} Shrine", "kind": "shrine"},
            {"name": f"{name} Middle", "kind": "resource"},
            {"name": f"{name} South", "kind": "resource"},
        ],
    }
    if spaces is not None:
        out["spaces"] = spaces
    return out


SPACES = ["attack", "harvest", "recruit", "move"]
BOARD = {"regions": [region(n, [6, 3, 1]) for n in REGION_NAMES]}
NEW_REGION_BOARD = {"regions": BOARD["regions"] + [region("Kyushu", [5, 2])]}
SOLO_BOARD = {
    "regions": [region(n, [6, 3, 1], SPACES) for n in REGION_NAMES],
    "order_tokens": {"attack": 2, "harvest": 2, "recruit": 2, "castle": 2},
    "destiny_deck": {n: 4 for n in REGION_NAMES},
    "seed_tokens": {"bushido": 6, "food": 6},
}


def players(n: int, grounds: bool = True) -> list[dict]:
    names = ["Aiko", "Ren", "Sora", "Hana", "Kenji"]
    return [{"name": names[i], **({"training_ground": i + 1} if grounds else {})} for i in range(n)]


def multiplayer(n: int = 3, **extra) -> dict:
    return {"mode": "multiplayer", "players": players(n), "board": NEW_REGION_BOARD if n == 5 else BOARD, **extra}


def solo_setup(seed: int = 7, **extra) -> dict:
    return {
        "mode": "solo",
        "players": [{"name": "Aiko", "training_ground": 1}],
        "board": SOLO_BOARD,
        "seed": seed,
        **extra,
    }


def era(n: int, scores: list[dict]) -> dict:
    return {"type": "era_score", "era": n, "scores": scores}


def final(scores: list[dict]) -> dict:
    return {"type": "final_score", "scores": scores}


def influence(pos: int = 0, names=REGION_NAMES) -> dict:
    return {name: pos for name in names}


def play(state: dict, *moves: dict) -> dict:
    for move in moves:
        state = ENGINE.apply(state, move)
    return state


def random_era_entry(rng: random.Random, state: dict, party: int) -> dict:
    entry: dict = {
        "regions": {
            r["name"]: rng.randint(1, len(r["values"])) for r in state["board"]["regions"] if rng.random() < 0.5
        },
        "shrines": rng.randint(0, 4),
    }
    if state["parties"][party]["training_ground"] is not None:
        archers = rng.randint(0, 3)
        entry["trained"] = {"archers": archers, "elites": rng.randint(0, 2)}
        entry["sieges"] = rng.randint(0, min(archers, 3 * (len(state["parties"]) - 1)))
    if rng.random() < 0.2:
        # never 0: the score sheet's form records no "other" line worth nothing
        entry["other"] = [{"points": rng.randint(-2, 5) or 1, "note": "destiny card"}]
    return entry


def random_final_entry(rng: random.Random, state: dict, party: int) -> dict:
    entry: dict = {
        "influence": {r["name"]: rng.randint(0, len(r["influence_points"]) - 1) for r in state["board"]["regions"]},
        "resource_points": rng.randint(0, 3),
    }
    if state["parties"][party]["ai"] is None:
        entry["resources"] = {"bushido": rng.randint(0, 3), "food": rng.randint(0, 3)}
    return entry


def random_legal_move(rng: random.Random, state: dict) -> dict:
    """A move the table could make now, chosen at random (the player's choices in solo are random too)."""
    hint = ENGINE.hint(state)
    moves = hint["moves"]
    n = len(state["parties"])
    if "era_score" in moves:
        return era(state["era"], [random_era_entry(rng, state, p) for p in range(n)])
    if "final_score" in moves:
        return final([random_final_entry(rng, state, p) for p in range(n)])
    if "ai_step" in moves:
        return {"type": "ai_step"}
    if "resolve" in moves:
        destroyed = {}
        for ai, own in hint["solo"]["ais"].items():
            if own["armies"] and rng.random() < 0.3:
                province = rng.choice(sorted(own["armies"]))
                destroyed[ai] = {province: 1}
        return {"type": "resolve", "destroyed": destroyed}
    if "pass" in moves:
        return {"type": "pass"}
    solo = state["solo"]
    open_spaces = [
        (name, i + 1)
        for name, spaces in solo["spaces"].items()
        for i, stack in enumerate(spaces)
        if not stack or (len(stack) == 1 and stack[0]["party"] not in solo["covered"])
    ]
    name, space = rng.choice(open_spaces)
    return {"type": "place", "region": name, "space": space}


def random_legal_game(seed: int, mode: str = "solo", n: int = 3) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    setup = solo_setup(seed) if mode == "solo" else multiplayer(n)
    state = ENGINE.initial_state(setup)
    moves = []
    while ENGINE.outcome(state) is None:
        move = random_legal_move(rng, state)
        state = ENGINE.apply(state, move)
        moves.append(move)
    return setup, moves


# Seeding entered from the table: every region has a Bushido and a Food (6 of each on 12 slots).
SEEDING = {
    "Tohoku North": "bushido",
    "Tohoku Middle": "food",
    "Tohoku South": "bushido",
    "Kanto North": "food",
    "Kanto Middle": "bushido",
    "Kanto South": "food",
    "Chubu North": "bushido",
    "Chubu Middle": "food",
    "Chubu South": "bushido",
    "Kansai North": "food",
    "Kansai Middle": "bushido",
    "Kansai South": "food",
}
YELLOW, BLUE, PLAYER = 1, 2, 0
STEP = {"type": "ai_step"}


def solo_table(seed: int = 7) -> dict:
    return ENGINE.initial_state(solo_setup(seed, seeding=SEEDING))


def stack_deck(state: dict, ai: str, *cards: tuple[str, str]) -> dict:
    """The same table with these cards on top of the AI's deck (as if the shuffle had put them there)."""
    state = json.loads(json.dumps(state))
    own = state["solo"]["ais"][ai]
    top = [list(c) for c in cards]
    size = max(len(own["deck"]), len(top))
    rest = [c for c in own["deck"] + own["unused"] if c not in top]
    own["deck"] = top + rest[: size - len(top)]
    own["unused"] = rest[size - len(top) :]
    return state
