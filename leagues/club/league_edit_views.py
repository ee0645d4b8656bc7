"""The pages that edit and delete a league or a season (issue 34): thin adapters over leagues.club.league_edits, for
the club's owners and admins (a member gets a 403, anyone else a 404: club_for_member). A refusal is shown on the
same page with the service's reason, and nothing is changed."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from leagues.club import league_edits
from leagues.common.access import club_for_member
from leagues.common.forms import LeagueForm, SeasonForm, apply_service_errors
from leagues.models import League, Season
from leagues.standings import TIE_BREAKERS
from shitenno_site.errors import Conflict


def _league_initial(league: League) -> dict:
    from games.engines import REGISTRY

    return {
        "name": league.name,
        "engines": [g for g in league.games if g in REGISTRY],
        "games": ", ".join(g for g in league.games if g not in REGISTRY),
    }


def _season_initial(season: Season) -> dict:
    """The season as its form shows it: "points" first is the form's main order, not a tie-breaker field."""
    order = list(season.tie_breakers)
    if order[:1] == ["points"]:
        order = order[1:]
    initial = {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "points_scheme": season.points_scheme,
        "min_games": season.min_games,
        "custom_points": "\n".join(
            f"{count}: {', '.join(str(p) for p in points)}" for count, points in season.custom_points.items()
        ),
    }
    slots = range(1, len(TIE_BREAKERS) + 1)  # every field: an empty one is not the new-season form's default
    initial.update({f"tie_breaker_{i}": order[i - 1] if i <= len(order) else "" for i in slots})
    return initial


def _page(request: HttpRequest, template: str, context: dict, *, status: int | None = None) -> HttpResponse:
    form = context.get("form")
    return render(request, template, context, status=status or (400 if form is not None and form.errors else 200))


@login_required
@require_http_methods(["GET", "POST"])
def league_edit(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    club_for_member(league.club, request.user, manage=True)
    form = LeagueForm(request.POST or None, initial=_league_initial(league))
    status = None
    if request.method == "POST" and form.is_valid():
        try:
            league_edits.league_update(
                league=league, user=request.user, name=form.cleaned_data["name"], games=form.cleaned_data["game_list"]
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        except Conflict as exc:
            form.add_error(None, exc.message)
            status = 409
        else:
            messages.success(request, _("League %(name)s saved.") % {"name": form.cleaned_data["name"].strip()})
            return redirect(league)
    return _page(request, "leagues/league_edit.html", {"form": form, "league": league}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=pk)
    club_for_member(season.league.club, request.user, manage=True)
    usage = league_edits.season_usage(season)
    form = SeasonForm(request.POST or None, initial=_season_initial(season), games=season.league.games)
    if usage["counted"]:  # dates and points stay: shown as they are, and a post cannot change them
        for name in (
            "starts_on",
            "ends_on",
            "points_scheme",
            "custom_points",
            "min_games",
            *(f"tie_breaker_{i}" for i in range(1, len(TIE_BREAKERS) + 1)),
        ):
            form.fields[name].disabled = True
    elif usage["results"]:  # only waiting results: a later end and new points, confirmed (issue 50)
        form.fields["starts_on"].disabled = True
        form.fields["confirm"] = forms.BooleanField(
            required=False, label=_("The results waiting for sign-off will count under the new dates and points")
        )
    status = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            league_edits.season_update(
                season=season,
                user=request.user,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                points_scheme=data["points_scheme"],
                min_games=data["min_games"],
                custom_points=data["custom_points"],
                tie_breakers=data["tie_breakers"],
                confirm=bool(data.get("confirm")),
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        except Conflict as exc:
            form.add_error(None, exc.message)
            status = 409
        else:
            messages.success(request, _("Season %(name)s saved.") % {"name": data["name"].strip()})
            return redirect(f"{season.league.get_absolute_url()}?season={season.pk}")
    return _page(
        request,
        "leagues/season_edit.html",
        {"form": form, "season": season, "league": season.league, "usage": usage},
        status=status,
    )


def _delete_page(request: HttpRequest, context: dict, delete, done: str, after) -> HttpResponse:
    """The confirmation page of a league's or a season's deletion: GET asks (saying beforehand why it would be
    refused), POST deletes (409 with the service's reason when it refuses) and goes back to `after`."""
    if request.method == "POST":
        try:
            delete()
        except Conflict as exc:
            return _page(request, "leagues/delete_confirm.html", {**context, "error": exc.message}, status=409)
        messages.success(request, done)
        return redirect(after)
    return _page(request, "leagues/delete_confirm.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def league_delete(request: HttpRequest, pk: int) -> HttpResponse:
    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    club_for_member(league.club, request.user, manage=True)
    context = {
        "league": league,
        "what": league.name,
        "back": league.get_absolute_url(),
        "error": league_edits.league_delete_refusal(league),
    }
    return _delete_page(
        request,
        context,
        lambda: league_edits.league_delete(league=league, user=request.user),
        _("League %(name)s deleted.") % {"name": league.name},
        league.club,
    )


@login_required
@require_http_methods(["GET", "POST"])
def season_delete(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("league__club"), pk=pk)
    club_for_member(season.league.club, request.user, manage=True)
    back = f"{season.league.get_absolute_url()}?season={season.pk}"
    context = {
        "league": season.league,
        "season": season,
        "what": season.name,
        "back": back,
        "error": league_edits.season_delete_refusal(season),
    }
    return _delete_page(
        request,
        context,
        lambda: league_edits.season_delete(season=season, user=request.user),
        _("Season %(name)s deleted.") % {"name": season.name},
        season.league,
    )
