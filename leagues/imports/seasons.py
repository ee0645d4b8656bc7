"""Which season each play of an import goes to, and the seasons the preview offers to create (issue 34).

The preview asks the rule of `leagues.club.seasons` (`season_refusals`: a game its league counts, within its dates;
every player of an import is a member of the club once it is written, matched or added as a guest) of the club's
seasons in league order, as `seasons_adopt` does when the commit has written the results. The plays no season
takes are offered seasons in a league the manager chooses: one per calendar year of plays, covering the year, clipped
where the league already has a season in that year (seasons of a league never overlap).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from leagues.club.seasons import season_refusals

from ..models import Club, League, Season
from .plan import Plan


@dataclass(frozen=True)
class SeasonOffer:
    """A season the commit creates in `league` (its name is the year)."""

    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    plays: int


@dataclass
class Placing:
    """Where the plan's results go: counts per existing season, per offered season, and without one."""

    leagues: list[League]  # the club's leagues that count a game of the seasonless plays: where seasons can go
    league: League | None  # the league the offers are for (None: create none)
    existing: list[tuple[Season, int]] = field(default_factory=list)
    offers: list[SeasonOffer] = field(default_factory=list)
    left_out: Counter = field(default_factory=Counter)  # year -> plays no season takes, offers included
    blocked_years: list[int] = field(default_factory=list)  # years an offer would overlap the league's seasons
    by_result: dict[str, str] = field(default_factory=dict)  # external id -> season name ("" for none)


def _first_season(seasons: Sequence[Season], game: str, played_on: datetime.date) -> Season | None:
    return next((s for s in seasons if not season_refusals(s, game=game, played_on=played_on, players=None)), None)


def _free_spans(
    year: int, spans: Sequence[tuple[datetime.date, datetime.date]]
) -> list[tuple[datetime.date, datetime.date]]:
    """The parts of the calendar year `year` that none of the league's seasons (`spans`) covers, in order."""
    day = datetime.timedelta(days=1)
    cursor, last = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
    free = []
    for start, end in sorted(spans):
        if end < cursor or start > last:
            continue
        if start > cursor:
            free.append((cursor, start - day))
        cursor = max(cursor, end + day)
    if cursor <= last:
        free.append((cursor, last))
    return free


def _offers(league: League, plays: Sequence[tuple[str, datetime.date]]) -> tuple[list[SeasonOffer], list[int]]:
    """A season per year of the plays the league counts, covering the whole year, clipped so that it never
    overlaps a season of the league: a club with plays on three days of 2023 expects a season "2023", not one of
    three days, and a later play of that year then goes into it too. Where the league's seasons split the year,
    each free part with plays is offered ("2023 (1)", "2023 (2)"); a year with plays that no free part holds is
    listed as blocked (those plays are left out)."""
    years: dict[int, list[datetime.date]] = {}
    for game, played_on in plays:
        if game in league.games:
            years.setdefault(played_on.year, []).append(played_on)
    spans = [(s.starts_on, s.ends_on) for s in league.seasons.all()]
    offers, blocked = [], []
    for year, dates in sorted(years.items()):
        parts = [(start, end, sum(start <= d <= end for d in dates)) for start, end in _free_spans(year, spans)]
        parts = [part for part in parts if part[2]]
        for n, (start, end, count) in enumerate(parts, start=1):
            name = str(year) if len(parts) == 1 else f"{year} ({n})"
            offers.append(SeasonOffer(name=name, starts_on=start, ends_on=end, plays=count))
        if sum(count for _start, _end, count in parts) < len(dates):
            blocked.append(year)
    return offers, blocked


def place_plan(club: Club, plan: Plan, league_id: int | None | str = "default") -> Placing:
    """Where each planned result goes. `league_id`: the league to offer seasons in (None: none; "default":
    the only league that counts the seasonless plays' games, if there is exactly one)."""
    seasons = list(Season.objects.filter(league__club=club).select_related("league").order_by("league_id", "starts_on"))
    found: dict[tuple[str, datetime.date], Season | None] = {}
    counts: Counter = Counter()
    seasonless: list[tuple[str, datetime.date, str]] = []
    by_result: dict[str, str] = {}
    for result in plan.results:
        key = (result.game, result.played_on)
        if key not in found:
            found[key] = _first_season(seasons, *key)
        season = found[key]
        if season is None:
            seasonless.append((result.game, result.played_on, result.external_id))
        else:
            counts[season.pk] += 1
            by_result[result.external_id] = f"{season.name} · {season.league.name}"
    games = {game for game, _day, _id in seasonless}
    leagues = [
        league
        for league in League.objects.filter(club=club).prefetch_related("seasons").order_by("pk")
        if games & set(league.games)
    ]
    if league_id == "default":
        league = leagues[0] if len(leagues) == 1 else None
    else:
        league = next((candidate for candidate in leagues if candidate.pk == league_id), None)
    placing = Placing(leagues=leagues, league=league)
    placing.existing = [(s, counts[s.pk]) for s in seasons if counts[s.pk]]
    offered: list[SeasonOffer] = []
    if league is not None:
        offered, placing.blocked_years = _offers(league, [(g, d) for g, d, _id in seasonless])
        placing.offers = offered
    for game, played_on, external_id in seasonless:
        offer = next((o for o in offered if game in league.games and o.starts_on <= played_on <= o.ends_on), None)
        if offer is None:
            placing.left_out[played_on.year] += 1
        else:
            by_result[external_id] = f"{offer.name} · {league.name}"
    placing.by_result = by_result
    return placing
