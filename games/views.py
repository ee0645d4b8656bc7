"""Table pages: thin views over the services and selectors, full pages plus the htmx fragments they
share (templates/games/partials/). Every form also works as a plain POST that redirects."""

from __future__ import annotations

import uuid

import segno
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F, Max, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.engines.base import MoveError
from games.plugins import GameAdapter, all_games, default_game, get_game
from shitenno_site.errors import Conflict, KeyReused
from shitenno_site.paging import LookaheadPage
from shitenno_site.validation import idempotency_key

from . import balance_stats, heads, selectors, services
from .models import MoveEvent, TableSession
from .people import people, player_model, seatable_q, unmerged_q


def _game_or_404(slug: str) -> GameAdapter:
    try:
        return get_game(slug)
    except KeyError:
        raise Http404(_("No such game.")) from None


# --- new table ------------------------------------------------------------------------------------------


def seatable_players(user) -> list:
    """The user, all his clubs' members, the players he sat with and the guests he added. Not cut at a count: a
    cut left the last members of a big club out of the list and the chances (issue 34); the list is what the user
    plays with, so it grows with his clubs, not with the site."""
    me = people().player_for_user(user)
    others = (
        player_model()
        .objects.filter(seatable_q(me, user))
        .exclude(pk=me.pk)
        .filter(unmerged_q())
        .distinct()
        .order_by("name", "id")
    )
    return [me, *others]


def _usual_club(user, clubs) -> object | None:
    """The club a new table starts in: of the user's clubs, the one of his latest table, else the first by name;
    none for a user in no club (issue 34: tables were opened outside the club by default). One query."""
    latest = Max("sessions__created_at", filter=Q(sessions__created_by=user))
    return clubs.annotate(latest_table=latest).order_by(F("latest_table").desc(nulls_last=True), "name", "pk").first()


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    """The chosen game's set-up form (?game=<slug>, or the game field posted; the first game by default)."""
    slug = request.POST.get("game") or request.GET.get("game") or default_game().slug
    try:
        game = get_game(slug)
    except KeyError:  # a mistyped link: say so and offer the games there are, rather than another game's form
        return render(request, "games/unknown_game.html", {"slug": slug[:80], "games": all_games()}, status=404)
    players = seatable_players(request.user)
    clubs = people().clubs_of_user(request.user)
    club = _usual_club(request.user, clubs)
    form = game.setup_form_class(
        request.POST or None,
        players=players,
        clubs=clubs,
        initial={"game": game.slug, "seat0_player": str(players[0].pk), "club": club.pk if club else None},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                session = services.table_open(
                    game=game.slug,
                    created_by=request.user,
                    seats=data["seats"],
                    setup=data["setup"],
                    deal=data["deal"],
                    club=data["club"],
                    is_public=data["is_public"],
                )
            except MoveError as exc:
                form.add_error(None, game.say_error(exc))
            except ValidationError as exc:
                form.add_error(None, exc.messages)
            else:
                game.table_opened(session, data, request.user)
                return redirect(session)
        status = 400
    return render(request, "games/table_new.html", {"form": form, "game": game, "games": all_games()}, status=status)


# --- the table ------------------------------------------------------------------------------------------


def _table_context(request: HttpRequest, session: TableSession, **extra) -> dict:
    """What every table page shows (the log, undo, notices), plus the game's board and panel context."""
    game = get_game(session.game)
    seats = list(session.seats.all())  # prefetched with their players by session_for_viewer
    # a table settled without its moves (a night's game entered by hand) says so, and offers no move nor undo
    settled = selectors.session_settled(session)
    can_write = settled is None and selectors.session_can_write(session, request.user)
    context: dict = {
        "session": session,
        "game": game,
        "can_write": can_write,
        "key": uuid.uuid4().hex,
        "entered": {},
        "error": None,
        "notice": None,
        "settled": settled,
    }
    context.update(extra)
    if context.get("settled_refusal") and settled is None:  # taken back meanwhile: the refusal still says why
        context["notice"] = context["settled_refusal"]
    if session.entry == TableSession.Entry.FINAL_COUNT:
        context["outcome"] = game.outcome_context(session.outcome, [s.player.name for s in seats], session.state)
        return context
    context.update(game.table_context(session, seats, request.GET))
    hint = context.get("hint")
    if settled is not None:
        # nobody is to play at a settled table: its board says no one's turn nor what to enter (each game's board
        # names its mover as `mover` and reads `hint.to_move`), below the notice of who placed first
        context["mover"] = None
        if isinstance(hint, dict):
            context["hint"] = {**hint, "to_move": None, "moves": []}
    elif hint is not None:
        context["expected_moves"] = [game.move_label(kind) for kind in hint.get("moves", [])]
    if session.outcome:
        context["outcome"] = game.outcome_context(session.outcome, [s.player.name for s in seats], session.state)
    context["recent"], context["last_move"] = selectors.session_recent(session)
    return context


# The shared body holds up bench/README.md's row "Issue 18: ... changed poll <= 2.5x an unrouted 404" (bench/load.py:
# 2.15x, 2.68 ms, on the merged main): a changed poll that renders the body itself costs ~6 ms, 4x the 404
# (bench/HISTORY.md, "changed poll (live fragment)" 6.20 ms = 4.05x before it). Rendered once per version, it is
# shared with each answer's own CSRF token and idempotency key put where the placeholders stand.
_KEY_SLOT, _CSRF_SLOT = "idempotency-key-slot-5e2b", "csrf-token-slot-5e2b"
# A body is read only while its version is the table's newest (a poll always renders the head), so it needs to live
# just long enough for the other phones' next polls; kept longer it only fills the shared cache: a table moving
# every 30 s left 20 dead versions of 12-15 KiB each at 600 s (docs/operations.md, Scale-out).
TABLE_BODY_SECONDS = 60


def _table_body_name(code: str, head_seq: int, rebuilds: int, can_write: bool) -> str:
    return f"table-body:{code}:{head_seq}.{rebuilds}:{int(can_write)}:{get_language()}"


def _personal_body(body: str, request: HttpRequest) -> str:
    """A shared body with this answer's own CSRF token and idempotency key."""
    return body.replace(_KEY_SLOT, uuid.uuid4().hex).replace(_CSRF_SLOT, get_token(request))


def _shared_table_body(request: HttpRequest, session: TableSession) -> str:
    """The htmx table body, rendered once per table version, language and writer-or-reader, then shared by
    every phone at the table (the mover's own answer usually renders it, the others' polls reuse it); each
    answer gets its own CSRF token and idempotency key."""
    can_write = selectors.session_can_write(session, request.user)
    name = _table_body_name(session.code, session.head_seq, session.rebuilds, can_write)
    body = cache.get(name)
    if body is None:
        context = _table_context(request, session, key=_KEY_SLOT, csrf_token=_CSRF_SLOT)
        body = render_to_string("games/partials/table_body.html", context, request)
        cache.set(name, body, TABLE_BODY_SECONDS)
    return _personal_body(body, request)


def _personal_view(request: HttpRequest, game: str) -> bool:
    return any(request.GET.get(name) for name in get_game(game).view_params)


def _render_table(request: HttpRequest, session: TableSession, status: int = 200, **extra) -> HttpResponse:
    personal = _personal_view(request, session.game)
    if request.htmx and status == 200 and not extra and not personal:
        return HttpResponse(_shared_table_body(request, session))
    context = _table_context(request, session, **extra)
    template = "games/partials/table_body.html" if request.htmx else "games/table.html"
    if not request.htmx:
        join_url = request.build_absolute_uri(session.get_absolute_url())
        context["join_url"] = join_url
        # a settled table's game is over: the chances before it, read as a game to come, are not shown
        context["chances"] = people().seat_chances(session) if context["settled"] is None else None
        context["qr_svg"] = segno.make(join_url, error="m").svg_inline(
            scale=4, dark="#000", light="#fff", title=_("QR code of the join link")
        )
    return render(request, template, context, status=status)


@require_safe
def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user, rated=not request.htmx)
    return _render_table(request, session)


