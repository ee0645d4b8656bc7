"""Shitennō's page forms: what a thumb enters at the table, turned into the engine's set-up, moves and final count.

This is presentation only. Nothing here judges a move: a move dict goes to the engine, which gives the
precise reason when it is illegal.
"""

from __future__ import annotations

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.base import InvalidMove, MoveError
from games.engines.shitenno.board import (
    BONUSES,
    GENERALS,
    POSITIONS,
    PROVINCES,
    TITLE_NAMES,
    TITLES,
    TROOP_DECK,
    TROOP_NAMES,
    TROOPS,
    card_name,
)
from games.engines.shitenno.engine import HANDLERS
from games.forms import COLOURS, TableSetupForm
from shitenno_site.validation import validate_name, whole_number

from .phrases import BONUS_WORDS

MAX_SEATS = 4
DEFAULT_GENERALS = ("honda", "ii", "sakakibara", "sakai")
DEFAULT_COLOURS = ("red", "blue", "yellow", "green")

TROOP_CHOICES = [(t, TROOP_NAMES[t]) for t in TROOPS]
CARD_CHOICES = [(c, card_name(c)) for c in TROOP_DECK]


class NewTableForm(TableSetupForm):
    """Seats with their generals, colours and starting titles, and the troop on each province's gate."""

    deal_titles = forms.BooleanField(label=_("Let the site deal the starting titles"), required=False,
                                     initial=True)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        player_choices = self.player_choices
        title_choices = [("", _("dealt by the site"))] + [(t, TITLE_NAMES[t]) for t in TITLES]
        for i in range(MAX_SEATS):
            n = i + 1
            self.fields[f"seat{i}_player"] = forms.ChoiceField(
                label=_("Seat %(n)d: player") % {"n": n}, choices=player_choices, required=False)
            self.fields[f"seat{i}_guest"] = forms.CharField(
                label=_("…or a new guest's name"), max_length=80, required=False, validators=[validate_name])
            self.fields[f"seat{i}_general"] = forms.ChoiceField(
                label=_("General"), choices=list(GENERALS.items()), initial=DEFAULT_GENERALS[i])
            self.fields[f"seat{i}_colour"] = forms.ChoiceField(
                label=_("Colour"), choices=[(k, v[0]) for k, v in COLOURS.items()], initial=DEFAULT_COLOURS[i])
            self.fields[f"seat{i}_title"] = forms.ChoiceField(
                label=_("Starting title"), choices=title_choices, required=False)
        for slug, province in PROVINCES.items():
            self.fields[f"gate_{slug}"] = forms.ChoiceField(
                label=province.name, choices=TROOP_CHOICES,
                help_text=_("Troop on the top bonus tile"))

    def seat_rows(self) -> list[list[forms.BoundField]]:
        return [[self[f"seat{i}_{part}"] for part in ("player", "guest", "general", "colour", "title")]
                for i in range(MAX_SEATS)]

    def gate_fields(self) -> list[forms.BoundField]:
        return [self[f"gate_{slug}"] for slug in PROVINCES]

    def clean(self) -> dict:
        data = super().clean()
        seats = []
        for i in range(MAX_SEATS):
            player = self.players.get(data.get(f"seat{i}_player") or "")
            guest = (data.get(f"seat{i}_guest") or "").strip()
            if player is None and not guest:
                continue
            seats.append({
                "player": player, "guest_name": guest, "general": data.get(f"seat{i}_general"),
                "colour": data.get(f"seat{i}_colour"), "title": data.get(f"seat{i}_title") or None,
            })
        if not 2 <= len(seats) <= MAX_SEATS:
            raise forms.ValidationError(_("Seat 2 to 4 players: pick a player or name a guest for each seat."))
        if not data.get("deal_titles") and any(not s["title"] for s in seats):
            raise forms.ValidationError(_("Enter every starting title, or let the site deal them."))
        data["seats"] = seats
        data["gates"] = {slug: data.get(f"gate_{slug}") for slug in PROVINCES}
        data["setup"] = {
            "players": [{"general": seat["general"]} for seat in seats],
            "titles": {seat["general"]: seat["title"] for seat in seats},
            "gates": dict(data["gates"]),
        }
        data["deal"] = bool(data.get("deal_titles"))
        return data


