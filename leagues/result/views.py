"""The leagues' and results' pages: the leagues, a league with its standings, the rankings, entering and signing
off results, a new league or season. Thin adapters that check access and call one service (a club's pages are
leagues/club/views.py, the players' leagues/people/views.py)."""

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.plugins import game_name
from games.registry import one_name
from leagues.club import seasons
from leagues.common import selectors
from leagues.common.access import (
    club_access,
    club_for_member,
    club_manager_user_ids,
    players_open_for,
    require_result_editor,
    result_players_signed_by,
)
from leagues.models import Club, League, Result
from leagues.rating.views import league_ratings
from leagues.result import results, sign_imported
from shitenno_site.errors import Conflict
from shitenno_site.validation import MAX_MIN_GAMES, next_page, query_int

LEAGUES_PAGE = 100  # leagues the index lists; "Show more" brings the next (issue 46: unpaged, it grew with the site)


@require_safe
def league_index(request: HttpRequest) -> HttpResponse:
    leagues = selectors.leagues_list(viewer=request.user).order_by("club__name", "name", "pk")
    page = Paginator(leagues, LEAGUES_PAGE).get_page(request.GET.get("page"))
    if request.htmx and "page" in request.GET:  # "Show more": the next rows only
        return render(request, "leagues/partials/league_rows.html", {"leagues": page})
    return render(request, "leagues/league_index.html", {"leagues": page})


@require_safe
def league_rules(request: HttpRequest) -> HttpResponse:
    """For club organisers: the points schemes and tie-breakers, exactly as leagues.standings applies them."""
    return render(request, "leagues/league_rules.html")


STANDINGS_PAGE = 50


DISPUTES_SHOWN = 50  # disputed results listed beside the 20 latest waiting, so a dispute's link finds its row


FLAGGED_PAGE = 20  # disputes after counting listed at once; "Show more" brings the next (issue 47: capped at 20)


def _flagged(request: HttpRequest, league: League, asked: int) -> dict:
    """The counted results disputed since, latest first, a page at a time; the one a message's link names first
    when it is not on the page (a dispute raised on an old result must still find its row)."""
    flagged = (
        selectors.results_recent(viewer=request.user, league=league)
        .filter(flagged_by__isnull=False)
        .select_related("flagged_by__player")
    )
    page = Paginator(flagged, FLAGGED_PAGE).get_page(request.GET.get("flagged"))
    rows = list(page.object_list)
    if asked and "flagged" not in request.GET and asked not in {row.pk for row in rows}:
        rows = list(flagged.filter(pk=asked)) + rows
    return {"flagged": rows, "flagged_page": page}


