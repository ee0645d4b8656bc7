"""Teikoku's page forms: the set-up a table agrees on, and each movement's form turned into the engine's move.

Presentation only: nothing here judges a move (the engine does, with its sentence). The one thing the site
adds is dice: a raid or roll posted with "roll for me" gets two dice drawn here, with the operating system's
generator, written into the move (rolled_by "site") before it is logged, so the engine draws nothing and a
replay of the log needs no generator.
"""

from __future__ import annotations

import random

from django import forms
from django.http import QueryDict
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engines.base import InvalidMove, MoveError
from games.engines.teikoku.moves import MOVES
from games.engines.teikoku.rules import (
    AGGRESSION_TARGET,
    CLAN_NAMES,
    CLANS,
    DECK_NAMES,
    MAX_TREASURE_SETTING,
    MAX_UNITS_DECK,
    SPECIAL_DECK_MAX,
    SPECIAL_DECKS,
    STARTING_TREASURE,
)
from games.forms import COLOURS, PlayerCountField, TableSetupForm
from shitenno_site.validation import whole_number

MAX_SEATS = 4
# The rulebook prints no clan colours: each seat picks one (games.forms.COLOURS); these are only the defaults.
DEFAULT_COLOURS = ("red", "blue", "green", "purple")
SPECIAL_CHOICES = [(deck, DECK_NAMES[deck]) for deck in SPECIAL_DECKS]
DICE = random.SystemRandom()  # the site's dice roller: unpredictable, never seeded


class NewTableForm(TableSetupForm):
    """Player count first, then one seat per clan in the rulebook's order (Fujiwara, Minamoto, Tokugawa, Taira:
    the playing order), the Units deck as counted, and the variants the players agreed on."""

    players_count = PlayerCountField(
        2, MAX_SEATS, initial=3, help_text=_("2 players: Fujiwara and Minamoto; 3 add Tokugawa; 4 add Taira.")
    )
    units_deck = forms.IntegerField(
        label=_("Cards in the Units deck"),
        min_value=0,
        max_value=MAX_UNITS_DECK,
        help_text=_("Count them once the 3 Port cards are face up (the rulebook does not print this number)."),
    )
    starting_treasure = forms.IntegerField(
        label=_("Starting treasure"),
        min_value=0,
        max_value=MAX_TREASURE_SETTING,
        required=False,
        help_text=lazy(lambda: gettext("Empty: the rulebook's %(n)d.") % {"n": STARTING_TREASURE}, str)(),
    )
    aggression_target = forms.IntegerField(
        label=_("Aggression target"),
        min_value=1,
        max_value=MAX_TREASURE_SETTING,
        required=False,
        # lazy: formatted when the page is drawn, in the reader's language (a % at import fixed it in English)
        help_text=lazy(
            lambda: (
                gettext("Empty: the rulebook's %(n)d. A seat's own target below overrides it (a handicap).")
                % {"n": AGGRESSION_TARGET}
            ),
            str,
        )(),
    )
    special_deck_size = forms.IntegerField(
        label=_("Cards in each special deck"),
        min_value=1,
        max_value=SPECIAL_DECK_MAX,
        required=False,
        help_text=_("Empty: 8 (4 with 2 players)."),
    )
    fourth_year = forms.BooleanField(label=_("Play a 4th year"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_SEATS):
            clan = CLAN_NAMES[CLANS[i]]
            self.fields[f"seat{i}_player"] = forms.ChoiceField(
                label=_("%(clan)s: player") % {"clan": clan}, choices=self.player_choices, required=False
            )
            self.fields[f"seat{i}_guest"] = forms.CharField(
                label=_("…or a new guest's name"), max_length=80, required=False
            )
            self.fields[f"seat{i}_colour"] = forms.ChoiceField(
                label=_("Colour"), choices=[(k, v[0]) for k, v in COLOURS.items()], initial=DEFAULT_COLOURS[i]
            )
            self.fields[f"seat{i}_special"] = forms.ChoiceField(
                label=_("Opening special card from"), choices=SPECIAL_CHOICES, initial=SPECIAL_DECKS[i]
            )
            self.fields[f"seat{i}_target"] = forms.IntegerField(
                label=_("Own aggression target"), min_value=1, max_value=MAX_TREASURE_SETTING, required=False
            )

    def seat_rows(self) -> list[dict]:
        return [
            {
                "clan": CLAN_NAMES[CLANS[i]],
                "fields": [self[f"seat{i}_{part}"] for part in ("player", "guest", "colour", "special", "target")],
            }
            for i in range(MAX_SEATS)
        ]

    def variant_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in ("starting_treasure", "aggression_target", "special_deck_size")]

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players_count")
        if count is None:
            return data
        seats = []
        for i in range(count):
            seat = self.seat_player(i, label=CLAN_NAMES[CLANS[i]])
            if seat is not None:
                seats.append({**seat, "colour": data.get(f"seat{i}_colour") or ""})
        self.refuse_repeats([f"seat{i}_player" for i in range(count)], _("%(value)s already has a seat."))
        if self.errors:
            return data
        setup: dict = {
            "clans": list(CLANS[:count]),
            "units_deck": data["units_deck"],
            "chosen_specials": [data.get(f"seat{i}_special") for i in range(count)],
        }
        if data.get("starting_treasure") is not None:
            setup["starting_treasure"] = data["starting_treasure"]
        common = data.get("aggression_target")
        own = [data.get(f"seat{i}_target") for i in range(count)]
        if any(target is not None for target in own):
            default = common if common is not None else AGGRESSION_TARGET
            setup["aggression_target"] = [default if target is None else target for target in own]
        elif common is not None:
            setup["aggression_target"] = common
        if data.get("special_deck_size") is not None:
            setup["special_deck_size"] = data["special_deck_size"]
        if data.get("fourth_year"):
            setup["years"] = 4
        data["seats"], data["setup"], data["deal"] = seats, setup, False
        return data