# --- moves --------------------------------------------------------------------------------------------


def _item(value: str) -> tuple[str, str]:
    """A tapped card's value "t:<card>:<i>" or "k:<value>:<i>" (the index keeps equal cards apart)."""
    kind, _sep, rest = value.partition(":")
    return kind, rest.rpartition(":")[0] or rest


def _cards(values: list[str]) -> tuple[list[str], list[int]]:
    troops, kokus = [], []
    for value in values:
        kind, name = _item(value)
        if kind == "t":
            troops.append(name)
        elif kind == "k" and whole_number(name) is not None:
            kokus.append(whole_number(name))
    return troops, kokus


def _count(data: QueryDict, name: str) -> int:
    value = whole_number((data.get(name) or "0").strip())
    if value is None:
        raise InvalidMove(_("Counts are whole numbers."))
    return min(value, 40)


def _koku_or_troop(value: str) -> int | str:
    number = whole_number(value)
    return value if number is None else number


MOVE_TYPES = tuple(HANDLERS)  # the engine's move types


def move_from_post(kind: str, seat: int, data: QueryDict) -> dict:
    """The engine move a move panel's form describes."""
    if kind not in MOVE_TYPES:
        raise MoveError(gettext("Unknown move."))
    move: dict = {"type": kind, "seat": seat}
    if kind == "draw":
        move["troops"] = [card for card in TROOP_DECK for _ in range(_count(data, f"n_{card}"))]
        move["kokus"] = [v for v in (1, 2, 3) for _ in range(_count(data, f"k_{v}"))]
    elif kind == "offer":
        move["troops"], move["kokus"] = _cards(data.getlist("pick"))
        move["hierarchy"] = data.get("hierarchy") or None
    elif kind == "split":
        lots = [{"troops": [], "kokus": [], "hierarchy": None}, {"troops": [], "kokus": [], "hierarchy": None}]
        for key, value in data.items():
            if key.startswith("lot_") and value in ("0", "1"):
                troops, kokus = _cards([key[4:]])
                lots[int(value)]["troops"] += troops
                lots[int(value)]["kokus"] += kokus
        lots[0]["hierarchy"] = data.get("hierarchy_a") or None
        lots[1]["hierarchy"] = data.get("hierarchy_b") or None
        move["lots"] = lots
    elif kind == "choose":
        move["lot"] = 1 if data.get("lot") == "1" else 0
    elif kind == "place":
        move["province"] = data.get("province") or None
        troops, kokus = _cards(data.getlist("pay"))
        troops += [data[key] for key in sorted(data) if key.startswith("reveal_") and data[key]]
        payment: dict = {"troops": troops, "kokus": kokus, "hatamoto": data.get("hatamoto") or None, "bonuses": []}
        if data.get("exchange_from") and data.get("exchange_to"):
            payment["bonuses"].append({"tile": "exchange", "from": _koku_or_troop(data["exchange_from"]),
                                       "to": data["exchange_to"]})
        if data.get("plus_one_on"):
            payment["bonuses"].append({"tile": "plus_one", "on": data["plus_one_on"]})
        move["payment"] = payment
        if data.get("bonus"):
            move["bonus"] = data["bonus"]
        if data.get("next_troop"):
            move["next_troop"] = data["next_troop"]
    elif kind == "take_card":
        move["card"] = data.get("card") or None
    elif kind == "end_turn" and data.get("golden"):
        province, _sep, position = data["golden"].partition(":")
        number = whole_number(position)
        move["golden"] = {"province": province, "position": position if number is None else number}
    return move


# --- the final-count calculator ---------------------------------------------------------------------------


