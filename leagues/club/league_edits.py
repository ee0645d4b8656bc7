"""Editing and deleting leagues and seasons (issue 34): what a club's managers may change once play has begun.

A league's name may always change (to no other league's of the club); a game may be added at any time and taken
out while no result or night of the league is of it. A season's name may always change; its dates and its ranking
rules (points scheme, custom points, tie-breakers, minimum games) only while no result counts in it, since the
table its results made was worked out with them; while results only wait for sign-off, its end may move later and
its rules change once the manager confirms (issue 50), and its start stays, as a waiting result would fall outside
its dates; its dates never leave one of its nights outside. A league or season is deleted only while empty: a
result or a night in it would be lost or orphaned. Each refusal says why and changes nothing.

Each public function is one transaction; permission is checked here (`access.require_club_manager`). The
league's row is locked first, then the season's, the order `seasons.season_create` takes them in. The foreign
keys are checked at commit (Django makes them deferrable), so a result or night being written holds no lock on
its season by itself: `results.result_enter` locks the season's row before it checks the dates, so an edit
waits for a result being entered (and then sees it) or the result waits for the new dates. Writers that do not
lock the season (the import, a finished table's result) can still slip a result in beside a date change.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from leagues import standings as standings_maths
from leagues.common.access import require_club_manager
from leagues.common.audit import audit_record
from leagues.common.tie_breaks import scored_apart, tie_breaker_refusal, without_score_comparisons
from leagues.jobs import outbox
from leagues.models import League, Result, Season
from leagues.nights.models import Night
from shitenno_site.errors import Conflict
from shitenno_site.validation import name_problem

RULE_FIELDS = ("points_scheme", "custom_points", "tie_breakers", "min_games")


def season_overlap_message(other: Season) -> str:
    """Which season a new one's dates overlap, named with its dates: a season an import made for a few days of
    plays is otherwise hard to find."""
    return _("This season overlaps the league's season %(name)s (%(starts)s to %(ends)s).") % {
        "name": other.name,
        "starts": date_format(other.starts_on),
        "ends": date_format(other.ends_on),
    }


def league_named(*, club_id: int, name: str, other_than: League | None = None) -> League | None:
    """The club's league with this name, compared without regard to case or surrounding spaces (two leagues a
    phone shows alike are one name), other than `other_than`; None when the name is free."""
    leagues = League.objects.filter(club_id=club_id, name__iexact=name.strip())
    if other_than is not None:
        leagues = leagues.exclude(pk=other_than.pk)
    return leagues.first()


def _clean_name(name: str, *, missing: str) -> str:
    name = name.strip()
    if not name:
        raise ValidationError({"name": missing})
    problem = name_problem(name)
    if problem:
        raise ValidationError({"name": problem})
    return name[:100]


def _games_in_use(league: League) -> set[str]:
    """The games a result or a night of the league is of: they stay in its list."""
    used = set(Result.objects.filter(season__league=league).values_list("game", flat=True).distinct())
    for games in Night.objects.filter(season__league=league).values_list("games", flat=True):
        used.update(games)
    return used


def _clean_games(league: League, games: Sequence[str]) -> list[str]:
    games = list(dict.fromkeys(g.strip() for g in games if g.strip()))
    if not games:
        raise ValidationError({"games": _("Name at least one game.")})
    dropped = sorted(set(league.games) - set(games))
    kept = sorted(set(dropped) & _games_in_use(league)) if dropped else []
    if kept:
        raise Conflict(
            _("%(games)s cannot leave the league: results or nights of it are in its seasons.")
            % {"games": ", ".join(kept)}
        )
    return games


@transaction.atomic
def league_update(
    *, league: League, user: AbstractBaseUser, name: str | None = None, games: Sequence[str] | None = None
) -> League:
    """Club managers only. Rename the league and change its games; what is not given stays. The slug stays too,
    so links to the league keep working."""
    require_club_manager(league.club, user)
    league = League.objects.select_for_update().select_related("club").get(pk=league.pk)
    before = {"name": league.name, "games": list(league.games)}
    if name is not None:
        name = _clean_name(name, missing=_("A league needs a name."))
        taken = league_named(club_id=league.club_id, name=name, other_than=league)
        if taken is not None:
            raise ValidationError({"name": _("The club has a league called %(name)s already.") % {"name": taken.name}})
        league.name = name
    if games is not None:
        league.games = _clean_games(league, games)
    after = {"name": league.name, "games": league.games}
    if after != before:
        league.save(update_fields=["name", "games"])
        audit_record(
            action="league.update",
            obj=league,
            user=user,
            club=league.club_id,
            details={"before": before, "after": after},
        )
        if scored_apart(league.games):
            _drop_score_comparisons(league, user)
    return league


def _drop_score_comparisons(league: League, user: AbstractBaseUser) -> None:
    """A league that now holds more than one game compares no scores across them (leagues.common.tie_breaks): its
    seasons that broke ties by margin stop, each change audited, and a season with counted results has its
    table re-computed by the standings job."""
    for season in Season.objects.select_for_update().filter(league=league).order_by("pk"):
        kept = without_score_comparisons(season.tie_breakers)
        if kept == season.tie_breakers:
            continue
        before, season.tie_breakers = season.tie_breakers, standings_maths.season_tie_breakers(kept)
        season.save(update_fields=["tie_breakers"])
        audit_record(
            action="season.update",
            obj=season,
            user=user,
            club=league.club_id,
            details={"before": {"tie_breakers": before}, "after": {"tie_breakers": season.tie_breakers}},
        )
        if season.results.filter(status=Result.Status.COUNTED).exists():
            outbox.ask_compute_standings(season.pk)


def _not_empty(*, results: int, nights: int) -> str:
    """Why a league or season cannot be deleted, in words ("" when it can)."""
    parts = []
    if results:
        parts.append(ngettext("%(n)d result", "%(n)d results", results) % {"n": results})
    if nights:
        parts.append(ngettext("%(n)d league night", "%(n)d league nights", nights) % {"n": nights})
    if len(parts) == 2:
        return _("%(results)s and %(nights)s") % {"results": parts[0], "nights": parts[1]}
    return "".join(parts)


def league_delete_refusal(league: League) -> str:
    """Why the league cannot be deleted, in words; "" when it can (the page says so before the tap)."""
    seasons = Season.objects.filter(league=league)
    held = _not_empty(
        results=Result.objects.filter(season__in=seasons).count(),
        nights=Night.objects.filter(season__in=seasons).count(),
    )
    return _("The league cannot be deleted: its seasons hold %(what)s.") % {"what": held} if held else ""


@transaction.atomic
def league_delete(*, league: League, user: AbstractBaseUser) -> None:
    """Club managers only, and only a league whose seasons hold no result and no night (its empty seasons go
    with it)."""
    require_club_manager(league.club, user)
    league = League.objects.select_for_update().get(pk=league.pk)
    seasons = list(Season.objects.select_for_update().filter(league=league).values_list("pk", flat=True))
    refusal = league_delete_refusal(league)
    if refusal:
        raise Conflict(refusal)
    audit_record(
        action="league.delete",
        obj=league,
        user=user,
        club=league.club_id,
        details={"name": league.name, "games": league.games, "seasons": len(seasons)},
    )
    league.delete()


def _rules_given(season: Season, rules: dict) -> dict:
    """The season's ranking rules as they would be stored, from those given (the rest as they are)."""
    scheme = rules.get("points_scheme") if rules.get("points_scheme") is not None else season.points_scheme
    custom = rules.get("custom_points") if rules.get("custom_points") is not None else season.custom_points
    tie_breakers = rules.get("tie_breakers") if rules.get("tie_breakers") is not None else season.tie_breakers
    min_games = rules.get("min_games") if rules.get("min_games") is not None else season.min_games
    if scheme != Season.Scheme.CUSTOM:
        custom = {}
    errors = standings_maths.validate_rules(scheme=scheme, custom=custom, tie_breakers=list(tie_breakers))
    if standings_maths.season_tie_breakers(tie_breakers) != season.tie_breakers:  # stored ones are not refused
        errors.update(tie_breaker_refusal(season.league.games, list(tie_breakers)))
    if min_games < 0:
        errors["min_games"] = _("Cannot be negative.")
    if errors:
        raise ValidationError(errors)
    return {
        "points_scheme": scheme,
        "custom_points": custom,
        "tie_breakers": standings_maths.season_tie_breakers(tie_breakers),
        "min_games": min_games,
    }