@require_safe
def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    from django.utils import timezone

    league = selectors.league_for_viewer(pk=pk, viewer=request.user)
    seasons = list(league.seasons.all())
    season_id = request.GET.get("season", "")
    season = next((s for s in seasons if str(s.pk) == season_id), None) if season_id else None
    season = season or selectors.season_current(league, on=timezone.localdate())
    # the 20 latest waiting, and every disputed result besides (up to DISPUTES_SHOWN), so a dispute keeps its row
    # and its #result-<pk>, where a dispute's message leads, however many newer results wait (issue 47 finding
    # 7); one query, the latest 20 picked in a subquery
    # a message's link names its result (?result=<pk>): that row is on the page whatever else waits (issue 47)
    asked = query_int(request.GET, "result", default=0)
    waiting = selectors.results_awaiting_sign_off(viewer=request.user, league=league)
    awaiting = list(
        waiting.filter(Q(pk__in=waiting.values("pk")[:20]) | Q(status=Result.Status.DISPUTED) | Q(pk=asked))[
            : 20 + DISPUTES_SHOWN + 1
        ]
    )
    managers = club_manager_user_ids(league.club_id) if awaiting and request.user.is_authenticated else set()
    manages = club_access(league.club, request.user).manages  # also the season's Edit and Delete
    for result in awaiting:
        signed = {s.player_id for s in result.sign_offs.all()}
        result.can_sign = any(
            p not in signed for p in result_players_signed_by(result, request.user, managers=managers)
        )
        result.season.league = league  # one league: on whose behalf the button signs reads no query
        result.signs_for = selectors.signs_for_names(
            players_open_for(result, request.user, {league.club_id} if manages else set()), request.user
        )
        result.can_edit = manages
    context = {
        "league": league,
        "seasons": seasons,
        "season": season,
        "standings": selectors.standings_page(season, page=request.GET.get("standings"), per_page=STANDINGS_PAGE)
        if season
        else [],
        "season_query": f"&season={season.pk}" if season else "",
        "recent": selectors.results_recent(viewer=request.user, league=league).filter(status=Result.Status.COUNTED)[
            :10
        ],
        "awaiting": awaiting,
        "can_manage": manages,
    }
    # disputes raised after a result counted wait for a manager here, FLAGGED_PAGE at a time (not read for the
    # standings' own htmx parts, which do not show them)
    if manages and (not request.htmx or "flagged" in request.GET):
        context.update(_flagged(request, league, asked))
        if request.htmx and "flagged" in request.GET:  # "Show more" of them
            return render(request, "leagues/partials/flagged_rows.html", context)
    if not request.htmx:
        context["ratings"] = league_ratings(league)  # issue 29: the displayed ratings, one query
    if request.htmx:  # another season's table, or "show more" rows of this one
        part = "standing_rows" if "standings" in request.GET else "standings"
        return render(request, f"leagues/partials/{part}.html", context)
    return render(request, "leagues/league_detail.html", context)


@login_required
@require_POST
def result_sign_off(request: HttpRequest, pk: int) -> HttpResponse:
    result = get_object_or_404(selectors.results_visible(request.user).select_related("season__league"), pk=pk)
    agreed = request.POST.get("agreed", "yes") != "no"
    try:  # someone not at the table gets the service's PermissionDenied as a 403: the page offers them no form
        results.result_sign_off(result=result, user=request.user, agreed=agreed, note=request.POST.get("note", ""))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(
            request,
            _("Thank you: your sign-off is recorded.")
            if agreed
            else _("Your dispute is recorded: the club's managers settle it."),
        )
    # back to the page the form was on (the sign-off page a message opened, the league page), at that result
    return redirect(next_page(request) or (result.season.league if result.season_id else "results_waiting"))


@require_safe
@login_required
def results_waiting(request: HttpRequest) -> HttpResponse:
    """Every result that waits for your sign-off, in a season or not, and the imported plays a manager vouched
    for that you may dispute (issue 34)."""
    awaiting, vouched = selectors.results_waiting_for(request.user)
    imported = [result.pk for result in awaiting if result.source]
    return render(
        request,
        "leagues/results_waiting.html",
        {"awaiting": awaiting, "vouched": vouched, "imported": imported if len(imported) > 1 else []},
    )


@login_required
@require_POST
def results_sign_imported(request: HttpRequest) -> HttpResponse:
    """The waiting page's "Sign all imported plays" (issue 47 finding 5): the plays the page listed."""
    try:
        ids = [int(value) for value in request.POST.getlist("result")]
        signed = sign_imported.results_sign_imported(user=request.user, result_ids=ids)
    except (ValueError, OverflowError):
        return HttpResponseBadRequest(_("Sign the plays the page lists."))
    except ValidationError as exc:
        return HttpResponseBadRequest(" ".join(exc.messages))
    messages.success(
        request,
        ngettext("%(n)d imported play signed.", "%(n)d imported plays signed.", len(signed)) % {"n": len(signed)},
    )
    return redirect("results_waiting")


RANKINGS_PAGE = 50


MAX_ACTIVE_DAYS = 3650


