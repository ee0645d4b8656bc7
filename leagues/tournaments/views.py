"""A tournament day's pages (issue 51, docs/tournaments.md): the day page on the phones (a player's own table and
seat and the link to his table, the round's pods, the standings; for the organiser the check-in QR, entering
players, the judges, pairing the next round, opening its tables and the round clock; for him and the judges the
places of each pod, by hand or settled from its finished table), the wall for the projector and the final
standings as CSV.

Thin: each view checks who asks, calls one service of leagues.tournaments.services or tables (writes) or selectors
(reads) and renders. A refusal answers with its reason and a 400 (403 for a member who does not manage the club,
or is no judge for a pod's places; 404 for a private club's outsider, as the API does), and changes nothing. Every
form is a plain post that comes back to the page; htmx only refreshes what a phone and the wall show.
"""

from __future__ import annotations

import csv

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.phrases import word_list
from leagues.common.access import club_access, club_for_member, require_club_manager
from leagues.common.forms import apply_service_errors
from leagues.models import Club, Player

from . import schemes, selectors, services, tables
from .api import tournament_for_viewer
from .forms import TournamentForm
from .models import Tournament, TournamentRound

POLL_SECONDS = 10  # the wall, and a player's phone, ask again this often (304 while nothing changed)


def _post_int(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "").strip()
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


def _post_player(request: HttpRequest) -> Player | None:
    """The player a manager's form names (none: the user himself)."""
    pk = _post_int(request, "player")
    return None if pk is None else get_object_or_404(Player, pk=pk)


def _polled(response: HttpResponse) -> HttpResponse:
    """A poll's part and the whole page share an address: a cache keeps them apart."""
    patch_vary_headers(response, ["HX-Request"])
    return response


def _day_context(request: HttpRequest, tournament: Tournament, error: str = "") -> dict:
    day = selectors.tournament_day(tournament, request.user)
    access = club_access(tournament.club, request.user)
    others = word_list(day.own_others) if day.own_others else ""  # "A, B and C" (nobody: no line)
    context = {
        "tournament": tournament,
        "day": day,
        "manages": access.manages,
        "member": access.membership,
        "error": error,
        "scheme_words": schemes.tournament_scheme_words(tournament),
        "poll_seconds": POLL_SECONDS,
        "others": others,
        "judge_names": word_list([j["name"] for j in day.judges]) if day.judges else "",
    }
    if access.manages:
        context.update(club_members=selectors.club_members(tournament), judge_ids={j["id"] for j in day.judges})
        check_in_url = request.build_absolute_uri(reverse("tournament_day", args=[tournament.pk]))
        context.update(
            check_in_url=check_in_url,
            check_in_qr=segno.make(check_in_url, error="m").svg_inline(
                scale=4, dark="#000", light="#fff", title=_("QR code of the tournament's check-in")
            ),
            not_entered=selectors.not_entered(tournament),
        )
    return context


def _answer(request: HttpRequest, tournament: Tournament, run, anchor: str) -> HttpResponse:
    """Run one service; back to the day page, or the page again with the refusal and a 400."""
    try:
        run()
    except ValidationError as exc:
        context = _day_context(request, tournament, " ".join(exc.messages))
        return render(request, "leagues/tournaments/tournament.html", context, status=400)
    return redirect(f"{reverse('tournament_day', args=[tournament.pk])}#{anchor}")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def tournament_create(request: HttpRequest, slug: str) -> HttpResponse:
    """The organiser sets a tournament up (the API's POST /api/clubs/<slug>/tournaments/, as a page): its games,
    table sizes, Swiss rounds, cut, round 1 and clock; then its day page, where the players enter and check in."""
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create(club=club, user=request.user, **form.settings())
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(
                request,
                _("Tournament %(name)s set up: its players enter and check in on this page.")
                % {"name": tournament.name},
            )
            return redirect("tournament_day", pk=tournament.pk)
    return render(
        request,
        "leagues/tournaments/tournament_form.html",
        {"form": form, "club": club},
        status=400 if form.errors else 200,
    )


@require_GET
def tournament_day(request: HttpRequest, pk: int) -> HttpResponse:
    """The day on a phone: his own table and seat, the round, the standings; the organiser's tools below."""
    tournament = tournament_for_viewer(pk, request.user)
    context = _day_context(request, tournament)
    if request.htmx and request.GET.get("part") == "own":
        return _polled(render(request, "leagues/tournaments/partials/own.html", context))
    return _polled(render(request, "leagues/tournaments/tournament.html", context))


