"""The era-by-era score sheet: era rows, the final row after era 3, running totals, turn order, the winner.

The printed values (each region's points by place, its influence-points table) come from the board
set-up, so a table enters counts: the place each party scores in a region, its influence track
position at the end. What the seed gives is computed: 1 VP per Archer besieging an opponent's Castle
each era; turn order "the player with the least amount of points will go first"; "In case of a tie,
the player with the least resources wins." Points whose printed value the seed lacks (shrines,
resources) are entered as points. Rows are per party: the seats, or in solo the player, yellow, blue.
"""

from __future__ import annotations

from games.engines.base import IllegalMove, Outcome, Phrase, Placing
from games.engines.samurai_empires.board import (
    ARCHERS_PER_PLAYER,
    ARMIES_PER_HOUSE,
    CASTLES_PER_HOUSE,
    GENERALS_PER_PLAYER,
    RESOURCES,
    SIEGE_POINTS,
)
from games.engines.samurai_empires.checks import check_int, check_list, check_object, check_text

ERA_FIELDS = ("regions", "shrines", "sieges", "other", "trained")
TRAINED = {
    "samurai": ARMIES_PER_HOUSE,
    "archers": ARCHERS_PER_PLAYER,
    "elites": ARMIES_PER_HOUSE,
    "general": GENERALS_PER_PLAYER,
}


def party_name(state: dict, party: int) -> str:
    return state["parties"][party]["name"]


def party_phrase(state: dict, party: int) -> str | Phrase:
    """A party's name for a Phrase: a player's own name, or the AI by its colour (said in the reader's words)."""
    ai = state["parties"][party]["ai"]
    if ai:
        return Phrase(party_name(state, party), "samurai_empires.ai", ai=ai)
    return party_name(state, party)


def words(parts: list, code: str = "site.sentences", joiner: str = " ") -> Phrase:
    """Several Phrases said one after the other ("site.sentences") or as a list ("site.list")."""
    return Phrase(joiner.join(str(p) for p in parts), code, parts=list(parts))


def _illegal(message: str, code: str, **params: object) -> IllegalMove:
    return IllegalMove(message, code=f"samurai_empires.{code}", params=params)


def _check_places(state: dict, value: object, who: str) -> tuple[dict, int]:
    """Region name -> the place the party scores there; the points are the region's printed value at that place."""
    regions = {r["name"]: r for r in state["board"]["regions"]}
    places = check_object(value, f"{who}'s regions", optional=tuple(regions))
    points = 0
    out = {}
    for name, place in places.items():
        values = regions[name]["values"]
        out[name] = check_int(place, f"{who}'s place in {name}", low=1, high=len(values))
        points += values[place - 1]
    return out, points


def _check_trained(state: dict, party: int, value: object, who: str) -> dict | None:
    if value is None:
        return None
    if state["parties"][party]["training_ground"] is None:
        raise _illegal(
            f"{who} plays without a Training Ground, so has no trained armies to record.",
            "no_training_ground",
            party=party,
        )
    trained = check_object(value, f"{who}'s trained armies", optional=tuple(TRAINED))
    out = {k: check_int(trained.get(k, 0), f"{who}'s {k}", high=high) for k, high in TRAINED.items()}
    if out["samurai"] + out["elites"] > ARMIES_PER_HOUSE:
        raise _illegal(
            f"{who} has {ARMIES_PER_HOUSE} Samurai meeples: Samurai and Elite Armies together cannot exceed that.",
            "too_many_samurai",
            party=party,
        )
    return out


def check_era_entry(state: dict, party: int, value: object) -> dict:
    """One party's era row, checked against the board and the components the seed counts."""
    who = party_name(state, party)
    entry = check_object(value, f"{who}'s era entry", optional=ERA_FIELDS)
    places, region_points = _check_places(state, entry.get("regions", {}), who)
    trained = _check_trained(state, party, entry.get("trained"), who)
    sieges = check_int(entry.get("sieges", 0), f"{who}'s besieging Archers", high=ARCHERS_PER_PLAYER)
    if sieges and state["parties"][party]["training_ground"] is None:
        raise _illegal(f"{who} has no Archers: they come with the Training Grounds.", "no_archers", party=party)
    if trained is not None and sieges > trained["archers"]:
        raise _illegal(
            f"{who} has {trained['archers']} trained Archer(s), so {sieges} cannot be besieging.",
            "sieges_over_archers",
            party=party,
            sieges=sieges,
            archers=trained["archers"],
        )
    opponents_castles = CASTLES_PER_HOUSE * (len(state["parties"]) - 1)
    if sieges > opponents_castles:
        raise _illegal(
            f"Opponents have at most {opponents_castles} Castles for {who}'s Archers to besiege.",
            "sieges_over_castles",
            party=party,
        )
    others = []
    for i, other in enumerate(check_list(entry.get("other", []), f"{who}'s other points", longest=10)):
        o = check_object(other, f"{who}'s other points {i + 1}", required=("points", "note"))
        others.append(
            {
                "points": check_int(o["points"], f"{who}'s other points", low=-999, high=999),
                "note": check_text(o["note"], f"{who}'s note", longest=200),
            }
        )
    row = {
        "regions": places,
        "region_points": region_points,
        "shrines": check_int(entry.get("shrines", 0), f"{who}'s shrine points", high=999),
        "sieges": sieges,
        "siege_points": sieges * SIEGE_POINTS,
        "actions": 0,
        "other": others,
        "trained": trained,
    }
    return row