def _check_dates(season: Season, starts_on: datetime.date, ends_on: datetime.date) -> None:
    if ends_on < starts_on:
        raise ValidationError({"ends_on": _("A season cannot end before it starts.")})
    others = Season.objects.filter(league_id=season.league_id, starts_on__lte=ends_on, ends_on__gte=starts_on)
    if overlap := others.exclude(pk=season.pk).order_by("starts_on").first():
        raise ValidationError({"starts_on": season_overlap_message(overlap)})
    outside = season.nights.exclude(date__range=(starts_on, ends_on)).order_by("date").first()
    if outside is not None:
        raise Conflict(
            _("A league night of this season is on %(date)s, outside those dates.") % {"date": outside.date.isoformat()}
        )


@transaction.atomic
def season_update(
    *,
    season: Season,
    user: AbstractBaseUser,
    name: str | None = None,
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    confirm: bool = False,
    **rules: object,
) -> Season:
    """Club managers only. Change what is given (name, dates, `RULE_FIELDS`); the rest stays. Giving a field
    unchanged is no change.

    Dates and rules are fixed once a result of the season counts: its table was worked out with them (issue 34).
    Before that (issue 50), a season whose results all wait for sign-off may still end later and change its
    points, as a club that runs longer than planned needs: the waiting results stay inside its dates and will count
    under the new rules, so the manager confirms (`confirm`; without it a 409 says so and nothing changes) and the
    standings job re-computes the table. Its start, and an earlier end, stay while any result is in it: a waiting
    result would fall outside."""
    unknown = set(rules) - set(RULE_FIELDS)
    if unknown:
        raise TypeError(f"season_update() got unexpected fields {sorted(unknown)}")
    require_club_manager(season.league.club, user)
    League.objects.select_for_update().get(pk=season.league_id)
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    wanted = {
        "name": _clean_name(name, missing=_("A season needs a name.")) if name is not None else season.name,
        "starts_on": starts_on or season.starts_on,
        "ends_on": ends_on or season.ends_on,
        **_rules_given(season, rules),
    }
    changed = {field: value for field, value in wanted.items() if getattr(season, field) != value}
    fixed = sorted(set(changed) - {"name"})
    waiting = _refuse_fixed(season, fixed, wanted, confirm) if fixed else 0
    if not changed:
        return season
    before = {field: _json(getattr(season, field)) for field in changed}
    for field, value in changed.items():
        setattr(season, field, value)
    season.save(update_fields=list(changed))
    audit_record(
        action="season.update",
        obj=season,
        user=user,
        club=season.league.club_id,
        details={
            "before": before,
            "after": {field: _json(value) for field, value in changed.items()},
            **({"waiting_results": waiting} if waiting else {}),
        },
    )
    if waiting:
        outbox.ask_compute_standings(season.pk)
    return season


