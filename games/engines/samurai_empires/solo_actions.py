"""What an AI does with a token or a neutral action (rulebook "Actions Overview"), on the solo table.

All actions follow the Location card: its region, and its location (Capital, Bushido, Food, Shrine)
naming the matching provinces. Each function mutates the state and returns what happened in words.
"""

from __future__ import annotations

from games.engines.base import Phrase
from games.engines.samurai_empires.board import AI_PROVINCE_LIMIT, CASTLES_PER_HOUSE, RESOURCES
from games.engines.samurai_empires.sheet import party_name, party_phrase, words
from games.engines.samurai_empires.solo import PLAYER, ai_of, matching, province_kind, provinces_of


def _armies(state: dict, party: int) -> dict:
    return state["solo"]["player"]["armies"] if party == PLAYER else ai_of(state, party)["armies"]


def remove_army(state: dict, party: int, province: str) -> None:
    armies = _armies(state, party)
    armies[province] -= 1
    if not armies[province]:
        del armies[province]
    if party != PLAYER:
        ai_of(state, party)["supply"] += 1


def recruit(state: dict, party: int, provinces: list[str], each: int) -> Phrase:
    """`each` Armies in every province, at most 3 an AI to a province; a short supply fills the south first
    ('it should put the last Army on the southern-most location corresponding with the card'). 'You cannot
    recruit Armies in Besieged Castles': not where its Castle stands with an enemy Army beside it."""
    ai = ai_of(state, party)
    placed = []
    besieged = {c for c in ai["castles"] if any(_armies(state, p).get(c) for p in range(3) if p != party)}
    for province in reversed([p for p in provinces if p not in besieged]):
        for _ in range(each):
            if ai["supply"] and ai["armies"].get(province, 0) < AI_PROVINCE_LIMIT:
                ai["armies"][province] = ai["armies"].get(province, 0) + 1
                ai["supply"] -= 1
                placed.append(province)
    if not placed:
        return Phrase(
            "it recruits no Army (3 in the province already, or none left in its supply)",
            "samurai_empires.ai.recruits_none",
        )
    armies = words(
        [
            Phrase(
                f"{placed.count(p)} Army in {p}" if placed.count(p) == 1 else f"{placed.count(p)} Armies in {p}",
                "samurai_empires.armies_in",
                n=placed.count(p),
                province=p,
            )
            for p in dict.fromkeys(placed)
        ],
        "site.list",
        ", ",
    )
    return Phrase(f"it recruits {armies}", "samurai_empires.ai.recruits", armies=armies)


def recruit_on_empty(state: dict, party: int, provinces: list[str]) -> Phrase:
    """Planning: 'recruit one Army for each of the province/s matching the Location card' — where it has none
    ('If the AI has an Army only on one of the matching provinces, it still recruits an Army on the empty ones')."""
    empty = [p for p in provinces if not ai_of(state, party)["armies"].get(p)]
    return recruit(state, party, empty, 1)


def _target(state: dict, party: int, province: str) -> int | None:
    """'The AI wants to attack the enemy that has the most Armies in the targeted province. In a case of a tie,
    the AI prioritizes the player.'"""
    enemies = [p for p in range(len(state["parties"])) if p != party and _armies(state, p).get(province, 0)]
    if not enemies:
        return None
    return max(enemies, key=lambda p: (_armies(state, p)[province], p == PLAYER))