def _with_api_token(request: HttpRequest) -> None:
    """A phone using the API follows its table through the live poll too, signed in by its `Authorization`
    header (a token, as the API takes it) instead of a session. Read only when the poll needs to know who asks (a
    private table, or a body to render), so the poll of an unchanged public table stays one query; a wrong token
    counts as no token."""
    if not request.META.get("HTTP_AUTHORIZATION", "").startswith(("Token ", "Bearer ")):
        return
    from rest_framework.exceptions import APIException

    from shitenno_site.tokens.authentication import AccessTokenAuthentication

    page_user = request.user

    def user():
        if page_user.is_authenticated:
            return page_user
        try:
            found = AccessTokenAuthentication().authenticate(request)
        except APIException:
            found = None
        return found[0] if found else page_user

    request.user = SimpleLazyObject(user)


@require_safe
def table_live(request: HttpRequest, code: str) -> HttpResponse:
    """The poll: 204 (one cheap query) while the table has not moved nor been rebuilt, else the fresh table body. A
    changed table's body is usually rendered already (by the mover's answer or another phone's poll): it is found
    from the head and one query for whether this viewer may write, without loading the table, its seats and state.
    A public table that has not moved is answered from its version in the shared cache alone (games.heads)."""
    if heads.public_unchanged(code, request.GET.get("seq"), request.GET.get("v", "0")):
        return HttpResponse(status=204)
    _with_api_token(request)
    head = selectors.session_head(code=code, viewer=request.user)
    if head is None:
        return HttpResponse(status=404)
    if str(head.head_seq) == request.GET.get("seq") and str(head.rebuilds) == request.GET.get("v", "0"):
        return HttpResponse(status=204)
    if request.htmx and not _personal_view(request, head.game):
        names = [_table_body_name(code, head.head_seq, head.rebuilds, can_write) for can_write in (False, True)]
        bodies = cache.get_many(names)  # who may write is asked only when there is a body to choose from
        if bodies:
            body = bodies.get(names[selectors.head_can_write(head, request.user)])
            if body is not None:
                return HttpResponse(_personal_body(body, request))
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return _render_table(request, session)


