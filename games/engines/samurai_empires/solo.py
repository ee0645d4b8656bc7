"""The solo mode's table: set-up, the AIs' decks, and the planning phase (rulebook "Solo Mode").

solo = {
  "seeding":  {resource-slot province: "bushido" | "food"}
  "ais":      {"yellow"|"blue": {"deck": [[region, location]] top first, "board": cards played this era,
               "unused": cards not (yet) in the deck, "tokens": {action: face-down left}, "armies": {province: n},
               "castles": [province], "supply": armies left, "resources": {"bushido", "food"},
               "influence": {region: n}, "points": VP from its actions this era}}
  "player":   {"armies": {province: n}, "castles": [province]}   as the player reports them
  "destiny":  {"deck": {region: n}, "drawn": {region: n}, "history": [{"era": e, "region": r}]}
  "round":    1 | 2;  "placed": [tokens placed this round per party]
  "spaces":   {region: [[token, ...] per space, top first]}, token = {"party", "card", "round", "action"}
  "covered":  [parties whose token was covered this era];  "player_covers": enemy tokens the player covered
  "queue":    [[region, space]] still to resolve this round;  "last": what the last step did, in words
}
"""

from __future__ import annotations

from games.engines.base import IllegalMove, Phrase
from games.engines.samurai_empires import rng
from games.engines.samurai_empires.board import (
    AIS,
    ARMIES_PER_HOUSE,
    CASTLES_PER_HOUSE,
    LOCATION_NAMES,
    LOCATIONS,
    RESOURCES,
    TOKENS_PER_ROUND,
)
from games.engines.samurai_empires.checks import check_choice, check_int, check_list, check_object
from games.engines.samurai_empires.sheet import party_name, party_phrase, words

PLAYER = 0
PLAYER_START_ARMIES = 2  # "Set 2 Armies in each of the Capitals"


def _illegal(message: str, code: str, **params: object) -> IllegalMove:
    return IllegalMove(message, code=f"samurai_empires.{code}", params=params)


def ai_of(state: dict, party: int) -> dict:
    return state["solo"]["ais"][state["parties"][party]["ai"]]


def card_name(card: list) -> str:
    return f"{card[0]} {LOCATION_NAMES[card[1]]}"


# --- the map ------------------------------------------------------------------------------------------


def provinces_of(state: dict, region: str) -> list[dict]:
    return next(r["provinces"] for r in state["board"]["regions"] if r["name"] == region)


def province_kind(state: dict, province: str) -> str:
    """capital, shrine, bushido or food: a resource slot takes the kind of the seed token on it."""
    for region in state["board"]["regions"]:
        for p in region["provinces"]:
            if p["name"] == province:
                return state["solo"]["seeding"].get(province, p["kind"])
    raise KeyError(province)


def region_of(state: dict, province: str) -> str:
    return next(r["name"] for r in state["board"]["regions"] if any(p["name"] == province for p in r["provinces"]))


def matching(state: dict, card: list) -> list[str]:
    """The provinces of the card's region matching its location, north to south."""
    return [p["name"] for p in provinces_of(state, card[0]) if province_kind(state, p["name"]) == card[1]]


def all_provinces(state: dict) -> list[str]:
    return [p["name"] for r in state["board"]["regions"] for p in r["provinces"]]


# --- set-up ---------------------------------------------------------------------------------------------


def _seed_map(state: dict, entered: object) -> dict:
    """'Take the seed tokens and place them randomly on the map. Make sure that every region has at least
    1 Bushido and 1 Food.' Entered from the table, or placed by the site: one of each per region first."""
    regions = state["board"]["regions"]
    slots = {r["name"]: [p["name"] for p in r["provinces"] if p["kind"] == "resource"] for r in regions}
    counts = state["board"]["seed_tokens"]
    if entered is not None:
        every = [s for names in slots.values() for s in names]
        seeding = check_object(entered, "seeding", required=tuple(every))
        out = {s: check_choice(seeding[s], f"seeding {s}", RESOURCES) for s in every}
        for kind in RESOURCES:
            if sum(v == kind for v in out.values()) != counts[kind]:
                raise _illegal(f"The map holds {counts[kind]} {kind} seed tokens.", "seeding_count", kind=kind)
        for region, names in slots.items():
            if {out[s] for s in names} != set(RESOURCES):
                raise _illegal(
                    f"Every region needs at least 1 Bushido and 1 Food; {region} does not have both.",
                    "seeding_region",
                    region=region,
                )
        return out
    out = {}
    rest: list[str] = []
    for names in slots.values():
        names = list(names)
        rng.shuffle(state, names)
        out[names[0]], out[names[1]] = "bushido", "food"
        rest += names[2:]
    left = {k: counts[k] - len(slots) for k in RESOURCES}
    tokens = [k for k in RESOURCES for _ in range(left[k])]
    rng.shuffle(state, tokens)
    out.update(zip(rest, tokens, strict=True))
    return out


