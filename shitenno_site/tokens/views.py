"""The account's tokens page: the tokens a person has (name, what each may do, when last used), a form that
makes one and shows its key once, and a revoke button for each."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from shitenno_site import rate_limits
from shitenno_site.errors import TooMany

from . import services
from .forms import TokenForm


@never_cache  # the answer that shows a new key must not be kept by any cache, nor shown by the back button
@login_required
@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    form = TokenForm(request.POST or None)
    made = key = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            wanted = dict(form.cleaned_data)
            try:
                if not rate_limits.password_confirmed(request.user, wanted.pop("password"), purpose="token-make"):
                    raise ValidationError({"password": _("That is not your password; no token was made.")})
                made, key = services.token_create(user=request.user, **wanted)
            except TooMany as exc:
                form.add_error(None, exc.message)
                status = 429
            except ValidationError as exc:
                for field, problems in exc.message_dict.items():
                    form.add_error(field if field in form.fields else None, problems)
            else:
                form = TokenForm()
        if form.errors and status == 200:
            status = 400
    return render(
        request,
        "registration/tokens.html",
        {
            "form": form,
            "tokens": services.tokens_of(request.user),
            "made": made,
            "key": key,
            "most": services.MAX_TOKENS,
        },
        status=status,
    )


@login_required
@require_http_methods(["POST"])
def token_revoke_page(request: HttpRequest, pk: int) -> HttpResponse:
    if not services.token_revoke(user=request.user, token_id=pk):
        raise Http404(_("You have no such token: it may be revoked already."))
    messages.success(request, _("The token is revoked: apps using it are signed out."))
    return redirect("tokens")
