"""Win chances for a table that has not been played yet, or as they stood before one that was: the selector that
reads the players' ratings in a scope and hands them to the rank model (leagues/rating_display.chances).

Other features call `table_chances` (a league night's proposed tables, the new-table confirmation, a finished
game's page); the API's /api/games/<slug>/chances/ is a thin adapter over it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone

from . import rating_display, selectors
from .models import Rating

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass(frozen=True)
class SeatChance:
    player_id: int
    win: float
    expected_place: float
    rating: int  # the displayed number (1500 for a player without a rating in the scope)
    provisional: bool


def table_chances(*, game: str, player_ids: Sequence[int], league_id: int | None = None) -> list[SeatChance]:
    """Each seat's chance to win and expected place, in seat order, from the players' current ratings in the game
    (or in the league, when given); a player without a rating there counts as new (the prior). One query."""
    if not MIN_PLAYERS <= len(player_ids) <= MAX_PLAYERS:
        raise ValueError(f"chances are for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(player_ids)}")
    kind, key = ("league", str(league_id)) if league_id is not None else ("game", game)
    found = {rating.player_id: rating for rating in
             Rating.objects.filter(kind=kind, key=key, player_id__in=list(player_ids))
             .annotate(last_played=selectors.last_played_in_scope())}
    today = timezone.localdate()
    seats = []
    for player_id in player_ids:
        rating = found.get(player_id)
        if rating is None:
            mu, sigma = rating_display.prior()
            seats.append((mu, sigma, rating_display.shown(mu, sigma, 0)))
        else:
            shown = rating_display.shown(rating.mu, rating.sigma, rating.games, rating.last_played, today)
            seats.append((rating.mu, shown.sigma, shown))
    odds = rating_display.chances([(mu, sigma) for mu, sigma, _shown in seats])
    return [SeatChance(player_id=player_id, win=chance.win, expected_place=chance.expected_place,
                       rating=shown.rating, provisional=shown.provisional)
            for player_id, chance, (_mu, _sigma, shown) in zip(player_ids, odds, seats, strict=True)]


def chances_before(*, game: str, entries: Sequence[tuple[int, float, float]]) -> list[float]:
    """The win chances a finished game's players had, from (player id, mu before, sigma before) as its rating
    events stored them: what the game's page says ("alice had a 41% chance")."""
    return [chance.win for chance in rating_display.chances([(mu, sigma) for _player, mu, sigma in entries])]