def set_up(state: dict, seeding: object) -> None:
    regions = [r["name"] for r in state["board"]["regions"]]
    solo: dict = {"seeding": {}, "ais": {}}
    state["solo"] = solo
    solo["seeding"] = _seed_map(state, seeding)
    for ai in AIS:
        unused = [[region, location] for region in regions for location in LOCATIONS]
        deck = []
        for region in regions:  # "Draw 2 Location cards from each of the regions and then shuffle them"
            cards = [c for c in unused if c[0] == region]
            rng.shuffle(state, cards)
            deck += cards[:2]
            for card in cards[:2]:
                unused.remove(card)
        rng.shuffle(state, deck)
        solo["ais"][ai] = {
            "deck": deck,
            "board": [],
            "unused": unused,
            "tokens": dict(state["board"]["order_tokens"]),
            "armies": {},
            "castles": [],
            "supply": ARMIES_PER_HOUSE,
            "resources": {k: 0 for k in RESOURCES},
            "influence": {r: 0 for r in regions},
            "points": 0,
        }
    capitals = [p["name"] for r in state["board"]["regions"] for p in r["provinces"] if p["kind"] == "capital"]
    solo["player"] = {"armies": {c: PLAYER_START_ARMIES for c in capitals}, "castles": []}
    destiny = dict(state["board"]["destiny_deck"])
    for region in regions:  # "Take 1 Destiny card for each of the regions"
        destiny[region] -= 1
    solo["destiny"] = {
        "deck": destiny,
        "drawn": {r: 1 for r in regions},
        "history": [{"era": 0, "region": r} for r in regions],
    }
    solo["last"] = None
    start_era(state)


def start_era(state: dict) -> None:
    solo = state["solo"]
    solo["spaces"] = {r["name"]: [[] for _ in r["spaces"]] for r in state["board"]["regions"]}
    solo["covered"] = []
    solo["player_covers"] = 0
    start_round(state, 1)


def start_round(state: dict, number: int) -> None:
    solo = state["solo"]
    solo.update(round=number, placed=[0] * len(state["parties"]), queue=[])
    state["phase"] = "planning"
    if number == 2:
        for ai in AIS:  # "Shuffle the remaining Location cards."
            rng.shuffle(state, solo["ais"][ai]["deck"])


# --- planning ---------------------------------------------------------------------------------------------


def planning_to_move(state: dict) -> int | None:
    placed = state["solo"]["placed"]
    per_round = TOKENS_PER_ROUND[state["solo"]["round"] - 1]
    done = sum(placed)
    if done >= per_round * len(placed):
        return None
    return state["turn_order"][done % len(placed)]


def coverable(state: dict, stack: list) -> bool:
    """A token can be covered once, and 'only one token for each AI and player can be covered during this era'."""
    return len(stack) == 1 and stack[0]["party"] not in state["solo"]["covered"]


def ai_space(state: dict, party: int, region: str) -> int | None:
    """Round 1: the bottom-most free space. Round 2: the top-most, empty > enemy token > own token."""
    spaces = state["solo"]["spaces"][region]
    if state["solo"]["round"] == 1:
        free = [i for i, stack in enumerate(spaces) if not stack]
        return free[-1] if free else None
    empty = [i for i, stack in enumerate(spaces) if not stack]
    if empty:  # "The AI wants to ignore placing tokens over itself": no cover while the region has room
        return empty[0]
    for wanted_own in (False, True):  # an enemy token before its own
        for i, stack in enumerate(spaces):
            if coverable(state, stack) and (stack[0]["party"] == party) == wanted_own:
                return i
    return None


def put_token(state: dict, party: int, region: str, space: int, card: list | None) -> None:
    solo = state["solo"]
    stack = solo["spaces"][region][space]
    if stack:
        solo["covered"].append(stack[0]["party"])
    stack.append({"party": party, "card": card, "round": solo["round"], "action": None})
    solo["placed"][party] += 1


def card_phrase(card: list) -> Phrase:
    """A location card: its region (as the club named it) and its location (Capital, Bushido, Food, Shrine)."""
    return Phrase(card_name(card), "samurai_empires.location_card", region=card[0], location=card[1])


