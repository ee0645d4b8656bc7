"""The solo table's resolution phase and era end (rulebook "Resolution Phase", "ERA END", "Adding new
Destiny and Location cards").

Round 1 resolves 'from bottom upwards (South to North)', round 2 'from top downwards (North to South)':
the regions are listed north to south and their spaces top to bottom. A token is revealed when it
resolves: the AI's is then drawn from its face-down tokens (the same odds as drawing it at placing).
"""

from __future__ import annotations

from games.engines.base import Phrase
from games.engines.samurai_empires import rng
from games.engines.samurai_empires.board import ACTION_NAMES, AIS, DESTINY_SCHEDULE, ERAS, EVEN_DESTINY, RESOURCES
from games.engines.samurai_empires.checks import check_int, check_object
from games.engines.samurai_empires.sheet import party_name, party_phrase, words
from games.engines.samurai_empires.solo import PLAYER, ai_of, province_kind, start_era, start_round
from games.engines.samurai_empires.solo_actions import remove_army, token_action


def start_resolution(state: dict) -> None:
    solo = state["solo"]
    order = [(r["name"], i) for r in state["board"]["regions"] for i in range(len(r["spaces"]))]
    if solo["round"] == 1:
        order.reverse()
    solo["queue"] = [
        [region, space]
        for region, space in order
        if solo["spaces"][region][space] and solo["spaces"][region][space][-1]["round"] == solo["round"]
    ]
    state["phase"] = "resolution"
    _next(state)


def resolution_to_move(state: dict) -> int | None:
    queue = state["solo"]["queue"]
    if not queue:
        return None
    region, space = queue[0]
    return state["solo"]["spaces"][region][space][-1]["party"]


def ai_resolve(state: dict, party: int) -> Phrase:
    region, space = state["solo"]["queue"].pop(0)
    token = state["solo"]["spaces"][region][space][-1]
    ai = ai_of(state, party)
    action = rng.pick_counted(state, ai["tokens"])
    token["action"] = action
    what = (
        token_action(state, party, token["card"], action)
        if action
        else Phrase("it has no face-down token left", "samurai_empires.ai.no_token")
    )
    _next(state)
    shown = ACTION_NAMES.get(action, "nothing") if action else "nothing"
    return Phrase(
        f"{party_name(state, party)} reveals {shown} on space {space + 1} of {region}: {what}.",
        "samurai_empires.describe.ai_reveals",
        party=party_phrase(state, party),
        action=action or "none",
        space=space + 1,
        region=region,
        what=what,
    )


def player_resolve(state: dict, move: dict) -> Phrase:
    """The player's own token: they say what it was, and which AI Armies their action destroyed, if any."""
    m = check_object(move, "The move", required=("type",), optional=("destroyed",))
    lost = check_object(m.get("destroyed", {}), "destroyed", optional=AIS)
    destroyed = []
    for ai_name, provinces in lost.items():
        party = 1 + AIS.index(ai_name)
        armies = ai_of(state, party)["armies"]
        counts = check_object(provinces, f"destroyed {ai_name}", optional=tuple(armies))
        for province, n in counts.items():
            n = check_int(n, f"{ai_name} Armies destroyed in {province}", high=armies[province])
            for _ in range(n):
                remove_army(state, party, province)
            if n:
                destroyed.append(
                    Phrase(
                        f"{n} of {party_name(state, party)}'s Armies in {province}",
                        "samurai_empires.armies_of_in",
                        n=n,
                        party=party_phrase(state, party),
                        province=province,
                    )
                )
    region, space = state["solo"]["queue"].pop(0)
    _next(state)
    who = party_name(state, PLAYER)
    if destroyed:
        done = words(destroyed, "site.list", ", ")
        return Phrase(
            f"{who} resolves the token on space {space + 1} of {region}, destroying {done}.",
            "samurai_empires.describe.resolve_destroying",
            party=who,
            space=space + 1,
            region=region,
            destroyed=done,
        )
    return Phrase(
        f"{who} resolves the token on space {space + 1} of {region}.",
        "samurai_empires.describe.resolve",
        party=who,
        space=space + 1,
        region=region,
    )


def _next(state: dict) -> None:
    """After round 1 comes round 2's planning; after round 2, the era end's first step and the score sheet."""
    if state["solo"]["queue"]:
        return
    if state["solo"]["round"] == 1:
        start_round(state, 2)
        return
    for ai in AIS:  # 1. 'Harvest Food and Bushido for the player and the AI's.'
        own = state["solo"]["ais"][ai]
        for province in own["armies"]:
            kind = province_kind(state, province)
            if kind in RESOURCES:
                own["resources"][kind] += 1
    state["phase"] = "era_score"


def end_era(state: dict) -> list[Phrase]:
    """Steps 4 to 8, once the table has entered influence and points (steps 2 and 3) on the sheet."""
    solo = state["solo"]
    notes = []
    for ai in AIS:  # 4. 'Remove tokens and Location cards.' The AI's cards go back to its deck.
        own = solo["ais"][ai]
        own["deck"] += own["board"]
        own["board"] = []
        own["tokens"] = dict(state["board"]["order_tokens"])
        own["points"] = 0
        for province, n in list(own["armies"].items()):  # 5. 'Remove all but one AI's Armies ... in every province.'
            own["supply"] += n - 1
            own["armies"][province] = 1
    era = state["era"]
    for _ in range(DESTINY_SCHEDULE[era]):  # 7. 'Draw new Destiny cards': 2, 2, then 1 after era 3.
        region = rng.pick_counted(state, solo["destiny"]["deck"])
        if region is None:
            notes.append(Phrase("The destiny deck is empty.", "samurai_empires.era.destiny_empty"))
            break
        solo["destiny"]["drawn"][region] += 1
        solo["destiny"]["history"].append({"era": era, "region": region})
        notes.append(
            Phrase(
                f"Destiny card: {region} (its {solo['destiny']['drawn'][region]}).",
                "samurai_empires.era.destiny_card",
                region=region,
                drawn=solo["destiny"]["drawn"][region],
            )
        )
        if solo["destiny"]["drawn"][region] in EVEN_DESTINY:  # 8. 'Add Location cards'
            notes += add_location_cards(state, region)
    for ai in AIS:
        rng.shuffle(state, solo["ais"][ai]["deck"])
    if era < ERAS:
        start_era(state)
    return notes


def add_location_cards(state: dict, region: str) -> list[Phrase]:
    """'add 1 location card of the corresponding region' to both AI decks, from the cards not yet in them."""
    notes = []
    for ai in AIS:
        own = state["solo"]["ais"][ai]
        choices = [c for c in own["unused"] if c[0] == region]
        if not choices:
            notes.append(
                Phrase(
                    f"{ai.capitalize()} AI has no {region} location card left to add.",
                    "samurai_empires.era.no_location_card",
                    ai=ai,
                    region=region,
                )
            )
            continue
        card = choices[rng.below(state, len(choices))]
        own["unused"].remove(card)
        own["deck"].append(card)
        notes.append(
            Phrase(
                f"{ai.capitalize()} AI adds the {region} {card[1].capitalize()} location card to its deck.",
                "samurai_empires.era.location_card_added",
                ai=ai,
                region=region,
                location=card[1],
            )
        )
    return notes