def _seq(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("seq", ""))
    except ValueError:
        return -1


def _write(request: HttpRequest, session: TableSession, write) -> HttpResponse:
    """Run a write (returning services.Recorded) and translate its errors: 400 with the reason and what was
    entered, 409 with the new state, 403 when the user may not write here."""
    entered = {key: request.POST.getlist(key) for key in request.POST}
    try:
        recorded = write()
    except MoveError as exc:
        error = get_game(session.game).say_error(exc, session.state)
        return _render_table(
            request,
            session,
            status=400,
            error=error,
            entered=entered,
            error_form=request.POST.get("type", ""),
            error_field=getattr(exc, "field", ""),
        )
    except Conflict as exc:
        selectors.session_reload(session)
        if "settled" in exc.payload:  # the page's notice says it, as the refusal: not a second time above it
            return _render_table(request, session, status=409, settled_refusal=exc.message)
        return _render_table(request, session, status=409, notice=exc.message + " " + _("Here is the table now."))
    except PermissionDenied as exc:
        return _render_table(request, session, status=403, notice=str(exc))
    except KeyReused as exc:
        return _render_table(request, session, status=422, notice=exc.message)
    if not request.htmx:
        return redirect(session)
    selectors.session_written(session, recorded.session)  # the table as written, not read again
    return _render_table(request, session)


@require_POST
def table_move(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)

    def write() -> services.Recorded:
        if session.entry == TableSession.Entry.FINAL_COUNT:
            raise services.game_over(session)
        move = get_game(session.game).move_from_post(session.state, request.POST)
        return services.move_record(
            session=session,
            seq=_seq(request),
            move=move,
            user=request.user,
            idempotency_key=idempotency_key(request.POST.get("key")),
            same_move_on_replay=False,
        )

    return _write(request, session, write)


@require_POST
def table_undo(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return _write(
        request,
        session,
        lambda: services.move_undo(
            session=session,
            seq=_seq(request),
            user=request.user,
            idempotency_key=idempotency_key(request.POST.get("key")),
        ),
    )


HISTORY_PAGE = 30  # a phone's screenful or two; each part costs what the first did


# What a history row shows of an entry: not its move (the payload, JSON read for nothing) nor its enterer's account
# beyond his name: the name others see him by, his player's (the user's `player`, by name, games/people.py), with
# the username for an account that has no player yet.
_HISTORY_FIELDS = (
    "id",
    "session_id",
    "seq",
    "kind",
    "description",
    "phrase",
    "created_at",
    "entered_by__username",
    "entered_by__player__name",
)


@require_safe
def table_history(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    # a part of the log without counting it (one entry more says whether another part follows): a long log cost
    # its count on every part
    page = LookaheadPage(
        session.events.select_related("entered_by__player").only(*_HISTORY_FIELDS).order_by("seq"),
        request.GET.get("page"),
        HISTORY_PAGE,
    )
    events = list(page.object_list)
    undone = selectors.undone_among(session, events)
    rows = [{"event": e, "undone": e.seq in undone, "is_undo": e.kind == MoveEvent.Kind.UNDO} for e in events]
    if request.htmx and "page" in request.GET:  # "show more": the next entries only
        template = "games/partials/history_rows.html"
    else:
        template = "games/partials/history.html" if request.htmx else "games/history.html"
    return render(request, template, {"session": session, "rows": rows, "page": page, "game": get_game(session.game)})


# --- the final-count calculator -------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def final_count(request: HttpRequest, game: str = "") -> HttpResponse:
    """A game's final-count calculator (the first game that has one when none is named)."""
    if game:
        adapter = _game_or_404(game)
    else:
        adapter = next((g for g in all_games() if g.final_count_form_class), None)
    if adapter is None or adapter.final_count_form_class is None:
        raise Http404(_("This game has no final-count calculator."))
    form = adapter.final_count_form_class(request.POST or None)
    outcome, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                end = form.end()
                result = services.final_count(game=adapter.slug, end=end).to_json()
            except MoveError as exc:
                form.add_error(None, adapter.say_error(exc))
            else:
                names = [_("Seat %(n)d") % {"n": i + 1} for i in range(len(result["placings"]))]
                outcome, status = adapter.outcome_context(result, names, {"final_count": end}), 200
    return render(
        request, adapter.final_count_template, {"form": form, "outcome": outcome, "game": adapter}, status=status
    )


# --- a game's page: statistics from the move logs (issue 5) ---------------------------------------------


@require_safe
def game_stats(request: HttpRequest, game: str) -> HttpResponse:
    """A game's statistics page, e.g. Shitennō's win rates by general, starting title and seat."""
    adapter = _game_or_404(game)
    if adapter.stats_template is None:
        raise Http404(_("This game has no statistics page."))
    tally = selectors.game_stats_tally(game=adapter.slug, viewer=request.user)
    context = adapter.stats_context(adapter.stats_present(tally))
    return render(
        request, adapter.stats_template, {"game": adapter, **context, "balance": balance_stats.present(adapter, tally)}
    )
