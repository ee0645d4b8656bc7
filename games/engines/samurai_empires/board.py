"""What the Rise of Tokugawa rulebook prints (quoted in docs/rules/samurai-empires.md), and the club's board set-up.

The base game's printed numbers and map are not in the seed, so they are never guessed here: the
regions (north to south), each region's points by place, its final influence-points table, its
provinces (north to south) and, for the solo mode, its order-token spaces with the neutral action
printed beside each, the AIs' order tokens and the destiny deck come from the board set-up the
players (or their club) enter. check_board() turns that set-up into the engine's board dict.
"""

from __future__ import annotations

from typing import Any

from games.engines.base import IllegalMove
from games.engines.samurai_empires.checks import (
    check_choice,
    check_int,
    check_list,
    check_object,
    check_text,
)

ERAS = 3
TOKENS_PER_ROUND = (3, 2)  # "3 Order tokens in the first round and 2 Order tokens in the second round"
ARMIES_PER_HOUSE = 16  # "16 Samurai Meeples"
CASTLES_PER_HOUSE = 3  # "3 Castle Meeples"
ARCHERS_PER_PLAYER = 3  # "15 Archer Meeples (3 per player)"
GENERALS_PER_PLAYER = 1
SIEGE_POINTS = 1  # "If an Archer is besieging an opponent's Castle, their owner gains 1 VP at the end of each era."
AI_PROVINCE_LIMIT = 3  # "The maximum limit of Armies in one province is 3 for the AI."
BASE_REGIONS = 4
NEW_REGION_REGIONS = 5  # "When playing with 5 players you must use the New Region components."

# Destiny cards drawn "before Era 1 / after Era 1 / after Era 2 / after Era 3"; the first 4 are one per region.
DESTINY_SCHEDULE = (4, 2, 2, 1)
EVEN_DESTINY = (2, 4, 6)  # "each time you add the 2nd, 4th or 6th destiny card ... add 1 location card"

LOCATIONS = ("capital", "bushido", "food", "shrine")  # the 4 location cards of each region (16 per AI)
LOCATION_NAMES = {"capital": "Capital", "bushido": "Bushido", "food": "Food", "shrine": "Shrine"}
PROVINCE_KINDS = ("capital", "shrine", "resource")  # a resource slot holds a Bushido or a Food seed token
RESOURCES = ("bushido", "food")
TOKEN_ACTIONS = ("attack", "harvest", "recruit", "castle")  # an AI's tokens: its 11 less the 3 Move tokens
AI_TOKENS = 8
NEUTRAL_ACTIONS = ("attack", "harvest", "recruit", "move")
ACTION_NAMES = {
    "attack": "Attack",
    "harvest": "Harvest",
    "recruit": "Recruit Armies",
    "castle": "Build a Castle",
    "move": "Move",
}
AIS = ("yellow", "blue")

TRAINING_GROUNDS: dict[int, dict[str, str]] = {
    1: {
        "elite": "Immediately move your Elite up to 2 spaces.",
        "general": "Destroy Armies (friendly included) from the region until there is 1 Army (from each player) "
        "in each province.",
    },
    2: {
        "elite": "Recruit another Samurai Army with this Elite.",
        "general": "Destroy all opponent Armies in a province in this region.",
    },
    3: {
        "elite": "Destroy 1 opponent Army in an adjacent province.",
        "general": "Move any number of Armies to this province (from any other region).",
    },
    4: {
        "elite": "Move 2 opponent Armies from one adjacent province to another adjacent province.",
        "general": "Gain the regional resources, then kill 2 opponent Armies in this region.",
    },
    5: {
        "elite": "Choose and play a neutral action from an already placed Order token.",
        "general": "Move the General 1 space and destroy all Armies in the province it ends its turn in.",
    },
}
# What training costs and does, as printed ("Archer (Cost 1 Bushido)", "Elite (Cost 1 Food)", ...).
ARMY_TYPES = {
    "samurai": "Samurai Army: power 1.",
    "archer": "Archer (1 Bushido): power 1, 2 when besieging an opponent's Castle; 1 VP each era it besieges one.",
    "elite": "Elite (1 Food): power 1, its Training Ground's ability when recruited.",
    "general": "General (1 Food, 1 Bushido and a trained Archer or Elite): power 2, +1 region influence, "
    "moves 1 extra space, its Training Ground's ability when recruited.",
}


