import calendar
import datetime
from collections.abc import Sequence

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from leagues.models import Club, Membership, Player, Season
from leagues.standings import TIE_BREAKERS
from shitenno_site.validation import MAX_MIN_GAMES, validate_date, validate_name, validate_points, whole_number


class PhoneDateInput(forms.DateInput):
    """A date picker (`<input type="date">`). Its value must be ISO (yyyy-mm-dd) whatever the page's language: a
    browser drops a localised value such as the Dutch "27-11-2026" and shows the field empty."""

    input_type = "date"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class SignUpForm(UserCreationForm):
    display_name = forms.CharField(
        label=_("Your name"),
        max_length=80,
        required=False,
        validators=[validate_name],
        help_text=_(
            "The name others see at tables, in standings and on league nights; you can change it later. "
            "Left empty, your username."
        ),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        help_text=_(
            "For your password's reset and the notifications you choose; the site mails you a link to check it."
        ),
    )
    field_order = ["username", "display_name", "email", "password1", "password2"]

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class DisplayNameForm(forms.Form):
    """The account page's one field: the name others see (leagues.people.players.player_rename)."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=80,
        validators=[validate_name],
        help_text=_("The name others see at tables, in standings and on league nights."),
    )


class AccountDeleteForm(forms.Form):
    """Deleting one's account asks for the password (leagues.people.account_deletion): a borrowed, signed-in
    phone must not be enough to delete someone."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class EmailChangeForm(forms.Form):
    """A new address for the account, after the password (leagues.people.verification.email_change); it is
    verified by the link the site mails there."""

    email = forms.EmailField(label=_("New e-mail address"), max_length=254)
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "description", "members_public")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["name"].validators.append(validate_name)


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=80, validators=[validate_name])
    club = forms.ModelChoiceField(
        label=_("Add to club"),
        queryset=Club.objects.none(),
        required=False,
        help_text=_("Clubs you run: the guest joins it, and its owners and admins may invite the guest later too."),
    )

    def __init__(self, *args, user=None, club_slug: str | None = None, **kwargs):
        """`club_slug` (the club page's "Add a guest" link) preselects that club when the user runs it; a user who
        runs exactly one club has it preselected anyway: an empty choice added the guest to no club unless picked."""
        super().__init__(*args, **kwargs)
        if user is not None and user.is_authenticated:
            self.fields["club"].queryset = Club.objects.filter(
                memberships__player__user=user, memberships__role__in=[Membership.Role.OWNER, Membership.Role.ADMIN]
            ).order_by("name")
        runs = list(self.fields["club"].queryset)
        if not runs:
            del self.fields["club"]
            return
        chosen = next((club for club in runs if club_slug and club.slug == club_slug), None)
        if chosen is None and len(runs) == 1:
            chosen = runs[0]
        if chosen is not None:
            self.fields["club"].initial = chosen.pk


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)


# --- Leagues, seasons and results entered on the site (issue 5) ---

TIE_BREAKER_NAMES = {
    "points": _("points"),
    "wins": _("wins"),
    "countback": _("count-back of 1st and 2nd places"),
    "opponents_points": _("opponents' points"),
    "head_to_head": _("head-to-head"),
    "margin": _("average score margin"),
}
RESULT_ROWS = 6


