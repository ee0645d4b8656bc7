"""Each player's skill as all of a scope's games tell it at once: what the win chances read (issue 40).

Why not the stored ratings themselves. openskill rates one game at a time, each from the ratings of its day, so a
player's early games are read against opponents nobody knew yet and are never read again; in a small club most
games are early games. Its mu is noisier than the games allow, and its sigma does not say how much (in a 300-game
club of close skills a player's mu is mostly noise with a sigma like a wide club's). Chances read from them were
over-confident there, and a spread b fitted per scope could only undo that on average (±16% from 300 games). Here a
scope's games are read together, all of them (only while they fit in the rating job's window of 1,000: a bigger
scope's ratings carry what a window would drop, and answer its chances), under the model the chances use: a
player's performance in a game is his skill + N(0, 1), the finishing order is the order of performance, and skills
are drawn from N(0, spread²) with the spread itself unknown (a half-Cauchy(0, 1) prior on it: proper, flat near 0,
weakly informative on the noise's own scale). The answer is each player's posterior mean and standard deviation and
the spread's: the chances then take performance_i ~ N(mean_i, sd_i² + 1) (leagues.rating.display.chances with b =
1), a new player N(0, spread² + 1). The displayed rating stays openskill's (docs/ratings.md).

How: Gibbs sampling with the performances as latent variables (the probit model's data augmentation). A seat's
performance given the skills is a normal truncated between the performances of the places next to its own (ties
share a place and bound nobody within it; half of the places at a time, by inverse cdf); the skills given the
performances are normal (conjugate); the spread given the skills follows Makalic & Schmidt's (2016) expansion of
the half-Cauchy. A fixed seed: the same games give the same chances. 1,000 sweeps, the first 100 dropped; each
kept sweep adds the skills' mean and variance given its performances (Rao-Blackwellised), measured from the
players' average (the chances read only differences, and the shared level drifts slowly). numpy and scipy do the
work; scipy's normal cdf and its inverse are most of the cost (docs/ratings.md, "The posterior's cost").
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

SWEEPS, BURN, THIN = 1000, 100, 1
SEED = 40  # any fixed number: the same games give the same answer
SPREAD_SCALE = 1.0  # the half-Cauchy prior's scale on the spread of skills, in units of the performance noise
MIN_PLACES = 20  # fewer ordered pairs of seats than this: too little to read (the chances fall back to the ratings)


@dataclass(frozen=True)
class Skills:
    """What a scope's games say: each player's skill (posterior mean, standard deviation) and the spread of
    skills (posterior mean of its standard deviation), on the performance noise's scale (1)."""

    spread: float
    players: dict[Hashable, tuple[float, float]]


def fit(games: Sequence[Sequence[tuple[Hashable, int]]]) -> Skills | None:
    """The posterior over the players of `games` (each a list of (player, rank), rank 1 the best, ties sharing a
    rank). Games with one seat or one place tell nothing and are left out; None when fewer than MIN_PLACES
    ordered pairs are left."""
    players: dict[Hashable, int] = {}
    seat_player, seat_group, seat_place, group_start = [], [], [], []
    group_parity, group_above, group_below = [], [], []
    pairs = 0
    for game in games:
        places = sorted({rank for _player, rank in game})
        if len(places) < 2:
            continue
        first_group = len(group_start)
        for k, place in enumerate(places):
            group_start.append(len(seat_player))
            group_parity.append(k % 2)
            group_above.append(first_group + k - 1 if k > 0 else -1)
            group_below.append(first_group + k + 1 if k < len(places) - 1 else -1)
            for player, rank in game:
                if rank == place:
                    seat_player.append(players.setdefault(player, len(players)))
                    seat_group.append(first_group + k)
                    seat_place.append(k)
        sizes = [sum(1 for _p, rank in game if rank == place) for place in places]
        pairs += (sum(sizes) ** 2 - sum(s * s for s in sizes)) // 2
    if pairs < MIN_PLACES:
        return None
    means, sds, spread = _sample(np.array(seat_player), np.array(seat_group), np.array(seat_place),
                                 np.array(group_start), np.array(group_above), np.array(group_below), len(players))
    return Skills(spread=spread, players={player: (float(means[i]), float(sds[i])) for player, i in players.items()})


