"""Table pages: thin views over the services and selectors, full pages plus the htmx fragments they
share (templates/games/partials/). Every form also works as a plain POST that redirects."""

from __future__ import annotations

import uuid

import segno
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.engines.base import MoveError
from games.engines.shitenno.board import (
    BONUS_NAMES,
    GENERALS,
    PROVINCES,
    TITLE_NAMES,
    TROOP_DECK,
    TROOP_NAMES,
    TROOPS,
    card_name,
    ordinal,
)
from leagues.models import Player
from leagues.selectors import clubs_of_user
from leagues.services import player_for_user
from shitenno_site.errors import Conflict
from shitenno_site.validation import idempotency_key

from . import selectors, services
from .forms import COLOURS, FinalCountForm, NewTableForm, move_from_post
from .models import MoveEvent, TableSession

MOVE_TYPES = ("draw", "offer", "accept", "refuse", "split", "choose", "place", "take_card", "end_turn")
TERMINATIONS = {
    "kamon_stock_empty": gettext_lazy("a player placed his last kamon"),
    "koku_deck_exhausted": gettext_lazy("the koku deck ran out"),
    "final_count": gettext_lazy("final count"),
}


# --- new table ------------------------------------------------------------------------------------------


def _seatable_players(user) -> list[Player]:
    """The user, his clubs' members and the players he recently sat with."""
    me = player_for_user(user)
    others = (
        Player.objects.filter(
            Q(memberships__club__memberships__player=me) | Q(seats__session__seats__player=me)
            | Q(created_by=user, user__isnull=True)
        )
        .exclude(pk=me.pk).filter(merged_into__isnull=True).distinct().order_by("name")[:60]
    )
    return [me, *others]


@login_required
@require_http_methods(["GET", "POST"])
def table_new(request: HttpRequest) -> HttpResponse:
    players = _seatable_players(request.user)
    form = NewTableForm(request.POST or None, players=players, clubs=clubs_of_user(request.user),
                        initial={"seat0_player": str(players[0].pk)})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                session = services.table_open(
                    created_by=request.user, seats=data["seats"], gates=data["gates"],
                    deal_titles=data["deal_titles"], club=data["club"], is_public=data["is_public"],
                )
            except MoveError as exc:
                form.add_error(None, exc.message)
            except ValidationError as exc:
                form.add_error(None, exc.messages)
            else:
                return redirect(session)
        status = 400
    return render(request, "games/table_new.html", {"form": form}, status=status)


# --- the table ------------------------------------------------------------------------------------------


def _hand_items(hand: dict) -> tuple[list[dict], list[dict]]:
    """A known hand as tappable cards, each with a form value unique among equal cards."""
    troops = [
        {"value": f"t:{card}:{i}", "name": card_name(card), "troop": card.split("+")[0]}
        for card, n in sorted(hand["troops"].items(), key=lambda kv: list(TROOP_DECK).index(kv[0]))
        for i in range(n)
    ]
    kokus = [{"value": f"k:{v}:{i}", "name": _("Koku %(v)d") % {"v": v}, "v": v} for i, v in enumerate(hand["kokus"])]
    return troops, kokus


def _table_items(cards: dict) -> list[dict]:
    troops = [{"value": f"t:{c}:{i}", "name": card_name(c)} for i, c in enumerate(cards["troops"])]
    kokus = [{"value": f"k:{v}:{i}", "name": _("Koku %(v)d") % {"v": v}} for i, v in enumerate(cards["kokus"])]
    return troops + kokus


def _lot_words(lot: dict) -> str:
    cards = [card_name(c) for c in lot["troops"]] + [_("Koku %(v)d") % {"v": v} for v in lot["kokus"]]
    return _("%(cards)s and the %(tile)s tile") % {
        "cards": ", ".join(cards) or _("no cards"), "tile": TITLE_NAMES[lot["hierarchy"]]}


def _requirement_words(hint: dict) -> str:
    if not hint["position"]:
        return _("full")
    troops = " + ".join(f"{n} {TROOP_NAMES[t]}" for t, n in hint["requirement"].items())
    return _("%(pos)s position (+%(value)d): %(troops)s, or %(cost)d kokus") % {
        "pos": ordinal(hint["position"]), "value": hint["value"], "troops": troops, "cost": hint["koku_cost"]}


