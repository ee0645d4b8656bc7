"""The board editor's forms and its draft: a club enters its Small Samurai Empires board a region per screen on a
phone, instead of writing the set-up as JSON.

The site never knows the printed values: every number here is what the club typed from its own board, and no
field starts with a number that could pass for a printed one. A region is checked when its screen is sent, by the
engine's own region check (games.engines.samurai_empires.board.check_region), and the whole board by
check_board() before it is saved; the refusals are the game's sentences in the reader's language. Until then the
draft lives in the visitor's session only, so an abandoned or refused board leaves nothing half-saved.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engines.base import MoveError
from games.engines.samurai_empires.board import (
    BASE_REGIONS,
    NEW_REGION_REGIONS,
    PROVINCE_KINDS,
    RESOURCES,
    TOKEN_ACTIONS,
    check_board,
    check_region,
)

from .phrases import ACTIONS, LOCATIONS

DRAFT_KEY = "samurai_empires_board_draft"
SPACES = 4  # the order-token spaces printed beside each region, top to bottom
MIN_PROVINCE_ROWS = 5
MAX_PROVINCE_ROWS = 20
VALUES = (1, 6)  # how many places a region scores: the engine's bounds
INFLUENCE = (1, 40)
KIND_LABELS = {"capital": LOCATIONS["capital"], "shrine": LOCATIONS["shrine"], "resource": _("Resource slot")}


T = TypeVar("T")


class EditorError(Exception):
    """A refusal in the reader's language (the engine's, said through the game's catalogue)."""


def engine_check(check: Callable[..., T], *args: object, **kwargs: object) -> T:
    """Run one of the engine's board checks; its refusal said in the reader's words."""
    from games.plugins import get_game

    try:
        return check(*args, **kwargs)
    except MoveError as exc:
        raise EditorError(get_game("samurai_empires").say_error(exc)) from None


# --- the draft ----------------------------------------------------------------------------------------------


def draft_new(*, club_pk: int, name: str, regions: int) -> dict:
    return {"club": club_pk, "name": name, "regions": [None] * regions, "copies": {}}


def draft_of(session) -> dict | None:
    """The visitor's draft, or None when there is none or it is not one this editor wrote."""
    draft = session.get(DRAFT_KEY)
    if (
        isinstance(draft, dict)
        and isinstance(draft.get("regions"), list)
        and len(draft["regions"]) in (BASE_REGIONS, NEW_REGION_REGIONS)
    ):
        return draft
    return None


def first_missing(draft: dict) -> int | None:
    """The first region (1-based) not entered yet, or None when all are."""
    return next((i + 1 for i, region in enumerate(draft["regions"]) if region is None), None)


def copy_for_next(region: dict) -> dict:
    """What "copy this region to the next" carries over: the numbers, the spaces and the provinces' kinds. The
    names stay blank: every region and province has its own name on the board."""
    return {
        "name": "",
        "values": list(region["values"]),
        "influence_points": list(region["influence_points"]),
        "spaces": list(region.get("spaces", [])),
        "provinces": [{"name": "", "kind": p["kind"]} for p in region["provinces"]],
    }


def other_names(draft: dict, index: int) -> set[str]:
    return {
        name
        for i, r in enumerate(draft["regions"])
        if r is not None and i != index
        for name in [r["name"], *(p["name"] for p in r["provinces"])]
    }


# --- the first screen: which club, what name, how many regions ----------------------------------------------


class StartForm(forms.Form):
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=None,
        empty_label=None,
        help_text=_("The board is saved for this club: its members pick it when they open a table."),
    )
    name = forms.CharField(label=_("Name of the board"), max_length=80)
    regions = forms.TypedChoiceField(
        label=_("Regions"),
        coerce=int,
        widget=forms.RadioSelect,
        initial=BASE_REGIONS,
        choices=[
            (BASE_REGIONS, _("4 regions (the base map)")),
            (NEW_REGION_REGIONS, _("5 regions (with the New Region)")),
        ],
    )

    def __init__(self, *args, clubs, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].queryset = clubs

    def clean(self) -> dict:
        from .models_access import board_name_taken

        data = super().clean()
        name = (data.get("name") or "").strip()
        if data.get("club") is not None and name and board_name_taken(data["club"], name):
            self.add_error("name", _("Your club already has a board of that name."))
        data["name"] = name
        return data


