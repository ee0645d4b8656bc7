"""The new-table form every game's set-up form extends: the game, the club, who may watch, and the seats'
players (an existing player or a guest named on the spot)."""

from __future__ import annotations

from django import forms
from django.db.models import Model
from django.utils.translation import gettext_lazy as _

# Seat colours every game's set-up form offers (the rulebooks print none the site must follow).
COLOURS: dict[str, tuple[str, str]] = {  # slug -> (label, fill)
    "red": (_("red"), "#c62828"),
    "blue": (_("blue"), "#1e5bd8"),
    "yellow": (_("yellow"), "#e0a800"),
    "green": (_("green"), "#1b7f3b"),
    "purple": (_("purple"), "#7b2cbf"),
}


class PlayerCountField(forms.TypedChoiceField):
    """ "How many players?", asked first: one tap on a radio button, and the page then shows only that many seats
    (the seats' fieldsets carry data-seat="<n>"; static/css/site.css hides those past the count, no script
    needed). The set-up form reads only the first `count` seats."""

    def __init__(self, low: int, high: int, *, initial: int, **kwargs) -> None:
        kwargs.setdefault("label", _("Number of players"))
        super().__init__(
            choices=[(n, str(n)) for n in range(low, high + 1)],
            coerce=int,
            initial=initial,
            widget=forms.RadioSelect,
            **kwargs,
        )


class TableSetupForm(forms.Form):
    """A game's set-up form (GameAdapter.setup_form_class) subclasses this and, once valid, leaves in
    cleaned_data "seats" (in seat order, each {"player": Player | None, "guest_name": str, "colour": str}),
    "setup" (the engine's set-up) and "deal" (True when the site should deal the set-up's random parts).

    A refusal names its field (`add_error(field, ...)`), so the page shows it beside what to change and the
    page's script scrolls to the first one; only what concerns the whole table is a form-wide error."""

    game = forms.ChoiceField(label=_("Game"))
    club = forms.ModelChoiceField(
        label=_("Club"),
        queryset=None,
        required=False,  # the user's clubs, in __init__
        empty_label=_("No club"),
    )
    is_public = forms.BooleanField(label=_("Anyone with the link may watch"), required=False, initial=True)

    def __init__(self, *args, players: list[Model], clubs, **kwargs) -> None:
        from games.plugins import game_choices

        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        self.fields["club"].queryset = clubs
        self.players = {str(p.pk): p for p in players}
        self.player_choices = [("", _("— nobody / a guest —"))] + [(str(p.pk), p.name) for p in players]

    def seats_named(self, seats: int) -> int:
        """How many seats a post without a player count fills (an older page, a script): up to the last seat
        that names a player or a guest."""
        data = self.cleaned_data
        named = [i for i in range(seats) if data.get(f"seat{i}_player") or (data.get(f"seat{i}_guest") or "").strip()]
        return max(named, default=-1) + 1

    def seat_player(self, i: int, *, label: str) -> dict | None:
        """Seat i's occupant from its player and guest fields ({"player", "guest_name"}), or None with an error
        beside the seat's player field when it names nobody (`label` names the seat in the message)."""
        data = self.cleaned_data
        player = self.players.get(data.get(f"seat{i}_player") or "")
        guest = (data.get(f"seat{i}_guest") or "").strip()
        if player is None and not guest:
            if f"seat{i}_guest" not in self.errors:
                self.add_error(f"seat{i}_player", _("Pick a player or name a guest for %(seat)s.") % {"seat": label})
            return None
        return {"player": player, "guest_name": guest}

    def refuse_repeats(self, fields: list[str], message) -> None:
        """An error beside each of `fields` whose value an earlier one already has (the same player, general or
        title in two seats); `message` takes %(value)s, the repeated choice in words."""
        seen: set = set()
        for name in fields:
            value = self.cleaned_data.get(name)
            if not value:
                continue
            if value in seen and name not in self.errors:
                shown = (
                    dict(self.fields[name].choices).get(value, value)
                    if hasattr(self.fields[name], "choices")
                    else value
                )
                self.add_error(name, message % {"value": shown})
            seen.add(value)
