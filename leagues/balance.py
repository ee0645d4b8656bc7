"""Is a seat (or a general, a clan, a turn position) really favoured? Win rates with honest intervals and a test of
"all equal", as pure functions of (position, players at the table) per game (docs/ratings.md, Seat and faction
balance).

The test is Pearson's chi-square goodness of fit, stratified by player count: games of n players give each of the
n positions an expected 1/n of their wins, the statistic is the sum over the counts played of
sum((observed - expected)^2 / expected), with sum(n - 1) degrees of freedom (independent strata add). A stratum is
tested only when every expected count is at least 5 (Cochran's rule, under which the chi-square approximation is
adequate); with fewer games the page says "not enough games to tell" rather than run an exact multinomial test,
whose answer on a handful of games would only say the same. scipy is not installed; the chi-square survival
function for whole degrees of freedom has a closed form (below), checked against known table values in the tests.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

MIN_EXPECTED = 5.0  # Cochran: every expected count at least this, or the stratum is not tested
ALPHA = 0.05


def wilson(wins: int, games: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson's 95% score interval for a win rate (sound near 0 and 1 and for few games, unlike p ± 1.96 se)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with `df` (a whole number) degrees of freedom: the regularised upper
    incomplete gamma Q(df/2, x/2), in closed form (a finite series; erfc for odd df)."""
    if df < 1:
        raise ValueError("degrees of freedom start at 1")
    if statistic <= 0:
        return 1.0
    half = statistic / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= half / i
            total += term
        return min(1.0, math.exp(-half) * total)
    total = math.erfc(math.sqrt(half))
    term = math.exp(-half) * math.sqrt(half) / math.gamma(1.5)  # (x/2)^(1/2) e^(-x/2) / Gamma(3/2)
    for i in range((df - 1) // 2):
        total += term
        term *= half / (i + 1.5)
    return min(1.0, total)


@dataclass(frozen=True)
class Row:
    key: Hashable  # the seat (0 = first), the general, the clan...
    games: int
    wins: int
    rate: float
    low: float  # Wilson 95%
    high: float
    expected: float  # the rate chance alone would give: mean of 1/n over the games it was in


@dataclass(frozen=True)
class Balance:
    rows: list[Row]
    games: int
    statistic: float | None  # None: not enough games to test
    df: int
    p_value: float | None

    @property
    def verdict(self) -> str:
        """'not enough', 'uneven' (p < 0.05) or 'even'; the page says it in words."""
        if self.p_value is None:
            return "not enough"
        return "uneven" if self.p_value < ALPHA else "even"

    @property
    def most_favoured(self) -> Row | None:
        return max(self.rows, key=lambda r: r.rate - r.expected) if self.rows else None


def seat_balance(games: Iterable[tuple[int, int]]) -> Balance:
    """Each game as (the winner's seat, players at the table), seats from 0; games with a shared first place are
    left out by the caller. Rows per seat, and the stratified chi-square test of "every seat wins 1/n"."""
    return _balance(((winner, n, range(n)) for winner, n in games))


def faction_balance(games: Iterable[tuple[Hashable, list[Hashable]]]) -> Balance:
    """Each game as (the winner's faction, the factions at the table): rows per faction (its games, its wins, the
    expected 1/n). Tested like seats when every game's factions are distinct positions of a fixed set; factions are
    chosen, not dealt, so the test asks whether the factions played win equally often, stratified by count."""
    return _balance(((winner, len(present), present) for winner, present in games))


def _balance(games: Iterable[tuple[Hashable, int, Iterable[Hashable]]]) -> Balance:
    played: Counter = Counter()
    won: Counter = Counter()
    expected: Counter = Counter()
    strata: dict[int, tuple[Counter, Counter]] = {}  # n -> (wins by key, games by key)
    total = 0
    for winner, n, present in games:
        total += 1
        wins_n, games_n = strata.setdefault(n, (Counter(), Counter()))
        for key in present:
            played[key] += 1
            expected[key] += 1 / n
            games_n[key] += 1
        won[winner] += 1
        wins_n[winner] += 1
    rows = []
    for key in sorted(played, key=str):
        low, high = wilson(won[key], played[key])
        rows.append(Row(key=key, games=played[key], wins=won[key], rate=won[key] / played[key], low=low, high=high,
                        expected=expected[key] / played[key]))
    statistic, df = 0.0, 0
    for n, (wins_n, games_n) in strata.items():
        cells = [(wins_n[key], games_n[key] / n) for key in games_n]
        if all(e >= MIN_EXPECTED for _o, e in cells) and len(cells) >= 2:
            statistic += sum((o - e) ** 2 / e for o, e in cells)
            df += len(cells) - 1
    if df == 0:
        return Balance(rows=rows, games=total, statistic=None, df=0, p_value=None)
    return Balance(rows=rows, games=total, statistic=statistic, df=df, p_value=chi_square_sf(statistic, df))