# --- a region's screen -----------------------------------------------------------------------------------------


def numbers(raw: str, *, bounds: tuple[int, int], what) -> list[int]:
    """ "6 3 1" or "6, 3, 1" -> [6, 3, 1]; a word that is not a whole number, or too few or many, refused."""
    words = [w for w in re.split(r"[\s,;/]+", raw.strip()) if w]
    for word in words:
        if not (word.isascii() and word.isdigit()) or int(word) > 999:
            raise forms.ValidationError(
                _("“%(value)s” is not a whole number from 0 to 999."), params={"value": word[:20]}
            )
    low, high = bounds
    if not low <= len(words) <= high:
        raise forms.ValidationError(what, params={"low": low, "high": high, "n": len(words)})
    return [int(w) for w in words]


class RegionForm(forms.Form):
    """One region as printed: its name, its points by place, its influence-points table, the neutral action beside
    each of its four order-token spaces (for solo play) and its provinces north to south with their kinds."""

    name = forms.CharField(label=_("Name of the region"), max_length=60)
    values = forms.CharField(
        label=_("Points by place"),
        max_length=60,
        help_text=_("As printed, first place first, separated by spaces: for example three numbers for three places."),
    )
    influence_points = forms.CharField(
        label=_("Influence points"),
        max_length=200,
        help_text=_("The region's influence-points table as printed, from no influence up, separated by spaces."),
    )

    def __init__(self, *args, rows: int = MIN_PROVINCE_ROWS, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        action_choices = [(a, ACTIONS[a]) for a in ("attack", "harvest", "recruit", "move")]
        for s in range(SPACES):
            self.fields[f"space{s}"] = forms.ChoiceField(
                label=_("Space %(n)d") % {"n": s + 1}, choices=action_choices, required=False, widget=forms.RadioSelect
            )
        self.row_count = rows  # the page posts it back as "rows" (views._rows bounds it)
        for p in range(rows):
            self.fields[f"province{p}_name"] = forms.CharField(
                label=_("Province %(n)d") % {"n": p + 1}, max_length=60, required=False
            )
            self.fields[f"province{p}_kind"] = forms.ChoiceField(
                label=_("Kind of province %(n)d") % {"n": p + 1},
                required=False,
                widget=forms.RadioSelect,
                choices=[(k, KIND_LABELS[k]) for k in PROVINCE_KINDS],
            )

    def space_fields(self) -> list[forms.BoundField]:
        return [self[f"space{s}"] for s in range(SPACES)]

    def province_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"province{p}_name"], self[f"province{p}_kind"]) for p in range(self.row_count)]

    def clean_values(self) -> list[int]:
        return numbers(
            self.cleaned_data["values"],
            bounds=VALUES,
            what=_("Enter %(low)s to %(high)s numbers, one per place, not %(n)s."),
        )

    def clean_influence_points(self) -> list[int]:
        return numbers(
            self.cleaned_data["influence_points"],
            bounds=INFLUENCE,
            what=_("Enter %(low)s to %(high)s numbers, not %(n)s."),
        )

    def clean(self) -> dict:
        data = super().clean()
        spaces = [data.get(f"space{s}") or "" for s in range(SPACES)]
        if any(spaces) and not all(spaces):
            self.add_error(
                f"space{spaces.index('')}",
                _("Give each of the four spaces its action, or none of them (multiplayer only)."),
            )
        provinces = []
        for p in range(self.row_count):
            name = (data.get(f"province{p}_name") or "").strip()
            kind = data.get(f"province{p}_kind") or ""
            if name and not kind:
                self.add_error(f"province{p}_kind", _("Pick the kind of %(province)s.") % {"province": name})
            elif kind and not name:
                self.add_error(f"province{p}_name", _("Name this province, or leave its kind unpicked."))
            elif name:
                provinces.append({"name": name, "kind": kind})
        if not provinces and not self.has_error("province0_name"):
            self.add_error("province0_name", _("Enter the region's provinces, north to south."))
        data["spaces"] = spaces if all(spaces) else []
        data["provinces"] = provinces
        return data

    def region(self) -> dict:
        """The region in the engine's set-up words (call after is_valid())."""
        data = self.cleaned_data
        region = {
            "name": data["name"].strip(),
            "values": data["values"],
            "influence_points": data["influence_points"],
            "provinces": data["provinces"],
        }
        if data["spaces"]:
            region["spaces"] = data["spaces"]
        return region


