"""Helpers for the Small Samurai Empires site tests: an engine move as the form fields a phone posts."""

from __future__ import annotations

from django.http import QueryDict

from tests.games.engines.samurai_empires.tables import ENGINE

HTMX = {"HTTP_HX_REQUEST": "true"}


def _provinces(state: dict) -> list[str]:
    return [p["name"] for r in state["board"]["regions"] for p in r["provinces"]]


def form_of(move: dict, state: dict) -> dict:
    """The fields the table page's form for `move` posts (without seq and key)."""
    kind = move["type"]
    data: dict = {"type": kind}
    regions = [r["name"] for r in state["board"]["regions"]]
    if kind == "era_score":
        for p, entry in enumerate(move["scores"]):
            for name, place in entry.get("regions", {}).items():
                data[f"p{p}_place{regions.index(name)}"] = place
            data[f"p{p}_shrines"] = entry.get("shrines", 0)
            if "sieges" in entry:
                data[f"p{p}_sieges"] = entry["sieges"]
            for k, n in (entry.get("trained") or {}).items():
                data[f"p{p}_{k}"] = n
            for other in entry.get("other", []):
                data[f"p{p}_other"] = other["points"]
                data[f"p{p}_note"] = other["note"]
    elif kind == "final_score":
        for p, entry in enumerate(move["scores"]):
            for name, pos in entry["influence"].items():
                data[f"p{p}_inf{regions.index(name)}"] = pos
            data[f"p{p}_resource_points"] = entry["resource_points"]
            for k, n in (entry.get("resources") or {}).items():
                data[f"p{p}_{k}"] = n
    elif kind == "place":
        data["spot"] = f"{regions.index(move['region'])}:{move['space']}"
    elif kind == "resolve":
        provinces = _provinces(state)
        for ai, counts in move.get("destroyed", {}).items():
            for province, n in counts.items():
                data[f"d_{ai}_{provinces.index(province)}"] = n
    elif kind == "report":
        provinces = _provinces(state)
        for province, n in move["armies"].items():
            data[f"a_{provinces.index(province)}"] = n
        data["castle"] = [provinces.index(c) for c in move.get("castles", [])]
    return data


def query_dict(data: dict) -> QueryDict:
    q = QueryDict(mutable=True)
    for key, value in data.items():
        q.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
    return q


__all__ = ["ENGINE", "HTMX", "form_of", "query_dict"]