def ai_plan(state: dict, party: int) -> Phrase:
    """One AI planning step: draw until a card's region has a space, place, then recruit or do the neutral action."""
    from games.engines.samurai_empires.solo_actions import neutral_action, recruit_on_empty

    ai = ai_of(state, party)
    name = party_name(state, party)
    set_aside = []
    chosen: list | None = None
    space: int | None = None
    while ai["deck"]:
        card = ai["deck"].pop(0)
        space = ai_space(state, party, card[0])
        if space is not None:
            chosen = card
            break
        set_aside.append(card)
    ai["deck"] += set_aside  # "The card/s that are unused are placed on the bottom of the deck."
    if chosen is None or space is None:  # both are set together, when a card's region has a space
        state["solo"]["placed"][party] += 1
        return Phrase(
            f"{name} has no card whose region has room for a token, and places none.",
            "samurai_empires.describe.ai_no_card",
            party=party_phrase(state, party),
        )
    ai["board"].append(chosen)
    put_token(state, party, chosen[0], space, chosen)
    text = [f"{name} draws {card_name(chosen)}"]
    if set_aside:
        text.append(f" (after {', '.join(card_name(c) for c in set_aside)}, whose regions are full: to the bottom)")
    text.append(f" and places a face-down token on space {space + 1} of {chosen[0]}")
    provinces = matching(state, chosen)
    if provinces and all(ai["armies"].get(p, 0) for p in provinces):
        action = next(r for r in state["board"]["regions"] if r["name"] == chosen[0])["spaces"][space]
        what = neutral_action(state, party, chosen, action)
        done = Phrase(
            f"it has Armies in every matching province, so does the neutral action: {what}",
            "samurai_empires.ai.neutral_action",
            what=what,
        )
    else:
        done = recruit_on_empty(state, party, provinces)
    text.append(f"; {done}")
    params = {
        "party": party_phrase(state, party),
        "card": card_phrase(chosen),
        "space": space + 1,
        "region": chosen[0],
        "done": done,
    }
    if set_aside:
        params["set_aside"] = words([card_phrase(c) for c in set_aside], "site.list", ", ")
        return Phrase("".join(text) + ".", "samurai_empires.describe.ai_plan_set_aside", **params)
    return Phrase("".join(text) + ".", "samurai_empires.describe.ai_plan", **params)


def player_place(state: dict, move: dict) -> Phrase:
    m = check_object(move, "The move", required=("type", "region", "space"))
    region = check_choice(m["region"], "region", [r["name"] for r in state["board"]["regions"]])
    spaces = state["solo"]["spaces"][region]
    space = check_int(m["space"], "space", low=1, high=len(spaces)) - 1
    stack = spaces[space]
    cost = 0
    if stack:
        if not coverable(state, stack):
            raise _illegal(
                f"Space {space + 1} of {region} cannot be covered: a token is covered at most once, and "
                "each party's tokens at most once an era.",
                "cannot_cover",
                region=region,
                space=space + 1,
            )
        if stack[0]["party"] != PLAYER:
            state["solo"]["player_covers"] += 1
            cost = state["solo"]["player_covers"]  # 1 Bushido for the first enemy token, 2 for the second
    put_token(state, PLAYER, region, space, None)
    who = party_name(state, PLAYER)
    if cost:
        covered = stack[0]["party"]
        return Phrase(
            f"{who} places a token on space {space + 1} of {region}, paying {cost} Bushido to cover "
            f"{party_name(state, covered)}'s token.",
            "samurai_empires.describe.place_covering",
            party=who,
            space=space + 1,
            region=region,
            cost=cost,
            covered=party_phrase(state, covered),
        )
    return Phrase(
        f"{who} places a token on space {space + 1} of {region}.",
        "samurai_empires.describe.place",
        party=who,
        space=space + 1,
        region=region,
    )


def report(state: dict, move: dict) -> Phrase:
    """The player's own Armies and Castles, which the site cannot see: entered whenever they change."""
    m = check_object(move, "The move", required=("type", "armies"), optional=("castles",))
    provinces = all_provinces(state)
    armies = check_object(m["armies"], "armies", optional=tuple(provinces))
    counted = {p: check_int(n, f"armies in {p}", high=ARMIES_PER_HOUSE) for p, n in armies.items()}
    out = {p: n for p, n in counted.items() if n}
    if sum(out.values()) > ARMIES_PER_HOUSE:
        raise _illegal(f"A house has {ARMIES_PER_HOUSE} Armies, not {sum(out.values())}.", "too_many_armies")
    player = state["solo"]["player"]
    castles = player["castles"]
    if "castles" in m:
        castles = [
            check_choice(c, "castle", provinces) for c in check_list(m["castles"], "castles", longest=CASTLES_PER_HOUSE)
        ]
        taken = {c for ai in state["solo"]["ais"].values() for c in ai["castles"]}
        if len(set(castles)) != len(castles) or taken & set(castles):
            raise _illegal("A province holds one Castle.", "castle_taken")
    player.update(armies=out, castles=castles)
    shown = ", ".join(f"{n} in {p}" for p, n in out.items()) or "none"
    who = party_name(state, PLAYER)
    if not out:
        return Phrase(f"{who} reports their Armies: none.", "samurai_empires.describe.report_none", party=who)
    armies_said = words(
        [Phrase(f"{n} in {p}", "samurai_empires.n_in", n=n, province=p) for p, n in out.items()], "site.list", ", "
    )
    return Phrase(
        f"{who} reports their Armies: {shown}.", "samurai_empires.describe.report", party=who, armies=armies_said
    )