# --- moves --------------------------------------------------------------------------------------------


def _whole(data: QueryDict, name: str, label: str) -> int | None:
    """A whole number the form posted, None when left empty."""
    value = (data.get(name) or "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidMove(
            gettext("%(field)s must be a whole number.") % {"field": label},
            code="form.not_a_number",
            params={"field": name},
        ) from None


def _required(data: QueryDict, name: str, label: str) -> int:
    value = _whole(data, name, label)
    if value is None:
        raise InvalidMove(gettext("Enter %(field)s.") % {"field": label}, code="form.missing", params={"field": name})
    return value


def _holder(value: str) -> int | str:
    """A treasury as posted: a seat number, "port" or "supply" (anything else goes to the engine to refuse)."""
    number = whole_number(value)
    return value if number is None else number


def site_dice(count: int = 2) -> list[int]:
    """The site's dice roller: `count` six-sided dice."""
    return [DICE.randint(1, 6) for _ in range(count)]


def _dice(data: QueryDict, count: int) -> tuple[list[int], str]:
    """Dice entered at the table, or drawn by the site when the form asked it to roll."""
    if data.get("roll") == "site":
        return site_dice(count), "site"
    return [_required(data, f"die{i}", gettext("die %(n)d") % {"n": i + 1}) for i in range(count)], "table"


def _blood_paid(kind: str, data: QueryDict) -> dict:
    """A bounty or a port attack: its blood value, and a bounty's amount if given."""
    move = {"blood": _required(data, "blood", gettext("the blood value"))}
    amount = _whole(data, "amount", gettext("the amount"))
    if kind == "bounty" and amount is not None:
        move["amount"] = amount
    return move


def _raided(kind: str, data: QueryDict) -> dict:
    defender = _required(data, "defender", gettext("the defender"))  # asked first, as the form shows it
    dice, rolled_by = _dice(data, 2)
    return {
        "defender": defender,
        "dice": dice,
        "rolled_by": rolled_by,
        "cubes": _whole(data, "cubes", gettext("the unused battle cubes")) or 0,
    }


def _deck_chosen(kind: str, data: QueryDict) -> dict:
    return {"deck": data.get("deck", "")}


def _pit_fee(kind: str, data: QueryDict) -> dict:
    return {"cards": _required(data, "cards", gettext("the number of cards"))}


def _moved_between_holders(kind: str, data: QueryDict) -> dict:
    """A card's effect or a correction: an amount from one holder to another; a card's effect names the card and
    keeps a note only when there is one."""
    move = {
        "from": _holder(data.get("from", "")),
        "to": _holder(data.get("to", "")),
        "amount": _required(data, "amount", gettext("the amount")),
    }
    note = (data.get("note") or "").strip()
    if kind == "card_effect":
        move["card"] = (data.get("card") or "").strip()
        if note:
            move["note"] = note
    else:
        move["note"] = note
    return move


def _cards_left(kind: str, data: QueryDict) -> dict:
    return {
        "deck": data.get("deck", ""),
        "count": _required(data, "count", gettext("the number of cards")),
        "note": (data.get("note") or "").strip(),
    }


def _fortified(kind: str, data: QueryDict) -> dict:
    return {"fortified": data.get("fortified") == "on"}


def _rolled(kind: str, data: QueryDict) -> dict:
    """A roll of 1 to 4 dice, at the table or by the site, with its note if any."""
    count = _whole(data, "count", gettext("the number of dice")) or 2
    if not 1 <= count <= 4:
        raise InvalidMove(gettext("Roll 1 to 4 dice."), code="form.dice_count", params={"count": count})
    dice, rolled_by = _dice(data, count)
    move = {"dice": dice, "rolled_by": rolled_by}
    note = (data.get("note") or "").strip()
    if note:
        move["note"] = note
    return move


_MOVE_FIELDS = {
    "bounty": _blood_paid,
    "port_attack": _blood_paid,
    "raid": _raided,
    "commerce": _deck_chosen,
    "trade": _deck_chosen,
    "pit_fee": _pit_fee,
    "card_effect": _moved_between_holders,
    "correction": _moved_between_holders,
    "cards_leave": _cards_left,
    "fortify": _fortified,
    "roll": _rolled,
}
_ANY_SEAT = ("card_effect", "correction", "cards_leave", "fortify", "roll")  # moves made at any time, by any seat


def move_from_post(kind: str, seat: int, data: QueryDict) -> dict:
    """The engine move a move form describes. Phase moves are the player on turn's; a move at any time is made
    by the seat the form names (the player on turn when it names none)."""
    if kind not in MOVES:
        raise MoveError(gettext("Unknown move."), code="form.unknown_type")
    if kind in _ANY_SEAT and whole_number(data.get("seat", "")) is not None:
        seat = whole_number(data["seat"])
    fields = _MOVE_FIELDS.get(kind)
    return {"type": kind, "seat": seat, **(fields(kind, data) if fields else {})}