def _check_region(value: object, index: int, solo: bool) -> dict:
    what = f"Region {index + 1}"
    region = check_object(
        value, what, required=("name", "values", "influence_points", "provinces"), optional=("spaces",)
    )
    values = check_list(region["values"], f"{what} values", shortest=1, longest=6)
    influence = check_list(region["influence_points"], f"{what} influence_points", shortest=1, longest=40)
    provinces = check_list(region["provinces"], f"{what} provinces", shortest=1, longest=20)
    out: dict[str, Any] = {
        "name": check_text(region["name"], f"{what} name"),
        "values": [check_int(v, f"{what} value", high=999) for v in values],
        "influence_points": [check_int(v, f"{what} influence point", high=999) for v in influence],
        "provinces": [],
        "spaces": [],
    }
    for i, province in enumerate(provinces):
        p = check_object(province, f"{what} province {i + 1}", required=("name", "kind"))
        out["provinces"].append(
            {
                "name": check_text(p["name"], f"{what} province {i + 1} name"),
                "kind": check_choice(p["kind"], f"{what} province {i + 1} kind", PROVINCE_KINDS),
            }
        )
    kinds = [p["kind"] for p in out["provinces"]]
    if kinds.count("capital") != 1 or "shrine" not in kinds:
        raise IllegalMove(
            f"{out['name']} needs exactly one Capital and at least one Shrine province.",
            code="samurai_empires.region_provinces",
            params={"region": out["name"]},
        )
    if "spaces" in region:
        spaces = check_list(region["spaces"], f"{what} spaces", shortest=1, longest=12)
        out["spaces"] = [check_choice(s, f"{what} space", NEUTRAL_ACTIONS) for s in spaces]
    elif solo:
        raise IllegalMove(
            f"The solo mode needs {out['name']}'s order-token spaces, top to bottom, with the neutral "
            "action printed beside each.",
            code="samurai_empires.spaces_missing",
            params={"region": out["name"]},
        )
    return out


def check_region(value: object, index: int, *, solo: bool) -> dict:
    """One region of the board set-up checked alone, as check_board() checks each: the board editor checks a
    region per screen with the very rules the whole board meets."""
    return _check_region(value, index, solo)


def check_board(value: object, *, solo: bool) -> dict:
    """The club's board set-up, checked: every printed value comes from here, none is invented."""
    board = check_object(
        value, "The board", required=("regions",), optional=("order_tokens", "destiny_deck", "seed_tokens")
    )
    regions = [_check_region(r, i, solo) for i, r in enumerate(check_list(board["regions"], "regions", longest=5))]
    if len(regions) not in (BASE_REGIONS, NEW_REGION_REGIONS):
        raise IllegalMove(
            f"The map has {BASE_REGIONS} regions, or {NEW_REGION_REGIONS} with the New Region, not {len(regions)}.",
            code="samurai_empires.region_count",
            params={"regions": len(regions)},
        )
    names = [r["name"] for r in regions] + [p["name"] for r in regions for p in r["provinces"]]
    if len(set(names)) != len(names):
        raise IllegalMove("Every region and province needs its own name.", code="samurai_empires.duplicate_name")
    out: dict = {"regions": regions, "order_tokens": None, "destiny_deck": None, "seed_tokens": None}
    if solo:
        _check_solo_parts(board, regions, out)
    return out


def _check_solo_parts(board: dict, regions: list[dict], out: dict) -> None:
    """The solo mode's parts of the board (the AI's order tokens, the destiny deck, the seed tokens), into `out`."""
    if len(regions) != BASE_REGIONS:
        raise IllegalMove(
            "The solo mode is played on the 4 regions of the base map (16 location cards per AI).",
            code="samurai_empires.solo_regions",
        )
    tokens = check_object(board.get("order_tokens"), "order_tokens", required=TOKEN_ACTIONS)
    out["order_tokens"] = {a: check_int(tokens[a], f"order_tokens {a}", high=AI_TOKENS) for a in TOKEN_ACTIONS}
    if sum(out["order_tokens"].values()) != AI_TOKENS:
        raise IllegalMove(
            f"An AI plays its 11 order tokens less the 3 Move tokens: {AI_TOKENS}, not "
            f"{sum(out['order_tokens'].values())}.",
            code="samurai_empires.order_tokens",
        )
    region_names = [r["name"] for r in regions]
    deck = check_object(board.get("destiny_deck"), "destiny_deck", required=tuple(region_names))
    out["destiny_deck"] = {n: check_int(deck[n], f"destiny_deck {n}", low=1, high=40) for n in region_names}
    if sum(out["destiny_deck"].values()) < sum(DESTINY_SCHEDULE):
        raise IllegalMove(
            f"The destiny deck needs at least {sum(DESTINY_SCHEDULE)} cards for the solo schedule.",
            code="samurai_empires.destiny_deck",
        )
    seeds = check_object(board.get("seed_tokens"), "seed_tokens", required=RESOURCES)
    out["seed_tokens"] = {k: check_int(seeds[k], f"seed_tokens {k}", high=50) for k in RESOURCES}
    slots = sum(p["kind"] == "resource" for r in regions for p in r["provinces"])
    if sum(out["seed_tokens"].values()) != slots:
        raise IllegalMove(
            f"The seed tokens ({sum(out['seed_tokens'].values())}) must fill the map's {slots} resource slots.",
            code="samurai_empires.seed_tokens",
            params={"slots": slots},
        )
    for region in regions:
        if sum(p["kind"] == "resource" for p in region["provinces"]) < 2:
            raise IllegalMove(
                f"{region['name']} needs 2 resource slots: every region gets a Bushido and a Food.",
                code="samurai_empires.region_slots",
                params={"region": region["name"]},
            )
    if min(out["seed_tokens"].values()) < len(regions):
        raise IllegalMove("Every region needs a Bushido and a Food seed token.", code="samurai_empires.seed_tokens")


def region_index(board: dict, name: str) -> int:
    return [r["name"] for r in board["regions"]].index(name)
