from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import Club, Membership


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "description", "members_public")


class GuestForm(forms.Form):
    name = forms.CharField(label=_("Guest's name"), max_length=80)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Membership.Role.choices)
