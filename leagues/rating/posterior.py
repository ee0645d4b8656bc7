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

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

SWEEPS, BURN, THIN = 1000, 100, 1
SEED = 40  # any fixed number: the same games give the same answer
SPREAD_SCALE = 1.0  # the half-Cauchy prior's scale on the spread of skills, in units of the performance noise
MIN_PLACES = 1  # a scope is read together from its first ordered pair of seats: no step from the ratings' chances
WINDOW = 1000  # the rating job's window (leagues.rating.display.FIT_MAX_GAMES): the latest games read together
TAPER = 200  # the window's oldest 200 games fade out, weight 1 at 800 games back to nothing at 1,000
DRIFT = 0.001  # a skill's drift, variance per game of the player's since (the noise's units): sd 0.3 over 100 games
SLOPE_SD = 1.0  # the prior on the slope of skill on the rating before the window (per mu), N(0, 1): weak


@dataclass(frozen=True)
class Skills:
    """What a scope's games say: each player's skill (posterior mean, standard deviation) and the spread of
    skills (posterior mean of its standard deviation), on the performance noise's scale (1): a newcomer is drawn
    from it. `slope`: how much skill one point of mu before the window is worth; a player the window does not
    hold is read as slope × (mu − 25) with the `residual` sd (his rating holds what the window dropped)."""

    spread: float
    players: dict[Hashable, tuple[float, float]]
    slope: float = 0.0
    residual: float | None = None  # the spread left once the rating before the window is known (None: spread)


def fit(games: Sequence[Sequence[tuple[Hashable, int]]], before: Mapping[Hashable, float] | None = None,
        window: int = WINDOW) -> Skills | None:
    """The posterior over the players of `games` (each a list of (player, rank), rank 1 the best, ties sharing a
    rank), oldest first as they were rated: the scope's latest games, at most `window` of them. `before` gives the
    players who had a rating before the window its mu − 25 then (the others are new: 0). Games with one seat or
    one place tell nothing and are left out; None when no ordered pair is left.

    Why so (issue 50: no step at any game count, skills that drift, newcomers in big scopes). Each seat's
    performance is his skill today plus N(0, 1) plus what his skill has moved since: N(0, DRIFT) a game of his
    since, so an old game tells less (openskill's tau does the same to the ratings, issue 50 finding 3). The
    window's oldest TAPER games fade out (their noise grows as their weight falls to 0): a game that leaves the
    window weighed nothing the game before, so no result moves the chances by a step (finding 2: the posterior
    was dropped whole at game 1,001). A player's prior is N(slope × his mu − 25 before the window, spread²) with
    the slope read from the games too: a player whose games went before the window is known by his rating, and a
    newcomer is the scope's average with the scope's spread (finding 4: he was openskill's prior in a big scope).
    The performances start at the normal scores of their places (Blom), not at −place, whose spread the sampler
    kept for too long when players have many games (finding 5)."""
    players: dict[Hashable, int] = {}
    seat_player: list[int] = []
    seat_group: list[int] = []
    seat_place: list[int] = []
    group_start: list[int] = []
    seat_game: list[int] = []
    group_above, group_below, start = [], [], []
    pairs = 0
    kept = [game for game in games if len({rank for _player, rank in game}) >= 2]
    for index, game in enumerate(kept):
        places = sorted({rank for _player, rank in game})
        sizes = [sum(1 for _p, rank in game if rank == place) for place in places]
        first_group = len(group_start)
        n, below = len(game), 0
        for k, place in enumerate(places):
            group_start.append(len(seat_player))
            group_above.append(first_group + k - 1 if k > 0 else -1)
            group_below.append(first_group + k + 1 if k < len(places) - 1 else -1)
            # Blom's normal score of the place's middle seat, counted from the last: the place's expected
            # performance among n draws of N(0, 1)
            middle = n - below - (sizes[k] - 1) / 2
            score = float(ndtri((middle - 0.375) / (n + 0.25)))
            below += sizes[k]
            for player, rank in game:
                if rank == place:
                    seat_player.append(players.setdefault(player, len(players)))
                    seat_group.append(first_group + k)
                    seat_place.append(k)
                    seat_game.append(index)
                    start.append(score)
        pairs += (sum(sizes) ** 2 - sum(s * s for s in sizes)) // 2
    if pairs < MIN_PLACES:
        return None
    seat_player_a = np.array(seat_player)
    # each seat's noise variance: 1, plus the drift of the player's games since, over the window's fade
    later = np.zeros(len(seat_player))
    seen = np.zeros(len(players))
    for s in range(len(seat_player) - 1, -1, -1):
        later[s] = seen[seat_player[s]]
        seen[seat_player[s]] += 1
    age = len(kept) - 1 - np.array(seat_game)
    fade = np.clip((window - age) / (TAPER * window / WINDOW), 1e-6, 1.0)
    noise = (1 + DRIFT * later) / fade
    known = before or {}
    covariate = np.array([known.get(player, 0.0) for player in players])
    rated = np.array([player in known for player in players], dtype=bool)
    means, sds, spread, slope, residual = _sample(
        seat_player_a, np.array(seat_group), np.array(seat_place), np.array(group_start), np.array(group_above),
        np.array(group_below), len(players), np.array(start), noise, covariate, rated)
    return Skills(spread=spread, slope=slope, residual=residual,
                  players={player: (float(means[i]), float(sds[i])) for player, i in players.items()})


