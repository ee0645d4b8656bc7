"""calibration.py's `--cliff` (issue 50 finding 2): how far one ordinary result moves every seat's win chance, at
the game counts where the site's method could step (its window full, one past it, two; a small club's first games)
and at one where nothing should, beside the chances read from the ratings alone (the baseline, same run)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
from calibration_measures import SIZES, site_posterior, site_skill

from leagues.rating.display import FIT_MAX_GAMES, chances, fit_window, fitted_performance_sd, posterior_chances
from leagues.rating.maths import DEFAULT_MU, DEFAULT_SIGMA, plackett_luce


def cliff(spread: float, players: int, seed: int, steps: Sequence[int], tables: int = 200) -> list[tuple]:
    """Issue 50 finding 2: how far one ordinary result moves the chances, at every game count where the method
    could step (the window full, one game past it, two; a small club's first games) and at one where nothing
    should (600). A club of `players` plays on; after its game t and again after t + 1, the same `tables` random
    tables get the site's chances (its window, its posterior, as the rating job stores them); the change of each
    seat's chance in points: (t, median, largest), and the same read from the ratings with the club's own b (the
    site's chances where it had no posterior: the baseline, measured in the same run)."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, spread) for _ in range(players)]
    state = [(DEFAULT_MU, DEFAULT_SIGMA)] * players
    seats: list = []
    asked = [rng.sample(range(players), rng.choice([n for n in SIZES if n <= players])) for _ in range(tables)]

    def read() -> tuple[list[float], list[float]]:
        window = seats[len(seats) - fit_window(len(seats)) :]
        fitted = site_posterior(window)
        performance_sd = fitted_performance_sd(window)
        answer: list[float] = []
        from_ratings: list[float] = []
        for seated in asked:
            if fitted is None:
                odds = chances([state[p] for p in seated], performance_sd)
            else:
                odds = posterior_chances([site_skill(fitted, p, state[p]) for p in seated], fitted.spread)
            answer.extend(c.win for c in odds)
            from_ratings.extend(c.win for c in chances([state[p] for p in seated], performance_sd))
        return answer, from_ratings

    rows, last = [], max(steps) + 1
    wanted = {t for step in steps for t in (step, step + 1)}
    readings = {}
    for played in range(1, last + 1):
        seated = rng.sample(range(players), rng.choice([n for n in SIZES if n <= players]))
        order = sorted(seated, key=lambda p: skill[p] + rng.gauss(0, 1), reverse=True)
        before = [state[p] for p in seated]
        seats.append([(p, *state[p], order.index(p) + 1) for p in seated])
        for player, rated in zip(seated, plackett_luce(before, [order.index(p) + 1 for p in seated]), strict=True):
            state[player] = rated
        if played in wanted:
            readings[played] = tuple(np.array(reading) for reading in read())
    for step in steps:
        moved = np.abs(readings[step + 1][0] - readings[step][0]) * 100
        baseline = np.abs(readings[step + 1][1] - readings[step][1]) * 100
        rows.append(
            (step, float(np.median(moved)), float(moved.max()), float(np.median(baseline)), float(baseline.max()))
        )
    return rows


def show_cliff(seeds: Sequence[int]) -> None:
    print("\nOne result's change of every seat's chance, in points (issue 50 finding 2), 200 tables a club")
    print("| club | after game | median | largest | from the ratings: median | largest |")
    print("|---|---|---|---|---|---|")
    for name, spread, players, steps in (
        ("usual, 40 players", 1.0, 40, (600, FIT_MAX_GAMES - 1, FIT_MAX_GAMES, FIT_MAX_GAMES + 1)),
        ("wide, 40 players", 2.0, 40, (600, FIT_MAX_GAMES - 1, FIT_MAX_GAMES, FIT_MAX_GAMES + 1)),
        ("usual, 8 players", 1.0, 8, (1, 2, 3, 4, 5)),
    ):
        for seed in seeds:
            for step, median, largest, base_median, base_largest in cliff(spread, players, seed, steps):
                print(
                    f"| {name}, seed {seed} | {step} -> {step + 1} | {median:.2f} | {largest:.2f} |"
                    f" {base_median:.2f} | {base_largest:.2f} |"
                )
