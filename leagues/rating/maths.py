"""Rating maths: openskill's Plackett-Luce model folded over an ordered list of results.

Pure Python, no Django: the services feed it results in (played_on, id) order and store what it returns.
Every result is rated from its full finishing order, tied players sharing a rank. Because the fold is
deterministic, rating the results one at a time and rating them all again from scratch give the same
numbers, which is what lets a nightly recompute check the incremental updates.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Mapping, MutableSequence, Sequence
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


def plackett_luce(
    before: list[tuple[float, float]], ranks: list[int], model: PlackettLuce = MODEL
) -> list[tuple[float, float]]:
    """openskill's `PlackettLuce.rate` for one-player teams ranked by place, as plain float arithmetic.

    The same operations in the same order as openskill 6.2 (tau added to sigma, teams sorted stably by
    rank, the sums over q, the gamma of sqrt(sigma^2)/c, the kappa floor), without building its rating
    objects or deep-copying them, which is where most of its time goes. Its tie averaging is left out
    because in openskill 6.2 it does nothing, for teams of any size: `_compute` writes each player's new mu
    into the very objects it kept as `original_teams` (`modified_player = original_teams[i][j]`), then
    averages `result[i][0].mu - original_teams[i][0].mu` over the tied teams, which is zero since both name
    the same object. So tied players keep their own, different changes (a strong and a weak player tied for
    first gain different amounts), and that is what openskill's rate() returns and what the site stores.
    tests/leagues/test_ratings.py holds this to openskill's own rate() within 1e-9, and pins the no-op over
    tied games, so an openskill release that makes the averaging work fails there loudly.
    """
    k = len(before)
    order = sorted(range(k), key=ranks.__getitem__)
    tau_squared = model.tau * model.tau
    beta_squared = model.beta**2
    mus = [before[i][0] for i in order]
    sigmas = [math.sqrt(before[i][1] * before[i][1] + tau_squared) for i in order]
    rank = [int(ranks[i]) for i in order]
    sigma_squared = [(sigma * 1.0) ** 2 for sigma in sigmas]
    collective = 0.0
    for variance in sigma_squared:
        collective += variance + beta_squared
    c = math.sqrt(collective)
    strength = [math.exp(mu / c) for mu in mus]
    sum_q = [0.0] * k
    for i in range(k):
        for q in range(k):
            if rank[i] >= rank[q]:
                sum_q[q] += strength[i]
    tied = [rank.count(r) for r in rank]
    after: list[tuple[float, float]] = [(0.0, 0.0)] * k
    for i in range(k):
        omega = 0.0
        delta = 0.0
        for q in range(k):
            share = strength[i] / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / tied[q]
                if q == i:
                    omega += (1 - share) / tied[q]
                else:
                    omega -= share / tied[q]
        omega *= sigma_squared[i] / c
        delta *= sigma_squared[i] / c**2
        delta *= math.sqrt(sigma_squared[i]) / c
        mu, sigma = mus[i], sigmas[i]
        part = sigma**2 / sigma_squared[i]
        mu += part * omega * 1.0 if omega >= 0 else part * omega / 1.0
        sigma *= math.sqrt(max(1 - part * delta * 1.0 if omega >= 0 else 1 - part * delta / 1.0, model.kappa))
        after[order[i]] = (mu, sigma)
    return after


def rate_result(
    result: RatedResult, ratings: Mapping[Hashable, PlayerRating], model: PlackettLuce = MODEL
) -> list[RatingChange]:
    """The changes one result makes. A result with fewer than two players changes nothing."""
    if len(result.ranks) < 2:
        return []
    before = [ratings.get(player, PlayerRating()) for player, _rank in result.ranks]
    rated = plackett_luce([(r.mu, r.sigma) for r in before], [rank for _player, rank in result.ranks], model)
    return [
        RatingChange(result.result_id, player, old.mu, old.sigma, mu, sigma)
        for (player, _rank), old, (mu, sigma) in zip(result.ranks, before, rated, strict=True)
    ]


def fold(
    results: Iterable[RatedResult], ratings: dict[Hashable, PlayerRating], model: PlackettLuce = MODEL
) -> Iterator[RatingChange]:
    """Rate `results` in the order given, updating `ratings` in place; yields each change as it is made,
    so a caller can stream a long history to storage without holding it."""
    for result in results:
        for change in rate_result(result, ratings, model):
            games = ratings.get(change.player, PlayerRating()).games
            ratings[change.player] = PlayerRating(change.mu_after, change.sigma_after, games + 1)
            yield change


def rate_results(
    results: Iterable[RatedResult],
    start: Mapping[Hashable, PlayerRating] | None = None,
    model: PlackettLuce = MODEL,
) -> tuple[dict[Hashable, PlayerRating], list[RatingChange]]:
    """Fold results, in the order given, over the starting ratings; returns final ratings and the history."""
    ratings: dict[Hashable, PlayerRating] = dict(start or {})
    history = list(fold(results, ratings, model))
    return ratings, history


def fold_columns(
    players: Sequence[int],
    ranks: Sequence[int],
    bounds: Sequence[int],
    state: dict[Hashable, list],
    out: tuple[MutableSequence[float], ...],
    model: PlackettLuce = MODEL,
) -> None:
    """`fold` over results held as columns, the form the services read from the database and write back.

    Result n is the entries bounds[n]:bounds[n + 1] of `players` and `ranks`; each must have two or more
    (results with fewer change nothing: leave them out). `state` maps a player to a
    mutable [mu, sigma, games] (missing players start at the defaults and are added); `out` is four float
    columns (mu_before, sigma_before, mu_after, sigma_after), appended to with one value per entry, in entry
    order. The same arithmetic as `plackett_luce`, in the same order: for one-player teams openskill's
    `part` is sigma^2 / sigma^2 = 1.0 exactly, so the mu and sigma updates reduce to mu + omega and
    sigma * sqrt(max(1 - delta, kappa)); results without ties skip the divisions by 1.
    """
    tau_squared = model.tau * model.tau
    beta_squared = model.beta**2
    kappa = model.kappa
    mu0, sigma0 = model.mu, model.sigma
    sqrt, exp = math.sqrt, math.exp
    mu_before, sigma_before, mu_after, sigma_after = (column.append for column in out)
    for n in range(len(bounds) - 1):
        start, end = bounds[n], bounds[n + 1]
        k = end - start
        if k < 2:
            raise ValueError(f"result {n} has {k} entries: only results with two or more are rated")
        # Seat the players (a newcomer at the defaults; a rating is a non-empty list, so `or` only adds the
        # missing) and write their ratings before, for either path below: one loop, not two, keeps the fold
        # under ruff's complexity limit without a function call per result (bench/ratings.py's fold row).
        seated = []
        for j in range(start, end):
            player = players[j]
            rating = state.get(player) or state.setdefault(player, [mu0, sigma0, 0])
            seated.append(rating)
            mu_before(rating[0])
            sigma_before(rating[1])
        rank = list(ranks[start:end])
        strictly = all(rank[i] < rank[i + 1] for i in range(k - 1))
        if not strictly:
            _fold_one_general(seated, rank, model, out)
            continue
        mus = [rating[0] for rating in seated]
        sigmas = [sqrt(rating[1] * rating[1] + tau_squared) for rating in seated]
        variances = [sigma**2 for sigma in sigmas]
        collective = 0.0
        for variance in variances:
            collective += variance + beta_squared
        c = sqrt(collective)
        c_squared = c**2
        strength = [exp(mu / c) for mu in mus]
        sum_q = []
        for q in range(k):
            total = 0.0
            for i in range(q, k):
                total += strength[i]
            sum_q.append(total)
        for i in range(k):
            s = strength[i]
            omega = 0.0
            delta = 0.0
            for q in range(i):
                share = s / sum_q[q]
                delta += share * (1 - share)
                omega -= share
            share = s / sum_q[i]
            delta += share * (1 - share)
            omega += 1 - share
            variance = variances[i]
            omega *= variance / c
            delta *= variance / c_squared
            delta *= sqrt(variance) / c
            rating = seated[i]
            mu = mus[i] + omega
            sigma = sigmas[i] * sqrt(max(1 - delta, kappa))
            mu_after(mu)
            sigma_after(sigma)
            rating[0] = mu
            rating[1] = sigma
            rating[2] += 1


def _fold_one_general(
    seated: list[list], rank: list[int], model: PlackettLuce, out: tuple[MutableSequence[float], ...]
) -> None:
    """One result with ties or unsorted ranks, through `plackett_luce`: appends the ratings after to `out`
    (`fold_columns` has appended the ratings before)."""
    after = plackett_luce([(rating[0], rating[1]) for rating in seated], rank, model)
    for rating, (mu, sigma) in zip(seated, after, strict=True):
        out[2].append(mu)
        out[3].append(sigma)
        rating[0] = mu
        rating[1] = sigma
        rating[2] += 1
