"""Win chances for a table that has not been played yet, or as they stood before one that was: the selector that
reads the players' ratings in a scope and hands them to the rank model (leagues/rating_display.chances).

Other features call `table_chances` (the new-table confirmation, a finished game's page) or `tables_chances` (a
league night's proposed round: every table in one query); the API's /api/games/<slug>/chances/ is a thin adapter
over it.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

from games.registry import one_name
from leagues.common import selectors
from leagues.models import Rating
from leagues.rating import display as rating_display

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class SeatChance:
    player_id: int | None  # None: a guest, or a seat nobody is named for yet (the prior)
    win: float
    expected_place: float
    rating: int  # the displayed number (1500 for a player without a rating in the scope)
    provisional: bool
    read_together: bool = False  # from the scope's posterior skills (its latest games read together), not ratings
    scope: str = "game"  # the scope read: "league" (a league's table) or "game" (the game's, or a league's fallback)


def table_chances(*, game: str, player_ids: Sequence[int | None], league_id: int | None = None) -> list[SeatChance]:
    """Each seat's chance to win and expected place, in seat order, from the players' current ratings in the game
    (or in the league, when given); a player without a rating there, or a seat without a player (None: a guest),
    counts as new (the prior). The game is its slug or its name (games.registry.one_name). One query."""
    _check_size(player_ids)
    kind, key = ("league", str(league_id)) if league_id is not None else ("game", one_name(game))
    found = {rating.player_id: rating for rating in _scope_ratings(kind, key, player_ids)}
    return _seat_chances(player_ids, found, timezone.localdate(), kind)


def tables_chances(
    tables: Sequence[tuple[str, Sequence[int | None]]], *, league_id: int | None = None
) -> list[list[SeatChance] | None]:
    """`table_chances` for many tables at once (a league night's proposed round), in a constant number of queries
    however many tables: one in each game's scope. In a league (`league_id`: the night's), the tables read the
    league's scope, where their result will count (issue 50 finding 1: the round showed "25% to win, 1500?" for
    players the league page rated 1347-1623); a table where nobody has a rating in the league yet reads its game's
    instead (SeatChance.scope says which; a second query, for those tables only). A table of a size the chances do
    not cover gets None."""
    today = timezone.localdate()
    league: dict[int, Rating] = {}
    if league_id is not None:
        seated = {p for _game, ids in tables for p in ids if p is not None}
        league = (
            {rating.player_id: rating for rating in _scope_ratings("league", str(league_id), seated)} if seated else {}
        )
    from_game = [(game, ids) for game, ids in tables if not any(p in league for p in ids)]
    found: dict[tuple[str, int], Rating] = {}
    wanted = {(game, p) for game, ids in from_game for p in ids if p is not None}
    if wanted:
        games = {g for g, _p in wanted}
        ratings = Rating.objects.filter(kind="game", key__in=games, player_id__in={p for _g, p in wanted}).annotate(
            last_played=selectors.last_played_in_scope("game", games),
            performance_sd=selectors.scope_performance_sd(),
            skill_sd=selectors.scope_skill_sd(),
        )
        found = {(rating.key, rating.player_id): rating for rating in ratings}
    answers: list[list[SeatChance] | None] = []
    for game, ids in tables:
        if not _covered(ids):
            answers.append(None)
        elif any(p in league for p in ids):
            answers.append(_seat_chances(ids, {p: league[p] for p in ids if p in league}, today, "league"))
        else:
            answers.append(_seat_chances(ids, {p: found[(game, p)] for p in ids if (game, p) in found}, today, "game"))
    return answers


def _scope_ratings(kind: str, key: str, player_ids) -> QuerySet[Rating]:
    """The ratings of those players in one scope, with what the chances read beside each (its latest game's day,
    the scope's spreads) as columns of the same query; the scope is literal, so one partition is planned."""
    return Rating.objects.filter(kind=kind, key=key, player_id__in=[p for p in player_ids if p is not None]).annotate(
        last_played=selectors.last_played_in_scope(kind, key),
        performance_sd=selectors.scope_performance_sd(kind, key),
        skill_sd=selectors.scope_skill_sd(kind, key),
    )


def _covered(player_ids: Sequence[int | None]) -> bool:
    return MIN_PLAYERS <= len(player_ids) <= MAX_PLAYERS


def _check_size(player_ids: Sequence[int | None]) -> None:
    if not _covered(player_ids):
        raise ValueError(f"chances are for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(player_ids)}")


def _seat_chances(player_ids: Sequence[int | None], found: dict, today: datetime.date, kind: str) -> list[SeatChance]:
    """The chances over the seats, from the ratings found (keyed by player); the rest are new. The scope's
    figures come with each rating found: from its posterior skills when its latest games gave one, else from the
    ratings with its own performance spread (none found: every seat is new, and any model gives them equal
    chances)."""
    seats = []
    for player_id in player_ids:
        rating = found.get(player_id)
        if rating is None:
            mu, sigma = rating_display.prior()
            seats.append((mu, sigma, rating_display.shown(mu, sigma, 0)))
        else:
            shown = rating_display.shown(rating.mu, rating.sigma, rating.games, rating.last_played, today)
            seats.append((rating.mu, shown.sigma, shown))
    scope = next(iter(found.values()), None)
    read_together = scope is not None and scope.skill_sd is not None
    if read_together:
        odds = rating_display.posterior_chances(
            [_posterior_seat(found.get(player_id), scope.skill_sd, today) for player_id in player_ids], scope.skill_sd
        )
    else:
        odds = rating_display.chances(
            [(mu, sigma) for mu, sigma, _shown in seats], scope.performance_sd if scope is not None else None
        )
    return [
        SeatChance(
            player_id=player_id,
            win=chance.win,
            expected_place=chance.expected_place,
            rating=shown.rating,
            provisional=shown.provisional,
            read_together=read_together,
            scope=kind,
        )
        for player_id, chance, (_mu, _sigma, shown) in zip(player_ids, odds, seats, strict=True)
    ]


def _posterior_seat(rating, spread: float, today: datetime.date) -> tuple[float, float] | None:
    """A rating's posterior skill (mean, sd after rust), None for a player the scope's latest games do not know."""
    if rating is None or rating.chance_mean is None:
        return None
    return rating.chance_mean, rating_display.rusted_skill_sd(rating.chance_sd, spread, rating.last_played, today)


@dataclass(frozen=True)
class SeatLine:
    """A seat on the table's page: who, his displayed rating and his chance to win (as it stood before the game,
    for a rated finished table; from the current ratings otherwise)."""

    name: str
    rating: int
    provisional: bool
    win: float
    expected_place: float


def seat_chances(session) -> dict | None:
    """The table page's ratings and chances, from seats read with for_games.seats_rated (no query); None
    for seats read without them, or fewer than 2 or more than 5 seats. `before` says the chances are those the
    players had before the finished game ("alice had a 41% chance"): those its page showed when the game ended,
    kept on its result (`kept`), or for a result kept before those were, read from the ratings each had before
    it; the rest from the game's posterior skills when it has
    one (docs/ratings.md); `read_together` says which, for the note under them, and `scope`, `league` and
    `fallback` which ratings (a league table's league's, or its game's while nobody at it has a league rating)."""
    seats = list(session.seats.all())
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS or not all(hasattr(seat, "rating_mu") for seat in seats):
        return None
    today = timezone.localdate()
    kept = all(getattr(seat, "shown_win", None) is not None for seat in seats)
    before = kept or all(seat.before_mu is not None for seat in seats)
    shown, model, skills = [], [], []
    for seat in seats:
        if seat.rating_mu is None:
            mu, sigma = rating_display.prior()
            current = rating_display.shown(mu, sigma, 0)
            skills.append(None)
        else:
            current = rating_display.shown(
                seat.rating_mu, seat.rating_sigma, seat.rating_games, seat.rating_last_played, today
            )
            mu, sigma = seat.rating_mu, current.sigma
            skills.append(
                None
                if seat.rating_chance_mean is None
                else (
                    seat.rating_chance_mean,
                    rating_display.rusted_skill_sd(
                        seat.rating_chance_sd, seat.rating_skill_sd or 0.0, seat.rating_last_played, today
                    ),
                )
            )
        if before:
            mu, sigma = seat.before_mu, seat.before_sigma
        shown.append(current)
        model.append((mu, sigma))
    spread = seats[0].rating_skill_sd
    if kept:  # what the table showed when its game ended, kept on its result (issue 50 finding 5)
        odds = [rating_display.Chance(win=seat.shown_win, expected_place=seat.shown_place) for seat in seats]
    elif before or spread is None:  # an older finished table's chances before it: from the ratings of that day
        odds = rating_display.chances(model, next((seat.rating_performance_sd for seat in seats), None))
    else:
        odds = rating_display.posterior_chances(skills, spread)
    first = seats[0]
    return {
        "before": before,
        "kept": kept,
        "read_together": not before and spread is not None,
        "scope": getattr(first, "chance_scope", "game"),
        "league": getattr(first, "chance_league", ""),
        "fallback": getattr(first, "chance_fallback", False),
        "seats": [
            SeatLine(
                name=seat.player.name,
                rating=now.rating,
                provisional=now.provisional,
                win=chance.win,
                expected_place=chance.expected_place,
            )
            for seat, now, chance in zip(seats, shown, odds, strict=True)
        ],
    }