def _refuse_fixed(season: Season, fixed: list[str], wanted: dict, confirm: bool) -> int:
    """Refuse a change of `fixed` dates or rules that the season's results forbid (see season_update); else the
    number of results waiting for sign-off that the change will apply to.

    The waiting results' rows are locked first: a sign-off counting one of them holds its row, so the change waits
    for it and then reads it as counted (and refuses), and a sign-off coming after waits for the change and counts
    under the new rules, which the manager confirmed for it. Only waiting rows: a counted one refuses anyway."""
    list(season.results.exclude(status=Result.Status.COUNTED).select_for_update(of=("self",)).values_list("pk"))
    counted = season.results.filter(status=Result.Status.COUNTED).count()
    if counted:
        raise Conflict(
            ngettext(
                "%(n)d result counts in this season already: its dates and points stay as they are.",
                "%(n)d results count in this season already: its dates and points stay as they are.",
                counted,
            )
            % {"n": counted},
            payload={"fields": fixed},
        )
    waiting = season.results.count()
    if waiting:
        moved = [f for f in fixed if f == "starts_on" or (f == "ends_on" and wanted["ends_on"] < season.ends_on)]
        if moved:
            raise Conflict(
                ngettext(
                    "%(n)d result waits for sign-off in this season: its start stays, and its end may only move later.",
                    "%(n)d results wait for sign-off in this season: its start stays, and its end may only move later.",
                    waiting,
                )
                % {"n": waiting},
                payload={"fields": moved},
            )
        if not confirm:
            raise Conflict(
                ngettext(
                    "%(n)d result waits for sign-off in this season and will count under the new dates and points: "
                    "confirm the change.",
                    "%(n)d results wait for sign-off in this season and will count under the new dates and points: "
                    "confirm the change.",
                    waiting,
                )
                % {"n": waiting},
                payload={"fields": fixed, "confirm": True},
            )
    _check_dates(season, wanted["starts_on"], wanted["ends_on"])
    return waiting


def season_usage(season: Season) -> dict[str, int]:
    """How many results (and of them counted) and nights the season holds: the page says what stays fixed."""
    return {
        "results": season.results.count(),
        "counted": season.results.filter(status=Result.Status.COUNTED).count(),
        "nights": season.nights.count(),
    }


def _json(value: object) -> object:
    return value.isoformat() if isinstance(value, datetime.date) else value


def season_delete_refusal(season: Season) -> str:
    """Why the season cannot be deleted, in words; "" when it can."""
    usage = season_usage(season)
    held = _not_empty(results=usage["results"], nights=usage["nights"])
    return _("The season cannot be deleted: it holds %(what)s.") % {"what": held} if held else ""


@transaction.atomic
def season_delete(*, season: Season, user: AbstractBaseUser) -> None:
    """Club managers only, and only a season with no result and no night."""
    require_club_manager(season.league.club, user)
    League.objects.select_for_update().get(pk=season.league_id)
    season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
    refusal = season_delete_refusal(season)
    if refusal:
        raise Conflict(refusal)
    audit_record(
        action="season.delete",
        obj=season,
        user=user,
        club=season.league.club_id,
        details={
            "league": season.league.name,
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
        },
    )
    season.delete()