ACTIVE_CHOICES = [
    (0, gettext_lazy("Everyone")),
    (90, gettext_lazy("Played in the last 3 months")),
    (365, gettext_lazy("Played in the last year")),
]  # hide the long inactive


@require_safe
def rankings(request: HttpRequest) -> HttpResponse:
    """Ratings in one scope (a game or a league), best first, with the uncertainty, a min-games filter and a filter
    hiding who has not played for a while."""
    scopes = selectors.rating_scope_choices(viewer=request.user)
    scope = request.GET.get("scope", "")
    kind, _sep, key = scope.partition(":")
    key = one_name(key) if kind == "game" else key  # a game by its slug or its name (issue 40)
    if (kind, key) not in {(k, v) for k, v, _label in scopes}:
        kind, key = scopes[0][0], scopes[0][1]
    min_games = query_int(request.GET, "min_games", default=0, max_value=MAX_MIN_GAMES)
    active = query_int(request.GET, "active", default=0, max_value=MAX_ACTIVE_DAYS)
    since = timezone.localdate() - timedelta(days=active) if active else None
    rows = selectors.ratings_list(kind=kind, key=key, min_games=min_games, active_since=since).values(
        "player_id", "player__name", "mu", "sigma", "games", "last_played"
    )  # what a row shows, no models
    page = Paginator(rows, RANKINGS_PAGE).get_page(request.GET.get("page"))
    context = {
        "scopes": [(f"{k}:{v}", label) for k, v, label in scopes],
        "scope": f"{kind}:{key}",
        "min_games": min_games,
        "active": active,
        "active_choices": ACTIVE_CHOICES,
        "ratings": page,
        "page": page,
        "page_query": "&" + urlencode({"scope": f"{kind}:{key}", "min_games": min_games, "active": active}),
    }
    if request.htmx:  # the filter's answer is the whole table; "show more" gets the next rows only
        part = "ranking_body" if "page" in request.GET else "ranking_rows"
        return render(request, f"leagues/partials/{part}.html", context)
    return render(request, "leagues/rankings.html", context)


