"""Issue 29's calibration check: are the win chances (leagues/rating_display.chances) worth more than a guess?

Run: `.venv/bin/python bench/calibration.py [--players 200] [--games 20000] [--seed 29]` for simulated players with
known skills, and add `--demo` to also replay the demo data (`manage.py demo_data`, loaded into the database
shitenno_bench_calibration, dropped and re-made each run; needs PostgreSQL as the other benches).

Each scope's results are replayed in date order; every game is predicted from the ratings as they stood before
it (rated exactly as the site rates, leagues.ratings.plackett_luce), then rated. Printed: the Brier score
(sum over the seats of (p - won)^2, a game's worth) and the log-loss (-ln p of the winner), for the model and for
the 1/n baseline measured on the same games, and a reliability table: the seats' predicted chances in 10 bins,
each bin's mean prediction beside how often those seats won. A tie for first counts as a share of the win.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from leagues.rating_display import chances  # noqa: E402
from leagues.ratings import DEFAULT_MU, DEFAULT_SIGMA, plackett_luce  # noqa: E402


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
    return {"games": counted, "brier": brier / max(counted, 1), "base_brier": base_brier / max(counted, 1),
            "log_loss": loss / max(counted, 1), "base_log_loss": base_loss / max(counted, 1), "bins": bins}


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
    print(f"  Brier score  model {figures['brier']:.4f}   1/n baseline {figures['base_brier']:.4f}"
          f"   ({(1 - figures['brier'] / figures['base_brier']) * 100:+.1f}% skill)")
    print(f"  log-loss     model {figures['log_loss']:.4f}   1/n baseline {figures['base_log_loss']:.4f}"
          f"   ({(1 - figures['log_loss'] / figures['base_log_loss']) * 100:+.1f}% skill)")
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
    for result in (Result.objects.filter(status=Result.Status.COUNTED).prefetch_related("entries")
                   .order_by("played_on", "id")):
        entries = list(result.entries.all())
        scopes.setdefault(result.game, []).append(([e.player_id for e in entries], [e.rank for e in entries]))
    return scopes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--demo", action="store_true", help="also replay the demo data (needs PostgreSQL)")
    args = parser.parse_args()
    show(f"Simulated: {args.players} players with known skills (seed {args.seed})",
         replay(simulated(args.players, args.games, args.seed)))
    if args.demo:
        for game, games in demo_games().items():
            show(f"Demo data, {game}", replay(games))


if __name__ == "__main__":
    main()
