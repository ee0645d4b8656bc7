"""What Small Samurai Empires' board, panel and outcome templates show: the era score sheet (one era per screen,
the running totals always in view), the solo table (the AIs' last step in large type, what each AI holds, the
spaces open to the player) and the result with its tie-break."""

from __future__ import annotations

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engines.samurai_empires.board import ERAS, RESOURCES
from games.engines.samurai_empires.engine import SamuraiEmpiresEngine
from games.engines.samurai_empires.sheet import era_row_total, resources_held

from .forms import TRAINED_FIELDS
from .phrases import ACTIONS, AI_COLOURS

ENGINE = SamuraiEmpiresEngine()
TRAINED_LABELS = {
    "samurai": gettext_lazy("Samurai"),
    "archers": gettext_lazy("Archers"),
    "elites": gettext_lazy("Elites"),
    "general": gettext_lazy("General"),
}


def _names(state: dict, seats: list) -> list[str]:
    """The parties' names: the seated players', then (solo) the two AIs'."""
    names = [seat.player.name for seat in seats]
    return names + [_party_label(state, p) for p in range(len(names), len(state["parties"]))]


def _party_label(state: dict, party: int) -> str:
    """A player's own name, or an AI by its colour in the reader's language ("Gele AI")."""
    ai = state["parties"][party]["ai"]
    return str(AI_COLOURS[ai]) if ai in AI_COLOURS else state["parties"][party]["name"]


def _era_shown(state: dict, query: QueryDict) -> int:
    """The era the sheet shows: ?era=N, else the one being entered (the last one once the game is over)."""
    played = len(state["sheet"]["eras"])
    try:
        era = int(query.get("era", ""))
    except ValueError:
        era = 0
    if 1 <= era <= played:
        return era
    return min(played + 1, ERAS) if state["phase"] != "over" else max(played, 1)


def _sheet(state: dict, names: list[str], era: int) -> list[dict]:
    """The shown era's rows, one per party, once that era is scored."""
    eras = state["sheet"]["eras"]
    if era > len(eras):
        return []
    return [
        {
            "name": names[p],
            "regions": row["regions"],
            "region_points": row["region_points"],
            "shrines": row["shrines"],
            "siege_points": row["siege_points"],
            "actions": row["actions"],
            "other": sum(o["points"] for o in row["other"]),
            "notes": [o["note"] for o in row["other"]],
            "total": era_row_total(row),
        }
        for p, row in enumerate(eras[era - 1])
    ]


def _field(name: str, label: str, low: int | None = 0, high: int | None = None, blank: bool = False) -> dict:
    return {"name": name, "label": label, "min": low, "max": high, "blank": blank}


def _era_fields(state: dict, party: int) -> list[dict]:
    """The era sheet's inputs for one party: its place in each region (blank: none), then the points it adds."""
    p = f"p{party}_"
    fields = [
        _field(f"{p}place{i}", _("%(region)s: place") % {"region": r["name"]}, 1, len(r["values"]), True)
        for i, r in enumerate(state["board"]["regions"])
    ]
    fields.append(_field(p + "shrines", _("Shrine points"), blank=True))
    if state["parties"][party]["training_ground"] is not None:
        fields.append(_field(p + "sieges", _("Archers besieging"), high=3, blank=True))
        fields += [
            _field(p + k, _("Trained: %(army)s") % {"army": TRAINED_LABELS[k]}, blank=True) for k in TRAINED_FIELDS
        ]
    fields.append(_field(p + "other", _("Other points"), low=None, blank=True))
    return fields


def _final_fields(state: dict, party: int) -> list[dict]:
    p = f"p{party}_"
    fields = [
        _field(f"{p}inf{i}", _("%(region)s: influence") % {"region": r["name"]}, 0, len(r["influence_points"]) - 1)
        for i, r in enumerate(state["board"]["regions"])
    ]
    if state["parties"][party]["ai"] is None:
        fields += [_field(p + "bushido", _("Bushido left")), _field(p + "food", _("Food left"))]
    fields.append(_field(p + "resource_points", _("Points from resources")))
    return fields


