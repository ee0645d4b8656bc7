"""calibration.py's yardstick (`--ideal`): the exact Bayesian answer from a simulated club's games, under the
simulation's own model, which no method can beat on average. Apart from calibration.py because it is an experiment
of its own, not the site's chances."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from leagues.rating.posterior import truncated_normal


def ideal_samples(
    orders: Sequence[Sequence[int]],
    players: int,
    spread: float | None,
    seed: int,
    sweeps: int = 1500,
    burn: int = 300,
    thin: int = 5,
) -> np.ndarray:
    """Draws of the club's skills from their exact posterior given its games, under the simulation's own model
    (skills N(0, spread²), performance = skill + N(0, 1), the order of performance): the best answer any method
    could give from these games. Not for the site: it is the yardstick that says how much of a miss is the method
    and how much is what 300 games can tell.

    Gibbs sampling with the performances as latent variables (the probit model's data augmentation): each seat's
    performance given the skills is a normal truncated between its neighbours' in the finishing order (half the
    places at a time, drawn as the site's posterior draws them), and the skills given the performances are normal
    (conjugate). Unlike the site's, it keeps each draw of all the skills together, for the joint predictive. With the
    spread unknown (`spread=None`), the skills' variance is drawn too, under the scale-free prior p(τ²) ∝ 1/τ²,
    which favours no spread. 1,500 sweeps, the first 300 dropped, every 5th kept: 240 draws."""
    gen = np.random.default_rng(seed)
    player, place, above, below = [], [], [], []
    for order in orders:
        start = len(player)
        for k, p in enumerate(order):
            player.append(p)
            place.append(k)
            above.append(start + k - 1 if k > 0 else -1)
            below.append(start + k + 1 if k < len(order) - 1 else -1)
    player_, place_, above_, below_ = map(np.array, (player, place, above, below))
    latent = np.array([-k for k in place], dtype=float)  # any order-respecting start
    skills = np.zeros(players)
    counts = np.bincount(player_, minlength=players)
    variance = spread**2 if spread is not None else 1.0
    kept = []
    for sweep in range(sweeps):
        for parity in (0, 1):
            at = place_ % 2 == parity
            high = np.where(above_[at] >= 0, latent[np.maximum(above_[at], 0)], np.inf)
            low = np.where(below_[at] >= 0, latent[np.maximum(below_[at], 0)], -np.inf)
            mean = skills[player_[at]]
            latent[at] = mean + truncated_normal(low - mean, high - mean, gen)
        precision = counts + 1 / variance
        skills = np.bincount(player_, weights=latent, minlength=players) / precision + gen.standard_normal(
            players
        ) / np.sqrt(precision)
        if spread is None:
            variance = (skills**2).sum() / 2 / gen.gamma(players / 2)
        if sweep >= burn and (sweep - burn) % thin == 0:
            kept.append(skills.copy())
    return np.array(kept)


def ideal_win(samples: np.ndarray, seated: Sequence[int], gen: np.random.Generator, draws: int = 20_000) -> list[float]:
    """The posterior predictive chance of each seat to win: the share of draws (a posterior draw of the skills,
    then each seat's performance noise) in which the seat performs best (Monte Carlo error about ±0.003)."""
    performance = samples[gen.integers(0, len(samples), draws)][:, seated] + gen.standard_normal((draws, len(seated)))
    return list(np.bincount(performance.argmax(axis=1), minlength=len(seated)) / draws)