def apply_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form: on the field it names, else above the form."""
    errors = exc.message_dict if hasattr(exc, "error_dict") else {None: exc.messages}
    for field, messages in errors.items():
        for message in messages:
            form.add_error(field if field in form.fields else None, message)


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, validators=[validate_name])
    engines = forms.MultipleChoiceField(
        label=_("Games scored on this site"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    games = forms.CharField(
        label=_("Other games"),
        required=False,
        max_length=400,
        help_text=_("Games without move entry, separated by commas, e.g. Go, Chess."),
    )

    def __init__(self, *args, **kwargs) -> None:
        from games.engines import REGISTRY

        super().__init__(*args, **kwargs)
        self.fields["engines"].choices = [(slug, engine.name) for slug, engine in REGISTRY.items()]

    def clean(self) -> dict:
        data = super().clean()
        others = [g.strip() for g in data.get("games", "").split(",") if g.strip()]
        data["game_list"] = list(dict.fromkeys([*data.get("engines", []), *others]))
        if "name" in data and not data["game_list"]:
            self.add_error("games", _("Name at least one game."))
        return data


def parse_custom_points(text: str) -> dict[str, list[float]]:
    """Lines of "players: points by place", e.g. "4: 4, 2, 1, 0", into {"4": [4, 2, 1, 0]}."""
    table: dict[str, list[float]] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        count, sep, points = line.partition(":")
        try:
            numbers = [float(p) for p in points.replace(",", " ").split()]
        except ValueError:
            numbers = []
        if not sep or whole_number(count.strip()) is None or not numbers:
            raise ValidationError(_("Write one line per player count, e.g. “4: 4, 2, 1, 0”."))
        for number in numbers:
            validate_points(number)
        table[count.strip()] = [int(n) if n.is_integer() else n for n in numbers]
    return table


def months_later(day: datetime.date, months: int) -> datetime.date:
    """The same day of the month `months` later, or that month's last day (31 January + 1 is 28/29 February)."""
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1]))


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100, validators=[validate_name])
    starts_on = forms.DateField(label=_("Starts on"), widget=PhoneDateInput(), validators=[validate_date])
    ends_on = forms.DateField(label=_("Ends on"), widget=PhoneDateInput(), validators=[validate_date])
    points_scheme = forms.ChoiceField(
        label=_("Points"), choices=Season.Scheme.choices, initial=Season.Scheme.SCORE_3210
    )
    custom_points = forms.CharField(
        label=_("Custom points"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Only for custom points: one line per player count, e.g. “4: 4, 2, 1, 0”."),
    )
    min_games = forms.IntegerField(
        label=_("Minimum games to be ranked"), min_value=0, max_value=MAX_MIN_GAMES, initial=0
    )

    def __init__(self, *args, games: Sequence[str] = (), **kwargs) -> None:
        from leagues.common.tie_breaks import default_tie_breakers

        super().__init__(*args, **kwargs)
        today = timezone.localdate()
        self.fields["starts_on"].initial = today  # a season usually starts now and runs a few months
        self.fields["ends_on"].initial = months_later(today, 3)
        choices = [("", "—"), *TIE_BREAKER_NAMES.items()]
        # "points" is the main order already (the table puts it first unless placed): not offered again as the
        # first tie-breaker; the same order is stored either way. A league of several games offers no margin
        # first (its scores are in different units, leagues.common.tie_breaks).
        defaults = [name for name in default_tie_breakers(games) if name != "points"]
        for i in range(1, len(TIE_BREAKERS) + 1):
            self.fields[f"tie_breaker_{i}"] = forms.ChoiceField(
                label=_("Tie-breaker %(n)d") % {"n": i},
                choices=choices,
                required=False,
                initial=defaults[i - 1] if i <= len(defaults) else "",
            )

    def clean_custom_points(self) -> dict:
        return parse_custom_points(self.cleaned_data.get("custom_points", ""))

    def clean(self) -> dict:
        data = super().clean()
        chosen = [data[f"tie_breaker_{i}"] for i in range(1, len(TIE_BREAKERS) + 1) if data.get(f"tie_breaker_{i}")]
        if len(set(chosen)) != len(chosen):
            self.add_error("tie_breaker_1", _("Use each tie-breaker at most once."))
        data["tie_breakers"] = chosen
        return data


class ResultForm(forms.Form):
    """A game played without move entry: the game, the date and up to six players with rank and score."""

    game = forms.ChoiceField(label=_("Game"))
    played_on = forms.DateField(label=_("Played on"), widget=PhoneDateInput(), validators=[validate_date])

    def __init__(self, *args, games: list[str], players: list[Player], row_count: int = RESULT_ROWS, **kwargs) -> None:
        from games.engines import REGISTRY

        super().__init__(*args, **kwargs)
        self.row_count = row_count
        self.players = {str(p.pk): p for p in players}
        self.fields["game"].choices = [(g, REGISTRY[g].name if g in REGISTRY else g) for g in games]
        player_choices = [("", "—"), *((str(p.pk), p.name) for p in players)]
        for i in range(1, row_count + 1):
            self.fields[f"player_{i}"] = forms.ChoiceField(
                label=_("Player %(n)d") % {"n": i}, choices=player_choices, required=False
            )
            self.fields[f"rank_{i}"] = forms.IntegerField(
                label=_("Place"),
                min_value=1,
                max_value=1000,
                required=False,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
            self.fields[f"score_{i}"] = forms.FloatField(
                label=_("Score"), required=False, min_value=-1e9, max_value=1e9
            )

    def rows(self) -> list[tuple]:
        """(player, place, score) bound fields, one triple per row, for the template."""
        return [(self[f"player_{i}"], self[f"rank_{i}"], self[f"score_{i}"]) for i in range(1, self.row_count + 1)]

    def clean(self) -> dict:
        data = super().clean()
        entries = []
        for i in range(1, self.row_count + 1):
            player, rank, score = data.get(f"player_{i}"), data.get(f"rank_{i}"), data.get(f"score_{i}")
            if not player:
                if rank is not None or score is not None:
                    self.add_error(f"player_{i}", _("Choose the player of this place."))
                continue
            if rank is None:
                self.add_error(f"rank_{i}", _("Give this player's place."))
                continue
            entries.append({"player": self.players[player], "rank": rank, "score": score})
        data["entries"] = entries
        return data


class ResultEditForm(ResultForm):
    """A result's correction (results.result_update): the entry form filled with the result as it stands, its game
    fixed (a correction keeps the game), and the version it was read at, so a save over someone else's change
    meanwhile is refused (409) instead of undoing it. Enough rows for every player it has, and one more."""

    version = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args, result, players: list[Player], **kwargs) -> None:
        entries = list(result.entries.all())
        initial = {"game": result.game, "played_on": result.played_on, "version": result.version}
        for i, entry in enumerate(sorted(entries, key=lambda e: (e.rank, e.player.name)), start=1):
            initial.update({f"player_{i}": str(entry.player_id), f"rank_{i}": entry.rank, f"score_{i}": entry.score})
        known = {p.pk for p in players}
        players = [*players, *(e.player for e in entries if e.player_id not in known)]
        super().__init__(
            *args,
            games=[result.game],
            players=players,
            initial=initial,
            row_count=max(RESULT_ROWS, len(entries) + 1),
            **kwargs,
        )
        self.fields["game"].disabled = True
