"""The new-table page's win chances (issue 29): once the players are chosen, an htmx fragment shows each seat's
chance to win and expected place from the players' ratings (leagues.rating.chances.table_chances), in the league
the table would count in with the chosen club, else in the game, as the table's own page will (issue 50), a guest
or an empty seat counting as a new player (the prior). The page works without it; it only informs."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.engines import UnknownGame
from games.plugins import get_game
from games.registry import registered_slug
from leagues.common.selectors import clubs_of_user
from leagues.rating.chances import MAX_PLAYERS, MIN_PLAYERS, table_chances
from leagues.result.scope import new_table_scope

GUEST_NAME_MAX = 80


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    """A 400 that still reads well where htmx swaps it in: the fragment with the reason, nothing else."""
    return render(request, "games/partials/new_chances.html", {"refused": message}, status=400)


@login_required
@require_GET
def table_new_chances(request: HttpRequest) -> HttpResponse:
    """The chances of the seats the new-table form names (its own GET parameters: game, players_count,
    seat<i>_player, seat<i>_guest). A player the reader may not seat, a player in two seats or a count the game
    does not allow is a 400 naming it; fewer than two named seats is an empty answer."""
    from games.views import seatable_players  # the same players the form offers

    raw_game = request.GET.get("game", "")
    try:
        game = get_game(registered_slug(raw_game) or raw_game)  # its slug or its name (issue 40)
    except UnknownGame:
        return _refused(request, _("No such game."))
    raw_count = request.GET.get("players_count", "").strip()
    high = min(game.engine.max_players, MAX_PLAYERS)
    if raw_count and not (raw_count.isdigit() and 1 <= int(raw_count) <= game.engine.max_players):
        return _refused(
            request,
            _("The number of players is a whole number from %(min)d to %(max)d.")
            % {"min": 1, "max": game.engine.max_players},
        )
    count = int(raw_count) if raw_count else high
    if count < MIN_PLAYERS or count > MAX_PLAYERS:
        return render(request, "games/partials/new_chances.html", {})
    seatable = {str(p.pk): p for p in seatable_players(request.user)}
    seats: list[tuple[Any, str]] = []  # (player or None, name)
    for i in range(count):
        chosen = request.GET.get(f"seat{i}_player", "").strip()
        guest = request.GET.get(f"seat{i}_guest", "").strip()[:GUEST_NAME_MAX]
        if chosen and chosen not in seatable:
            return _refused(request, _("Seat %(n)d: no such player among those you may seat.") % {"n": i + 1})
        player = seatable.get(chosen)
        if player is not None and any(p == player for p, _name in seats):
            return _refused(request, _("%(value)s already has a seat.") % {"value": player.name})
        seats.append((player, player.name if player else guest))
    if not raw_count:  # an older form without a count: the seats up to the last one named
        while seats and not seats[-1][1]:
            seats.pop()
    if sum(1 for _p, name in seats if name) < MIN_PLAYERS or len(seats) < MIN_PLAYERS:
        return render(request, "games/partials/new_chances.html", {})
    scope = new_table_scope(club=_chosen_club(request), game=game.slug, players=[p for p, _name in seats if p])
    odds = table_chances(
        game=game.slug,
        player_ids=[p.pk if p else None for p, _name in seats],
        league_id=int(scope.key) if scope.kind == "league" else None,
    )
    rows = [
        {
            "name": name or _("Seat %(n)d") % {"n": i + 1},
            "guest": player is None,
            "win": chance.win,
            "percent": round(100 * chance.win),
            "expected_place": chance.expected_place,
            "rating": chance.rating,
            "provisional": chance.provisional,
        }
        for i, ((player, name), chance) in enumerate(zip(seats, odds, strict=True))
    ]
    note = {
        "scope": scope.kind,
        "league": scope.league,
        "fallback": scope.fallback,
        "read_together": odds[0].read_together,
    }
    return render(request, "games/partials/new_chances.html", {"seats": rows, "note": note})


def _chosen_club(request: HttpRequest):
    """The club the form names, if it is one of the reader's (the form offers only those; any other is none)."""
    chosen = request.GET.get("club", "").strip()
    if not chosen.isdigit() or len(chosen) > 12:
        return None
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # a visitor (the view asks for a log-in first)
        return None
    return clubs_of_user(user).filter(pk=int(chosen)).first()
