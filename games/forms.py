"""The new-table form every game's set-up form extends: the game, the club, who may watch, and the seats'
players (an existing player or a guest named on the spot)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from leagues.models import Club, Player

# Seat colours every game's set-up form offers (the rulebooks print none the site must follow).
COLOURS: dict[str, tuple[str, str]] = {  # slug -> (label, fill)
    "red": (_("red"), "#c62828"),
    "blue": (_("blue"), "#1e5bd8"),
    "yellow": (_("yellow"), "#e0a800"),
    "green": (_("green"), "#1b7f3b"),
    "purple": (_("purple"), "#7b2cbf"),
}


class TableSetupForm(forms.Form):
    """A game's set-up form (GameAdapter.setup_form_class) subclasses this and, once valid, leaves in
    cleaned_data "seats" (in seat order, each {"player": Player | None, "guest_name": str, "colour": str}),
    "setup" (the engine's set-up) and "deal" (True when the site should deal the set-up's random parts)."""

    game = forms.ChoiceField(label=_("Game"))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), required=False,
                                  empty_label=_("No club"))
    is_public = forms.BooleanField(label=_("Anyone with the link may watch"), required=False, initial=True)

    def __init__(self, *args, players: list[Player], clubs, **kwargs) -> None:
        from games.plugins import game_choices

        super().__init__(*args, **kwargs)
        self.fields["game"].choices = game_choices()
        self.fields["club"].queryset = clubs
        self.players = {str(p.pk): p for p in players}
        self.player_choices = [("", _("— nobody / a guest —"))] + [(str(p.pk), p.name) for p in players]