class FinalCountForm(forms.Form):
    """One block per seat and one select per province position, for a phone."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_SEATS):
            self.fields[f"s{i}_general"] = forms.ChoiceField(
                label=_("General"), choices=[("", _("— empty seat —"))] + list(GENERALS.items()),
                required=False, initial=DEFAULT_GENERALS[i] if i < 2 else "")
            self.fields[f"s{i}_title"] = forms.ChoiceField(
                label=_("Title in the last year"), choices=[(t, TITLE_NAMES[t]) for t in TITLES], initial=TITLES[i],
                required=False)
            self.fields[f"s{i}_favour"] = forms.IntegerField(
                label=_("Favour on the track"), min_value=0, initial=0, required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
            for v in (1, 2, 3):
                self.fields[f"s{i}_koku{v}"] = forms.IntegerField(
                    label=_("Koku %(v)d cards") % {"v": v}, min_value=0, max_value=12, initial=0, required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
            self.fields[f"s{i}_troops"] = forms.IntegerField(
                label=_("Troops in hand"), min_value=0, max_value=40, initial=0, required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
            for bonus in ("exchange", "plus_one"):
                self.fields[f"s{i}_{bonus}"] = forms.IntegerField(
                    label=_("%(tile)s tiles") % {"tile": BONUS_WORDS[bonus]}, min_value=0, max_value=4,
                    initial=0, required=False,
                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
        kamon_choices = [("", "—")] + [
            (f"{i}:{face}", _("Seat %(n)d") % {"n": i + 1} + (" ★" if face == "golden" else ""))
            for i in range(MAX_SEATS) for face in ("simple", "golden")
        ]
        for slug, province in PROVINCES.items():
            for p in range(POSITIONS):
                self.fields[f"{slug}_{p}"] = forms.ChoiceField(
                    label=f"{province.name} {p + 1}", choices=kamon_choices, required=False)

    def seat_blocks(self) -> list[list[forms.BoundField]]:
        parts = ("general", "title", "favour", "koku1", "koku2", "koku3", "troops", "exchange", "plus_one")
        return [[self[f"s{i}_{part}"] for part in parts] for i in range(MAX_SEATS)]

    def province_rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(p.name, [self[f"{slug}_{i}"] for i in range(POSITIONS)]) for slug, p in PROVINCES.items()]

    def end(self) -> dict:
        """The final count's input (scoring.final_count) for the seats with a general."""
        data = self.cleaned_data
        seats = [i for i in range(MAX_SEATS) if data.get(f"s{i}_general")]
        index = {seat: n for n, seat in enumerate(seats)}
        provinces = {}
        for slug in PROVINCES:
            kamons = []
            for p in range(POSITIONS):
                value = data.get(f"{slug}_{p}")
                if not value:
                    break
                seat, _sep, face = value.partition(":")
                if int(seat) not in index:
                    raise InvalidMove(_("%(province)s: seat %(n)s has no general.") % {
                        "province": PROVINCES[slug].name, "n": int(seat) + 1})
                kamons.append({"seat": index[int(seat)], "face": face})
            provinces[slug] = kamons
        generals = [data[f"s{i}_general"] for i in seats]
        return {
            "generals": generals,
            "titles": {data[f"s{i}_general"]: data[f"s{i}_title"] for i in seats},
            "favour": [data[f"s{i}_favour"] or 0 for i in seats],
            "provinces": provinces,
            "kokus": [[v for v in (1, 2, 3) for _ in range(data[f"s{i}_koku{v}"] or 0)] for i in seats],
            "troops": [["hidden"] * (data[f"s{i}_troops"] or 0) for i in seats],
            "tiles": [{"exchange": data[f"s{i}_exchange"] or 0, "plus_one": data[f"s{i}_plus_one"] or 0,
                       "card_taking": 0} for i in seats],
        }


__all__ = ["BONUSES", "COLOURS", "MOVE_TYPES", "FinalCountForm", "NewTableForm", "move_from_post"]
