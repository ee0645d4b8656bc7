"""Issue 29's and issue 40's calibration check: are the win chances (leagues/rating_display.chances) worth more than
a guess, and are they calibrated at every table size and in every kind of club?

Run: `.venv/bin/python bench/calibration.py` for issue 40's clubs (below); `--replay` adds issue 29's replay of
simulated players (`--players 200 --games 20000 --seed 29`), and `--demo` the demo data (`manage.py demo_data`,
loaded into the database shitenno_bench_calibration, dropped and re-made each run; needs PostgreSQL as the other
benches).

**Clubs (issue 40).** A club of 40 players with hidden skills N(0, spread); a player's performance in a game is
skill + N(0, 1) and the finishing order is the order of performance. The club plays `games` games (2,500 or 300)
of 2 to 5 players drawn uniformly, rated exactly as the site rates them (leagues.rating.maths.plackett_luce). Then
`--held-out` tables of each size 2-5 are drawn and predicted from the final ratings. Because the skills are known,
every held-out table's TRUE chances are computed, not sampled: P(i wins) = ∫ φ(x − s_i) Π_{j≠i} Φ(x − s_j) dx on a
fine grid. So every figure is an expectation over the outcomes, free of outcome noise, and a bias cannot hide
behind luck or behind the pooling of table sizes (each size is reported apart). Per club and table size:

- **exponent**: the sharpening exponent a that makes p_i^a / Σ_j p_j^a closest to the true chances (cross-entropy);
  1.0 = calibrated, < 1 = over-confident (the chances must be flattened), > 1 = under-confident.
- **cal.err**: the calibration error against the true chances: the seats binned by their predicted chance (10
  equal bins), Σ over bins of (seats in bin / seats) × |mean predicted − mean true chance|.
- **Brier**: the expected Brier score of a game (Σ over seats of (p − won)², its expectation under the true chances),
  beside the oracle's (the true chances themselves: the floor) and 1/n's (1 − 1/n).
- the same figures for openskill's `predict_win` (its 6.2 formula, checked against openskill itself at start).
- **place**: mean |expected place given − true expected place| (true: 1 + Σ_{j≠i} Φ((s_j − s_i)/√2)).

Then each seed's club apart: its own exponent over its held-out tables of every size (lowest, median, highest, and
how many are within 0.9-1.1), since pooled rows can hide a club too sure beside one not sure enough.

Each club kind is played with `--seeds` seeds (default 40, 41, 42: not the seeds the model was checked on while
it was built, which were 100-102), and the held-out tables of all seeds are pooled.

**Replay (issue 29).** Each scope's results are replayed in date order; every game is predicted from the ratings
as they stood before it, then rated. Printed: the Brier score and the log-loss (-ln p of the winner), for the model
and for the 1/n baseline measured on the same games, and a 10-bin reliability table. A tie for first counts as a
share of the win.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))  # its siblings calibration_*, however it is loaded

from calibration_cliff import show_cliff  # noqa: E402
from calibration_ideal import ideal_samples, ideal_win  # noqa: E402
from calibration_measures import (  # noqa: E402
    SIZES,
    best_exponent,
    calibration_error,
    check_predict_win,
    expected_brier,
    predict_win,
    site_posterior,
    site_skill,
    true_chances,
    true_places,
)

from leagues.rating.display import (  # noqa: E402
    PERFORMANCE_SD,
    Chance,
    chances,
    fit_window,
    fitted_performance_sd,
    posterior_chances,
)
from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, plackett_luce  # noqa: E402

CLUB_PLAYERS = 40
SPREADS = {"close": 0.5, "usual": 1.0, "wide": 2.0}  # the skills' standard deviation; the noise's is 1


def replay(games: list[tuple[list, list[int]]]) -> dict:
    """Predict then rate each (players, ranks) game in order; the scores and the reliability bins."""
    state: dict = {}
    brier = base_brier = loss = base_loss = 0.0
    bins = [[0, 0.0, 0.0] for _ in range(10)]  # seats, summed prediction, summed outcome
    counted = 0
    for players, ranks in games:
        n = len(players)
        if n < 2:
            continue
        before = [state.get(p, (DEFAULT_MU, DEFAULT_SIGMA)) for p in players]
        predicted = [c.win for c in chances(before)]
        first = [r == min(ranks) for r in ranks]
        outcome = [1 / sum(first) if f else 0.0 for f in first]
        brier += sum((p - y) ** 2 for p, y in zip(predicted, outcome, strict=True))
        base_brier += sum((1 / n - y) ** 2 for y in outcome)
        loss -= sum(y * math.log(max(p, 1e-15)) for p, y in zip(predicted, outcome, strict=True))
        base_loss -= math.log(1 / n)
        for p, y in zip(predicted, outcome, strict=True):
            b = bins[min(int(p * 10), 9)]
            b[0] += 1
            b[1] += p
            b[2] += y
        for player, rated in zip(players, plackett_luce(before, ranks), strict=True):
            state[player] = rated
        counted += 1
    return {
        "games": counted,
        "brier": brier / max(counted, 1),
        "base_brier": base_brier / max(counted, 1),
        "log_loss": loss / max(counted, 1),
        "base_log_loss": base_loss / max(counted, 1),
        "bins": bins,
    }


# --- Issue 40: clubs whose true chances are known ---------------------------------------------------------------


class Table(NamedTuple):
    ratings: list[tuple[float, float]]  # (mu, sigma) of each seat, from the club's final ratings
    true_win: list[float]
    true_place: list[float]
    performance_sd: float = PERFORMANCE_SD  # the club's own b (fitted_performance_sd), as its rating job stores it
    scope_exponent: float = 1.0  # the experiment's exponent, fitted on the club's own later games (scope_exponent)
    ideal_win: list[float] | None = None  # --ideal: the exact Bayesian answer, the spread unknown (ideal_samples)
    ideal_known_win: list[float] | None = None  # the same, told the club's true spread
    skills: list[tuple[float, float] | None] | None = None  # each seat's posterior skill, as the site stores it
    skill_sd: float | None = None  # the club's spread of skills from its posterior (None: too few games to read)


def sharpened(chances_: Sequence[float], exponent: float) -> list[float]:
    powered = [max(p, 1e-12) ** exponent for p in chances_]
    total = sum(powered)
    return [p / total for p in powered]


def scope_exponent(history: list[tuple[list[float], int]]) -> float:
    """The experiment (not on the site): the sharpening exponent that best predicts a scope's own games, each from
    the chances as they stood before it (the log-likelihood of the winner)."""
    groups: dict[int, tuple[list, list]] = {}
    for chances_, winner in history:
        predicted, won = groups.setdefault(len(chances_), ([], []))
        predicted.append(chances_)
        won.append([float(i == winner) for i in range(len(chances_))])
    return best_exponent([(np.array(p), np.array(w)) for p, w in groups.values()], low=0.1, high=4.0, steps=50)


def club(
    spread: float,
    games: int,
    seed: int,
    held_out: int,
    with_experiment: bool = False,
    with_ideal: bool = False,
    drift: float = 0.0,
    newcomer: bool = False,
) -> dict[int, list[Table]]:
    """Play a club's `games` games, rated as the site rates them; then `held_out` tables of each size, with their
    true chances. Each table carries the club's own b, fitted as the site's rating job fits it
    (`fitted_performance_sd` over its latest `fit_window` games' seats before them); `with_experiment`, also the
    exponent fitted on the club's later half of games; `with_ideal`, the exact Bayesian answer (ideal_samples)."""
    rng = random.Random(seed)
    orders = []  # every game's players, best first: what the ideal learns from
    skill = [rng.gauss(0, spread) for _ in range(CLUB_PLAYERS)]
    state = [(DEFAULT_MU, DEFAULT_SIGMA)] * CLUB_PLAYERS
    history = []  # the later half's chances before each game and its winner, for the experiment
    seats = []  # every game's (player, mu, sigma, rank) before it, for the club's b
    for played in range(games):
        seated = rng.sample(range(CLUB_PLAYERS), rng.choice(SIZES))
        if drift:
            skill = [s + rng.gauss(0, drift / math.sqrt(games)) for s in skill]
        performance = {p: skill[p] + rng.gauss(0, 1) for p in seated}
        order = sorted(seated, key=performance.__getitem__, reverse=True)
        orders.append(order)
        before = [state[p] for p in seated]
        seats.append([(p, *state[p], order.index(p) + 1) for p in seated])
        if with_experiment and played >= games // 2:
            history.append((site_win(before, None), seated.index(order[0])))
        for player, rated in zip(seated, plackett_luce(before, [order.index(p) + 1 for p in seated]), strict=True):
            state[player] = rated
    exponent = scope_exponent(history) if history else 1.0
    window = seats[len(seats) - fit_window(len(seats)) :]
    performance_sd = fitted_performance_sd(window)
    fitted = site_posterior(window)
    if with_ideal:
        unknown = ideal_samples(orders, CLUB_PLAYERS, None, seed)
        known = ideal_samples(orders, CLUB_PLAYERS, spread, seed)
        draws = np.random.default_rng(seed)
    tables: dict[int, list[Table]] = {}
    for n in SIZES:
        tables[n] = []
        for _ in range(held_out):
            seated = rng.sample(range(CLUB_PLAYERS), n)
            skills = [skill[p] for p in seated]
            if newcomer:  # the first seat is someone new: no rating, no game read, his skill as anyone's
                seated[0], skills[0] = -1, rng.gauss(0, spread)
            ideal = (ideal_win(unknown, seated, draws), ideal_win(known, seated, draws)) if with_ideal else (None, None)
            ratings = [state[p] if p >= 0 else (DEFAULT_MU, DEFAULT_SIGMA) for p in seated]
            tables[n].append(
                Table(
                    ratings,
                    true_chances(skills),
                    true_places(skills),
                    performance_sd,
                    exponent,
                    *ideal,
                    skills=[site_skill(fitted, p, rating) for p, rating in zip(seated, ratings, strict=True)]
                    if fitted
                    else None,
                    skill_sd=fitted.spread if fitted else None,
                )
            )
    return tables


Predictor = Callable[[Table], list[float]]


def site_win(ratings: Sequence[tuple[float, float]], performance_sd: float | None) -> list[float]:
    """The chances read from the ratings with a performance spread (the site's before issue 40's posterior, and
    still its chances before a finished table)."""
    return [c.win for c in chances(ratings, performance_sd)]


def site_chances(table: Table) -> list[Chance]:
    """The site's chances for a table, as its selectors read them (leagues.rating.chances): from the club's
    posterior skills when it has them, else from the ratings with its own b."""
    if table.skill_sd is not None:
        return posterior_chances(table.skills, table.skill_sd)
    return chances(table.ratings, table.performance_sd)


def figures(tables: list[Table], predictor: Predictor) -> dict:
    predicted = np.array([predictor(t) for t in tables])
    truth = np.array([t.true_win for t in tables])
    return {
        "exponent": best_exponent([(predicted, truth)]),
        "cal": calibration_error(predicted, truth),
        "brier": expected_brier(predicted, truth),
    }


def place_error(tables: list[Table]) -> float:
    given = np.array([[c.expected_place for c in site_chances(t)] for t in tables])
    return float(np.abs(given - np.array([t.true_place for t in tables])).mean())


def size_row(tables: list[Table], with_experiment: bool = False) -> dict:
    truth = np.array([t.true_win for t in tables])
    n = truth.shape[1]
    row = {
        "site": figures(tables, lambda t: [c.win for c in site_chances(t)]),
        "ratings": figures(tables, lambda t: site_win(t.ratings, t.performance_sd)),
        "openskill": figures(tables, lambda t: predict_win(t.ratings)),
        "oracle": expected_brier(truth, truth),
        "guess": 1 - 1 / n,
        "place": place_error(tables),
    }
    if with_experiment:
        row["scope"] = figures(tables, lambda t: sharpened(site_win(t.ratings, None), t.scope_exponent))
    if tables[0].ideal_win is not None:
        row["ideal"] = figures(tables, lambda t: t.ideal_win)
        row["ideal_known"] = figures(tables, lambda t: t.ideal_known_win)
    return row


def clubs(
    games: Sequence[int],
    seeds: Sequence[int],
    held_out: int,
    with_experiment: bool = False,
    with_ideal: bool = False,
    drift: float = 0.0,
    newcomer: bool = False,
) -> list[tuple[str, int, dict]]:
    """Every (club kind, size)'s row, the seeds' held-out tables pooled; each row also holds ("own") each seed's
    club's own exponent, over its held-out tables of every size."""
    rows = []
    for spread_name, spread in SPREADS.items():
        for count in games:
            pooled: dict[int, list[Table]] = {n: [] for n in SIZES}
            own, own_ideal = [], []
            for seed in seeds:
                played = club(spread, count, seed, held_out, with_experiment, with_ideal, drift, newcomer)
                own.append(club_exponent(played))
                if with_ideal:
                    own_ideal.append(club_exponent(played, lambda t: t.ideal_win))
                for n, tables in played.items():
                    pooled[n].extend(tables)
            rows.extend(
                (
                    f"{spread_name} (sd {spread}), {count} games",
                    n,
                    {**size_row(pooled[n], with_experiment), "own": own, "own_ideal": own_ideal},
                )
                for n in SIZES
            )
    return rows


def club_exponent(tables: dict[int, list[Table]], predictor: Predictor | None = None) -> float:
    """One club's own exponent: the site's chances (or `predictor`'s) of its held-out tables of every size against
    their truth."""
    predictor = predictor or (lambda t: [c.win for c in site_chances(t)])
    return best_exponent(
        [(np.array([predictor(t) for t in sized]), np.array([t.true_win for t in sized])) for sized in tables.values()]
    )


def show_clubs(rows: list[tuple[str, int, dict]], seeds: Sequence[int], held_out: int) -> None:
    print(
        f"\nClubs of {CLUB_PLAYERS} players, seeds {', '.join(map(str, seeds))}, {held_out} held-out tables of each"
        " size per seed (true chances by integration)"
    )
    print(
        "| club | seats | exponent | cal.err | Brier | oracle | 1/n | place err"
        " | openskill exponent | cal.err | Brier |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, n, row in rows:
        site, theirs = row["site"], row["openskill"]
        print(
            f"| {name} | {n} | {site['exponent']:.2f} | {site['cal']:.3f} | {site['brier']:.4f} |"
            f" {row['oracle']:.4f} | {row['guess']:.4f} | {row['place']:.3f} | {theirs['exponent']:.2f} |"
            f" {theirs['cal']:.3f} | {theirs['brier']:.4f} |"
        )
    verdict(rows)
    show_own(rows)
    show_ratings(rows)
    if "scope" in rows[0][2]:
        show_experiment(rows)
    if "ideal" in rows[0][2]:
        show_ideal(rows)


def show_own(
    rows: list[tuple[str, int, dict]],
    key: str = "own",
    title: str = "Each seed's club apart (its held-out tables of every size): its own exponent",
) -> None:
    """Each club apart: the pooled rows above can hide clubs too sure and clubs not sure enough that cancel."""
    print(f"\n{title}")
    print("| club | clubs | lowest | median | highest | in 0.9-1.1 |")
    print("|---|---|---|---|---|---|")
    for name, own in {name: row[key] for name, _n, row in rows}.items():
        print(
            f"| {name} | {len(own)} | {min(own):.2f} | {float(np.median(own)):.2f} | {max(own):.2f} |"
            f" {sum(0.9 <= a <= 1.1 for a in own)} |"
        )


def show_ratings(rows: list[tuple[str, int, dict]]) -> None:
    """The same tables read from the ratings with each scope's own b (the site's chances before the posterior,
    and still a finished table's chances before it), measured in the same run: the before of the table above."""
    print("\nThe same tables from the ratings with each club's own b (before the posterior), and the posterior's gain")
    print("| club | seats | exponent | cal.err | Brier | posterior's Brier | oracle |")
    print("|---|---|---|---|---|---|---|")
    for name, n, row in rows:
        ratings = row["ratings"]
        print(
            f"| {name} | {n} | {ratings['exponent']:.2f} | {ratings['cal']:.3f} | {ratings['brier']:.4f} |"
            f" {row['site']['brier']:.4f} | {row['oracle']:.4f} |"
        )


def show_ideal(rows: list[tuple[str, int, dict]]) -> None:
    """The yardstick: the exact Bayesian answer from the same games (ideal_samples), beside the site's."""
    print(
        "\nThe ideal (not for the site): the exact posterior predictive under the simulation's own model, from the"
        " same games; the spread unknown (prior p(tau^2) ~ 1/tau^2), then told the true spread"
    )
    print(
        "| club | seats | site exponent | ideal exponent | cal.err | Brier | told the spread: exponent | cal.err"
        " | Brier | oracle |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, n, row in rows:
        ideal, known = row["ideal"], row["ideal_known"]
        print(
            f"| {name} | {n} | {row['site']['exponent']:.2f} | {ideal['exponent']:.2f} | {ideal['cal']:.3f} |"
            f" {ideal['brier']:.4f} | {known['exponent']:.2f} | {known['cal']:.3f} | {known['brier']:.4f} |"
            f" {row['oracle']:.4f} |"
        )
    show_own(rows, "own_ideal", "Each seed's club apart, the ideal's own exponent (spread unknown)")


def show_experiment(rows: list[tuple[str, int, dict]]) -> None:
    """The experiment: the site's chances sharpened by an exponent each club fits on its own later half of games."""
    print(
        "\nExperiment (not on the site): the chances sharpened by the exponent each club fits on its own later"
        " half of games"
    )
    print("| club | seats | exponent | cal.err | Brier | oracle |")
    print("|---|---|---|---|---|---|")
    for name, n, row in rows:
        scope = row["scope"]
        print(
            f"| {name} | {n} | {scope['exponent']:.2f} | {scope['cal']:.3f} | {scope['brier']:.4f} |"
            f" {row['oracle']:.4f} |"
        )


def verdict(rows: list[tuple[str, int, dict]]) -> None:
    """Issue 40's targets, row by row: exponent 0.9-1.1 everywhere, cal.err ≤ 0.02, Brier ≤ oracle + 0.01 in the
    2,500-game clubs."""
    exponent = [r for r in rows if not 0.9 <= r[2]["site"]["exponent"] <= 1.1]
    cal = [r for r in rows if r[2]["site"]["cal"] > 0.02]
    brier = [r for r in rows if "2500 games" in r[0] and r[2]["site"]["brier"] > r[2]["oracle"] + 0.01]
    for label, missed in (
        ("exponent in 0.9-1.1", exponent),
        ("calibration error <= 0.02", cal),
        ("Brier within 0.01 of the oracle (2,500-game clubs)", brier),
    ):
        where = "; ".join(f"{name} at {n}" for name, n, _row in missed)
        print(f"target {label}: {'met in every row' if not missed else f'missed in {len(missed)}: {where}'}")


def simulated(players: int, count: int, seed: int) -> list[tuple[list, list[int]]]:
    """Games of 2 to 5 players drawn at random; each finishes in the order of skill + noise (skills spread with a
    standard deviation of 1, the noise the same): the known truth the ratings should learn."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(players)]
    games = []
    for _ in range(count):
        seated = rng.sample(range(players), rng.randint(2, 5))
        performance = {p: skill[p] + rng.gauss(0, 1) for p in seated}
        order = sorted(seated, key=performance.__getitem__, reverse=True)
        games.append((seated, [order.index(p) + 1 for p in seated]))
    return games


def show(title: str, figures: dict) -> None:
    print(f"\n{title}: {figures['games']} games")
    if not figures["games"]:
        print("  nothing to replay")
        return
    print(
        f"  Brier score  model {figures['brier']:.4f}   1/n baseline {figures['base_brier']:.4f}"
        f"   ({(1 - figures['brier'] / figures['base_brier']) * 100:+.1f}% skill)"
    )
    print(
        f"  log-loss     model {figures['log_loss']:.4f}   1/n baseline {figures['base_log_loss']:.4f}"
        f"   ({(1 - figures['log_loss'] / figures['base_log_loss']) * 100:+.1f}% skill)"
    )
    print("  reliability: predicted chance bin | seats | mean predicted | observed win rate")
    for i, (seats, predicted, won) in enumerate(figures["bins"]):
        if seats:
            print(f"    {i / 10:.1f}-{(i + 1) / 10:.1f} | {seats:6d} | {predicted / seats:.3f} | {won / seats:.3f}")


def demo_games() -> dict[str, list[tuple[list, list[int]]]]:
    """The demo data's counted results, per game, in (played_on, id) order."""
    import _django

    _django.setup("shitenno_bench_calibration")
    from django.core.management import call_command

    from leagues.models import Result

    call_command("demo_data", verbosity=0)
    scopes: dict[str, list] = {}
    for result in (
        Result.objects.filter(status=Result.Status.COUNTED).prefetch_related("entries").order_by("played_on", "id")
    ):
        entries = list(result.entries.all())
        scopes.setdefault(result.game, []).append(([e.player_id for e in entries], [e.rank for e in entries]))
    return scopes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--demo", action="store_true", help="also replay the demo data (needs PostgreSQL)")
    parser.add_argument("--replay", action="store_true", help="also issue 29's replay of simulated players")
    parser.add_argument("--club-games", type=int, nargs="+", default=[2500, 300])
    parser.add_argument("--seeds", type=int, nargs="+", default=[40, 41, 42])
    parser.add_argument("--held-out", type=int, default=300, help="held-out tables of each size per club")
    parser.add_argument(
        "--experiment",
        action="store_true",
        help="also the chances sharpened by an exponent each club fits on its own later games",
    )
    parser.add_argument(
        "--ideal",
        action="store_true",
        help="also the exact Bayesian answer from the same games (slow: about 30 s a club)",
    )
    parser.add_argument(
        "--drift",
        type=float,
        default=0.0,
        help="skills walk randomly with this sd over each club's life (issue 50 finding 3)",
    )
    parser.add_argument(
        "--newcomer",
        action="store_true",
        help="every held-out table seats one player who never played (issue 50 finding 4)",
    )
    parser.add_argument(
        "--cliff", action="store_true", help="only the change one result causes at every threshold (issue 50 finding 2)"
    )
    args = parser.parse_args()
    if args.cliff:
        show_cliff(args.seeds)
        return
    check_predict_win(SIZES)
    show_clubs(
        clubs(args.club_games, args.seeds, args.held_out, args.experiment, args.ideal, args.drift, args.newcomer),
        args.seeds,
        args.held_out,
    )
    if args.replay:
        show(
            f"Simulated: {args.players} players with known skills (seed {args.seed})",
            replay(simulated(args.players, args.games, args.seed)),
        )
    if args.demo:
        for game, games in demo_games().items():
            show(f"Demo data, {game}", replay(games))


if __name__ == "__main__":
    main()
