"""The form a manager opens a league night with (issue 25): the page's fields only; the service judges the rest
(the games must be the league's, the date within the season, each game a size it allows)."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import REGISTRY
from games.plugins import game_name
from leagues.common.forms import PhoneDateInput
from shitenno_site.validation import validate_date

from . import pods
from .models import MIX_CHOICES
from .services import MAX_BOXES

SIZE_CHOICES = [(str(n), str(n)) for n in range(2, pods.MAX_TABLE_SIZE + 1)]


class NightForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=PhoneDateInput(), validators=[validate_date])
    games = forms.MultipleChoiceField(label=_("Games on offer"), widget=forms.CheckboxSelectMultiple)
    table_sizes = forms.MultipleChoiceField(
        label=_("Table sizes"),
        choices=SIZE_CHOICES,
        initial=["3", "4"],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Each game's tables use the sizes it can seat."),
    )
    mix = forms.ChoiceField(
        label=_("Table mix"),
        choices=MIX_CHOICES,
        initial="fill",
        widget=forms.RadioSelect,
        required=False,
        help_text=_(
            "Full tables first: the fewest tables, as even as possible, then the fewest repeated opponents. "
            "Fewest repeats first: any of the sizes, the fewest repeated opponents first."
        ),
    )

    def __init__(self, *args, games: list[str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate()
        self.fields["games"].choices = [(slug, game_name(slug)) for slug in games]
        self.fields["games"].initial = games[:1]
        boxed = [slug for slug in games if slug in REGISTRY]  # a game without the site's tables has no night
        for slug in boxed:  # how many boxes of each game the club brought tonight: optional, a limit on its tables
            self.fields[f"boxes_{slug}"] = forms.IntegerField(
                label=_("Boxes of %(game)s tonight") % {"game": game_name(slug)},
                required=False,
                min_value=1,
                max_value=MAX_BOXES,
                help_text=_("Leave empty for no limit: never more tables of it than boxes."),
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        self.box_fields = {f"boxes_{slug}": slug for slug in boxed}

    def clean(self) -> dict:
        data = super().clean()
        data["boxes"] = {slug: data[field] for field, slug in self.box_fields.items() if data.get(field)}
        return data

    def clean_mix(self) -> str:
        return self.cleaned_data["mix"] or "fill"  # a form from before the mix was offered

    def clean_table_sizes(self) -> list[int]:
        return sorted(int(size) for size in self.cleaned_data["table_sizes"])
