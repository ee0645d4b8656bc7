"""Small Samurai Empires' page forms: the new-table set-up and the moves a thumb enters (the era score sheet,
the final count, the solo moves), turned into the engine's set-up and moves.

Presentation only: nothing here judges a move. A form field that is not a whole number is refused here with
a sentence (a 400); everything else goes to the engine, which gives the precise reason.
"""

from __future__ import annotations

import json

from django import forms
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.base import InvalidMove, MoveError
from games.engines.samurai_empires.board import AIS, RESOURCES, TRAINING_GROUNDS
from games.forms import PlayerCountField, TableSetupForm

MAX_SEATS = 5
MODE_CHOICES = [("multiplayer", _("Multiplayer")), ("solo", _("Solo against the two AIs"))]


def _ground(n: int) -> str:
    """ "Training Ground n", said when a page is drawn, in the reader's language: a % at import time fixed it in
    English (a lazy string formatted is no longer lazy)."""
    return lazy(lambda: gettext("Training Ground %(n)d") % {"n": n}, str)()


GROUND_CHOICES = [("", _("no Training Ground"))] + [(str(n), _ground(n)) for n in TRAINING_GROUNDS]
TRAINED_FIELDS = ("samurai", "archers", "elites", "general")


class NewTableForm(TableSetupForm):
    """The player count first, the mode, 1 to 5 seats (solo: one), each with an optional Training Ground, and the
    club's board."""

    players_count = PlayerCountField(
        1,
        MAX_SEATS,
        initial=2,
        required=False,
        help_text=_("1 player: solo against the two AIs, or a lone score sheet."),
    )
    mode = forms.ChoiceField(label=_("Mode"), choices=MODE_CHOICES, initial="multiplayer")
    board_setup = forms.ChoiceField(label=_("The club's saved board"), required=False)
    board = forms.CharField(
        label=_("Board set-up (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "For a board written out by a script or copied from another club (the API's format): the "
            "regions north to south with their values by place, influence-points tables and provinces; for "
            "solo also the spaces, the AIs' order tokens, the destiny deck and the seed tokens."
        ),
    )
    save_board_as = forms.CharField(label=_("Save this board for the club as"), max_length=80, required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from games.plugins.samurai_empires.models_access import board_choices

        self.saved_boards = board_choices(self.fields["club"].queryset)
        self.fields["board_setup"].choices = [("", _("— enter the board below —"))] + [
            (str(pk), label) for pk, (label, _board) in self.saved_boards.items()
        ]
        if self.saved_boards:  # the board the club entered last, picked already: a later table only counts
            self.fields["board_setup"].initial = max(self.saved_boards, key=int)
        for i in range(MAX_SEATS):
            n = i + 1
            self.fields[f"seat{i}_player"] = forms.ChoiceField(
                label=_("Seat %(n)d: player") % {"n": n}, choices=self.player_choices, required=False
            )
            self.fields[f"seat{i}_guest"] = forms.CharField(
                label=_("…or a new guest's name"), max_length=80, required=False
            )
            self.fields[f"seat{i}_ground"] = forms.ChoiceField(
                label=_("Training Ground"), choices=GROUND_CHOICES, required=False
            )

    def seat_rows(self) -> list[list[forms.BoundField]]:
        return [[self[f"seat{i}_{part}"] for part in ("player", "guest", "ground")] for i in range(MAX_SEATS)]

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players_count") or max(self.seats_named(MAX_SEATS), 1)
        mode = data.get("mode") or "multiplayer"
        if mode == "solo" and count != 1:
            self.add_error("players_count", _("The solo mode seats one player against the two AIs."))
        seats, players = [], []
        for i in range(count):
            seat = self.seat_player(i, label=_("seat %(n)d") % {"n": i + 1})
            if seat is None:
                continue
            seats.append({**seat, "colour": ""})
            entry: dict = {"name": seat["player"].name if seat["player"] else seat["guest_name"]}
            if data.get(f"seat{i}_ground"):
                entry["training_ground"] = int(data[f"seat{i}_ground"])
            players.append(entry)
        self.refuse_repeats([f"seat{i}_player" for i in range(count)], _("%(value)s already has a seat."))
        self.refuse_repeats(
            [f"seat{i}_ground" for i in range(count)], _("Each house has its own Training Ground: %(value)s is taken.")
        )
        board = self._board(data)
        name = (data.get("save_board_as") or "").strip()
        if name:
            from games.plugins.samurai_empires.models_access import board_name_taken

            if data.get("club") is None:
                self.add_error("club", _("Pick the club to save the board for."))
            elif board_name_taken(data["club"], name):
                self.add_error("save_board_as", _("Your club already has a board of that name."))
        if self.errors:
            return data
        data["seats"] = seats
        data["setup"] = {"mode": mode, "players": players, "board": board}
        data["deal"] = mode == "solo"  # the site draws the solo table's seed
        return data

    def _board(self, data: dict) -> object:
        saved = data.get("board_setup")
        if saved:
            if saved not in self.saved_boards:
                self.add_error("board_setup", _("Pick one of your clubs' saved boards."))
                return None
            return self.saved_boards[saved][1]
        text = (data.get("board") or "").strip()
        if not text:
            self.add_error("board", _("Enter the board set-up, or pick a board your club saved."))
            return None
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: a board nested thousands of levels deep
            self.add_error("board", _("The board set-up is not valid JSON."))
            return None


# --- moves --------------------------------------------------------------------------------------------


def _int(data: QueryDict, key: str, default: int | None = 0) -> int | None:
    raw = (data.get(key) or "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise InvalidMove(gettext("“%(value)s” is not a whole number.") % {"value": raw[:20]}) from None


def _int_value(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise InvalidMove(gettext("“%(value)s” is not a whole number.") % {"value": raw[:20]}) from None


def era_entry(state: dict, party: int, data: QueryDict) -> dict:
    """One party's era row: the place scored in each region (blank: none), shrines, sieges, trained armies and
    any other points with a note."""
    p = f"p{party}_"
    entry: dict = {"regions": {}, "shrines": _int(data, p + "shrines")}
    for i, region in enumerate(state["board"]["regions"]):
        place = _int(data, f"{p}place{i}", None)
        if place is not None:
            entry["regions"][region["name"]] = place
    if state["parties"][party]["training_ground"] is not None:
        entry["sieges"] = _int(data, p + "sieges")
        entry["trained"] = {k: _int(data, p + k) for k in TRAINED_FIELDS}
    other = _int(data, p + "other")
    if other:
        entry["other"] = [{"points": other, "note": (data.get(p + "note") or "").strip() or gettext("other points")}]
    return entry


def final_entry(state: dict, party: int, data: QueryDict) -> dict:
    p = f"p{party}_"
    entry: dict = {
        "influence": {r["name"]: _int(data, f"{p}inf{i}") for i, r in enumerate(state["board"]["regions"])},
        "resource_points": _int(data, p + "resource_points"),
    }
    if state["parties"][party]["ai"] is None:
        entry["resources"] = {k: _int(data, p + k) for k in RESOURCES}
    return entry


def provinces(state: dict) -> list[str]:
    return [p["name"] for r in state["board"]["regions"] for p in r["provinces"]]


def _province(state: dict, index: int) -> str:
    names = provinces(state)
    if not 0 <= index < len(names):
        raise InvalidMove(gettext("Pick a province of the board."))
    return names[index]


def _placed(state: dict, data: QueryDict) -> dict:
    """The order token's space, from the spot "region:space"."""
    region, _sep, space = (data.get("spot") or "").partition(":")
    regions = state["board"]["regions"]
    if not (
        region.isascii() and region.isdigit() and space.isascii() and space.isdigit() and int(region) < len(regions)
    ):
        raise InvalidMove(gettext("Pick a space to place your token on."))
    return {"region": regions[int(region)]["name"], "space": int(space)}


def _destroyed(state: dict, data: QueryDict) -> dict:
    """What each AI destroyed, by province."""
    destroyed: dict = {}
    for ai in AIS:
        for i, name in enumerate(provinces(state)):
            n = _int(data, f"d_{ai}_{i}")
            if n:
                destroyed.setdefault(ai, {})[name] = n
    return destroyed


def move_from_post(state: dict, kind: str, data: QueryDict) -> dict:
    parties = range(len(state["parties"]))
    if kind == "era_score":
        return {"type": kind, "era": state["era"], "scores": [era_entry(state, p, data) for p in parties]}
    if kind == "final_score":
        return {"type": kind, "scores": [final_entry(state, p, data) for p in parties]}
    if kind in ("ai_step", "pass"):
        return {"type": kind}
    if kind == "place":
        return {"type": kind, **_placed(state, data)}
    if kind == "resolve":
        return {"type": kind, "destroyed": _destroyed(state, data)}
    if kind == "report":
        names = provinces(state)
        armies = {name: _int(data, f"a_{i}") for i, name in enumerate(names) if _int(data, f"a_{i}")}
        castles = [_province(state, _int_value(v)) for v in data.getlist("castle")]
        return {"type": kind, "armies": armies, "castles": castles}
    raise MoveError(gettext("Unknown move type %(type)s.") % {"type": kind[:40]})