def _sample(seat_player, seat_group, seat_place, group_start, group_above, group_below, count: int, start,
            noise, covariate, rated) -> tuple[np.ndarray, np.ndarray, float, float, float]:
    gen = np.random.default_rng(SEED)
    groups = len(group_start)
    sd = np.sqrt(noise)
    weight = 1 / noise
    # each place's lowest and highest performance, with one more entry past the end: +inf above the first place
    # and -inf below the last (a missing neighbour's index, -1, is turned into it)
    lowest, highest = np.full(groups + 1, np.inf), np.full(groups + 1, -np.inf)
    halves = []
    for parity in (0, 1):  # the seats of every other place: none of them bounds another
        at = np.flatnonzero(seat_place % 2 == parity)
        above, below = group_above[seat_group[at]], group_below[seat_group[at]]
        halves.append((at, seat_player[at], np.where(above >= 0, above, groups), np.where(below >= 0, below, groups),
                       sd[at]))
    latent = start.astype(float)  # the places' normal scores: every finishing order respected, on the noise's scale
    precision_data = np.bincount(seat_player, weights=weight, minlength=count)
    xx = float(covariate @ covariate)
    # what a rating before the window spreads skills by (per unit of slope²): a newcomer's prior is wider by it
    rated_spread = float((covariate[rated] ** 2).mean()) if rated.any() else 0.0
    skills = np.zeros(count)
    variance, auxiliary, slope = 1.0, 1.0, 0.0
    total, total_sq, kept = np.zeros(count), np.zeros(count), 0
    spread_total = residual_total = slope_total = 0.0
    for sweep in range(SWEEPS):
        for at, players, above, below, seat_sd in halves:
            np.minimum.reduceat(latent, group_start, out=lowest[:groups])
            np.maximum.reduceat(latent, group_start, out=highest[:groups])
            mean = skills[players]
            latent[at] = mean + seat_sd * truncated_normal((highest[below] - mean) / seat_sd,
                                                           (lowest[above] - mean) / seat_sd, gen)
        prior = np.where(rated, variance, variance + slope**2 * rated_spread)
        precision = precision_data + 1 / prior
        centre = (np.bincount(seat_player, weights=latent * weight, minlength=count)
                  + slope * covariate / prior) / precision
        skills = centre + gen.standard_normal(count) / np.sqrt(precision)
        if sweep >= BURN and (sweep - BURN) % THIN == 0:
            # Rao-Blackwellised: the skills' mean and variance given this sweep's performances, not the skills
            # drawn from them, so the draw's own noise does not reach the answer; the level is the prior's
            # (a newcomer's 0), so a player inside the window and one outside it are read on one scale
            total += centre
            total_sq += centre**2 + 1 / precision
            spread_total += float(np.sqrt(variance + slope**2 * rated_spread))
            residual_total += float(np.sqrt(variance))
            slope_total += slope
            kept += 1
        # the slope of skill on the rating before the window: normal given the skills (its prior N(0, SLOPE_SD²))
        slope_precision = xx / variance + 1 / SLOPE_SD**2
        slope = (float(covariate @ skills) / variance) / slope_precision + gen.standard_normal() / math.sqrt(
            slope_precision)
        residual = skills - slope * covariate
        # the half-Cauchy(0, SPREAD_SCALE) prior on the spread, as inverse-gammas (Makalic & Schmidt 2016)
        variance = (1 / auxiliary + (residual**2).sum() / 2) / gen.gamma((count + 1) / 2)
        auxiliary = (1 / SPREAD_SCALE**2 + 1 / variance) / gen.gamma(1.0)
    means = total / kept
    return (means, np.sqrt(np.maximum(total_sq / kept - means**2, 0.0)), spread_total / kept,
            float(slope_total / kept), residual_total / kept)


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
