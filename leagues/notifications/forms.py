from django import forms
from django.utils.translation import gettext as _

from . import endpoints
from .models import AT_ONCE, Channel, ClubHours, Preference


class PreferenceForm(forms.ModelForm):
    class Meta:
        model = Preference
        fields = ["your_table", "sign_off", "dispute", "standings"]
        widgets = {name: forms.RadioSelect for name in fields}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in AT_ONCE:  # these do not wait for the daily e-mail: the choice says so
            self.fields[kind].choices = [
                (value, _("By e-mail, at once") if value == Channel.EMAIL else label)
                for value, label in self.fields[kind].choices
            ]


class DeviceForm(forms.Form):
    """The browser's PushSubscription, as its toJSON() gives it."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{20,200}$")
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{8,100}$")

    def clean_endpoint(self) -> str:
        """The worker posts to this address: a push service's, on https, port 443 and a public name that
        resolves to public addresses only, never the site's own network (a forged subscription must not make the
        worker call an internal service; endpoints.py, checked again at each delivery)."""
        endpoint = self.cleaned_data["endpoint"]
        try:
            endpoints.check(endpoint)
        except (endpoints.Refused, LookupError) as error:
            raise forms.ValidationError(
                _("A push subscription's endpoint is a push service's https address.")
            ) from error
        return endpoint


HOURS = [(h, f"{h:02d}:00") for h in range(24)]


class ClubHoursForm(forms.ModelForm):
    digest_hour = forms.TypedChoiceField(
        choices=HOURS, coerce=int, label=ClubHours._meta.get_field("digest_hour").verbose_name
    )
    quiet_from = forms.TypedChoiceField(
        choices=HOURS, coerce=int, label=ClubHours._meta.get_field("quiet_from").verbose_name
    )
    quiet_until = forms.TypedChoiceField(
        choices=HOURS, coerce=int, label=ClubHours._meta.get_field("quiet_until").verbose_name
    )

    class Meta:
        model = ClubHours
        fields = ["digest_hour", "quiet_from", "quiet_until"]