def _solo(state: dict, hint: dict) -> dict:
    solo = hint["solo"]
    regions = state["board"]["regions"]
    spots = []
    for ri, region in enumerate(regions):
        for n, stack in enumerate(solo["spaces"][region["name"]], start=1):
            taken = [_party_label(state, t["party"]) for t in stack]
            open_ = not stack or (len(stack) == 1 and stack[0]["party"] not in state["solo"]["covered"])
            spots.append(
                {
                    "value": f"{ri}:{n}",
                    "region": region["name"],
                    "space": n,
                    "action": ACTIONS[region["spaces"][n - 1]],
                    "taken": taken,
                    "open": open_,
                }
            )
    index = {p["name"]: i for i, p in enumerate(p for r in regions for p in r["provinces"])}
    ais = [
        {
            "key": key,
            "name": _party_label(state, 1 + i),
            **own,
            "destroy_fields": [_field(f"d_{key}_{index[p]}", p, 0, n, True) for p, n in own["armies"].items()],
        }
        for i, (key, own) in enumerate(solo["ais"].items())
    ]
    return {
        "spots": spots,
        "ais": ais,
        "round": solo["round"],
        "victory": solo["victory"],
        "player": solo["player"],
        "next_cover_cost": solo["next_cover_cost"],
    }


def table_context(state: dict, seats: list, query: QueryDict) -> dict:
    hint = ENGINE.hint(state)
    names = _names(state, seats)
    era = _era_shown(state, query)
    provinces = [
        {"index": i, "name": p["name"], "region": r["name"]}
        for i, (r, p) in enumerate((r, p) for r in state["board"]["regions"] for p in r["provinces"])
    ]
    parties = [
        {
            "index": i,
            "name": names[i],
            "ai": p["ai"],
            "ground": p["training_ground"],
            "total": hint["totals"][i],
            "note_key": f"p{i}_note",
            "era_fields": _era_fields(state, i),
            "final_fields": _final_fields(state, i),
        }
        for i, p in enumerate(state["parties"])
    ]
    context = {
        "state": state,
        "hint": hint,
        "parties": parties,
        "regions": [
            {
                "index": i,
                "name": r["name"],
                "values": r["values"],
                "influence": r["influence_points"],
                "last_position": len(r["influence_points"]) - 1,
            }
            for i, r in enumerate(state["board"]["regions"])
        ],
        "provinces": provinces,
        "era_shown": era,
        "era_tabs": [
            {"era": e, "scored": e <= len(state["sheet"]["eras"]), "current": e == era} for e in range(1, ERAS + 1)
        ],
        "era_rows": _sheet(state, names, era),
        "turn_order": [names[p] for p in hint["turn_order"]],
        "trained_fields": [(k, TRAINED_LABELS[k]) for k in TRAINED_FIELDS],
        "resources": RESOURCES,
        "mover": names[hint["to_move"]] if hint["to_move"] is not None else None,
    }
    if state["mode"] == "solo":
        context["solo"] = _solo(state, hint)
    return context


def outcome_context(outcome: dict, names: list[str], state: dict) -> dict:
    """The ranking, each party's breakdown, and in words why the winner won (most points, or the tie-break)."""
    details = outcome.get("details", {})
    breakdown = {row["party"]: row for row in details.get("breakdown", [])}
    all_names = names + [_party_label(state, p) for p, row in sorted(breakdown.items()) if p >= len(names)]
    rows = [
        {
            "rank": p["rank"],
            "name": all_names[p["seat"]],
            "score": p["score"],
            "tiebreak": p.get("tiebreak"),
            "row": breakdown.get(p["seat"]),
        }
        for p in outcome["placings"]
    ]
    solo = outcome["termination"] in ("solo_victory", "solo_defeat")
    if solo:
        ais = [{**row, "name": _party_label(state, p)} for p, row in sorted(breakdown.items()) if p > 0]
        if details.get("won"):
            why = _("%(name)s wins with %(player)d points against the AIs' %(ais)d together.")
        else:
            why = _("The AIs win: %(name)s has %(player)d points, not more than their %(ais)d together.")
        why = why % {"name": all_names[0], "player": details.get("player", 0), "ais": details.get("ais", 0)}
        return {"solo": True, "rows": rows, "ais": ais, "why": why, "won": details.get("won")}
    winners = [r for r in rows if r["rank"] == 1]
    if len(winners) > 1:
        why = _("%(names)s share the win: the same points and the same resources left.") % {
            "names": ", ".join(r["name"] for r in winners)
        }
    elif winners and winners[0]["tiebreak"] == "fewest resources":
        # the number that decided it: the resources each tied player still holds, not the points they gave
        tied = [p for p in outcome["placings"] if p["score"] == winners[0]["score"]]
        held = ", ".join(f"{all_names[p['seat']]} {resources_held(state['sheet']['final'][p['seat']])}" for p in tied)
        why = _("%(name)s wins the tie on %(score)d points with the fewest resources left (%(held)s).") % {
            "name": winners[0]["name"],
            "score": winners[0]["score"],
            "held": held,
        }
    else:
        why = _("%(name)s wins with %(score)d points.") % {"name": winners[0]["name"], "score": winners[0]["score"]}
    return {"solo": False, "rows": rows, "why": why}
