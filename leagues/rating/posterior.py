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
the half-Cauchy. Since issue 50 a player's skill is a path over the window, one value at each of his games, a
random walk between them (a state-space model): given the performances all the paths are one Gaussian with a
tridiagonal precision, drawn exactly with LAPACK's tridiagonal solver (dpttrf/dpttrs) in each sweep, as a Kalman
smoother would draw them; the walk's variance by a Metropolis step with the paths integrated out. A fixed seed: the same
games give the same chances. 1,000 sweeps, the first 100 dropped; each
kept sweep adds the skills' mean and variance given its performances (Rao-Blackwellised), measured from the
players' average (the chances read only differences, and the shared level drifts slowly). numpy and scipy do the
work; scipy's normal cdf and its inverse are most of the cost (docs/ratings.md, "The posterior's cost").
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from scipy.linalg import lapack
from scipy.special import ndtr, ndtri

SWEEPS, BURN, THIN = 1000, 100, 1
SEED = 40  # any fixed number: the same games give the same answer
SPREAD_SCALE = 1.0  # the half-Cauchy prior's scale on the spread of skills, in units of the performance noise
MIN_PLACES = 1  # a scope is read together from its first ordered pair of seats: no step from the ratings' chances
WINDOW = 1000  # the rating job's window (leagues.rating.display.FIT_MAX_GAMES): the latest games read together
TAPER = 200  # the window's oldest 200 games fade out, weight 1 at 800 games back to nothing at 1,000
DRIFT = 0.001  # the walk's variance per scope game where the sampler starts (sd 1 over a window); then read
DRIFT_SCALE = 1.0  # the half-Cauchy prior's scale on the walk's sd over a window of WINDOW scope games; 0: fixed
DRIFT_MAX = 2.0  # ... cut at sd 2 over a window: ordered games cannot rule out a skill per seat (see _collapsed)
DRIFT_SHRINK = 1.0  # ... times exp(−walk² / (DRIFT_SHRINK × spread²)): a walk as wide as the spread is unlikely
DRIFT_STEP = 0.5  # the Metropolis proposal's sd on the log of the walk's variance
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
    drift: float = 0.0  # the skills' walk, variance per scope game


def fit(
    games: Sequence[Sequence[tuple[Hashable, int]]],
    before: Mapping[Hashable, float] | None = None,
    window: int = WINDOW,
) -> Skills | None:
    """The posterior over the players of `games` (each a list of (player, rank), rank 1 the best, ties sharing a
    rank), oldest first as they were rated: the scope's latest games, at most `window` of them. `before` gives the
    players who had a rating before the window its mu − 25 then (the others are new: 0). Games with one seat or
    one place tell nothing and are left out; None when no ordered pair is left.

    Why so (issue 50: no step at any game count, skills that drift, newcomers in big scopes). Each seat's
    performance is the player's skill at that game plus N(0, 1), and his skill walks: from one game of the scope
    to the next it moves by N(0, drift), the drift read from the games (finding 3: weighing the window's games
    alike, or an old game as independent extra noise, read a drifting club worse than its ratings; openskill's
    tau lets the ratings walk the same way). A player's skill today is where his walk stands at his latest game,
    widened by the walk since; an old game tells less of it, and more so the more the scope's skills move. The
    window's oldest TAPER games fade out (their noise grows as their weight falls to 0): a game that leaves the
    window weighed nothing the game before, so no result moves the chances by a step (finding 2: the posterior
    was dropped whole at game 1,001). A player's prior, at the window's start (or at his first game if he is
    new), is N(slope × his mu − 25 before the window, spread²) with
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
    age = len(kept) - 1 - np.array(seat_game)
    fade = np.clip((window - age) / (TAPER * window / WINDOW), 1e-6, 1.0)
    known = before or {}
    covariate = np.array([known.get(player, 0.0) for player in players])
    rated = np.array([player in known for player in players], dtype=bool)
    path = _paths(np.array(seat_player), np.array(seat_game), rated, len(kept))
    means, sds, spread, slope, residual, drift = _sample(
        path,
        np.array(seat_group),
        np.array(seat_place),
        np.array(group_start),
        np.array(group_above),
        np.array(group_below),
        len(players),
        np.array(start),
        fade,
        covariate,
        rated,
    )
    return Skills(
        spread=spread,
        slope=slope,
        residual=residual,
        drift=drift,
        players={player: (float(means[i]), float(sds[i])) for player, i in players.items()},
    )


@dataclass(frozen=True)
class _Path:
    """Each player's skill over the window as a chain of nodes, one a seat of his in time order, after a node at
    the window's start for a player rated before it, where his prior sits (his rating speaks of then); a
    newcomer's prior sits at his first game (he is drawn from the scope's spread when he comes). The nodes of one
    player are consecutive, so the skills' precision given the performances is tridiagonal."""

    seat_node: np.ndarray  # each seat's node
    node_player: np.ndarray
    gap: np.ndarray  # scope games from each node to the next one of the same player (0: the next is another's)
    first: np.ndarray  # each player's first node: where his prior sits
    last: np.ndarray  # each player's last node: his skill at his latest game
    since: np.ndarray  # scope games from each player's latest game to the next game to come


