"""Shitennō's page forms: what a thumb enters at the table, turned into the engine's set-up, moves and final count.

This is presentation only. Nothing here judges a move: a move dict goes to the engine, which gives the
precise reason when it is illegal.
"""

from __future__ import annotations

import re

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
    TILES_PER_TROOP,
    TITLE_NAMES,
    TITLES,
    TROOP_DECK,
    TROOP_NAMES,
    TROOPS,
    card_name,
)
from games.engines.shitenno.engine import HANDLERS, ShitennoEngine
from games.forms import COLOURS, PlayerCountField, TableSetupForm
from shitenno_site.validation import validate_name, whole_number

from .phrases import BONUS_WORDS

MAX_SEATS = 4
DEFAULT_GENERALS = ("honda", "ii", "sakakibara", "sakai")
DEFAULT_COLOURS = ("red", "blue", "yellow", "green")

TROOP_CHOICES = [(t, TROOP_NAMES[t]) for t in TROOPS]
CARD_CHOICES = [(c, card_name(c)) for c in TROOP_DECK]


class NewTableForm(TableSetupForm):
    """The player count first, then one seat per player (its player or guest, general and colour), the starting
    titles and the troop on each province's gate; the site deals the titles and the gates unless the players
    enter what they dealt themselves. Every default opens a table as it stands."""

    players_count = PlayerCountField(ShitennoEngine.min_players, ShitennoEngine.max_players, initial=3, required=False)
    deal_titles = forms.BooleanField(label=_("Let the site deal the starting titles"), required=False, initial=True)
    deal_gates = forms.BooleanField(
        label=_("Let the site deal the gates"),
        required=False,
        initial=True,
        help_text=_(
            "The site piles the 24 bonus tiles at random, 3 on each gate, "
            "and shows which troop tops each pile: lay them so."
        ),
    )

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        player_choices = self.player_choices
        title_choices = [("", _("— pick the title —"))] + [(t, TITLE_NAMES[t]) for t in TITLES]
        for i in range(MAX_SEATS):
            n = i + 1
            self.fields[f"seat{i}_player"] = forms.ChoiceField(
                label=_("Seat %(n)d: player") % {"n": n}, choices=player_choices, required=False
            )
            self.fields[f"seat{i}_guest"] = forms.CharField(
                label=_("…or a new guest's name"), max_length=80, required=False, validators=[validate_name]
            )
            self.fields[f"seat{i}_general"] = forms.ChoiceField(
                label=_("General"), choices=list(GENERALS.items()), initial=DEFAULT_GENERALS[i]
            )
            self.fields[f"seat{i}_colour"] = forms.ChoiceField(
                label=_("Colour"), choices=[(k, v[0]) for k, v in COLOURS.items()], initial=DEFAULT_COLOURS[i]
            )
            self.fields[f"seat{i}_title"] = forms.ChoiceField(
                label=_("Seat %(n)d: starting title") % {"n": n}, choices=title_choices, required=False
            )
        gate_choices = [("", _("— pick the troop —"))] + TROOP_CHOICES
        for slug, province in PROVINCES.items():
            self.fields[f"gate_{slug}"] = forms.ChoiceField(label=province.name, choices=gate_choices, required=False)

    def seat_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"seat{i}_{part}"] for part in ("player", "guest", "general", "colour")] for i in range(MAX_SEATS)
        ]

    def title_fields(self) -> list[forms.BoundField]:
        return [self[f"seat{i}_title"] for i in range(MAX_SEATS)]

    def gate_fields(self) -> list[forms.BoundField]:
        return [self[f"gate_{slug}"] for slug in PROVINCES]

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players_count") or self.seats_named(MAX_SEATS)
        if not 2 <= count <= MAX_SEATS:
            raise forms.ValidationError(_("Seat 2 to 4 players: pick a player or name a guest for each seat."))
        seats = []
        for i in range(count):
            seat = self.seat_player(i, label=_("seat %(n)d") % {"n": i + 1})
            if seat is not None:
                seats.append(
                    {
                        **seat,
                        "general": data.get(f"seat{i}_general"),
                        "colour": data.get(f"seat{i}_colour"),
                        "title": data.get(f"seat{i}_title") or None,
                    }
                )
        self.refuse_repeats([f"seat{i}_player" for i in range(count)], _("%(value)s already has a seat."))
        self.refuse_repeats([f"seat{i}_general" for i in range(count)], _("%(value)s is played by one player only."))
        setup: dict = {"players": [{"general": data.get(f"seat{i}_general")} for i in range(count)]}
        if not data.get("deal_titles"):
            for i in range(count):
                if not data.get(f"seat{i}_title"):
                    self.add_error(f"seat{i}_title", _("Enter this seat's title, or let the site deal them."))
            self.refuse_repeats([f"seat{i}_title" for i in range(count)], _("%(value)s is dealt to one player only."))
            setup["titles"] = {data.get(f"seat{i}_general"): data.get(f"seat{i}_title") for i in range(count)}
        if not data.get("deal_gates"):
            self._check_gates(data)
            setup["gates"] = {slug: data.get(f"gate_{slug}") for slug in PROVINCES}
        if self.errors:
            return data
        data["seats"], data["setup"] = seats, setup
        data["deal"] = bool(data.get("deal_titles") or data.get("deal_gates"))
        return data

    def _check_gates(self, data: dict) -> None:
        """Each gate shows a troop, and no troop more often than its bonus tiles do (6 of each troop among the 24)."""
        shown: dict[str, list[str]] = {}
        for slug in PROVINCES:
            troop = data.get(f"gate_{slug}")
            if not troop:
                self.add_error(f"gate_{slug}", _("Pick the troop on this gate, or let the site deal the gates."))
            else:
                shown.setdefault(troop, []).append(slug)
        for troop, slugs in shown.items():
            if len(slugs) > TILES_PER_TROOP:
                message = _("Only %(n)d bonus tiles show a %(troop)s; the gates show %(shown)d.") % {
                    "n": TILES_PER_TROOP,
                    "troop": TROOP_NAMES[troop],
                    "shown": len(slugs),
                }
                for slug in slugs[TILES_PER_TROOP:]:
                    self.add_error(f"gate_{slug}", message)


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


