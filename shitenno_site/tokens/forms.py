from django import forms
from django.utils.translation import gettext_lazy as _

from .models import AccessToken
from .services import NAME_LENGTH


class TokenForm(forms.Form):
    """The account's "Make a token" form (services.token_create checks it again, for the API too)."""

    name = forms.CharField(
        label=_("Name"),
        max_length=NAME_LENGTH,
        help_text=_("Which app or phone it is for, so you know which to revoke."),
    )
    scope = forms.ChoiceField(
        label=_("It may"), choices=AccessToken.SCOPES, initial=AccessToken.READ, widget=forms.RadioSelect
    )
    expires_in_days = forms.TypedChoiceField(
        label=_("It expires"),
        coerce=int,
        empty_value=None,
        initial="90",
        choices=[("30", _("in 30 days")), ("90", _("in 90 days")), ("365", _("in a year")), ("", _("never"))],
        required=False,
    )
    # A token is the account for as long as it lives, without the password: a borrowed, signed-in phone must not
    # make one for someone else's app (issue 48), so the page asks for the password again, as deleting does.
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