def region_initial(region: dict | None) -> dict:
    """A saved (or copied) region as the form's initial values."""
    if region is None:
        return {}
    initial = {
        "name": region["name"],
        "values": " ".join(map(str, region["values"])),
        "influence_points": " ".join(map(str, region["influence_points"])),
    }
    for s, action in enumerate(region.get("spaces", [])[:SPACES]):
        initial[f"space{s}"] = action
    for p, province in enumerate(region["provinces"]):
        initial[f"province{p}_name"] = province["name"]
        initial[f"province{p}_kind"] = province["kind"]
    return initial


def rows_for(region: dict | None) -> int:
    """Province rows to show: every province entered and one free row, at least MIN_PROVINCE_ROWS."""
    filled = len(region["provinces"]) + 1 if region else 0
    return max(MIN_PROVINCE_ROWS, min(filled, MAX_PROVINCE_ROWS))


def region_checked(form: RegionForm, draft: dict, index: int) -> dict:
    """The form's region as the engine accepts it, or EditorError (its names must be new to the board too)."""
    from django.utils.translation import gettext

    region = form.region()
    engine_check(check_region, region, index, solo=False)
    names = [region["name"], *(p["name"] for p in region["provinces"])]
    if len(set(names)) != len(names) or set(names) & other_names(draft, index):
        raise EditorError(gettext("Every region and province needs its own name."))
    return region


# --- the last screen: the solo parts, then the whole board ---------------------------------------------------


class FinishForm(forms.Form):
    """The components the solo mode counts (left blank for a board played only multiplayer): the AIs' order
    tokens, the destiny deck's cards per region and the seed tokens."""

    def __init__(self, *args, region_names: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        number = {
            "required": False,
            "min_value": 0,
            "max_value": 50,
            "widget": forms.NumberInput(attrs={"inputmode": "numeric"}),
        }
        self.order_keys = [f"order_{a}" for a in TOKEN_ACTIONS]
        order_labels = {
            "attack": ACTIONS["attack"],
            "harvest": ACTIONS["harvest"],
            "recruit": ACTIONS["recruit"],
            "castle": ACTIONS["castle"],
        }
        for action in TOKEN_ACTIONS:
            self.fields[f"order_{action}"] = forms.IntegerField(label=order_labels[action], **number)
        self.destiny_keys = []
        for i, name in enumerate(region_names):
            self.fields[f"destiny{i}"] = forms.IntegerField(label=name, **number)
            self.destiny_keys.append((f"destiny{i}", name))
        self.seed_keys = [f"seed_{r}" for r in RESOURCES]
        self.fields["seed_bushido"] = forms.IntegerField(label=LOCATIONS["bushido"], **number)
        self.fields["seed_food"] = forms.IntegerField(label=LOCATIONS["food"], **number)

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [
            (_("The AIs' order tokens (each AI)"), [self[k] for k in self.order_keys]),
            (_("Destiny cards per region"), [self[k] for k, _name in self.destiny_keys]),
            (_("Seed tokens"), [self[k] for k in self.seed_keys]),
        ]

    def clean(self) -> dict:
        data = super().clean()
        keys = [*self.order_keys, *(k for k, _name in self.destiny_keys), *self.seed_keys]
        given = [k for k in keys if data.get(k) is not None]
        data["solo"] = None
        if given and len(given) != len(keys):
            missing = next(k for k in keys if data.get(k) is None and not self.has_error(k))
            self.add_error(missing, _("Fill in every solo part, or none of them (a board for multiplayer only)."))
        elif given:
            data["solo"] = {
                "order_tokens": {a: data[f"order_{a}"] for a in TOKEN_ACTIONS},
                "destiny_deck": {name: data[k] for k, name in self.destiny_keys},
                "seed_tokens": {r: data[f"seed_{r}"] for r in RESOURCES},
            }
        return data


def whole_board(draft: dict, solo: dict | None) -> dict:
    """The board in the engine's set-up words, checked as a table would check it (EditorError when refused)."""
    board = {"regions": draft["regions"], **(solo or {})}
    engine_check(check_board, board, solo=False)
    if solo is not None:
        engine_check(check_board, board, solo=True)
    return board
