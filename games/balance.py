"""Is a seat (or a general, a clan, a turn position) really favoured? Win rates with honest intervals and a test of
"all equal", as pure functions of (position, players at the table) per game, or of the counts the games' statistics
keep (`balance_from_counts`) (docs/ratings.md, Seat and faction balance).

The statistic is Pearson's X², stratified by player count: games of n players give each of the n positions an
expected 1/n of their wins, and X² is the sum over the counts played of sum((observed - expected)^2 / expected).
Its p-value is found two ways, per stratum, and the strata (independent) are added:

- where every expected count is at least 5 (Cochran's rule), the chi-square approximation, with n - 1 degrees of
  freedom per stratum (scipy is not installed; the chi-square tail for whole degrees of freedom has a closed form,
  below, checked against printed table values in the tests);
- where it is not and every game of the stratum had every position (seats, turn positions: the wins are then
  exactly multinomial(games, 1/n each) when all are equal), the exact multinomial distribution of X², enumerated
  (at most C(24 + 4, 4) = 20,475 outcomes, for 24 five-player games), so small clubs get a real p-value instead of
  an approximation that is wrong for them. The small strata's exact distributions are convolved with each other
  and with the chi-square tail of the large ones: p = sum over v of P(X²_small = v) · P(X²_large >= X² - v).
- Factions chosen at a table (three of Shitennō's four generals) have no such exact null from counts alone, so
  their strata are tested only under Cochran's rule, and left out otherwise.

Below MIN_GAMES games (with one winner) nothing is tested: the page says "not enough games to tell".
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

MIN_EXPECTED = 5.0  # Cochran: every expected count at least this for the chi-square approximation
MIN_GAMES = 10  # fewer games with one winner: "not enough games to tell"
ALPHA = 0.05
EXACT_LIMIT = 60_000  # the most outcomes one stratum's exact distribution enumerates
_ROUND = 9  # X² values are rounded to this many decimals to add up equal ones

Strata = Mapping[int, Mapping[Hashable, tuple[int, int]]]  # players -> key -> (games, wins)


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


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    if parts == 1:
        yield (total,)
        return
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _outcomes(games: int, positions: int) -> int:
    return math.comb(games + positions - 1, positions - 1)


@lru_cache(maxsize=256)
def exact_distribution(games: int, positions: int) -> tuple[tuple[float, float], ...]:
    """The distribution of X² when `games` wins fall on `positions` equally likely positions (multinomial), as
    (value, probability) pairs: every outcome enumerated, equal values added."""
    expected = games / positions
    base = math.lgamma(games + 1) - games * math.log(positions)
    found: dict[float, float] = defaultdict(float)
    for wins in _compositions(games, positions):
        statistic = round(sum((w - expected) ** 2 for w in wins) / expected, _ROUND)
        found[statistic] += math.exp(base - sum(math.lgamma(w + 1) for w in wins))
    return tuple(sorted(found.items()))


def exact_multinomial_p(wins: Iterable[int]) -> float:
    """P(X² >= the observed X²) when every position is equally likely: the exact multinomial test ordered by X²
    (for two positions, the two-sided binomial test: 9 wins of 10 gives 22/1024)."""
    wins = list(wins)
    games, positions = sum(wins), len(wins)
    expected = games / positions
    observed = round(sum((w - expected) ** 2 for w in wins) / expected, _ROUND)
    return min(1.0, sum(p for value, p in exact_distribution(games, positions) if value >= observed - 1e-9))


def _convolve(a: Mapping[float, float], b: Iterable[tuple[float, float]]) -> dict[float, float]:
    out: dict[float, float] = defaultdict(float)
    b = list(b)
    for x, p in a.items():
        for y, q in b:
            out[round(x + y, _ROUND)] += p * q
    return out


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
    df: int  # the chi-square part's degrees of freedom (0 when all of it is exact)
    p_value: float | None
    method: str = ""  # "chi-square", "exact" or "exact and chi-square": how the p-value was found

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
    left out by the caller. Rows per seat, and the stratified test of "every seat wins 1/n"."""
    return _balance(((winner, n, range(n)) for winner, n in games))