def _drawn(data: QueryDict) -> dict:
    """Draw: the troop cards and kokus drawn, counted per kind."""
    return {
        "troops": [card for card in TROOP_DECK for _ in range(_count(data, f"n_{card}"))],
        "kokus": [v for v in (1, 2, 3) for _ in range(_count(data, f"k_{v}"))],
    }


def _offered(data: QueryDict) -> dict:
    troops, kokus = _cards(data.getlist("pick"))
    return {"troops": troops, "kokus": kokus, "hierarchy": data.get("hierarchy") or None}


def _split_in_lots(data: QueryDict) -> dict:
    """Split: each card ticked into lot 0 or 1, each lot with its hierarchy tile."""
    lots = [{"troops": [], "kokus": [], "hierarchy": None}, {"troops": [], "kokus": [], "hierarchy": None}]
    for key, value in data.items():
        if key.startswith("lot_") and value in ("0", "1"):
            troops, kokus = _cards([key[4:]])
            lots[int(value)]["troops"] += troops
            lots[int(value)]["kokus"] += kokus
    lots[0]["hierarchy"] = data.get("hierarchy_a") or None
    lots[1]["hierarchy"] = data.get("hierarchy_b") or None
    return {"lots": lots}


def _lot_chosen(data: QueryDict) -> dict:
    return {"lot": 1 if data.get("lot") == "1" else 0}


def _placed(data: QueryDict) -> dict:
    """Place: the province, the payment (cards, revealed cards, the Hatamoto, the bonus tiles used) and the gate's
    tiles as seen at the table."""
    troops, kokus = _cards(data.getlist("pay"))
    troops += [data[key] for key in sorted(data) if key.startswith("reveal_") and data[key]]
    payment: dict = {"troops": troops, "kokus": kokus, "hatamoto": data.get("hatamoto") or None, "bonuses": []}
    if data.get("exchange_from") and data.get("exchange_to"):
        payment["bonuses"].append(
            {"tile": "exchange", "from": _koku_or_troop(data["exchange_from"]), "to": data["exchange_to"]}
        )
    if data.get("plus_one_on"):
        payment["bonuses"].append({"tile": "plus_one", "on": data["plus_one_on"]})
    move = {"province": data.get("province") or None, "payment": payment}
    for field in ("bonus", "next_troop"):
        if data.get(field):
            move[field] = data[field]
    return move


def _card_taken(data: QueryDict) -> dict:
    return {"card": data.get("card") or None}


def _turn_ended(data: QueryDict) -> dict:
    """End the turn, turning a kamon golden ("province:position") if the form names one."""
    if not data.get("golden"):
        return {}
    province, _sep, position = data["golden"].partition(":")
    number = whole_number(position)
    return {"golden": {"province": province, "position": position if number is None else number}}


_MOVE_FIELDS = {
    "draw": _drawn,
    "offer": _offered,
    "split": _split_in_lots,
    "choose": _lot_chosen,
    "place": _placed,
    "take_card": _card_taken,
    "end_turn": _turn_ended,
}


