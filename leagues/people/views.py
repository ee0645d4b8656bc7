"""The players' pages and signing up: the list, a player's page with its statistics, adding a guest, inviting
a guest's person and claiming. Thin adapters that check access and call one service."""

import logging

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues.common import selectors
from leagues.common.access import (
    guest_claim_link_allowed,
)
from leagues.common.forms import GuestForm, SignUpForm, apply_service_errors
from leagues.models import Player
from leagues.people import player_record, players, verification
from leagues.people.account_views import too_many
from leagues.people.player_page import player_page_stats
from leagues.rating import display as rating_display
from shitenno_site import rate_limits
from shitenno_site.errors import Conflict, TooMany
from shitenno_site.validation import next_page, query_text

logger = logging.getLogger(__name__)


@require_http_methods(["GET", "HEAD", "POST"])
def sign_up(request: HttpRequest) -> HttpResponse:
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:  # a sign-up mails its address (the verification link): limited per address and per client
            rate_limits.check(
                rate_limits.SIGN_UP, ip=rate_limits.client_ip(request), address=form.cleaned_data["email"]
            )
        except rate_limits.Limited as limited:
            return too_many(request, limited)
        user = players.user_sign_up(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        try:
            verification.send_link(user)
        except Exception:  # noqa: BLE001 (the mail server down: the account stands, the page offers the link again)
            logger.exception("The verification link of user %s was not sent", user.pk)
        messages.success(
            request,
            _(
                "Welcome, %(name)s! We sent a link to %(email)s: open it, and the site may "
                "mail you the notifications you choose."
            )
            % {"name": user.player.name, "email": user.email},
        )
        return redirect(next_page(request) or "home")
    return render(
        request,
        "registration/sign_up.html",
        {"form": form, "next": next_page(request)},
        status=400 if form.errors else 200,
    )


PLAYERS_PAGE = 50


@require_safe
def player_list(request: HttpRequest) -> HttpResponse:
    search = query_text(request.GET, "q")
    # a page in name order off the index, without counting the players (one more says whether a next page
    # follows), with what a row shows: the name, and whether the player is a guest
    players = selectors.players_list(search=search).select_related(None).only("id", "name", "user_id")
    page = selectors.LookaheadPage(players, request.GET.get("page"), PLAYERS_PAGE)
    template = "leagues/partials/player_rows.html" if request.htmx else "leagues/player_list.html"
    return render(request, template, {"page": page, "q": search})


@require_safe
def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("user", "merged_into"), pk=pk)
    if player.merged_into_id:
        return redirect(player.merged_into)
    context = {"player": player, "claim_url": None}
    if request.user.is_authenticated and player.is_guest and player.claim_token:
        if guest_claim_link_allowed(player, request.user):
            context["claim_url"] = request.build_absolute_uri(reverse("player_claim", args=[player.claim_token]))
    if request.htmx and "opponents" in request.GET:  # "more opponents": the next rows of the head-to-head list
        opponents = selectors.LookaheadPage(
            player_record.head_to_head_rows(player=player, viewer=request.user),
            request.GET.get("opponents"),
            HEAD_TO_HEAD_PAGE,
        )
        return render(
            request,
            "leagues/partials/head_to_head_rows.html",
            {
                "player": player,
                "opponents": opponents,
                "head_to_head": player_record.head_to_head_of(opponents.object_list),
            },
        )
    context.update(_player_extras(request, player))
    return render(request, "leagues/player_detail.html", context)


