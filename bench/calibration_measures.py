"""calibration.py's measures: the true chances and places of players whose skills are known (performance = skill
+ N(0, 1), on a tabulated normal: no scipy here), openskill's predict_win as plain floats, and the figures a
prediction is scored by (the best sharpening exponent, the calibration error, the expected Brier score), and
the site's posterior skills as its rating job fits and stores them."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import numpy as np

from leagues.rating import posterior
from leagues.rating.display import FIT_MAX_GAMES
from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, MODEL

SIZES = (2, 3, 4, 5)  # the table sizes the clubs play and are checked at

_GRID = np.linspace(-12.0, 12.0, 4801)  # the standard normal's cdf, tabulated once (no scipy here)
_PDF = np.exp(-(_GRID**2) / 2) / math.sqrt(2 * math.pi)
_CDF = np.concatenate(([0.0], np.cumsum((_PDF[1:] + _PDF[:-1]) / 2 * np.diff(_GRID))))


def normal_cdf(x: np.ndarray) -> np.ndarray:
    return np.interp(x, _GRID, _CDF, left=0.0, right=1.0)


def true_chances(skills: Sequence[float]) -> list[float]:
    """P(seat i performs best) when performance = skill + N(0, 1): ∫ φ(x − s_i) Π_{j≠i} Φ(x − s_j) dx."""
    s = np.asarray(skills, dtype=float)
    x = np.linspace(s.min() - 9, s.max() + 9, 1801)
    cdf = normal_cdf(x[None, :] - s[:, None])
    pdf = np.exp(-((x[None, :] - s[:, None]) ** 2) / 2) / math.sqrt(2 * math.pi)
    wins = []
    for i in range(len(s)):
        others = np.prod(np.delete(cdf, i, axis=0), axis=0)
        wins.append(float(np.trapezoid(pdf[i] * others, x)))
    total = sum(wins)
    return [w / total for w in wins]


def true_places(skills: Sequence[float]) -> list[float]:
    """Expected place when performance = skill + N(0, 1): 1 + Σ_{j≠i} P(j beats i) = 1 + Σ Φ((s_j − s_i)/√2)."""
    return [
        1 + sum(math.erfc((si - sj) / 2) / 2 for j, sj in enumerate(skills) if j != i) for i, si in enumerate(skills)
    ]


def predict_win(ratings: Sequence[tuple[float, float]]) -> list[float]:
    """openskill 6.2's PlackettLuce.predict_win for one-player teams, as plain floats: each player's mean pairwise
    chance Φ((mu_a − mu_b) / sqrt(2 beta² + sigma_a² + sigma_b²)) over his opponents, normalised."""
    beta2 = MODEL.beta**2
    n = len(ratings)
    raw = [
        sum(
            math.erfc(-(ma - mb) / math.sqrt(2 * (2 * beta2 + sa * sa + sb * sb))) / 2
            for j, (mb, sb) in enumerate(ratings)
            if j != i
        )
        / (n - 1)
        for i, (ma, sa) in enumerate(ratings)
    ]
    total = sum(raw)
    return [r / total for r in raw]


def check_predict_win(sizes: Sequence[int]) -> None:
    """The copy above answers what openskill's own predict_win answers (to 1e-9)."""
    rng = random.Random(1)
    for n in sizes:
        ratings = [(rng.uniform(10, 40), rng.uniform(1, 8)) for _ in range(n)]
        theirs = MODEL.predict_win([[MODEL.rating(mu=m, sigma=s)] for m, s in ratings])
        assert max(abs(a - b) for a, b in zip(theirs, predict_win(ratings), strict=True)) < 1e-9


def best_exponent(
    groups: Sequence[tuple[np.ndarray, np.ndarray]], low: float = 0.05, high: float = 5.0, steps: int = 80
) -> float:
    """The a minimising the cross-entropy of the truth against p^a / Σ p^a, summed over `groups` of (predicted,
    truth) arrays, one row a table (a group a table size): convex in a, so a ternary search."""
    logs = [(np.log(np.clip(predicted, 1e-12, 1.0)), truth) for predicted, truth in groups]

    def loss(a: float) -> float:
        total = 0.0
        for log_p, truth in logs:
            scaled = a * log_p
            top = scaled.max(axis=1, keepdims=True)
            log_norm = top[:, 0] + np.log(np.exp(scaled - top).sum(axis=1))
            total -= float((truth * (scaled - log_norm[:, None])).sum())
        return total

    for _ in range(steps):
        a, b = low + (high - low) / 3, high - (high - low) / 3
        if loss(a) < loss(b):
            high = b
        else:
            low = a
    return (low + high) / 2


def calibration_error(predicted: np.ndarray, truth: np.ndarray, bins: int = 10) -> float:
    """Σ over bins of predicted chance of (share of seats) × |mean predicted − mean true chance|."""
    p, q = predicted.ravel(), truth.ravel()
    which = np.minimum((p * bins).astype(int), bins - 1)
    error = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            error += inside.sum() / p.size * abs(p[inside].mean() - q[inside].mean())
    return float(error)


def expected_brier(predicted: np.ndarray, truth: np.ndarray) -> float:
    """The mean over tables of E[Σ_i (p_i − won_i)²] when seat i wins with its true chance q_i."""
    return float((predicted**2 - 2 * predicted * truth + truth).sum(axis=1).mean())


def site_posterior(window: list) -> posterior.Skills | None:
    """The club's posterior skills as the site's rating job fits them (leagues.rating.store._write_fit): its
    latest games (`window`: (player, mu before, sigma before, rank) seats, oldest first), each player's mu − 25 at
    the window's start as his prior."""
    before: dict = {}
    first: set = set()
    for game in window:
        for player, mu, sigma, _rank in game:
            if player not in first:
                first.add(player)
                if sigma < DEFAULT_SIGMA:  # rated before the window
                    before[player] = mu - DEFAULT_MU
    return posterior.fit(
        [[(player, rank) for player, _mu, _sigma, rank in game] for game in window], before, window=FIT_MAX_GAMES
    )


def site_skill(fitted: posterior.Skills, player, rating: tuple[float, float]) -> tuple[float, float] | None:
    """A seat's skill as the site stores it (leagues.rating.store._write_skills): the window's own, else from his
    rating by the window's slope with the spread, and None (the scope's prior) for someone with no rating."""
    if player in fitted.players:
        return fitted.players[player]
    if player < 0:
        return None
    return fitted.slope * (rating[0] - DEFAULT_MU), fitted.residual
