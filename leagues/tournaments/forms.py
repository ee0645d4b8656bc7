"""The form a club's manager sets a tournament up with (issue 51): the same settings as the API's
`POST /api/clubs/<slug>/tournaments/`, with the same bounds; the service judges the rest (the manager's right).
The points per place: the default (4-2-1-0, a pod of three 4-2-0), a named preset, or the organiser's own points
for each table size, written "4: 5, 3, 1, 0; 3: 5, 2, 0" (leagues.tournaments.schemes checks them all)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import REGISTRY
from leagues.common.forms import PhoneDateInput
from shitenno_site.validation import name_problem, validate_date, validate_name

from . import schemes
from .models import Tournament

SIZE_CHOICES = [(str(n), str(n)) for n in range(2, 7)]


def _number(label, low: int, high: int, initial: int, help_text="") -> forms.IntegerField:
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, validators=[validate_name])
    date = forms.DateField(label=_("Date"), widget=PhoneDateInput(), validators=[validate_date])
    engines = forms.MultipleChoiceField(
        label=_("Games scored on this site"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("With several, the pods play them in turn from the leaders' pod."),
    )
    games = forms.CharField(
        label=_("Other games"),
        required=False,
        max_length=400,
        help_text=_("Games without move entry, separated by commas: their pods' places are entered by hand."),
    )
    table_sizes = forms.MultipleChoiceField(
        label=_("Table sizes"),
        choices=SIZE_CHOICES,
        initial=["3", "4"],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The pods' sizes: as many full pods as the players allow, short pods rather than byes."),
    )
    swiss_rounds = _number(_("Swiss rounds"), 1, 10, 4)
    cut = forms.ChoiceField(label=_("Cut"), choices=Tournament.Cut.choices, initial=Tournament.Cut.FINAL)
    cut_size = _number(_("Players in the cut"), 2, 16, 4, _("The top players by the standings after the Swiss rounds."))
    first_round = forms.ChoiceField(
        label=_("Round 1"),
        choices=Tournament.FirstRound.choices,
        initial=Tournament.FirstRound.RANDOM,
        widget=forms.RadioSelect,
    )
    round_minutes = _number(_("Round clock (minutes)"), 5, 600, 60)
    scheme_preset = forms.ChoiceField(
        label=_("Points per place"),
        initial=schemes.DEFAULT,
        widget=forms.RadioSelect,
        required=False,
        choices=[*schemes.PRESET_CHOICES, (schemes.CUSTOM, _("my own points, below"))],
    )
    scheme = forms.CharField(
        label=_("Own points per place"),
        required=False,
        max_length=200,
        help_text=_(
            "For each table size: its size, a colon and the points from first place to last, e.g. "
            "4: 5, 3, 1, 0; 3: 5, 2, 0. Whole numbers from 0 to 100, never more for a lower place."
        ),
    )
    bye_points = _number(_("Points for a bye"), 0, 100, 0, _("A bye only where no split of the players exists."))

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()
        self.fields["engines"].choices = [(slug, engine.name) for slug, engine in REGISTRY.items()]

    def clean_table_sizes(self) -> list[int]:
        return sorted(int(size) for size in self.cleaned_data["table_sizes"])

    def clean(self) -> dict:
        data = super().clean()
        others = [g.strip() for g in data.get("games", "").split(",") if g.strip()]
        data["game_list"] = list(dict.fromkeys([*data.get("engines", []), *others]))[:10]
        for game in others:  # each as the API checks a name: visible, no control characters, at most 80
            problem = name_problem(game) or (_("A game's name is at most 80 characters.") if len(game) > 80 else "")
            if problem:
                self.add_error("games", f"{game[:80]}: {problem}")
                break
        if "name" in data and not data["game_list"]:
            self.add_error("engines", _("Name at least one game."))
        self._clean_scheme(data)
        return data

    def _clean_scheme(self, data: dict) -> None:
        """The chosen points as a scheme for the table sizes (data["points"]), or the reason on its field."""
        preset, sizes = data.get("scheme_preset") or schemes.DEFAULT, data.get("table_sizes")  # none: the default
        if not sizes or "scheme_preset" in self.errors:
            return
        if preset != schemes.CUSTOM and data.get("scheme", "").strip():
            self.add_error("scheme", _("Choose “my own points” to count these points, or leave them out."))
            return
        try:
            if preset == schemes.CUSTOM:
                data["points"] = {
                    "scheme": schemes.validated_scheme(schemes.parse_scheme(data.get("scheme", "")), sizes)
                }
            else:
                schemes.preset_scheme(preset, sizes)
                data["points"] = {"scheme_preset": preset}
        except forms.ValidationError as exc:
            field = "scheme_preset" if preset != schemes.CUSTOM else "scheme"
            for message in exc.messages:
                self.add_error(field, message)

    def settings(self) -> dict:
        """The service's keyword arguments."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "date": data["date"],
            "games": data["game_list"],
            "table_sizes": data["table_sizes"],
            "swiss_rounds": data["swiss_rounds"],
            "cut": data["cut"],
            "cut_size": data["cut_size"],
            "first_round": data["first_round"],
            "round_minutes": data["round_minutes"],
            "bye_points": data["bye_points"],
            **data["points"],
        }