def _player_extras(request: HttpRequest, player: Player) -> dict:
    """Later capabilities (games, ratings) add to the player page through this one hook."""
    from games.selectors import sessions_for_player

    return {
        "sessions": selectors.listed_sessions(sessions_for_player(player=player, viewer=request.user)),
        **player_stats_context(player, viewer=request.user, opponents_page=request.GET.get("opponents")),
    }


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def guest_create(request: HttpRequest) -> HttpResponse:
    form = GuestForm(request.POST or None, user=request.user, club_slug=request.GET.get("club"))
    if request.method == "POST" and form.is_valid():
        try:
            player = players.player_guest_create(
                name=form.cleaned_data["name"], created_by=request.user, club=form.cleaned_data.get("club")
            )
        except TooMany as exc:  # the hour's guests are added: said above the form
            form.add_error(None, exc.message)
            return render(request, "leagues/guest_form.html", {"form": form}, status=429)
        except ValidationError as exc:  # a name another in the club goes by: said at the field
            apply_service_errors(form, exc)
        else:
            return redirect(player)
    return render(request, "leagues/guest_form.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_POST
def player_invite(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    try:
        players.player_claim_link_create(player=player, user=request.user)
    except Conflict as exc:
        messages.error(request, exc.message)
    return redirect(player)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def player_claim(request: HttpRequest, token: str) -> HttpResponse:
    guest = Player.objects.filter(claim_token=token).first()
    if request.method == "POST":
        try:
            player = players.player_claim(token=token, user=request.user)
        except Conflict as exc:
            return render(request, "leagues/claim.html", {"guest": guest, "error": exc.message}, status=409)
        messages.success(request, _("Welcome to your games, %(name)s.") % {"name": player.name})
        return redirect(player)
    if guest is None:
        error = _("This invite link is not valid any more: it was used or replaced.")
        return render(request, "leagues/claim.html", {"guest": None, "error": error}, status=404)
    return render(request, "leagues/claim.html", {"guest": guest})


RATING_CHART_EVENTS = 200  # the chart draws the latest games' ratings: a line of 1,000 points says no more


HEAD_TO_HEAD_PAGE = 20


RECENT_PLACES = 30  # the bars of the latest counted games


def _game_blocks(stats: dict, game_ratings: list) -> list[dict]:
    """One block per game the player has played (issue 30): its counted record, its own statistics from the
    move-by-move tables and its rating side by side, so no figure of one game sits among another's. Most played
    first; a game with tables but no counted game yet comes after."""
    sections = {s["game"].slug: s for s in stats.get("game_sections", []) if s["stats"].get("tables")}
    ratings = {r.key: r for r in game_ratings}
    blocks = [
        {
            "slug": row["game"],
            "name": row["name"],
            "record": row,
            "section": sections.pop(row["game"], None),
            "rating": ratings.get(row["game"]),
        }
        for row in stats.get("by_game", [])
    ]
    blocks += [
        {"slug": slug, "name": s["game"].name, "record": None, "section": s, "rating": ratings.get(slug)}
        for slug, s in sections.items()
    ]
    return blocks


def player_stats_context(player: Player, *, viewer: AbstractBaseUser, opponents_page: str | None = None) -> dict:
    from leagues.models import RatingScope

    stats, opponents = player_page_stats(
        player=player, viewer=viewer, opponents_page=opponents_page, per_page=HEAD_TO_HEAD_PAGE
    )
    game_ratings = list(
        player.ratings.filter(kind=RatingScope.GAME)
        .order_by("-games")
        .annotate(last_played=selectors.last_played_in_scope(RatingScope.GAME, OuterRef("key")))
    )
    today = timezone.localdate()
    for rating in game_ratings:  # the displayed number, with rust up to today (leagues/rating/display.py)
        rating.shown = rating_display.shown(rating.mu, rating.sigma, rating.games, rating.last_played, today)
    chart = None
    if game_ratings:
        main = game_ratings[0]
        history = selectors.rating_values(player=player, kind=main.kind, key=main.key, last=RATING_CHART_EVENTS)
        chart = {
            "game": main.key,
            "values": [rating_display.displayed(mu) for mu, _sigma in history],
            "band": [
                (
                    rating_display.displayed(mu - rating_display.BAND_Z * sigma),
                    rating_display.displayed(mu + rating_display.BAND_Z * sigma),
                )
                for mu, sigma in history
            ],
        }
    # (place, players at the table) in each recent counted game, oldest first; leagues/people/charts.py draws them.
    places = player_record.recent_places(player=player, viewer=viewer, last=RECENT_PLACES)
    return {
        "stats": stats,
        "opponents": opponents,
        "game_ratings": game_ratings,
        "chart": chart,
        "result_places": places,
        "game_blocks": _game_blocks(stats, game_ratings),
        "not_ranked_publicly": player_record.games_not_ranked_publicly(player=player, viewer=viewer),
    }