def era_row_total(row: dict) -> int:
    return (
        row["region_points"]
        + row["shrines"]
        + row["siege_points"]
        + row["actions"]
        + sum(o["points"] for o in row["other"])
    )


def check_final_entry(state: dict, party: int, value: object, *, resources: dict | None = None) -> dict:
    """One party's final row after era 3: influence positions per region, resources held and their points.

    `resources` is given for an AI, whose resources the engine has counted itself.
    """
    who = party_name(state, party)
    regions = state["board"]["regions"]
    fields = ("influence", "resource_points") + (() if resources is not None else ("resources",))
    entry = check_object(value, f"{who}'s final entry", required=fields)
    positions = check_object(entry["influence"], f"{who}'s influence", required=tuple(r["name"] for r in regions))
    influence = {}
    influence_points = 0
    for region in regions:
        table = region["influence_points"]
        pos = check_int(positions[region["name"]], f"{who}'s influence in {region['name']}", high=len(table) - 1)
        influence[region["name"]] = pos
        influence_points += table[pos]
    if resources is None:
        held = check_object(entry["resources"], f"{who}'s resources", required=RESOURCES)
        resources = {k: check_int(held[k], f"{who}'s {k}", high=999) for k in RESOURCES}
    return {
        "influence": influence,
        "influence_points": influence_points,
        "resources": dict(resources),
        "resource_points": check_int(entry["resource_points"], f"{who}'s points from resources", high=999),
    }


def totals(state: dict) -> list[int]:
    """Each party's running total: its era rows and, once entered, its final row."""
    sums = [0] * len(state["parties"])
    for era in state["sheet"]["eras"]:
        for party, row in enumerate(era):
            sums[party] += era_row_total(row)
    for party, row in enumerate(state["sheet"]["final"] or []):
        sums[party] += row["influence_points"] + row["resource_points"]
    return sums


def next_turn_order(state: dict) -> list[int]:
    """'The player with the least amount of points will go first ... next lowest score second, and so on.'

    Equal scores keep their order from the era just played (the rulebook does not say; ruling S4).
    """
    scores = totals(state)
    previous = state["turn_order"]
    return sorted(previous, key=lambda party: (scores[party], previous.index(party)))


def resources_held(row: dict) -> int:
    return sum(row["resources"].values())


def multiplayer_outcome(state: dict) -> Outcome:
    """Most points wins; 'In case of a tie, the player with the least resources wins'; what is still tied shares."""
    scores = totals(state)
    final = state["sheet"]["final"]
    keys = [(-scores[p], resources_held(final[p])) for p in range(len(scores))]
    placings = []
    for party in sorted(range(len(scores)), key=lambda p: (keys[p], p)):
        rank = 1 + sum(1 for k in keys if k < keys[party])
        same_points = [p for p in range(len(scores)) if scores[p] == scores[party] and p != party]
        if not same_points:
            tiebreak = None
        elif any(keys[p] == keys[party] for p in same_points):
            tiebreak = Phrase("tie shared: same points and same resources", "samurai_empires.tiebreak.shared")
        else:
            tiebreak = Phrase("fewest resources", "samurai_empires.tiebreak.fewest_resources")
        placings.append(Placing(seat=party, rank=rank, score=scores[party], tiebreak=tiebreak))
    return Outcome("final_count", tuple(placings), {"breakdown": breakdown(state), "explanation": explain(placings)})


def solo_outcome(state: dict) -> Outcome:
    """'Have more points than the two houses combined at the end of the game' (a tie is not more: a loss)."""
    player, yellow, blue = totals(state)
    won = player > yellow + blue
    tiebreak = (
        Phrase("solo victory: more points than the two AIs combined", "samurai_empires.tiebreak.solo_victory")
        if won
        else Phrase("solo defeat: not more points than the two AIs combined", "samurai_empires.tiebreak.solo_defeat")
    )
    placing = Placing(seat=0, rank=1 if won else 2, score=player, tiebreak=tiebreak)
    return Outcome(
        "solo_victory" if won else "solo_defeat",
        (placing,),
        {"breakdown": breakdown(state), "player": player, "ais": yellow + blue, "won": won},
    )


def explain(placings: list[Placing]) -> str:
    first = [p for p in placings if p.rank == 1]
    if len(first) > 1:
        return f"Seats {', '.join(str(p.seat) for p in first)} share the win: same points and same resources."
    if first[0].tiebreak == "fewest resources":
        return f"Seat {first[0].seat} wins the tie on {first[0].score} points with the fewest resources."
    return f"Seat {first[0].seat} wins with {first[0].score} points."


def breakdown(state: dict) -> list[dict]:
    scores = totals(state)
    rows = []
    for party, info in enumerate(state["parties"]):
        eras = [era_row_total(era[party]) for era in state["sheet"]["eras"]]
        final = (state["sheet"]["final"] or [None] * len(scores))[party]
        rows.append(
            {
                "party": party,
                "name": info["name"],
                "eras": eras,
                "influence_points": final["influence_points"] if final else 0,
                "resource_points": final["resource_points"] if final else 0,
                "resources": resources_held(final) if final else None,
                "total": scores[party],
            }
        )
    return rows
