"""The account page (issue 34): who you are logged in as, and the name others see you by, which you may change
here (the username is for logging in and stays); and the pages a person owns his account with (issue 47): the
download of his data, the deletion of his account, and his e-mail address, verified by a signed link before the
site mails it anything else (leagues/people/verification.py). The forms that send mail (the password reset, the
verification link again) are limited per address and per client (shitenno_site/rate_limits.py)."""

import json
import logging

from django.contrib import messages
from django.contrib.auth import get_user_model, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from leagues.common.forms import AccountDeleteForm, DisplayNameForm, EmailChangeForm, apply_service_errors
from leagues.jobs import outbox
from leagues.models.accounts import address_verified
from leagues.people import account_deletion, my_data, password_reset, players, verification
from leagues.people.password_reset import SitePasswordResetForm
from shitenno_site import rate_limits
from shitenno_site.errors import Conflict

logger = logging.getLogger(__name__)


def too_many(request: HttpRequest, limited: rate_limits.Limited) -> HttpResponse:
    """The 429 page of the mail forms: what was refused and when to try again, with Retry-After."""
    response = render(request, "registration/too_many.html", {"minutes": limited.minutes}, status=429)
    response["Retry-After"] = str(limited.retry_after)
    return response


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
    return render(
        request,
        "registration/account.html",
        {
            "form": form,
            "player": player,
            "email_form": EmailChangeForm(),
            "email_verified": address_verified(request.user),
        },
        status=400 if form.errors else 200,
    )


def _send_link(request: HttpRequest, user) -> HttpResponse | None:
    """The verification link to `user`'s address, within the resend budget; the 429 page when it is used up."""
    try:
        rate_limits.check(rate_limits.VERIFY_RESEND, ip=rate_limits.client_ip(request), address=user.email)
    except rate_limits.Limited as limited:
        return too_many(request, limited)
    try:
        sent = verification.send_link(user)
    except Exception:  # noqa: BLE001 (the mail server down or refusing: said, and tried again by the button)
        logger.exception("The verification link of user %s was not sent", user.pk)
        messages.error(request, _("The link could not be sent just now; try again later."))
        return None
    if sent:
        messages.success(
            request, _("We sent a link to %(email)s: open it to confirm the address.") % {"email": user.email}
        )
    return None


@login_required
@require_POST
def email_link_again(request: HttpRequest) -> HttpResponse:
    """ "Send the link again" on the account page."""
    if address_verified(request.user) or not request.user.email:
        return redirect("account")
    return _send_link(request, request.user) or redirect("account")


@login_required
@require_POST
def email_change(request: HttpRequest) -> HttpResponse:
    """A new address, after the password; unverified until its link (mailed at once) is opened."""
    form = EmailChangeForm(request.POST)
    player = players.player_for_user(request.user)
    if form.is_valid():
        ip = rate_limits.client_ip(request)
        try:
            rate_limits.check(rate_limits.EMAIL_CHANGE, ip=ip, address=f"account:{request.user.pk}")
            # the new address's link must be sendable now: else a 429 would follow a change already made, and
            # the account would hold an address it cannot confirm for an hour (nothing is changed then)
            rate_limits.peek(
                rate_limits.VERIFY_RESEND,
                ip=ip,
                address=get_user_model().objects.normalize_email(form.cleaned_data["email"].strip()),
            )
        except rate_limits.Limited as limited:
            return too_many(request, limited)
        try:
            user = verification.email_change(
                user=request.user, email=form.cleaned_data["email"], password=form.cleaned_data["password"]
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            return _send_link(request, user) or redirect("account")
    return render(
        request,
        "registration/account.html",
        {
            "form": DisplayNameForm(initial={"name": player.name}),
            "player": player,
            "email_form": form,
            "email_verified": address_verified(request.user),
        },
        status=400,
    )


@require_http_methods(["GET", "POST"])
def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link in the verification mail: opening it asks (a mail scanner that follows links verifies nothing);
    the button verifies. An old link (410) or one not the site's, or for an address the account no longer has
    (400), says so."""
    try:
        user = verification.user_of(token)
    except verification.LinkExpired:
        return render(
            request, "registration/verify_email.html", {"expired": True, "days": verification.VERIFY_DAYS}, status=410
        )
    except verification.LinkInvalid:
        return render(request, "registration/verify_email.html", {"bad": True}, status=400)
    if request.method == "POST":
        verification.verify(token)
        return render(request, "registration/verify_email.html", {"done": True, "email": user.email})
    return render(request, "registration/verify_email.html", {"email": user.email})


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
    """ "Download my data" (issue 47 finding 8): the page says what the file holds; its button posts for the file."""
    if request.method == "POST":
        return personal_data_response(request.user)
    return render(request, "registration/my_data.html")


@login_required
@require_http_methods(["GET", "POST"])
def account_delete_page(request: HttpRequest) -> HttpResponse:
    """ "Delete my account" (issue 47 finding 8): says what goes and what stays, then asks for the password."""
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
            messages.success(
                request, _("Your account is deleted. Your results stay in their leagues under an anonymous name.")
            )
            return redirect("home")
    if form.errors and status == 200:
        status = 400
    return render(
        request,
        "registration/account_delete.html",
        {"form": form, "sole_clubs": sole, "anonymous": account_deletion.anonymous_name(player)},
        status=status,
    )


class SitePasswordResetView(PasswordResetView):
    """Django's reset page, its mail in the site's words: the site's name and address from settings (SITE_NAME,
    SITE_URL), not the request's host (the default mail was signed "The 127.0.0.1:8101 team"), in the reader's
    language (issue 47 finding 7). Limited per address and per client (rate_limits.PASSWORD_RESET); an address
    the site does not know is counted and answered exactly as one it knows, and the mail is sent by the outbox's
    job, not in the request, so neither the page nor its timing tells anybody which addresses have accounts."""

    form_class = SitePasswordResetForm

    def form_valid(self, form) -> HttpResponse:
        try:
            rate_limits.check(
                rate_limits.PASSWORD_RESET, ip=rate_limits.client_ip(self.request), address=form.cleaned_data["email"]
            )
        except rate_limits.Limited as limited:
            return too_many(self.request, limited)
        # Queued, not sent here: known and unknown addresses take the same path (leagues/people/password_reset.py).
        outbox.ask_password_reset(password_reset.target(form.cleaned_data["email"], get_language()))
        return redirect(self.get_success_url())
