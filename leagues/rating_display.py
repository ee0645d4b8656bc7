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

import itertools
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


@dataclass(frozen=True)
class Chance:
    win: float  # probability of finishing first
    expected_place: float  # 1 = first


def chances(ratings: Sequence[tuple[float, float]]) -> list[Chance]:
    """Each seat's chance to win and expected place, from the Plackett-Luce rank model the ratings are fitted with.

    openskill's rank model: strengths exp(mu_i / c) with c^2 = sum(sigma_i^2 + beta^2); the probability of a
    finishing order is the product, place by place, of the strength of whoever takes that place over the total of
    those not yet placed. The win chance is the first factor; the expected place sums over all orders (at most
    5! = 120 of them). Not openskill's predict_win, whose answers for three or more players do not add up to one
    (openskill.py issue #124). The win chances are normalised by their sum, so they add to 1 to rounding.
    """
    n = len(ratings)
    if not 2 <= n <= 8:
        raise ValueError(f"chances are worked out for 2 to 8 players, not {n}")
    c = math.sqrt(sum(sigma * sigma + MODEL.beta**2 for _mu, sigma in ratings))
    top = max(mu for mu, _sigma in ratings)
    strength = [math.exp((mu - top) / c) for mu, _sigma in ratings]  # shifted: the same ratios, no overflow
    total = math.fsum(strength)
    win = [s / total for s in strength]
    places = [0.0] * n
    for order in itertools.permutations(range(n)):
        p, left = 1.0, total
        for player in order[:-1]:
            p *= strength[player] / left
            left -= strength[player]
        for place, player in enumerate(order, start=1):
            places[player] += p * place
    norm = math.fsum(win)
    return [Chance(win=w / norm, expected_place=e) for w, e in zip(win, places, strict=True)]