def move_from_post(kind: str, seat: int, data: QueryDict) -> dict:
    """The engine move a move panel's form describes: its type and seat, and the fields its own step reads."""
    if kind not in MOVE_TYPES:
        raise MoveError(gettext("Unknown move."))
    fields = _MOVE_FIELDS.get(kind)
    return {"type": kind, "seat": seat, **(fields(data) if fields else {})}


class FieldMissing(InvalidMove):
    """A field of the move form that the chosen move needs, or must leave empty, said in the form's words.

    `field` names the form field, so the page shows the reason next to it rather than under the form.
    """

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message, code=f"shitenno.form.{field}", params={"field": field})
        self.field = field


def check_place_fields(state: dict, move: dict) -> None:
    """The placement form's fields that the chosen province's gate needs, asked before the engine sees the
    move: its own refusals name the API's fields ("bonus" is one of ...), not the form's.

    Rulebook: "He takes immediately the top Bonus Tile on the stack of Bonus Tiles of the Province, except if
    he has placed his Kamon on the last position." So positions 1-3 take a tile (its bonus face is entered),
    and positions 1-2 uncover the next one (its troop face is entered). A full province is the engine's to refuse.
    """
    slug = move.get("province")
    if slug not in PROVINCES:
        raise FieldMissing(gettext("Tap the province to place the kamon on."), field="province")
    if len(state["board"][slug]) >= POSITIONS:
        return
    tiles = state["gates"][slug]["tiles"]
    words = {"province": PROVINCES[slug].name, "position": len(state["board"][slug]) + 1}
    if tiles and not move.get("bonus"):
        raise FieldMissing(
            gettext(
                "A kamon on %(province)s's position %(position)d takes the top tile of its gate: choose the bonus "
                "face taken."
            )
            % words,
            field="bonus",
        )
    if not tiles and move.get("bonus"):
        raise FieldMissing(
            gettext("%(province)s's last position takes no tile from the gate: leave the bonus face empty.") % words,
            field="bonus",
        )
    if tiles > 1 and not move.get("next_troop"):
        raise FieldMissing(
            gettext(
                "Taking the tile from %(province)s's gate uncovers the next one: choose the troop face revealed "
                "beneath."
            )
            % words,
            field="next_troop",
        )
    if tiles <= 1 and move.get("next_troop"):
        raise FieldMissing(
            gettext("No tile is left beneath on %(province)s's gate: leave the troop face revealed beneath empty.")
            % words,
            field="next_troop",
        )


# --- the final-count calculator ---------------------------------------------------------------------------


KAMON = re.compile(r"([1-4])\s*([*★gG])?")
KAMON_SEPARATORS = re.compile(r"[\s,;.\-/]+")


def kamons_entered(text: str) -> list[tuple[int, str]] | None:
    """A province's kamons as typed, left to right: seat numbers, a star after a golden kamon ("1 2* 3", "12*3");
    spaces, commas and dashes between them are ignored. None when anything else was typed."""
    text = KAMON_SEPARATORS.sub("", text or "")
    kamons, at = [], 0
    while at < len(text):
        found = KAMON.match(text, at)
        if not found:
            return None
        kamons.append((int(found.group(1)) - 1, "golden" if found.group(2) else "simple"))
        at = found.end()
    return kamons