def _paths(seat_player: np.ndarray, seat_game: np.ndarray, rated: np.ndarray, games: int) -> _Path:
    count, starts = len(rated), int(rated.sum())
    # a start node (time -1: before the window's first game) for each player rated before it, then every seat
    player = np.concatenate((np.flatnonzero(rated), seat_player))
    time = np.concatenate((np.full(starts, -1), seat_game))
    order = np.lexsort((time, player))
    node_player, node_time = player[order], time[order]
    where = np.empty(len(order), dtype=int)
    where[order] = np.arange(len(order))
    seat_node = where[starts:]
    same = node_player[1:] == node_player[:-1]
    gap = np.append(np.where(same, np.maximum(node_time[1:] - node_time[:-1], 1), 0), 0)
    first = np.searchsorted(node_player, np.arange(count), side="left")
    last = np.searchsorted(node_player, np.arange(count), side="right") - 1
    return _Path(seat_node, node_player, gap, first, last, games - node_time[last])


def _sample(
    path: _Path,
    seat_group,
    seat_place,
    group_start,
    group_above,
    group_below,
    count: int,
    start,
    fade,
    covariate,
    rated,
) -> tuple[np.ndarray, np.ndarray, float, float, float, float]:
    gen = np.random.default_rng(SEED)
    groups = len(group_start)
    nodes = len(path.node_player)
    sd = 1 / np.sqrt(fade)
    seat_node = path.seat_node
    # each place's lowest and highest performance, with one more entry past the end: +inf above the first place
    # and -inf below the last (a missing neighbour's index, -1, is turned into it)
    lowest, highest = np.full(groups + 1, np.inf), np.full(groups + 1, -np.inf)
    halves = []
    for parity in (0, 1):  # the seats of every other place: none of them bounds another
        at = np.flatnonzero(seat_place % 2 == parity)
        above, below = group_above[seat_group[at]], group_below[seat_group[at]]
        halves.append(
            (at, seat_node[at], np.where(above >= 0, above, groups), np.where(below >= 0, below, groups), sd[at])
        )
    latent = start.astype(float)  # the places' normal scores: every finishing order respected, on the noise's scale
    weight = np.zeros(nodes)
    weight[seat_node] = fade
    linked = path.gap > 0
    steps = path.gap[linked].astype(float)
    per_step = np.where(linked, 1 / np.maximum(path.gap, 1), 0.0)  # a link's precision is per_step / drift
    per_step_both = per_step + np.concatenate(([0.0], per_step[:-1]))  # on the diagonal: the links either side
    rhs, both = np.zeros(nodes), np.zeros((nodes, 2), order="F")
    xx = float(covariate @ covariate)
    # what a rating before the window spreads skills by (per unit of slope²): a newcomer's prior is wider by it
    rated_spread = float((covariate[rated] ** 2).mean()) if rated.any() else 0.0
    skills = np.zeros(nodes)
    variance, auxiliary, slope = 1.0, 1.0, 0.0
    drift = DRIFT  # the walk's variance per scope game
    total, total_sq, kept = np.zeros(count), np.zeros(count), 0
    spread_total = residual_total = slope_total = drift_total = 0.0
    for sweep in range(SWEEPS):
        for at, seat_nodes, above, below, seat_sd in halves:
            np.minimum.reduceat(latent, group_start, out=lowest[:groups])
            np.maximum.reduceat(latent, group_start, out=highest[:groups])
            mean = skills[seat_nodes]
            latent[at] = mean + seat_sd * truncated_normal(
                (highest[below] - mean) / seat_sd, (lowest[above] - mean) / seat_sd, gen
            )
        prior = np.where(rated, variance, variance + slope**2 * rated_spread)
        # the skills' precision given the performances: each seat's weight, each step of the walk, each prior
        diagonal = weight.copy()
        diagonal[path.first] += 1 / prior
        rhs.fill(0.0)
        rhs[seat_node] = latent * fade
        rhs[path.first] += slope * covariate / prior
        if DRIFT_SCALE > 0 and steps.size:
            drift, (pivots, off) = _collapsed(drift, diagonal, rhs, per_step, per_step_both, steps.size, variance, gen)
        else:
            pivots, off, _info = lapack.dpttrf(diagonal + per_step_both / drift, -per_step[:-1] / drift)
        # a draw is P⁻¹(rhs + w) with w ~ N(0, P), P = L D Lᵀ the precision as factored: w = L √D z, so the
        # mean and the draw are one solve with two right-hand sides
        noise = np.sqrt(pivots) * gen.standard_normal(nodes)
        both[:, 0] = rhs
        both[:, 1] = rhs + noise
        both[1:, 1] += off * noise[:-1]
        solved, _info = lapack.dpttrs(pivots, off, both)
        centre, skills = solved[:, 0], solved[:, 1]
        if sweep >= BURN and (sweep - BURN) % THIN == 0:
            # Rao-Blackwellised: each player's skill at his latest game, its mean and variance given this sweep's
            # performances (its precision the last pivot of his chain's LDLᵀ), moved on by the walk to the next game;
            # the level is the prior's (a newcomer's 0), so players inside the window and outside it share a scale
            now = centre[path.last]
            total += now
            total_sq += now**2 + 1 / pivots[path.last] + drift * path.since
            spread_total += float(np.sqrt(variance + slope**2 * rated_spread))
            residual_total += float(np.sqrt(variance))
            slope_total += slope
            drift_total += drift
            kept += 1
        at_prior = skills[path.first]
        # the slope of skill on the rating before the window: normal given the skills (its prior N(0, SLOPE_SD²))
        slope_precision = xx / variance + 1 / SLOPE_SD**2
        slope = (float(covariate @ at_prior) / variance) / slope_precision + gen.standard_normal() / math.sqrt(
            slope_precision
        )
        residual = at_prior - slope * covariate
        # the half-Cauchy(0, SPREAD_SCALE) prior on the spread, as inverse-gammas (Makalic & Schmidt 2016)
        variance = (1 / auxiliary + (residual**2).sum() / 2) / gen.gamma((count + 1) / 2)
        auxiliary = (1 / SPREAD_SCALE**2 + 1 / variance) / gen.gamma(1.0)
    means = total / kept
    return (
        means,
        np.sqrt(np.maximum(total_sq / kept - means**2, 0.0)),
        spread_total / kept,
        float(slope_total / kept),
        residual_total / kept,
        drift_total / kept,
    )


