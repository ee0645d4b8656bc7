"""What a phone posts for a Teikoku move: the fields of its form on the table page."""

from __future__ import annotations

from django.http import QueryDict


def form_of(move: dict) -> dict:
    """The form fields (as strings) that describe `move`; dice are entered, as rolled at the table."""
    data: dict = {"type": move["type"]}
    kind = move["type"]
    if kind in ("card_effect", "correction", "cards_leave", "fortify", "roll"):
        data["seat"] = move["seat"]
    if kind in ("bounty", "port_attack"):
        data["blood"] = move["blood"]
        if "amount" in move:
            data["amount"] = move["amount"]
    elif kind == "raid":
        data |= {
            "defender": move["defender"],
            "cubes": move["cubes"],
            "roll": "table",
            "die0": move["dice"][0],
            "die1": move["dice"][1],
        }
    elif kind in ("commerce", "trade", "cards_leave"):
        data["deck"] = move["deck"]
        if kind == "cards_leave":
            data |= {"count": move["count"], "note": move["note"]}
    elif kind == "pit_fee":
        data["cards"] = move["cards"]
    elif kind in ("card_effect", "correction"):
        data |= {"from": move["from"], "to": move["to"], "amount": move["amount"], "note": move.get("note", "")}
        if kind == "card_effect":
            data["card"] = move["card"]
    elif kind == "fortify":
        if move["fortified"]:
            data["fortified"] = "on"
    elif kind == "roll":
        data["count"] = len(move["dice"])
        data |= {f"die{i}": d for i, d in enumerate(move["dice"])}
    return {key: str(value) for key, value in data.items()}


def as_post(data: dict) -> QueryDict:
    post = QueryDict(mutable=True)
    for key, value in data.items():
        post[key] = value
    return post
