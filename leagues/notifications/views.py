"""Pages for notifications: each person's choices and devices, and the results waiting for his sign-off."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_safe

from leagues.models.accounts import address_verified
from shitenno_site.problems import problem_response

from . import mail, selectors, services
from .forms import ClubHoursForm, DeviceForm, PreferenceForm
from .models import ClubHours
from .push import push_enabled


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def preferences(request: HttpRequest) -> HttpResponse:
    preference = services.preference_for(request.user)
    form = PreferenceForm(request.POST or None, instance=preference)
    if request.method == "POST" and form.is_valid():
        services.preference_save(user=request.user, choices=form.cleaned_data, language=get_language())
        messages.success(request, _("Your notification choices are saved."))
        return redirect("notifications:settings")
    return render(
        request,
        "notifications/settings.html",
        {
            "form": form,
            "push_enabled": push_enabled(),
            "vapid_public_key": settings.VAPID_PUBLIC_KEY,
            "devices": request.user.push_subscriptions.count(),
            "managed": selectors.clubs_managed(request.user),
            "email_verified": address_verified(request.user),
            "account_email_url": reverse("account") + "#email",
        },
    )


def _bad(message: str, status: int = 400) -> JsonResponse:
    """The push endpoints' refusals, as the API's one problem document (shitenno_site/problems.py)."""
    return problem_response(status, message)


@require_http_methods(["GET", "POST", "DELETE"])
def devices(request: HttpRequest) -> HttpResponse:
    """GET ?endpoint=: whether the site holds this browser's device (the settings page says "on" only then);
    POST: this device's push subscription (after the member tapped "Turn on"); DELETE: turn it off."""
    if not request.user.is_authenticated:
        return _bad(_("Log in first."), 401)
    if request.method == "GET":
        from .devices import device_on

        return JsonResponse(
            {
                "on": device_on(
                    user=request.user, session_key=request.session.session_key, endpoint=request.GET.get("endpoint", "")
                )
            }
        )
    try:
        body = json.loads(request.body or b"{}")
        keys = body.get("keys") or {}
        data = {"endpoint": body.get("endpoint"), "p256dh": keys.get("p256dh"), "auth": keys.get("auth")}
    except (ValueError, AttributeError):
        return _bad(_("The body is not a push subscription (JSON with endpoint and keys)."))
    if request.method == "DELETE":
        services.device_unsubscribe(user=request.user, endpoint=str(data["endpoint"] or ""))
        return HttpResponse(status=204)
    if not push_enabled():
        return _bad(_("Push is off on this site."), 409)
    form = DeviceForm(data)
    if not form.is_valid():
        return _bad(_("The body is not a push subscription (JSON with endpoint and keys)."))
    if not request.session.session_key:
        request.session.save()
    try:
        services.device_subscribe(
            user=request.user,
            session_key=request.session.session_key,
            user_agent=request.headers.get("User-Agent", ""),
            **form.cleaned_data,
        )
    except services.EndpointTaken:
        return _bad(
            _("This device already gets another account's notifications: log out of that account on it first."), 409
        )
    return JsonResponse({"devices": request.user.push_subscriptions.count()}, status=201)


@require_safe
def to_sign(request: HttpRequest) -> HttpResponse:
    """The address messages sent before the two pages became one: the site has one sign-off page (issue 34's
    `results_waiting`: every result that waits for you, in a season or not), and the badge and messages open it."""
    return redirect("results_waiting")


@csrf_exempt  # the signed token is the proof; a mail client's one-click unsubscribe (RFC 8058) posts no CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The digest's link, without logging in: GET asks (a mail scanner that opens links changes nothing), POST
    stops every e-mail kind."""
    try:
        user_id = mail.unsubscribe_user_id(token)
    except mail.UnsubscribeExpired as gone:  # 410: the link was good and is gone; the page says where the settings are
        return render(
            request,
            "notifications/unsubscribe.html",
            {"expired": True, "stale": gone.stale, "days": mail.UNSUBSCRIBE_DAYS},
            status=410,
        )
    if user_id is None:
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        services.email_stop(user_id=user_id)
        return render(request, "notifications/unsubscribe.html", {"done": True})
    return render(request, "notifications/unsubscribe.html", {})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_hours(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's digest hour and quiet hours: its owners and admins only (others: 404 or 403, as for its pages)."""
    from django.shortcuts import get_object_or_404

    from leagues.common.access import club_for_member
    from leagues.models import Club

    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    hours = ClubHours.objects.filter(club=club).first() or ClubHours(club=club)
    form = ClubHoursForm(request.POST or None, instance=hours)
    if request.method == "POST" and form.is_valid():
        services.club_hours_save(club=club, user=request.user, **form.cleaned_data)
        messages.success(request, _("The club's hours are saved."))
        return redirect("notifications:settings")
    return render(request, "notifications/club_hours.html", {"club": club, "form": form})
