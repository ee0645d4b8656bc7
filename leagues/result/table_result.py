"""The result of a finished table, as the table page shows it: who has signed, a one-tap sign-off for a seated
player, the season it counts in and a link to the standings.

Owned by leagues so that the games app knows only this URL's name: the table page loads it with htmx (and links
to it for a phone without script). The sign-off rules stay those of `results.result_sign_off`."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues.common.access import require_result_editor, result_players_signed_by
from leagues.models import Result
from leagues.result import results
from leagues.result.of_table import result_of_table


def _may_edit(result: Result, user) -> bool:
    """The organiser's Edit and Delete (leagues.result.views), offered to whom the services allow them."""
    try:
        require_result_editor(result, user)
    except PermissionDenied:
        return False
    return True


def _context(request: HttpRequest, code: str, result: Result | None, error: str = "") -> dict:
    context = {"code": code, "result": result, "error": error}
    if result is None:
        return context
    said = {s.player_id: s for s in result.sign_offs.all()}
    mine = set(result_players_signed_by(result, request.user))
    context.update(
        rows=[
            {"entry": e, "sign_off": said.get(e.player_id), "mine": e.player_id in mine} for e in result.entries.all()
        ],
        can_sign=result.status != Result.Status.COUNTED and any(p not in said or not said[p].agreed for p in mine),
        can_dispute=bool(mine),
        can_edit=_may_edit(result, request.user),
        standings_url=(
            f"{result.season.league.get_absolute_url()}?season={result.season_id}" if result.season_id else ""
        ),
    )
    return context


@require_http_methods(["GET", "POST"])
def table_result(request: HttpRequest, code: str) -> HttpResponse:
    """GET: the fragment (htmx) or a page of its own; POST: sign off or dispute, then the fragment again."""
    result = result_of_table(viewer=request.user, code=code)
    error = ""
    if request.method == "POST":
        if result is None:
            raise Http404(_("This table has no result to sign off."))
        agreed = request.POST.get("agreed", "yes") != "no"
        try:  # someone not at the table gets the service's PermissionDenied as a 403: they were offered no form
            results.result_sign_off(result=result, user=request.user, agreed=agreed, note=request.POST.get("note", ""))
        except ValidationError as exc:
            error = " ".join(exc.messages)
        if not request.htmx:
            if error:
                messages.error(request, error)
            else:
                messages.success(
                    request,
                    _("Thank you: your sign-off is recorded.")
                    if agreed
                    else _("Your dispute is recorded: the club's managers settle it."),
                )
            return redirect("table_detail", code)
        result = result_of_table(viewer=request.user, code=code)
    if not request.htmx:
        if result is None:
            raise Http404(_("This table has no result."))
        return render(request, "leagues/table_result_page.html", _context(request, code, result))
    return render(
        request,
        "leagues/partials/table_result.html",
        _context(request, code, result, error),
        status=400 if error else 200,
    )
