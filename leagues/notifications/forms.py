from django import forms

from .models import Preference


class PreferenceForm(forms.ModelForm):
    class Meta:
        model = Preference
        fields = ["your_table", "sign_off", "dispute", "standings"]
        widgets = {name: forms.RadioSelect for name in fields}


class DeviceForm(forms.Form):
    """The browser's PushSubscription, as its toJSON() gives it."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{20,200}$")
    auth = forms.RegexField(regex=r"^[A-Za-z0-9_\-=]{8,100}$")
