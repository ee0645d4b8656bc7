"""Writes for leagues and seasons, and the one rule for which season a result belongs to.

Each public function is one transaction; permission is checked here (`access.require_club_manager`).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.registry import one_name
from leagues import standings as standings_maths
from leagues.club.league_edits import league_named, season_overlap_message
from leagues.common import budgets
from leagues.common.access import require_club_manager
from leagues.common.tie_breaks import default_tie_breakers, tie_breaker_refusal
from leagues.models import Club, League, Membership, Player, Season


@transaction.atomic
def league_create(*, club: Club, name: str, games: Sequence[str], user: AbstractBaseUser) -> League:
    """Club managers only. `games` are engine slugs or free-text names of games with no engine; a registered
    game's name is stored as its slug (games.registry.one_name), so "Shitennō" and its slug are one game. A club's
    leagues have different names (whatever the case), so a league named on a page or a result names one league."""
    require_club_manager(club, user)
    name = name.strip()
    games = [one_name(g) for g in games if g.strip()]
    errors = {}
    if not name:
        errors["name"] = _("A league needs a name.")
    if not games:
        errors["games"] = _("Name at least one game.")
    if errors:
        raise ValidationError(errors)
    name = name[:100]
    Club.objects.select_for_update(of=("self",)).values_list("pk", flat=True).get(pk=club.pk)  # one at a time
    budgets.leagues_budget(League.objects.filter(club=club))  # counted under the club's row lock (above)
    if league_named(club_id=club.pk, name=name):  # the one comparison, shared with a league's rename
        raise ValidationError({"name": _("The club has a league named %(name)s already.") % {"name": name}})
    base = slugify(name)[:90] or "league"
    slug, n = base, 2
    while League.objects.filter(club=club, slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return League.objects.create(club=club, name=name, slug=slug, games=list(dict.fromkeys(games)))


@transaction.atomic
def season_create(
    *,
    league: League,
    name: str,
    starts_on: datetime.date,
    ends_on: datetime.date,
    user: AbstractBaseUser,
    points_scheme: str = Season.Scheme.SCORE_3210,
    custom_points: dict | None = None,
    min_games: int = 0,
    tie_breakers: Sequence[str] | None = None,
) -> Season:
    """Club managers only. Seasons of one league may not overlap, so a date names one season."""
    require_club_manager(league.club, user)
    tie_breakers = list(tie_breakers if tie_breakers is not None else default_tie_breakers(league.games))
    custom_points = custom_points or {}
    errors = standings_maths.validate_rules(scheme=points_scheme, custom=custom_points, tie_breakers=tie_breakers)
    errors.update(tie_breaker_refusal(league.games, tie_breakers))
    if not name.strip():
        errors["name"] = _("A season needs a name.")
    if ends_on < starts_on:
        errors["ends_on"] = _("A season cannot end before it starts.")
    if min_games < 0:
        errors["min_games"] = _("Cannot be negative.")
    if errors:
        raise ValidationError(errors)
    tie_breakers = standings_maths.season_tie_breakers(tie_breakers)  # what is stored is what applies
    League.objects.select_for_update(of=("self",)).get(pk=league.pk)
    if overlap := league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).order_by("starts_on").first():
        raise ValidationError({"starts_on": season_overlap_message(overlap)})
    season = Season.objects.create(
        league=league,
        name=name.strip()[:100],
        starts_on=starts_on,
        ends_on=ends_on,
        points_scheme=points_scheme,
        custom_points=custom_points,
        min_games=min_games,
        tie_breakers=tie_breakers,
    )
    seasons_adopt(club=league.club, seasons=[season])
    return season


def seasons_adopt(
    *, club: Club, seasons: Sequence[Season] | None = None, result_ids: Sequence[int] | None = None
) -> int:
    """The one rule for a result that has no season yet (issue 34): a season of its club adopts it when the
    season's league counts its game, its date is within the season's dates and every player is a member of the
    club, as `season_refusals` says for a result entered into a season. The club's seasons are asked in league
    order (as `season_for` does for a finished table), so a result goes to one season only.

    A season created later (`season_create`) adopts the club's earlier results, and an import (which writes its
    results without a season) is adopted by the seasons the club has: the same rule both ways, whichever came
    first. `seasons` (default: all the club's) and `result_ids` (default: all the club's results) narrow it.
    Adopted results that count are folded into their season's table and league's ratings by the usual jobs.
    Returns how many results were adopted; runs in the caller's transaction."""
    from django.db.models import Exists, OuterRef

    from leagues.jobs import outbox
    from leagues.models import RatingScope, Result, ResultEntry

    if seasons is None:
        seasons = Season.objects.filter(league__club=club).select_related("league").order_by("league_id", "starts_on")
    members = Membership.objects.filter(club=club).values("player_id")
    outsider = ResultEntry.objects.filter(result=OuterRef("pk")).exclude(player_id__in=members)
    adopted = 0
    for season in seasons:
        waiting = Result.objects.filter(
            club=club,
            season__isnull=True,
            game__in=season.league.games,
            played_on__gte=season.starts_on,
            played_on__lte=season.ends_on,
        )
        if result_ids is not None:
            waiting = waiting.filter(pk__in=result_ids)
        waiting = waiting.exclude(Exists(outsider))
        counted = list(
            waiting.filter(status=Result.Status.COUNTED).values_list("played_on", flat=True).order_by("played_on")[:1]
        )
        count = waiting.update(season=season)
        adopted += count
        if counted:  # the season's table and the league's ratings take them in from the earliest
            outbox.ask_rate_scope(RatingScope.LEAGUE, str(season.league_id), counted[0])
            outbox.ask_compute_standings(season.pk)
    return adopted


def season_refusals(season: Season, *, game: str, played_on: datetime.date, players: Sequence[Player] | None) -> dict:
    """The one rule for which results a season holds: a game its league counts, played within its dates, by members
    of its club only. Returns the reasons it refuses (field -> message); empty when the season takes the result.
    Entering, correcting and a finished table's result all ask this; a correction that keeps the players passes
    None for them (a player who has left the club since keeps their game)."""
    errors = {}
    game = one_name(game)
    if game not in season.league.games:
        errors["game"] = _("This league does not count %(game)s.") % {"game": game}
    if not season.starts_on <= played_on <= season.ends_on:
        errors["played_on"] = _("The date is outside the season.")
    if players is None:
        return errors
    members = set(Membership.objects.filter(club_id=season.league.club_id).values_list("player_id", flat=True))
    if any(p.pk not in members for p in players):
        errors["entries"] = _("Every player must be a member of the league's club.")
    return errors


def season_for(
    *, club: Club | None, game: str, played_on: datetime.date, players: Sequence[Player], session_id: int | None = None
) -> Season | None:
    """The season a finished table's result goes into. A league night's table: that night's season, always (the
    organiser chose the league by opening the night in it; two leagues of a club may count the same game over
    the same dates, and a game may end after midnight). Any other table: the first league of the table's club (by
    id) with a season that takes it (`season_refusals`); none outside a club."""
    if session_id is not None:
        night_season = Season.objects.filter(nights__rounds__tables__session_id=session_id).order_by().first()
        if night_season is not None:
            return night_season
    if club is None:
        return None
    seasons = (
        Season.objects.filter(league__club=club, starts_on__lte=played_on, ends_on__gte=played_on)
        .select_related("league")
        .order_by("league_id")
    )
    return next((s for s in seasons if not season_refusals(s, game=game, played_on=played_on, players=players)), None)
