import ipaddress
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _

from .models import AT_ONCE, Channel, ClubHours, Preference


class PreferenceForm(forms.ModelForm):
    class Meta:
        model = Preference
        fields = ["your_table", "sign_off", "dispute", "standings"]
        widgets = {name: forms.RadioSelect for name in fields}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for kind in AT_ONCE:  # these do not wait for the daily e-mail: the choice says so
            self.fields[kind].choices = [(value, _("By e-mail, at once") if value == Channel.EMAIL else label)
                                         for value, label in self.fields[kind].choices]


class DeviceForm(forms.Form):
    """The browser's PushSubscription, as its toJSON() gives it."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{20,200}$")
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{8,100}$")

    def clean_endpoint(self) -> str:
        """The worker posts to this address: a push service's, on https and a public name, never the site's own
        network (a forged subscription must not make the worker call an internal service). Tests with a push
        service on localhost set PUSH_LOCAL_ENDPOINTS."""
        endpoint = self.cleaned_data["endpoint"]
        if getattr(settings, "PUSH_LOCAL_ENDPOINTS", False):
            return endpoint
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        try:
            literal = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if parts.scheme != "https" or literal is not None or host == "localhost" or "." not in host:
            raise forms.ValidationError(_("A push subscription's endpoint is a push service's https address."))
        return endpoint


HOURS = [(h, f"{h:02d}:00") for h in range(24)]


class ClubHoursForm(forms.ModelForm):
    digest_hour = forms.TypedChoiceField(choices=HOURS, coerce=int, label=ClubHours._meta.get_field(
        "digest_hour").verbose_name)
    quiet_from = forms.TypedChoiceField(choices=HOURS, coerce=int, label=ClubHours._meta.get_field(
        "quiet_from").verbose_name)
    quiet_until = forms.TypedChoiceField(choices=HOURS, coerce=int, label=ClubHours._meta.get_field(
        "quiet_until").verbose_name)

    class Meta:
        model = ClubHours
        fields = ["digest_hour", "quiet_from", "quiet_until"]
