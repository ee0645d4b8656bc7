"""The rating a person reads: an Elo-like number with a "?" while it is provisional, rust for time away, and each
seat's chance to win (docs/ratings.md gives the reasons and the formulas).

Pure Python, no Django: the selectors hand it stored (mu, sigma, games, last played) and it never writes. The
stored ratings are openskill's Plackett-Luce, unchanged (the bench's equality with plain openskill stands);
everything here is worked out when the number is read.

Why the number is built on mu and not on the conservative mu - 3 sigma: a Plackett-Luce update always raises
the mu of a player who finishes first alone and lowers the mu of one who finishes last alone, but its sigma may
grow by tau after a win (beating a far weaker player moves mu less than 3 sigma grows), and rust, applied when
read, would let a loss after a long break *raise* a conservative number (the rust is gone once the player plays).
So the displayed number follows mu (openskill's `ordinal` with z = 0, alpha = 200 / sigma0, target 1500 for a
new player), sigma is shown as its band and as the "?", and the conservative estimate stays the rankings' order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, MODEL, plackett_luce

TARGET = 1500  # a new player's number
ALPHA = 200 / DEFAULT_SIGMA  # points per unit of mu: the prior's sigma is worth 200 points (24 per unit)
BAND_Z = 2  # the band drawn around the number: mu +- 2 sigma (about 95%)

PROVISIONAL_GAMES = 10  # fewer games than this: "1500?"
PROVISIONAL_SIGMA = 7.0  # or sigma (after rust) above this; the prior's is 8.33, a typical player passes 7 by game 9

RUST_PER_DAY = DEFAULT_SIGMA**2 / 730  # sigma^2 grows by this each day away: two years away make anyone new again
RUST_GRACE_DAYS = 30  # a month away changes nothing


def rusted_sigma(sigma: float, last_played: date | None, today: date) -> float:
    """Sigma after time away: sigma^2 + RUST_PER_DAY x (days away - grace), never above the prior's sigma and
    never below the stored one. The stored rating is not touched: this is worked out each time it is read."""
    if last_played is None:
        return sigma
    days = max((today - last_played).days - RUST_GRACE_DAYS, 0)
    return max(sigma, min(math.sqrt(sigma * sigma + RUST_PER_DAY * days), DEFAULT_SIGMA))


def displayed(mu: float) -> int:
    """The Elo-like number: 1500 for a new player, 24 points per unit of mu (openskill's ordinal, z = 0)."""
    return round(TARGET + ALPHA * (mu - DEFAULT_MU))


@dataclass(frozen=True)
class ShownRating:
    """One player's rating as the pages and the API show it."""

    rating: int  # the displayed number
    low: int  # the band: the number for mu - 2 sigma and mu + 2 sigma (sigma after rust)
    high: int
    provisional: bool
    sigma: float  # after rust
    cautious: int  # the conservative estimate mu - 3 sigma on the same scale (the rankings' order)

    @property
    def text(self) -> str:
        return f"{self.rating}?" if self.provisional else str(self.rating)


def shown(
    mu: float, sigma: float, games: int, last_played: date | None = None, today: date | None = None
) -> ShownRating:
    """The displayed rating of a stored (mu, sigma, games), with rust up to `today` when the last game is known."""
    if today is not None:
        sigma = rusted_sigma(sigma, last_played, today)
    provisional = games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA
    return ShownRating(
        rating=displayed(mu),
        low=displayed(mu - BAND_Z * sigma),
        high=displayed(mu + BAND_Z * sigma),
        provisional=provisional,
        sigma=sigma,
        cautious=displayed(mu - 3 * sigma),
    )


def rusted_skill_sd(sd: float, spread: float, last_played: date | None, today: date) -> float:
    """A posterior skill's standard deviation after time away (leagues.rating.posterior), by the rule rusted_sigma
    follows: the variance grows by the same share of a new player's each day past the grace, so two years away
    make anyone new again (the scope's spread), and never shrinks."""
    if last_played is None:
        return sd
    days = max((today - last_played).days - RUST_GRACE_DAYS, 0)
    return max(sd, min(math.sqrt(sd * sd + spread * spread * RUST_PER_DAY / DEFAULT_SIGMA**2 * days), spread))


def posterior_chances(skills: Sequence[tuple[float, float] | None], spread: float) -> list[Chance]:
    """The chances from the scope's posterior skills (leagues.rating.posterior): each seat's (mean, sd after
    rust), or None for a player its latest games do not know, who is drawn like anyone new, N(0, spread²). The
    performance noise is the posterior's own unit, so b = 1."""
    return chances([seat if seat is not None else (0.0, spread) for seat in skills], POSTERIOR_NOISE)


def prior() -> tuple[float, float]:
    """(mu, sigma) of a player without a rating in the scope."""
    return DEFAULT_MU, DEFAULT_SIGMA


# The spread of one performance, in units of mu: a seat's performance is N(mu, sigma^2 + PERFORMANCE_SD^2) whatever
# the table's size. 2.8 beta, fitted once on bench/calibration.py's 2,500-game clubs with seeds 100-102 (three skill
# spreads, tables of 2-5) and checked on seeds 40-42: it is the scale openskill's Plackett-Luce updates give mu in a
# club playing tables of 2 to 5 (docs/ratings.md, "Win chances").
PERFORMANCE_SD = 2.8 * MODEL.beta
POSTERIOR_NOISE = 1.0  # the performance noise of leagues.rating.posterior's model: the unit its skills are in
_STEPS_PER_SPREAD = 4  # Simpson's rule, a step of a quarter of the narrowest spread: within 1e-11 of 240 steps over
_MAX_STEPS = 2000  # the whole range on 300 random tables; at most 82 steps for mu from -20 to 70


@dataclass(frozen=True)
class Chance:
    win: float  # probability of finishing first
    expected_place: float  # 1 = first


def _normal_cdf(x: float) -> float:
    return math.erfc(-x / math.sqrt(2)) / 2


def chances(ratings: Sequence[tuple[float, float]], performance_sd: float | None = None) -> list[Chance]:
    """Each seat's chance to win and expected place: each performance is normal, mu_i + N(0, sigma_i^2 + b^2).

    Why not the rank model the ratings are fitted with (Plackett-Luce with c^2 = sum(sigma_i^2 + beta^2)): its c
    grows like sqrt(n), so its chances flatten as the table grows, while the ratings' scale is the one a club's mix
    of table sizes gave them; measured on simulated clubs (bench/calibration.py) it was too sure at 2 seats and not
    sure enough at 5. Here b is one figure per scope whatever the table's size (the scope's own, fitted on its games,
    else PERFORMANCE_SD), so the chances mean the same at every size, and each rating's own sigma widens its own
    performance (a player we know little about is less predictable).

        win_i = integral of pdf_i(x) * prod_{j != i} cdf_j(x) dx      (Simpson's rule; exact for two players)
        expected_place_i = 1 + sum_{j != i} Phi((mu_j - mu_i) / sqrt(s_i^2 + s_j^2)),   s_i^2 = sigma_i^2 + b^2

    The win chances are normalised by their sum (they add to 1 to rounding); the expected places add to
    n(n+1)/2, as each pair's two chances add to one. `performance_sd` is the scope's own b when its ratings job
    fitted one (`fitted_performance_sd`); None: the fixed PERFORMANCE_SD.
    """
    n = len(ratings)
    b = PERFORMANCE_SD if performance_sd is None else performance_sd
    if not 2 <= n <= 8:
        raise ValueError(f"chances are worked out for 2 to 8 players, not {n}")
    mus = [mu for mu, _sigma in ratings]
    spreads = [math.sqrt(sigma * sigma + b * b) for _mu, sigma in ratings]
    places = [
        1 + math.fsum(_normal_cdf((mus[j] - mus[i]) / math.hypot(spreads[i], spreads[j])) for j in range(n) if j != i)
        for i in range(n)
    ]
    if n == 2:
        first = _normal_cdf((mus[0] - mus[1]) / math.hypot(*spreads))
        win = [first, 1 - first]
    else:
        win = _first_place(mus, spreads)
    norm = math.fsum(win)
    return [Chance(win=w / norm, expected_place=e) for w, e in zip(win, places, strict=True)]


def _first_place(mus: list[float], spreads: list[float]) -> list[float]:
    """P(seat i performs best) = integral of pdf_i(x) prod_{j != i} cdf_j(x) dx, by Simpson's rule, up to a common
    factor (the caller normalises). Below max_j(mu_j - 8 s_j) every integrand is under 1e-15 of its peak (one seat
    is then all but sure to do better), so the grid starts there and ends at max(mu + 8 s)."""
    n = len(mus)
    low = max(m - 8 * s for m, s in zip(mus, spreads, strict=True))
    high = max(m + 8 * s for m, s in zip(mus, spreads, strict=True))
    steps = min(2 * math.ceil((high - low) / min(spreads) * _STEPS_PER_SPREAD / 2), _MAX_STEPS)
    step = (high - low) / steps
    win = [0.0] * n
    for k in range(steps + 1):
        x = low + k * step
        weight = 1 if k in (0, steps) else 4 if k % 2 else 2
        z = [(x - m) / s for m, s in zip(mus, spreads, strict=True)]
        cdf = [_normal_cdf(v) for v in z]
        for i in range(n):
            others = 1.0
            for j in range(n):
                if j != i:
                    others *= cdf[j]
            win[i] += weight * others * math.exp(-z[i] * z[i] / 2) / spreads[i]
    return win


# A scope's own b, fitted on its own games (issue 40, small clubs). With PERFORMANCE_SD fixed, the chances of a club
# of 300 games were too sure when its skills are close (its mus are still mostly noise, and sigma does not say so)
# and not sure enough when they are wide (its mus have not yet stretched to the spread): the error goes in opposite
# directions with a spread no (mu, sigma) shows, so the scale is measured in each scope instead, by cross-validation:
# the ratings that predict a held-out game are the scope's ratings of today without that game (nearly the ones the
# chances will read: their noise and their scale), so no game is predicted from a rating it has moved.
FIT_MAX_GAMES = 1000  # the scope's last 1,000 games at most: ~5,000 pairs, and a bounded cost per rating job
FIT_FOLDS = 10  # each game is held out once, with a tenth of the window: the window is re-rated 10 times
FIT_MIN_PAIRS = 20  # fewer ordered pairs than this: the fixed PERFORMANCE_SD
FIT_PRIOR_SD = 0.5  # ln b ~ N(ln PERFORMANCE_SD, 0.5^2): a handful of games cannot send b to an extreme
FIT_RANGE = 3  # b stays within [b0 / 3, 3 b0] (the benchmark's small clubs want 0.6 b0 to 1.9 b0)
_FIT_STEPS = 24  # golden-section steps on ln b over that range: to within 0.0001


def fit_window(games: int) -> int:
    """How many of a scope's latest games its b is fitted on: all of them, at most FIT_MAX_GAMES."""
    return min(FIT_MAX_GAMES, games)


def fitted_performance_sd(games: Sequence[Sequence[tuple[object, float, float, int]]]) -> float:
    """The scope's b: the performance spread with which the scope's ratings of today best predict its own games,
    each game predicted from ratings that have not seen it (10-fold cross-validation).

    `games` is the scope's latest games (`fit_window` of them) in the order they were rated, each its seats'
    (player, mu before, sigma before, rank). The ratings before a player's first game in the window are where the
    window starts; the window's games are rated again from there 10 times (openskill's update, as the site rates),
    each time without one fold (every 10th game), and that fold's games are predicted from the ratings so reached:
    today's ratings but for a tenth of the window. Every pair of seats with different ranks in a held-out game is
    one observation, P(the better placed one outperforms the other) = Phi((mu_i - mu_j) / sqrt(sigma_i^2 + sigma_j^2
    + 2 b^2)) (the chances' own model, read pair by pair: a pair needs no integral); b maximises their summed
    log-likelihood plus the prior's log-density (the posterior mode). A young scope's mus are still spreading out,
    and ratings short of a tenth of the games are a little narrower than today's: b is multiplied by that stretch,
    the spread of the held-out seats' mus today (the window rated whole) over their spread without their fold. The
    result stays within FIT_RANGE of PERFORMANCE_SD.

    Why today's ratings less a fold, and not the ratings each player had before each game (the fit until then):
    those are noisier and on the narrower scale of their day, so only the scope's later third was used, and a
    300-game club fitted b on 100 games: it missed the b its ratings want by ±12-21% (rms of ln b over seeds 300-339
    of bench/calibration.py's clubs); with every game held out once, ±8-16%. Why not today's ratings themselves:
    they were moved by the very games they would predict and look too good.
    """
    pairs, stretch = _held_out_pairs(list(games))
    if len(pairs) < FIT_MIN_PAIRS:
        return PERFORMANCE_SD
    centre = math.log(PERFORMANCE_SD)

    def loss(log_b: float) -> float:
        twice = 2 * math.exp(2 * log_b)
        return (log_b - centre) ** 2 / (2 * FIT_PRIOR_SD**2) - math.fsum(
            math.log(max(_normal_cdf(d / math.sqrt(v + twice)), 1e-300)) for d, v in pairs
        )

    held_out = math.exp(_golden_minimum(loss, centre - math.log(FIT_RANGE), centre + math.log(FIT_RANGE)))
    return min(max(held_out * stretch, PERFORMANCE_SD / FIT_RANGE), PERFORMANCE_SD * FIT_RANGE)


def _held_out_pairs(games: list[Sequence[tuple[object, float, float, int]]]) -> tuple[list[tuple[float, float]], float]:
    """Each held-out game's ordered pairs as (mu of the better placed − mu of the other, sum of their sigma²), from
    the window rated without the game's fold; and the stretch, the held-out seats' mus' spread today over without."""
    start: dict = {}
    for seats in games:
        for player, mu, sigma, _rank in seats:
            start.setdefault(player, (mu, sigma))
    today = _rated(games, start, skip=None)
    pairs: list[tuple[float, float]] = []
    without: list[float] = []
    now: list[float] = []
    for fold in range(min(FIT_FOLDS, len(games))):
        state = _rated(games, start, skip=fold)
        for seats in games[fold::FIT_FOLDS]:
            pairs.extend(_ordered_pairs([(*state[player], rank) for player, _mu, _sigma, rank in seats]))
            without.extend(state[seat[0]][0] for seat in seats)
            now.extend(today[seat[0]][0] for seat in seats)
    spread = _spread(without) if without else 0.0
    return pairs, _spread(now) / spread if spread else 1.0


def _rated(games: list[Sequence[tuple[object, float, float, int]]], start: dict, skip: int | None) -> dict:
    """Each player's (mu, sigma) after the window's games from `start`, rated as the site rates them, without the
    games of fold `skip` (every FIT_FOLDS-th game from it; None: all of them)."""
    state = dict(start)
    for index, seats in enumerate(games):
        if skip is None or index % FIT_FOLDS != skip:
            players = [seat[0] for seat in seats]
            state.update(
                zip(players, plackett_luce([state[p] for p in players], [seat[3] for seat in seats]), strict=True)
            )
    return state


def _ordered_pairs(seats: list[tuple[float, float, int]]) -> list[tuple[float, float]]:
    """Every pair of (mu, sigma, rank) seats with different ranks: (the better placed one's mu − the other's, the
    sum of their sigma²)."""
    return [
        ((mi - mj) if ri < rj else (mj - mi), si * si + sj * sj)
        for k, (mi, si, ri) in enumerate(seats)
        for (mj, sj, rj) in seats[k + 1 :]
        if ri != rj
    ]


def _spread(values: list[float]) -> float:
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((v - mean) ** 2 for v in values) / len(values))


def _golden_minimum(f, low: float, high: float) -> float:
    """The minimum of a unimodal f on [low, high] by golden-section search (_FIT_STEPS steps)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = high - ratio * (high - low), low + ratio * (high - low)
    fa, fb = f(a), f(b)
    for _ in range(_FIT_STEPS):
        if fa < fb:
            high, b, fb = b, a, fa
            a = high - ratio * (high - low)
            fa = f(a)
        else:
            low, a, fa = a, b, fb
            b = low + ratio * (high - low)
            fb = f(b)
    return (low + high) / 2
