"""League night pages (issue 25): the season's nights, the organiser's screen, a member's one-tap check-in and the
night's projectable standings. Thin: each view checks who asks, calls one service of leagues.nights.services and
renders; a refusal answers with its reason and a 400 (403 for a member who does not manage the club, 404 for a
private club's outsider, as the API does), and changes nothing.

The organiser's screen works with htmx: each action swaps only its own part of the page (the check-in list, the
round), and every form also works as a plain post that comes back to the page.
"""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engines import UnknownGame
from games.plugins import get_game
from leagues.common import selectors as league_selectors
from leagues.common.access import club_access, require_club_manager
from leagues.models import Player
from leagues.rating.chances import tables_chances

from . import proposals, selectors, services, table_games
from .api import night_for_viewer
from .forms import NightForm
from .models import Night, NightProposal, NightRound, NightTable

STANDINGS_POLL_SECONDS = 10
PRESENT_POLL_SECONDS = 5
PROPOSAL_POLL_SECONDS = 1  # the organiser waits for the optimiser's job (1-2 s)
SEAT_POLL_SECONDS = 10  # a checked-in member's phone asks where he sits until the organiser opens the tables


def _qr(url: str, title: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", title=title)


def _refusal(exc: ValidationError) -> str:
    return " ".join(exc.messages)


def _post_int(request: HttpRequest, name: str) -> int | None:
    raw = request.POST.get(name, "").strip()
    return int(raw) if raw.isdigit() and len(raw) < 12 else None


def _managed(request: HttpRequest, pk: int) -> Night:
    """The night for its club's managers: 404 to whoever may not see the club, 403 to anyone else."""
    night = night_for_viewer(pk, request.user)
    require_club_manager(night.season.league.club, request.user)
    return night


# --- the season's nights ---------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def season_nights(request: HttpRequest, pk: int) -> HttpResponse:
    """The season's nights; a manager opens a new one here, and a member finds each night's check-in (not only
    through the QR on the organiser's phone)."""
    season = league_selectors.season_for_viewer(pk=pk, viewer=request.user)
    access = club_access(season.league.club, request.user)
    manages = access.manages
    form, status = None, 200
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        require_club_manager(season.league.club, request.user)
    if manages:
        form = NightForm(request.POST or None, games=season.league.games)
        if request.method == "POST":
            if form.is_valid():
                data = form.cleaned_data
                try:
                    night = services.night_open(
                        season=season,
                        user=request.user,
                        date=data["date"],
                        games=data["games"],
                        table_sizes=data["table_sizes"],
                        boxes=data["boxes"],
                        mix=data["mix"],
                    )
                except ValidationError as exc:
                    from leagues.common.forms import apply_service_errors

                    apply_service_errors(form, exc)
                else:
                    return redirect("night_detail", night.pk)
            status = 400
    nights = season.nights.order_by("-date", "-pk")
    return render(
        request,
        "leagues/nights/season_nights.html",
        {
            "season": season,
            "league": season.league,
            "nights": nights,
            "form": form,
            "manages": manages,
            "member": access.membership is not None,
        },
        status=status,
    )


# --- the organiser's screen ------------------------------------------------------------------------------------


def _round_context(
    request: HttpRequest, night: Night, *, pick: int | None = None, error: str = "", proposing: int | None = None
) -> dict:
    """The current round (the latest), its tables with names and, while proposed, each seat's chance to win.
    `proposing`: the attempt of a proposal queued or running (the page says so and polls; read when not given)."""
    if proposing is None:
        state = proposals.proposal_state(night)
        if state["state"] in (NightProposal.State.QUEUED, NightProposal.State.RUNNING):
            proposing = state["attempt"]
    night_round = night.rounds.order_by("-number").first()
    tables = []
    if night_round is not None:
        rows = selectors.round_tables(night_round)
        names = Player.objects.in_bulk([p for t in rows for p in t["players"]])
        proposed = night_round.opened_at is None
        # the league's ratings, where tonight's results count (a table new to the league: its game's, and it says so)
        odds = (
            tables_chances([(t["game"], t["players"]) for t in rows], league_id=night.season.league_id)
            if proposed
            else [None] * len(rows)
        )
        sizes = services.game_sizes(night)
        accepts = selectors.night_accepts(night) if proposed else {}
        for table, table_odds in zip(rows, odds, strict=True):
            chances = {c.player_id: c.win for c in table_odds or []}
            seats = [{"player": names[p], "chance": chances.get(p)} for p in table["players"]]
            link = reverse("table_detail", args=[table["session"]]) if table["session"] else ""
            games = (
                [
                    g
                    for g in table_games.fitting_games(
                        table["players"], offered=night.games, sizes=sizes, accepts=accepts
                    )
                    if g != table["game"]
                ]
                if proposed
                else []
            )
            tables.append(
                {
                    **table,
                    "number": table["position"] + 1,
                    "seats": seats,
                    "link": link,
                    "games": games,
                    "chances_from_game": bool(table_odds) and table_odds[0].scope == "game",
                    "qr": _qr(
                        request.build_absolute_uri(link), _("QR code of table %(n)d") % {"n": table["position"] + 1}
                    )
                    if link
                    else "",
                }
            )
    still_playing = sum(1 for t in tables if t["session"] and not t["finished"])
    return {
        "night": night,
        "round": night_round,
        "tables": tables,
        "pick": pick,
        "round_error": error,
        "still_playing": still_playing,
        "proposing": proposing,
        "proposal_poll_seconds": PROPOSAL_POLL_SECONDS,
        "counts_asked": [
            {**t, "what": label, "help": help_text}
            for t in tables
            if not t["session"]
            for label, help_text in [_night_count_label(t["game"])]
            if label
        ],
    }


def _night_count_label(game: str) -> tuple[str | None, str | None]:
    """What the organiser counts at a table of `game` before the site opens it, and the hint saying what exactly to
    count and why (its adapter's), or (None, None)."""
    try:
        adapter = get_game(game)
    except UnknownGame:
        return None, None
    return adapter.night_count_label, adapter.night_count_help


def _present_context(night: Night) -> dict:
    players = selectors.night_players(night)
    return {
        "night": night,
        "players": players,
        "present_count": sum(p["present"] for p in players),
        "poll_seconds": PRESENT_POLL_SECONDS,
    }


@login_required
@require_GET
def night_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's screen: the QR members check in with, the names to tick, the round and its actions."""
    night = _managed(request, pk)
    part = request.GET.get("part") if request.htmx else None
    if part == "present":  # the check-in list polls every few seconds: it builds its names, not the round
        return render(request, "leagues/nights/partials/present.html", _present_context(night))
    pick = request.GET.get("pick", "")
    round_context = _round_context(request, night, pick=int(pick) if pick.isdigit() and len(pick) < 12 else None)
    if part == "round":
        return _round_part(request, night, round_context)
    context = {**round_context, **_present_context(night)}
    check_in_url = request.build_absolute_uri(reverse("night_check_in", args=[night.pk]))
    context.update(
        check_in_url=check_in_url,
        check_in_qr=_qr(check_in_url, _("QR code of the check-in page")),
        standings_url=reverse("night_standings", args=[night.pk]),
    )
    return render(request, "leagues/nights/night.html", context)


def _round_answer(request: HttpRequest, night: Night, error: str = "", status: int = 200) -> HttpResponse:
    """htmx: the round's part, with the refusal above it; a plain post: back to the page (or the refusal)."""
    if request.htmx or error:
        template = "leagues/nights/partials/round.html" if request.htmx else "leagues/nights/refused.html"
        return render(request, template, _round_context(request, night, error=error), status=status)
    return redirect(f"{reverse('night_detail', args=[night.pk])}#night-round")


@login_required
@require_POST
def night_tick(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser ticks a member's name (checked in) or unticks it (left)."""
    night = _managed(request, pk)
    player_id = _post_int(request, "player")
    player = get_object_or_404(Player, pk=player_id) if player_id is not None else None
    status, error = 200, ""
    if player is None:
        status, error = 400, _("Name a member of the club.")
    else:
        try:
            if request.POST.get("present") == "1":
                services.night_check_in(night=night, user=request.user, player=player)
            else:
                services.night_leave(night=night, user=request.user, player=player)
        except ValidationError as exc:
            status, error = 400, _refusal(exc)
    if request.htmx or error:
        template = "leagues/nights/partials/present.html" if request.htmx else "leagues/nights/refused.html"
        return render(
            request, template, {**_present_context(night), "present_error": error, "round_error": error}, status=status
        )
    return redirect(f"{reverse('night_detail', args=[night.pk])}#night-present")


@login_required
@require_POST
def night_propose(request: HttpRequest, pk: int) -> HttpResponse:
    """Propose the round's tables (again): the locked tables stay. A large night is proposed by a job
    (leagues.nights.proposals): the round's part says "Proposing…" and polls until the round is there or the
    refusal or failure is known; a second tap while it runs shows the same."""
    night = _managed(request, pk)
    row, _started = proposals.proposal_ask(night=night, user=request.user)
    state = proposals.proposal_state(night, row.attempt)
    if state["state"] in (NightProposal.State.REFUSED, NightProposal.State.FAILED):  # a 400 either way: htmx
        return _round_answer(request, night, state["error"], 400)  # shows a 4xx's part, not a 5xx's
    if state["state"] == NightProposal.State.DONE or not request.htmx:
        return _round_answer(request, night)
    return render(
        request, "leagues/nights/partials/round.html", _round_context(request, night, proposing=row.attempt), status=202
    )


def _round_part(request: HttpRequest, night: Night, round_context: dict) -> HttpResponse:
    """The round's part, polled while a proposal runs (`?attempt=`): "Proposing…" until it ends, then the round
    or the proposal's refusal."""
    attempt = request.GET.get("attempt", "")
    if attempt.isdigit() and len(attempt) < 12:
        state = proposals.proposal_state(night, int(attempt))
        if state["state"] in (NightProposal.State.QUEUED, NightProposal.State.RUNNING):
            round_context["proposing"] = state["attempt"]
        elif state["state"] in (NightProposal.State.REFUSED, NightProposal.State.FAILED):
            round_context["round_error"] = state["error"]
    return render(request, "leagues/nights/partials/round.html", round_context)


def _round(night: Night, number: int) -> NightRound:
    return get_object_or_404(NightRound, night=night, number=number)


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """The second tap: swap the picked player (a) with this one (b)."""
    night = _managed(request, pk)
    night_round = _round(night, number)
    a, b = _post_int(request, "a"), _post_int(request, "b")
    if a is None or b is None:
        return _round_answer(request, night, _("Name two different players seated in this round."), 400)
    try:
        services.tables_swap(night_round=night_round, user=request.user, a=a, b=b)
    except ValidationError as exc:
        return _round_answer(request, night, _refusal(exc), 400)
    return _round_answer(request, night)


@login_required
@require_POST
def table_lock(request: HttpRequest, pk: int, number: int, position: int) -> HttpResponse:
    night = _managed(request, pk)
    table = get_object_or_404(NightTable, round=_round(night, number), position=position)
    try:
        services.table_lock(table=table, user=request.user, locked=request.POST.get("locked") == "1")
    except ValidationError as exc:
        return _round_answer(request, night, _refusal(exc), 400)
    return _round_answer(request, night)


@login_required
@require_POST
def table_game(request: HttpRequest, pk: int, number: int, position: int) -> HttpResponse:
    """The organiser taps a game for a proposed table: it plays that game, and the table is locked with it."""
    night = _managed(request, pk)
    table = get_object_or_404(NightTable, round=_round(night, number), position=position)
    try:
        services.table_game_set(table=table, user=request.user, game=request.POST.get("game", "").strip())
    except ValidationError as exc:
        return _round_answer(request, night, _refusal(exc), 400)
    return _round_answer(request, night)


@login_required
@require_POST
def round_open(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Open the round's tables; a game that asks for a count first (its adapter's `night_count_label`, e.g. the
    cards of a deck counted at the table) has it from the form, one field per table."""
    night = _managed(request, pk)
    night_round = _round(night, number)
    counts = {}
    for table in night_round.tables.all():
        what = _night_count_label(table.game)
        field = f"count_{table.position}"
        if what is None or field not in request.POST:
            continue  # the service says what is missing
        count = _post_int(request, field)
        if count is None:
            return _round_answer(
                request,
                night,
                _("Table %(n)d: “%(what)s” takes a whole number.") % {"n": table.position + 1, "what": what},
                400,
            )
        counts[table.position] = count
    try:
        services.tables_open(night_round=night_round, user=request.user, counts=counts)
    except ValidationError as exc:
        return _round_answer(request, night, _refusal(exc), 400)
    return _round_answer(request, night)


# --- a member's phone -----------------------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def night_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """What the QR opens: one tap to check in (optionally for one game only), later one tap to leave early."""
    night = night_for_viewer(pk, request.user)
    access = club_access(night.season.league.club, request.user)
    if access.membership is None:
        raise PermissionDenied(
            _(
                "Only members of the club can check in: ask the organiser for the club's invite "
                "link, join, then open this page again."
            )
        )
    error, status = "", 200
    if request.method == "POST":
        try:
            if request.POST.get("action") == "leave":
                services.night_leave(night=night, user=request.user)
            else:
                services.night_check_in(
                    night=night, user=request.user, only_game=request.POST.get("only_game", "").strip()
                )
        except ValidationError as exc:
            error, status = _refusal(exc), 400
        else:
            return redirect("night_check_in", night.pk)
    check_in = night.check_ins.filter(player=access.membership.player).first()
    context = {
        "night": night,
        "check_in": check_in,
        "error": error,
        "poll_seconds": SEAT_POLL_SECONDS,
        "your_table": selectors.player_table(night, access.membership.player_id),
        "standings_url": reverse("night_standings", args=[night.pk]),
    }
    if request.htmx and request.GET.get("part") == "table":
        return render(request, "leagues/nights/partials/your_table.html", context)
    return render(request, "leagues/nights/check_in.html", context, status=status)


# --- the projector ---------------------------------------------------------------------------------------------


@require_GET
def night_standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The night's table in big type, refreshing itself: for everyone when the club is public (404 otherwise
    to whoever is not in the club)."""
    night = night_for_viewer(pk, request.user)
    context = {"night": night, **selectors.night_standings(night), "poll_seconds": STANDINGS_POLL_SECONDS}
    if request.htmx:
        return render(request, "leagues/nights/partials/standings.html", context)
    return render(request, "leagues/nights/standings.html", context)