@login_required
@require_POST
def tournament_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """The QR's one tap (entering too, when he has not yet), or the organiser's for a member or guest he names."""
    tournament = tournament_for_viewer(pk, request.user)
    player = _post_player(request)
    return _answer(
        request,
        tournament,
        lambda: services.tournament_check_in(tournament=tournament, user=request.user, player=player, enter=True),
        "check-in",
    )


@login_required
@require_POST
def tournament_drop(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_viewer(pk, request.user)
    player = _post_player(request)
    return _answer(
        request,
        tournament,
        lambda: services.tournament_drop(tournament=tournament, user=request.user, player=player),
        "standings",
    )


@login_required
@require_POST
def tournament_pair(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_for_viewer(pk, request.user)
    return _answer(request, tournament, lambda: services.round_pair(tournament=tournament, user=request.user), "round")


@login_required
@require_POST
def pod_places(request: HttpRequest, pk: int, number: int, position: int) -> HttpResponse:
    """The organiser's form of one pod: a place for each seated player (place_<player id>)."""
    tournament = tournament_for_viewer(pk, request.user)
    pod = selectors.tournament_pod(tournament, number, position)
    services.require_judge(tournament, request.user)
    places = {p: _post_int(request, f"place_{p}") for p in pod.players}

    def run():
        if None in places.values():
            raise ValidationError(_("Give every player of the pod a place from 1 to its size."))
        services.pod_places(pod=pod, user=request.user, places=places)

    return _answer(request, tournament, run, "round")


@login_required
@require_POST
def pod_settle(request: HttpRequest, pk: int, number: int, position: int) -> HttpResponse:
    """A judge's (or the organiser's) one tap: the pod's places from its finished table, without the sign-offs."""
    tournament = tournament_for_viewer(pk, request.user)
    pod = selectors.tournament_pod(tournament, number, position)
    return _answer(request, tournament, lambda: tables.pod_settle(pod=pod, user=request.user), "round")


@login_required
@require_POST
def round_tables_open(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The organiser opens a site table for each pod of the round (count_<position>: what a game asks him to
    count at that table first)."""
    tournament = tournament_for_viewer(pk, request.user)
    tournament_round = get_object_or_404(TournamentRound, tournament=tournament, number=number)
    counts = {pod.position: _post_int(request, f"count_{pod.position}") for pod in tournament_round.pods.all()}
    return _answer(
        request,
        tournament,
        lambda: tables.round_tables_open(
            tournament_round=tournament_round,
            user=request.user,
            counts={k: v for k, v in counts.items() if v is not None},
        ),
        "round",
    )


@login_required
@require_POST
def tournament_judges(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser names the judges (the members ticked in the list)."""
    tournament = tournament_for_viewer(pk, request.user)
    require_club_manager(tournament.club, request.user)
    ids = [int(v) for v in request.POST.getlist("judges") if v.isdigit() and len(v) < 12]
    judges = list(Player.objects.filter(pk__in=ids))
    return _answer(
        request,
        tournament,
        lambda: services.tournament_judges_set(tournament=tournament, user=request.user, judges=judges),
        "organiser",
    )


@require_GET
def tournament_wall(request: HttpRequest, pk: int) -> HttpResponse:
    """The projector: the round's pods, the clock, the standings, the final table and the winner; read-only and
    polling (the site's ETag makes an unchanged poll a 304). A public club's for everyone, a private one's for
    its members."""
    tournament = tournament_for_viewer(pk, request.user)
    context = {
        "tournament": tournament,
        "day": selectors.tournament_day(tournament),
        "poll_seconds": POLL_SECONDS,
        "scheme_words": schemes.tournament_scheme_words(tournament),
    }
    if request.htmx:
        return _polled(render(request, "leagues/tournaments/partials/wall.html", context))
    return _polled(render(request, "leagues/tournaments/wall.html", context))


@require_GET
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings (final once the last round is played) with the tie-breakers, one row a player."""
    tournament = tournament_for_viewer(pk, request.user)
    day = selectors.tournament_day(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(["place", "player", "points", "opponents_average", "average_place", "head_to_head", "lot", "final"])
    for row in day.standings:
        writer.writerow(
            [
                row["place"],
                row["name"],
                row["points"],
                row["opponents_average"],
                "" if row["average_place"] is None else row["average_place"],
                row["head_to_head"],
                "" if row["lot"] is None else row["lot"],
                "yes" if day.over else "no",
            ]
        )
    return response