def _form_page(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    return render(request, template, context, status=400 if context["form"].errors else 200)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def league_create(request: HttpRequest, slug: str) -> HttpResponse:
    from leagues.common.forms import LeagueForm, apply_service_errors

    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    form = LeagueForm(request.POST or None)  # no game ticked: the organiser chooses (issue 34)
    if request.method == "POST" and form.is_valid():
        try:
            league = seasons.league_create(
                club=club, name=form.cleaned_data["name"], games=form.cleaned_data["game_list"], user=request.user
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("League %(name)s created.") % {"name": league.name})
            return redirect(league)
    return _form_page(request, "leagues/league_form.html", {"form": form, "club": club})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def season_create(request: HttpRequest, pk: int) -> HttpResponse:
    from leagues.common.forms import SeasonForm, apply_service_errors

    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    club_for_member(league.club, request.user, manage=True)
    form = SeasonForm(request.POST or None, games=league.games)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = seasons.season_create(
                league=league,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                points_scheme=data["points_scheme"],
                min_games=data["min_games"],
                tie_breakers=data["tie_breakers"],
                custom_points=data["custom_points"] if data["points_scheme"] == "custom" else {},
                user=request.user,
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, _("Season %(name)s created.") % {"name": season.name})
            return redirect(f"{league.get_absolute_url()}?season={season.pk}")
    return _form_page(request, "leagues/season_form.html", {"form": form, "league": league})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def result_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A club manager enters a game played off the site, into the league's season running on its date."""
    from django.utils import timezone

    from leagues.common.forms import ResultForm, apply_service_errors

    league = get_object_or_404(League.objects.select_related("club"), pk=pk)
    club_for_member(league.club, request.user, manage=True)
    members = [m.player for m in selectors.club_members(league.club).order_by("player__name")]
    form = ResultForm(
        request.POST or None, games=league.games, players=members, initial={"played_on": timezone.localdate()}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        season = league.seasons.filter(starts_on__lte=data["played_on"], ends_on__gte=data["played_on"]).first()
        if season is None:
            form.add_error("played_on", _("No season of this league runs on this date."))
        else:
            try:
                results.result_enter(
                    game=data["game"],
                    played_on=data["played_on"],
                    entries=data["entries"],
                    user=request.user,
                    season=season,
                )
            except ValidationError as exc:
                apply_service_errors(form, exc)
            else:
                messages.success(request, _("The result is recorded; the players sign it off on this page."))
                return redirect(f"{league.get_absolute_url()}?season={season.pk}")
    return _form_page(request, "leagues/result_form.html", {"form": form, "league": league})


def _result_to_change(request: HttpRequest, pk: int) -> Result:
    """A result the user may see (else 404) and correct or delete (else 403, before any form is shown)."""
    result = get_object_or_404(
        selectors.results_visible(request.user)
        .select_related("season__league__club", "club")
        .prefetch_related("entries__player"),
        pk=pk,
    )
    require_result_editor(result, request.user)
    return result


def _result_home(request: HttpRequest, result: Result) -> str:
    """Where Edit and Delete send the organiser back: the page the link was on (`next`), else the result's
    league at its season, else the results waiting for him."""
    if next_page(request):
        return next_page(request)
    if result.season_id:
        return f"{result.season.league.get_absolute_url()}?season={result.season_id}"
    return reverse("results_waiting")


@login_required
@require_http_methods(["GET", "POST"])
def result_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """A club's owner or admin corrects a result on the site, as the API's PATCH does (results.result_update, the
    same permission and version check): the entry form filled with the result, its version hidden in it, so a
    save over a change made meanwhile is refused with 409 and nothing written."""
    from leagues.common.forms import ResultEditForm, apply_service_errors

    result = _result_to_change(request, pk)
    club = result.season.league.club if result.season_id else result.club
    members = [m.player for m in selectors.club_members(club).order_by("player__name")] if club else []
    form = ResultEditForm(request.POST or None, result=result, players=members)
    context = {
        "form": form,
        "result": result,
        "league": result.season.league if result.season_id else None,
        "back": _result_home(request, result),
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            results.result_update(
                result=result,
                version=data["version"],
                user=request.user,
                played_on=data["played_on"],
                entries=data["entries"],
            )
        except ValidationError as exc:
            apply_service_errors(form, exc)
        except Conflict as exc:
            return render(request, "leagues/result_form.html", {**context, "conflict": exc.message}, status=409)
        else:
            messages.success(
                request,
                _(
                    "The result is corrected. If who played or how they placed changed, "
                    "every player signs it again; only the sign-offs you gave stay."
                ),
            )
            return redirect(context["back"])
    return _form_page(request, "leagues/result_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def result_delete(request: HttpRequest, pk: int) -> HttpResponse:
    """The result's Delete opens this confirmation (works without script); its button POSTs the version it was
    read at to results.result_delete, as the API's DELETE does: a result changed meanwhile is refused (409)."""
    result = _result_to_change(request, pk)
    context = {"result": result, "back": _result_home(request, result)}
    if request.method == "POST":
        version = query_int(request.POST, "version", default=-1)
        if version < 0:
            return render(
                request,
                "leagues/result_delete.html",
                {**context, "error": _("The form was incomplete: open the result again.")},
                status=400,
            )
        try:
            results.result_delete(result=result, version=version, user=request.user)
        except Conflict as exc:
            return render(request, "leagues/result_delete.html", {**context, "error": exc.message}, status=409)
        messages.success(
            request,
            _("The result of %(game)s on %(day)s is deleted.")
            % {"game": game_name(result.game), "day": date_format(result.played_on)},
        )
        return redirect(context["back"])
    return render(request, "leagues/result_delete.html", context)
