"""The account page (issue 34): who you are logged in as, and the name others see you by, which you may change
here (the username is for logging in and stays); and the pages a person owns his account with (issue 47): the
download of his data and the deletion of his account."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues.common.forms import AccountDeleteForm, DisplayNameForm, apply_service_errors
from leagues.people import account_deletion, my_data, players
from shitenno_site.errors import Conflict


@login_required
@require_http_methods(["GET", "POST"])
def account(request: HttpRequest) -> HttpResponse:
    player = players.player_for_user(request.user)
    form = DisplayNameForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        try:
            player = players.player_rename(user=request.user, name=form.cleaned_data["name"])
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Others now see you as %(name)s.") % {"name": player.name})
            return redirect("account")
    return render(request, "registration/account.html", {"form": form, "player": player},
                  status=400 if form.errors else 200)


def personal_data_response(user) -> HttpResponse:
    """The JSON download of everything the site holds about `user` (the page's button and GET /api/me/data/)."""
    body = json.dumps(my_data.personal_data(user), ensure_ascii=False, indent=2, cls=DjangoJSONEncoder)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="shitenno-my-data.json"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def my_data_page(request: HttpRequest) -> HttpResponse:
    """"Download my data" (issue 47 finding 8): the page says what the file holds; its button posts for the file."""
    if request.method == "POST":
        return personal_data_response(request.user)
    return render(request, "registration/my_data.html")


@login_required
@require_http_methods(["GET", "POST"])
def account_delete_page(request: HttpRequest) -> HttpResponse:
    """"Delete my account" (issue 47 finding 8): says what goes and what stays, then asks for the password."""
    form = AccountDeleteForm(request.POST or None)
    player = players.player_for_user(request.user)
    sole = account_deletion.clubs_only_owned_by(player)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            account_deletion.account_delete(user=request.user, password=form.cleaned_data["password"])
        except ValidationError as exc:
            apply_service_errors(form, exc)
        except Conflict as exc:
            form.add_error(None, exc.message)
            status = 409
        else:
            logout(request)
            messages.success(request, _("Your account is deleted. Your results stay in their leagues under an "
                                        "anonymous name."))
            return redirect("home")
    if form.errors and status == 200:
        status = 400
    return render(request, "registration/account_delete.html",
                  {"form": form, "sole_clubs": sole, "anonymous": account_deletion.anonymous_name(player)},
                  status=status)


class SitePasswordResetView(PasswordResetView):
    """Django's reset page, its mail in the site's words: the site's name and address from settings (SITE_NAME,
    SITE_URL), not the request's host (the default mail was signed "The 127.0.0.1:8101 team"), in the language
    of the page it was asked from (issue 47 finding 7)."""

    def form_valid(self, form) -> HttpResponse:
        self.extra_email_context = {"site_name": settings.SITE_NAME, "site_url": settings.SITE_URL}
        return super().form_valid(form)
