"""The account page (issue 34): who you are logged in as, and the name others see you by, which you may change
here (the username is for logging in and stays)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues.common.forms import DisplayNameForm, apply_service_errors
from leagues.people import players


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