def faction_balance(games: Iterable[tuple[Hashable, list[Hashable]]]) -> Balance:
    """Each game as (the winner's faction, the factions at the table): rows per faction (its games, its wins, the
    expected 1/n). Tested like seats when every game's factions are distinct positions of a fixed set; factions are
    chosen, not dealt, so the test asks whether the factions played win equally often, stratified by count."""
    return _balance(((winner, len(present), present) for winner, present in games))


def _balance(games: Iterable[tuple[Hashable, int, Iterable[Hashable]]]) -> Balance:
    strata: dict[int, dict[Hashable, list[int]]] = {}
    for winner, n, present in games:
        counts = strata.setdefault(n, {})
        for key in present:
            counts.setdefault(key, [0, 0])[0] += 1
        counts.setdefault(winner, [0, 0])[1] += 1
    return balance_from_counts({n: {k: (g, w) for k, (g, w) in counts.items()} for n, counts in strata.items()})


def _rows(strata: Strata) -> tuple[list[Row], int]:
    """Each key's games, wins, Wilson interval and expected rate over all player counts; and the games counted."""
    played: Counter = Counter()
    won: Counter = Counter()
    expected: Counter = Counter()
    total = 0
    for n, counts in strata.items():
        total += round(sum(games for games, _wins in counts.values()) / n)
        for key, (games, wins) in counts.items():
            played[key] += games
            won[key] += wins
            expected[key] += games / n
    rows = []
    for key in sorted(played, key=str):
        low, high = wilson(won[key], played[key])
        rows.append(
            Row(
                key=key,
                games=played[key],
                wins=won[key],
                rate=won[key] / played[key],
                low=low,
                high=high,
                expected=expected[key] / played[key],
            )
        )
    return rows, total


def _all_seats_equal(strata: Strata) -> tuple[float, int, dict[float, float], set[str]]:
    """The X² of each player count's stratum: chi-square where every cell expects enough, else the exact
    distribution (convolved) where it can be enumerated; a stratum of too few chosen factions is left out."""
    statistic, df, exact = 0.0, 0, {0.0: 1.0}
    methods = set()
    for n, counts in sorted(strata.items()):
        cells = [(wins, games / n) for games, wins in counts.values() if games]
        if len(cells) < 2:
            continue
        x2 = sum((o - e) ** 2 / e for o, e in cells)
        games_here = round(sum(e for _o, e in cells))
        every_position = len(cells) == n and len({games for games, _wins in counts.values()}) == 1
        if all(e >= MIN_EXPECTED for _o, e in cells):
            statistic += x2
            df += len(cells) - 1
            methods.add("chi-square")
        elif every_position and _outcomes(games_here, n) <= EXACT_LIMIT:
            statistic += x2
            exact = _convolve(exact, exact_distribution(games_here, n))
            methods.add("exact")
    return statistic, df, exact, methods


def balance_from_counts(strata: Strata) -> Balance:
    """Rows and the test from counts: for each player count n, each key's games and wins in games of n players
    (with one winner each). What the games' stored statistics keep (games/balance_stats.py)."""
    rows, total = _rows(strata)
    if total < MIN_GAMES:
        return Balance(rows=rows, games=total, statistic=None, df=0, p_value=None)
    statistic, df, exact, methods = _all_seats_equal(strata)
    if not methods:
        return Balance(rows=rows, games=total, statistic=None, df=0, p_value=None)

    def tail(rest: float) -> float:
        if df:
            return chi_square_sf(rest, df)
        return 1.0 if rest <= 1e-9 else 0.0

    p_value = min(1.0, sum(p * tail(statistic - value) for value, p in exact.items()))
    method = "exact and chi-square" if len(methods) == 2 else methods.pop()
    return Balance(rows=rows, games=total, statistic=statistic, df=df, p_value=p_value, method=method)
