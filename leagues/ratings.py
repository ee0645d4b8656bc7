"""Rating maths: openskill's Plackett-Luce model folded over an ordered list of results.

Pure Python, no Django: the services feed it results in (played_on, id) order and store what it returns.
Every result is rated from its full finishing order, tied players sharing a rank. Because the fold is
deterministic, rating the results one at a time and rating them all again from scratch give the same
numbers, which is what lets a nightly recompute check the incremental updates.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


@dataclass(frozen=True)
class RatedResult:
    """One finished game: who took part and their rank (1 is first; equal ranks are ties)."""

    result_id: int
    ranks: tuple[tuple[Hashable, int], ...]  # (player, rank) pairs


@dataclass(frozen=True)
class PlayerRating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma), the usual leaderboard sort key."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    result_id: int
    player: Hashable
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


def rate_result(
    result: RatedResult, ratings: Mapping[Hashable, PlayerRating], model: PlackettLuce = MODEL
) -> list[RatingChange]:
    """The changes one result makes. A result with fewer than two players changes nothing."""
    if len(result.ranks) < 2:
        return []
    before = [ratings.get(player, PlayerRating()) for player, _rank in result.ranks]
    teams = [[model.create_rating([r.mu, r.sigma])] for r in before]
    rated = model.rate(teams, ranks=[rank for _player, rank in result.ranks])
    return [
        RatingChange(result.result_id, player, old.mu, old.sigma, new[0].mu, new[0].sigma)
        for (player, _rank), old, new in zip(result.ranks, before, rated, strict=True)
    ]


def rate_results(
    results: Iterable[RatedResult],
    start: Mapping[Hashable, PlayerRating] | None = None,
    model: PlackettLuce = MODEL,
) -> tuple[dict[Hashable, PlayerRating], list[RatingChange]]:
    """Fold results, in the order given, over the starting ratings; returns final ratings and the history."""
    ratings: dict[Hashable, PlayerRating] = dict(start or {})
    history: list[RatingChange] = []
    for result in results:
        changes = rate_result(result, ratings, model)
        for change in changes:
            games = ratings.get(change.player, PlayerRating()).games
            ratings[change.player] = PlayerRating(change.mu_after, change.sigma_after, games + 1)
        history.extend(changes)
    return ratings, history