def _sample(seat_player, seat_group, seat_place, group_start, group_above, group_below, count: int
            ) -> tuple[np.ndarray, np.ndarray, float]:
    gen = np.random.default_rng(SEED)
    groups = len(group_start)
    # each place's lowest and highest performance, with one more entry past the end: +inf above the first place
    # and -inf below the last (a missing neighbour's index, -1, is turned into it)
    lowest, highest = np.full(groups + 1, np.inf), np.full(groups + 1, -np.inf)
    halves = []
    for parity in (0, 1):  # the seats of every other place: none of them bounds another
        at = np.flatnonzero(seat_place % 2 == parity)
        above, below = group_above[seat_group[at]], group_below[seat_group[at]]
        halves.append((at, seat_player[at], np.where(above >= 0, above, groups), np.where(below >= 0, below, groups)))
    latent = -seat_place.astype(float)  # any start that respects every finishing order
    games_played = np.bincount(seat_player, minlength=count)
    skills = np.zeros(count)
    variance, auxiliary = 1.0, 1.0
    total, total_sq, spread_total, kept = np.zeros(count), np.zeros(count), 0.0, 0
    for sweep in range(SWEEPS):
        for at, players, above, below in halves:
            np.minimum.reduceat(latent, group_start, out=lowest[:groups])
            np.maximum.reduceat(latent, group_start, out=highest[:groups])
            mean = skills[players]
            latent[at] = mean + truncated_normal(highest[below] - mean, lowest[above] - mean, gen)
        precision = games_played + 1 / variance
        centre = np.bincount(seat_player, weights=latent, minlength=count) / precision
        skills = centre + gen.standard_normal(count) / np.sqrt(precision)
        if sweep >= BURN and (sweep - BURN) % THIN == 0:
            # Rao-Blackwellised: the skills' mean and variance given this sweep's performances, not the skills
            # drawn from them, so the draw's own noise does not reach the answer
            # and measured from the players' average: the chances read only differences of skill, and the skills
            # drift together slowly from sweep to sweep (their shared level is only held by the prior)
            shifted = centre - centre.mean()
            total += shifted
            total_sq += shifted**2 + 1 / precision
            spread_total += float(np.sqrt(variance))
            kept += 1
        # the half-Cauchy(0, SPREAD_SCALE) prior on the spread, as inverse-gammas (Makalic & Schmidt 2016)
        variance = (1 / auxiliary + (skills**2).sum() / 2) / gen.gamma((count + 1) / 2)
        auxiliary = (1 / SPREAD_SCALE**2 + 1 / variance) / gen.gamma(1.0)
    means = total / kept
    return means, np.sqrt(np.maximum(total_sq / kept - means**2, 0.0)), spread_total / kept


def truncated_normal(lower: np.ndarray, upper: np.ndarray, gen: np.random.Generator) -> np.ndarray:
    """A standard normal draw within [lower, upper] each, by inverse cdf. An interval above the mean is drawn as
    its mirror image below it, where the cdf keeps its precision far into the tail (Φ(−8) is 6e-16, Φ(8) rounds
    to 1); the draw is held inside its interval against what rounding is left."""
    mirrored = lower > 0
    low, high = np.where(mirrored, -upper, lower), np.where(mirrored, -lower, upper)
    at_low, at_high = ndtr(low), ndtr(high)
    drawn = ndtri(at_low + gen.uniform(size=low.shape) * (at_high - at_low))
    drawn = np.clip(drawn, np.maximum(low, -40.0), np.minimum(high, 40.0))
    return np.where(mirrored, -drawn, drawn)