class FinalCountForm(forms.Form):
    """The end of a game on one phone screen or two: how many players, one compact block per seat (general,
    last year's title, favour, cards and tiles in hand), and one short line per province: the seats of its kamons
    from left to right. An empty board is refused: a game always ends with kamons on it."""

    players_count = PlayerCountField(ShitennoEngine.min_players, ShitennoEngine.max_players, initial=4)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        number = {"inputmode": "numeric", "class": "num"}
        for i in range(MAX_SEATS):
            self.fields[f"s{i}_general"] = forms.ChoiceField(
                label=_("General"), choices=list(GENERALS.items()), initial=DEFAULT_GENERALS[i], required=False
            )
            self.fields[f"s{i}_title"] = forms.ChoiceField(
                label=_("Title"), choices=[(t, TITLE_NAMES[t]) for t in TITLES], initial=TITLES[i], required=False
            )
            self.fields[f"s{i}_favour"] = forms.IntegerField(
                label=_("Favour"),
                min_value=0,
                max_value=999,
                required=False,
                widget=forms.NumberInput(attrs={**number, "placeholder": "0"}),
            )
            for v in (1, 2, 3):
                self.fields[f"s{i}_koku{v}"] = forms.IntegerField(
                    label=_("Koku %(v)d") % {"v": v},
                    min_value=0,
                    max_value=12,
                    required=False,
                    widget=forms.NumberInput(attrs={**number, "placeholder": "0"}),
                )
            self.fields[f"s{i}_troops"] = forms.IntegerField(
                label=_("Troops"),
                min_value=0,
                max_value=40,
                required=False,
                widget=forms.NumberInput(attrs={**number, "placeholder": "0"}),
            )
            for bonus in ("exchange", "plus_one"):
                self.fields[f"s{i}_{bonus}"] = forms.IntegerField(
                    label=BONUS_WORDS[bonus],
                    min_value=0,
                    max_value=4,
                    required=False,
                    widget=forms.NumberInput(attrs={**number, "placeholder": "0"}),
                )
        for slug, province in PROVINCES.items():
            self.fields[slug] = forms.CharField(
                label=province.name,
                max_length=40,
                required=False,
                widget=forms.TextInput(attrs={"inputmode": "tel", "autocomplete": "off", "spellcheck": "false"}),
            )

    def seat_blocks(self) -> list[dict]:
        counts = ("favour", "koku1", "koku2", "koku3", "troops", "exchange", "plus_one")
        return [
            {"names": [self[f"s{i}_general"], self[f"s{i}_title"]], "counts": [self[f"s{i}_{part}"] for part in counts]}
            for i in range(MAX_SEATS)
        ]

    def province_fields(self) -> list[forms.BoundField]:
        return [self[slug] for slug in PROVINCES]

    def _province_kamons(self, data: dict, count: int) -> dict[str, list[dict]]:
        """Each province's kamons as entered ("1 2* 3", left to right), each field's mistake said beside it."""
        kamons: dict[str, list[dict]] = {}
        for slug, province in PROVINCES.items():
            entered = kamons_entered(data.get(slug) or "")
            if entered is None:
                self.add_error(
                    slug, _("Write the seats of the kamons from left to right, a * after a golden one: 1 2* 3.")
                )
                continue
            if len(entered) > POSITIONS:
                self.add_error(
                    slug, _("%(province)s has %(n)d positions.") % {"province": province.name, "n": POSITIONS}
                )
                continue
            far = next((seat for seat, _face in entered if seat >= count), None)
            if far is not None:
                self.add_error(
                    slug, _("Seat %(n)d is not at this table of %(count)d players.") % {"n": far + 1, "count": count}
                )
                continue
            kamons[slug] = [{"seat": seat, "face": face} for seat, face in entered]
        return kamons

    def _generals_and_titles_once(self, data: dict, count: int) -> None:
        """Each seat at the table has a general and a title, none of them twice."""
        for name, label in (
            ("s%d_general", _("%(value)s is played by one seat only.")),
            ("s%d_title", _("%(value)s is held by one general only.")),
        ):
            seen: set = set()
            for i in range(count):
                value = data.get(name % i)
                if not value:
                    self.add_error(name % i, _("Pick one for each seat at the table."))
                elif value in seen:
                    self.add_error(name % i, label % {"value": dict(self.fields[name % i].choices)[value]})
                seen.add(value)

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players_count")
        if not count:
            return data
        kamons = self._province_kamons(data, count)
        if not self.errors and not any(kamons.values()):
            self.add_error(
                next(iter(PROVINCES)),
                _("The board is empty: enter each province's kamons, left to right, before the count."),
            )
        self._generals_and_titles_once(data, count)
        data["kamons"] = kamons
        return data

    def end(self) -> dict:
        """The final count's input (scoring.final_count) for the seats at the table."""
        data = self.cleaned_data
        seats = range(data["players_count"])
        return {
            "generals": [data[f"s{i}_general"] for i in seats],
            "titles": {data[f"s{i}_general"]: data[f"s{i}_title"] for i in seats},
            "favour": [data[f"s{i}_favour"] or 0 for i in seats],
            "provinces": {slug: data["kamons"].get(slug, []) for slug in PROVINCES},
            "kokus": [[v for v in (1, 2, 3) for _ in range(data[f"s{i}_koku{v}"] or 0)] for i in seats],
            "troops": [["hidden"] * (data[f"s{i}_troops"] or 0) for i in seats],
            "tiles": [
                {"exchange": data[f"s{i}_exchange"] or 0, "plus_one": data[f"s{i}_plus_one"] or 0, "card_taking": 0}
                for i in seats
            ],
        }


__all__ = ["BONUSES", "COLOURS", "MOVE_TYPES", "FinalCountForm", "NewTableForm", "move_from_post"]