def attack(state: dict, party: int, card: list, *, token: bool) -> Phrase:
    """Destroy 1 Army in each matching province where the AI has an Army; a token's attack in a single
    province destroys 2 ('If the attack is happening in one province (ex. Capital), destroy two Armies')."""
    provinces = [p for p in matching(state, card) if ai_of(state, party)["armies"].get(p)]
    if not provinces:
        return Phrase("it has no Army where the card points, so it cannot attack", "samurai_empires.ai.cannot_attack")
    kills = 2 if token and len(provinces) == 1 and len(matching(state, card)) == 1 else 1
    done = []
    for province in provinces:
        for _ in range(kills):
            victim = _target(state, party, province)
            if victim is None:
                break
            remove_army(state, victim, province)
            done.append(
                Phrase(
                    f"1 of {party_name(state, victim)}'s Armies in {province}",
                    "samurai_empires.armies_of_in",
                    n=1,
                    party=party_phrase(state, victim),
                    province=province,
                )
            )
    if not done:
        return Phrase("no enemy Army stands where it attacks", "samurai_empires.ai.no_enemy")
    destroyed = words(done, "site.list", ", ")
    return Phrase(f"it attacks and destroys {destroyed}", "samurai_empires.ai.attacks", destroyed=destroyed)


def harvest(state: dict, party: int, card: list) -> Phrase:
    """Bushido or Food for each matching resource province it holds, 1 VP a Shrine, 1 influence for a Capital."""
    ai = ai_of(state, party)
    gains = []
    for province in matching(state, card):
        if not ai["armies"].get(province):
            continue
        kind = province_kind(state, province)
        if kind in RESOURCES:
            ai["resources"][kind] += 1
            gains.append(Phrase(f"1 {kind.capitalize()}", "samurai_empires.gain.resource", resource=kind))
        elif kind == "shrine":
            ai["points"] += 1
            gains.append(Phrase("1 VP", "samurai_empires.gain.point"))
        else:
            ai["influence"][card[0]] += 1
            gains.append(Phrase(f"1 influence in {card[0]}", "samurai_empires.gain.influence", region=card[0]))
    if not gains:
        return Phrase("it has no Army to harvest with", "samurai_empires.ai.no_harvest")
    gained = words(gains, "site.list", ", ")
    return Phrase(f"it harvests {gained}", "samurai_empires.ai.harvests", gains=gained)


def castle_site(state: dict, party: int, card: list) -> str | None:
    """The southern-most matching province with its Army, not a Capital, with no Castle, in a region where
    this AI has no Castle yet."""
    ai = ai_of(state, party)
    if len(ai["castles"]) >= CASTLES_PER_HOUSE:
        return None
    region = {p["name"] for p in provinces_of(state, card[0])}
    if any(c in region for c in ai["castles"]):
        return None
    standing = {c for a in state["solo"]["ais"].values() for c in a["castles"]}
    standing |= set(state["solo"]["player"]["castles"])
    sites = [
        p
        for p in matching(state, card)
        if ai["armies"].get(p) and province_kind(state, p) != "capital" and p not in standing
    ]
    return sites[-1] if sites else None


def build_castle(state: dict, party: int, card: list) -> Phrase:
    site = castle_site(state, party, card)
    if site is None:
        return Phrase("it has nowhere to build a Castle", "samurai_empires.ai.no_castle_site")
    remove_army(state, party, site)  # 'Upgrade 1 Army into a Castle'
    ai_of(state, party)["castles"].append(site)
    return Phrase(f"it builds a Castle in {site}", "samurai_empires.ai.builds_castle", province=site)


def move(state: dict, party: int) -> Phrase:
    ai_of(state, party)["points"] += 1
    return Phrase("it gains 1 VP (Move)", "samurai_empires.ai.move")


def token_action(state: dict, party: int, card: list, action: str) -> Phrase:
    if action == "attack":
        return attack(state, party, card, token=True)
    if action == "harvest":
        return harvest(state, party, card)
    if action == "recruit":  # 'If the card is corresponding with 1 province, recruit 2 Armies in that one.'
        provinces = matching(state, card)
        return recruit(state, party, provinces, 2 if len(provinces) == 1 else 1)
    return build_castle(state, party, card)


def neutral_action(state: dict, party: int, card: list, action: str) -> Phrase:
    if action == "attack":
        return attack(state, party, card, token=False)
    if action == "move":
        return move(state, party)
    return token_action(state, party, card, action)
