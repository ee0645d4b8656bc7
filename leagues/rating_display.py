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

from .ratings import DEFAULT_MU, DEFAULT_SIGMA, MODEL

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


def shown(mu: float, sigma: float, games: int, last_played: date | None = None,
          today: date | None = None) -> ShownRating:
    """The displayed rating of a stored (mu, sigma, games), with rust up to `today` when the last game is known."""
    if today is not None:
        sigma = rusted_sigma(sigma, last_played, today)
    provisional = games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA
    return ShownRating(rating=displayed(mu), low=displayed(mu - BAND_Z * sigma), high=displayed(mu + BAND_Z * sigma),
                       provisional=provisional, sigma=sigma, cautious=displayed(mu - 3 * sigma))


def prior() -> tuple[float, float]:
    """(mu, sigma) of a player without a rating in the scope."""
    return DEFAULT_MU, DEFAULT_SIGMA


# The spread of one performance, in units of mu: a seat's performance is N(mu, sigma^2 + PERFORMANCE_SD^2) whatever
# the table's size. 2.8 beta, fitted once on bench/calibration.py's 2,500-game clubs with seeds 100-102 (three skill
# spreads, tables of 2-5) and checked on seeds 40-42: it is the scale openskill's Plackett-Luce updates give mu in a
# club playing tables of 2 to 5 (docs/ratings.md, "Win chances").
PERFORMANCE_SD = 2.8 * MODEL.beta
_STEPS_PER_SPREAD = 4  # Simpson's rule, a step of a quarter of the narrowest spread: within 1e-11 of 240 steps over
_MAX_STEPS = 2000  # the whole range on 300 random tables; at most 82 steps for mu from -20 to 70


@dataclass(frozen=True)
class Chance:
    win: float  # probability of finishing first
    expected_place: float  # 1 = first


def _normal_cdf(x: float) -> float:
    return math.erfc(-x / math.sqrt(2)) / 2


def chances(ratings: Sequence[tuple[float, float]]) -> list[Chance]:
    """Each seat's chance to win and expected place: each performance is normal, mu_i + N(0, sigma_i^2 + b^2).

    Why not the rank model the ratings are fitted with (Plackett-Luce with c^2 = sum(sigma_i^2 + beta^2)): its c
    grows like sqrt(n), so its chances flatten as the table grows, while the ratings' scale is the one a club's mix
    of table sizes gave them; measured on simulated clubs (bench/calibration.py) it was too sure at 2 seats and not
    sure enough at 5. Here b (PERFORMANCE_SD) is one constant, so the chances mean the same at every size, and each
    rating's own sigma widens its own performance (a player we know little about is less predictable).

        win_i = integral of pdf_i(x) * prod_{j != i} cdf_j(x) dx      (Simpson's rule; exact for two players)
        expected_place_i = 1 + sum_{j != i} Phi((mu_j - mu_i) / sqrt(s_i^2 + s_j^2)),   s_i^2 = sigma_i^2 + b^2

    The win chances are normalised by their sum (they add to 1 to rounding); the expected places add to
    n(n+1)/2, as each pair's two chances add to one.
    """
    n = len(ratings)
    if not 2 <= n <= 8:
        raise ValueError(f"chances are worked out for 2 to 8 players, not {n}")
    mus = [mu for mu, _sigma in ratings]
    spreads = [math.sqrt(sigma * sigma + PERFORMANCE_SD**2) for _mu, sigma in ratings]
    places = [1 + math.fsum(_normal_cdf((mus[j] - mus[i]) / math.hypot(spreads[i], spreads[j]))
                            for j in range(n) if j != i) for i in range(n)]
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