def _collapsed(
    drift: float,
    diagonal: np.ndarray,
    rhs: np.ndarray,
    per_step: np.ndarray,
    per_step_both: np.ndarray,
    links: int,
    variance: float,
    gen: np.random.Generator,
) -> tuple[float, tuple[np.ndarray, np.ndarray]]:
    """The walk's variance per game, one Metropolis step on its log given the performances with the paths
    integrated out, and the tridiagonal factor of the precision at the value kept (the paths are drawn with it).

    Why not drawn given the paths, as the spread is: the paths hold it tight (thousands of steps) and it holds
    them, so it moved slowly from sweep to sweep, and the same games refitted with another seed read a walk of
    0.18 or 0.85 a window and moved a seat's chance by up to 12 points. With the paths integrated out the
    likelihood is a Gaussian's, from the factor already made: ½ log|Q| − ½ log|P| + ½ bᵀP⁻¹b, Q the paths' prior
    precision (its determinant: the priors' times the links', each 1/(drift × gap)), P = Q + the seats' weights.
    The prior: a half-Cauchy(0, DRIFT_SCALE) on the walk's sd over a window, cut at DRIFT_MAX (ordered results
    cannot rule out a skill per seat: in a small club of two-seat games the walk went to sd 16), and a factor
    exp(−walk² / (DRIFT_SHRINK × spread²)) (the games hardly tell a walk of sd 0.4 a window from none, and where
    skills are close such a walk spread them apart: the 300-game clubs of sd 0.5 read exponent 0.82-0.84)."""

    def log_likelihood(d: float) -> tuple[float, tuple[np.ndarray, np.ndarray]]:
        pivots, off, info = lapack.dpttrf(diagonal + per_step_both / d, -per_step[:-1] / d)
        assert info == 0, info
        centre, _info = lapack.dpttrs(pivots, off, rhs)
        return (
            -0.5 * links * math.log(d) - 0.5 * float(np.log(pivots).sum()) + 0.5 * float(rhs @ centre),
            (pivots, off),
        )

    def log_prior(d: float) -> float:
        window = d * WINDOW  # the walk's variance over a window, the density per unit of its log
        if window > DRIFT_MAX**2:
            return -math.inf
        return 0.5 * math.log(window) - math.log1p(window / DRIFT_SCALE**2) - window / (DRIFT_SHRINK * variance)

    here, factor = log_likelihood(drift)
    proposed = drift * math.exp(DRIFT_STEP * gen.standard_normal())
    prior = log_prior(proposed)
    if prior > -math.inf:
        there, proposed_factor = log_likelihood(proposed)
        if math.log(gen.uniform()) < there + prior - here - log_prior(drift):
            return proposed, proposed_factor
    return drift, factor


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