def _board_svg(session: TableSession, state: dict, seats: list[dict]) -> list[dict]:
    """Each province as a box of the SVG board: its positions with their kamons."""
    boxes = []
    for n, (slug, province) in enumerate(PROVINCES.items()):
        kamons = state["board"][slug]
        x, y = (n % 2) * 180 + 2, (n // 2) * 92 + 2
        positions = []
        for i, value in enumerate(province.positions):
            kamon = kamons[i] if i < len(kamons) else None
            positions.append({
                "cx": x + 24 + i * 42, "cy": y + 52, "value": value, "number": i + 1,
                "seat": seats[kamon[0]] if kamon else None, "golden": bool(kamon and kamon[1] == "golden"),
            })
        gate = state["gates"][slug]
        boxes.append({
            "slug": slug, "name": province.name, "troop": TROOP_NAMES[province.troop], "x": x, "y": y,
            "positions": positions, "gate": TROOP_NAMES[gate["top"]] if gate["tiles"] else "",
            "tiles_left": gate["tiles"],
        })
    return boxes


def _table_context(request: HttpRequest, session: TableSession, **extra) -> dict:
    seats_qs = list(session.seats.all())  # prefetched with their players by session_for_viewer
    can_write = selectors.session_can_write(session, request.user)
    context: dict = {
        "session": session, "can_write": can_write, "key": uuid.uuid4().hex, "entered": {}, "error": None,
        "notice": None, "province_choice": request.GET.get("province", ""),
    }
    context.update(extra)
    if session.entry == TableSession.Entry.FINAL_COUNT:
        context["outcome"] = _outcome_context(session.outcome, [s.player.name for s in seats_qs],
                                              session.state["final_count"]["generals"])
        return context
    state = session.state
    hint = selectors.session_hint(session)
    favour = selectors.session_favour(session)
    seats = []
    for seat in seats_qs:
        i = seat.position
        colour = seat.colour if seat.colour in COLOURS else list(COLOURS)[i]
        hand = state["hands"][i]
        troops, kokus = _hand_items(hand)
        seats.append({
            "index": i, "name": seat.player.name, "general": GENERALS[state["generals"][i]],
            "colour": colour, "fill": COLOURS[colour][1], "colour_name": COLOURS[colour][0],
            "title": TITLE_NAMES[state["titles"][i]], "stock": state["stock"][i], "favour": favour[i],
            "hand": hand, "troops": troops, "kokus": kokus,
            "reveal_slots": [f"reveal_{n}" for n in range(hand["hidden"])],
            "tiles": [(BONUS_NAMES[b], n) for b, n in hand["tiles"].items() if n],
        })
    context.update(seats=seats, hint=hint, state=state, boxes=_board_svg(session, state, seats),
                   favour_max=max([*favour, 1]))
    mover = hint["to_move"]
    if mover is not None:
        context["mover"] = seats[mover]
    if hint["phase"] == "sharing":
        sharing = state["sharing"]
        context["sharing"] = {
            "tairo": seats[sharing["tairo"]],
            "table": _table_items(sharing["table"]) if sharing["table"] else [],
            "hierarchy": [(t, TITLE_NAMES[t]) for t in sharing["hierarchy"]],
            "offer": sharing["offer"] and {"words": _lot_words(sharing["offer"]), "to": seats[sharing["offer"]["to"]]},
            "split": sharing["split"] and [_lot_words(lot) for lot in sharing["split"]],
            "lots": [(seats[i], TITLE_NAMES[t]) for i, t in enumerate(sharing["lots"]) if t],
            "draw": hint["sharing"]["draw"],
        }
        context["deck_cards"] = [(c, card_name(c)) for c in TROOP_DECK]
    elif hint["phase"] == "provinces":
        context["provinces"] = [
            {"slug": slug, "name": p.name, "hint": hint["provinces"][slug],
             "words": _requirement_words(hint["provinces"][slug])}
            for slug, p in PROVINCES.items()
        ]
        context["golden"] = [
            {"value": f"{g['province']}:{g['position']}",
             "name": f"{PROVINCES[g['province']].name} {ordinal(g['position'])}"}
            for g in hint["turn"]["golden"]
        ]
        context["turn_order"] = [seats[s] for s in state["turn"]["order"]]
    context["troop_choices"] = [(t, TROOP_NAMES[t]) for t in TROOPS]
    context["card_choices"] = [(c, card_name(c)) for c in TROOP_DECK]
    context["bonus_choices"] = list(BONUS_NAMES.items())
    if session.outcome:
        context["outcome"] = _outcome_context(session.outcome, [s["name"] for s in seats], state["generals"])
    context["recent"], context["last_move"] = selectors.session_recent(session)
    return context


def _outcome_context(outcome: dict, names: list[str], generals: list[str]) -> dict:
    breakdown = outcome["details"]["breakdown"]
    rows = []
    for placing in outcome["placings"]:
        row = breakdown[placing["seat"]]
        rows.append({
            **placing, "name": names[placing["seat"]], "general": GENERALS[generals[placing["seat"]]],
            "row": row, "majority_names": [PROVINCES[p].name for p in row["majorities"]],
        })
    majorities = []
    for slug, result in outcome["details"]["majorities"].items():
        winner = result["winner"]
        majorities.append({
            "name": PROVINCES[slug].name,
            "winner": None if winner is None else f"{names[winner]} ({GENERALS[generals[winner]]})",
            "weights": result["weights"], "tiebreak": result["tiebreak"],
        })
    return {"rows": rows, "majorities": majorities, "winner": rows[0],
            "termination": TERMINATIONS.get(outcome["termination"], outcome["termination"])}


_KEY_SLOT, _CSRF_SLOT = "idempotency-key-slot-5e2b", "csrf-token-slot-5e2b"
TABLE_BODY_SECONDS = 600


def _shared_table_body(request: HttpRequest, session: TableSession) -> str:
    """The htmx table body, rendered once per table version, language and writer-or-reader, then shared by
    every phone at the table (the mover's own answer usually renders it, the others' polls reuse it); each
    answer gets its own CSRF token and idempotency key."""
    can_write = selectors.session_can_write(session, request.user)
    name = f"table-body:{session.code}:{session.head_seq}:{int(can_write)}:{get_language()}"
    body = cache.get(name)
    if body is None:
        context = _table_context(request, session, key=_KEY_SLOT, csrf_token=_CSRF_SLOT)
        body = render_to_string("games/partials/table_body.html", context, request)
        cache.set(name, body, TABLE_BODY_SECONDS)
    return body.replace(_KEY_SLOT, uuid.uuid4().hex).replace(_CSRF_SLOT, get_token(request))


def _render_table(request: HttpRequest, session: TableSession, status: int = 200, **extra) -> HttpResponse:
    if request.htmx and status == 200 and not extra and not request.GET.get("province"):
        return HttpResponse(_shared_table_body(request, session))
    context = _table_context(request, session, **extra)
    template = "games/partials/table_body.html" if request.htmx else "games/table.html"
    if not request.htmx:
        join_url = request.build_absolute_uri(session.get_absolute_url())
        context["join_url"] = join_url
        context["qr_svg"] = segno.make(join_url, error="m").svg_inline(
            scale=4, dark="#000", light="#fff", title=_("QR code of the join link"))
    return render(request, template, context, status=status)


def table_detail(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return _render_table(request, session)


def table_live(request: HttpRequest, code: str) -> HttpResponse:
    """The poll: 204 (one cheap query) while the table has not moved, else the fresh table body."""
    head = selectors.session_head(code=code, viewer=request.user)
    if head is None:
        return HttpResponse(status=404)
    if str(head) == request.GET.get("seq"):
        return HttpResponse(status=204)
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return _render_table(request, session)


def _seq(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("seq", ""))
    except ValueError:
        return -1


def _write(request: HttpRequest, session: TableSession, write) -> HttpResponse:
    """Run a write and translate its errors: 400 with the reason and what was entered, 409 with the new
    state, 403 when the user may not write here."""
    entered = {key: request.POST.getlist(key) for key in request.POST}
    try:
        write()
    except MoveError as exc:
        return _render_table(request, session, status=400, error=exc.message, entered=entered,
                             error_form=request.POST.get("type", ""))
    except Conflict as exc:
        selectors.session_reload(session)
        return _render_table(request, session, status=409, notice=_("Someone else moved: here is the table now. ")
                             + exc.message)
    except PermissionDenied as exc:
        return _render_table(request, session, status=403, notice=str(exc))
    if not request.htmx:
        return redirect(session)
    selectors.session_reload(session)
    return _render_table(request, session)


@require_POST
def table_move(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    kind = request.POST.get("type", "")

    def write() -> None:
        if kind not in MOVE_TYPES:
            raise MoveError(_("Unknown move."))
        seat = selectors.session_hint(session)["to_move"]
        move = move_from_post(kind, seat if seat is not None else 0, request.POST)
        services.move_record(session=session, seq=_seq(request), move=move, user=request.user,
                             idempotency_key=idempotency_key(request.POST.get("key")))

    return _write(request, session, write)


@require_POST
def table_undo(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    return _write(request, session, lambda: services.move_undo(
        session=session, seq=_seq(request), user=request.user,
        idempotency_key=idempotency_key(request.POST.get("key"))))


def table_history(request: HttpRequest, code: str) -> HttpResponse:
    session = selectors.session_for_viewer(code=code, viewer=request.user)
    events = list(session.events.select_related("entered_by").order_by("seq"))
    undone = selectors.undone_seqs(events)
    rows = [{"event": e, "undone": e.seq in undone, "is_undo": e.kind == MoveEvent.Kind.UNDO} for e in events]
    template = "games/partials/history.html" if request.htmx else "games/history.html"
    return render(request, template, {"session": session, "rows": rows})


# --- the final-count calculator -------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def final_count(request: HttpRequest) -> HttpResponse:
    form = FinalCountForm(request.POST or None)
    outcome, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                end = form.end()
                result = services.final_count(end=end).to_json()
            except MoveError as exc:
                form.add_error(None, exc.message)
            else:
                names = [_("Seat %(n)d") % {"n": i + 1} for i in range(len(end["generals"]))]
                outcome, status = _outcome_context(result, names, end["generals"]), 200
    return render(request, "games/final_count.html", {"form": form, "outcome": outcome}, status=status)


# --- the game page: statistics from the move logs (issue 5) ---------------------------------------------

FAVOUR_SOURCE_NAMES = {
    "placements": gettext_lazy("Kamon placements"),
    "title_bonus": gettext_lazy("Title bonuses"),
    "majorities": gettext_lazy("Majorities"),
    "kokus": gettext_lazy("Koku"),
    "tiles": gettext_lazy("Bonus tiles"),
}


def game_stats(request: HttpRequest) -> HttpResponse:
    """Shitennō's page: win rates by general, starting title and seat, and where the favour comes from."""
    stats = selectors.shitenno_stats(viewer=request.user)
    for row in stats["by_general"]:
        row["label"] = GENERALS[row["key"]]
    for row in stats["by_title"]:
        row["label"] = TITLE_NAMES[row["key"]]
    for row in stats["by_seat"]:
        row["label"] = _("Seat %(n)d") % {"n": row["key"] + 1}
    for group in ("by_general", "by_title", "by_seat"):
        for row in stats[group]:
            row["percent"] = round(100 * row["win_rate"])
    widest = max((s["average"] for s in stats["favour_sources"]), default=0) or 1
    for source in stats["favour_sources"]:
        source["label"] = FAVOUR_SOURCE_NAMES[source["source"]]
        source["width"] = round(100 * source["average"] / widest)
        source["percent"] = round(100 * source["share"])
    win_rates = [
        {"title": _("Win rate by general"), "heading": _("General"), "rows": stats["by_general"]},
        {"title": _("Win rate by starting title"), "heading": _("Title"), "rows": stats["by_title"]},
        {"title": _("Win rate by seat"), "heading": _("Seat"), "rows": stats["by_seat"]},
    ]
    return render(request, "games/game_stats.html", {"stats": stats, "win_rates": win_rates})
