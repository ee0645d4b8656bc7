"""A proposal's CPU ceiling (issue 49): 2 s up to 60 free players, rising to 5 s at 200 (times the night's
`time_budget` over its default of 1 s), kept by every CP-SAT solve and the last phase's rounds.

Why CPU and this clock: the budget was stated in CPU seconds, and the solver's deterministic time, the only
limit that gives the same answer on every run, is no measure of CPU: on this machine one deterministic second
of the feasibility models took 1.6-2.5 s of CPU, so a "1.5 s" plain-mix check spent 1.4-2.3 s. Each solve is
therefore given a deterministic limit that is a fixed share of the ceiling (the same night, the same limit: the
same answer) and, as its wall limit, what is left of the ceiling, which binds on a slower or loaded machine
only. `time.thread_time` is the request's own CPU: CP-SAT with one worker runs in the calling thread (measured:
thread and process time equal to the microsecond), so two proposals in one process do not charge each other,
and wall time is never less than it; the wall limit is the CPU left over the share of a core the proposal
has had so far, so that a loaded machine's solves get their CPU, not a third of it.
The complete search for any split (pods_feasible.FEASIBLE_SECONDS) is outside the ceiling: a night that has a
split is never refused for want of time that its proof needs.
"""

from __future__ import annotations

import time

DET_PER_CPU = 0.4  # deterministic seconds given per CPU second (measured 0.4-0.6 on the feasibility models)
FLOOR = 0.02  # the least wall time a solve is given (it answers UNKNOWN at once below)
MIN_SHARE = 0.25  # the least share of a core assumed: a solve's wall limit is at most 4 times its CPU


MARGIN = 0.9  # of the stated budget, the ceiling aimed at: a phase that is not a solve overruns it a little


def ceiling(count: int, time_budget: float = 1.0) -> float:
    """The CPU seconds a proposal of `count` free players may take in all."""
    return MARGIN * time_budget * min(5.0, max(2.0, 2.0 + 3.0 * (count - 60) / 140))


class Cpu:
    """What is left of a proposal's CPU ceiling, from its start."""

    def __init__(self, seconds: float):
        self.seconds, self.started, self.wall_started = seconds, time.thread_time(), time.perf_counter()

    def spent(self) -> float:
        return time.thread_time() - self.started

    def left(self) -> float:
        return max(0.0, self.seconds - self.spent())

    def share_of_core(self) -> float:
        """The CPU this thread got per wall second so far (1 on an idle machine, a third at a load of 6 on two
        cores): CP-SAT has no CPU limit, only a wall one, and a wall limit of the CPU left gave a loaded
        machine's solves a third of their CPU (a 60-player dense night 18 tables unloaded, 23 at load 6)."""
        wall = time.perf_counter() - self.wall_started
        return 1.0 if wall < 0.05 else max(MIN_SHARE, min(1.0, self.spent() / wall))

    def over(self) -> bool:
        return self.spent() >= self.seconds

    def limits(self, share: float, deterministic: float | None = None, keep: float = 0.0) -> tuple[float, float]:
        """(deterministic, wall) seconds for a solve that may take `share` of the ceiling: the first fixed by
        the night (`deterministic`, else the share's CPU in deterministic seconds), the second the CPU left
        but `keep` of the ceiling (for the phases after it), never more than the share's, in wall seconds at
        the share of a core the proposal has had so far."""
        det = share * self.seconds * DET_PER_CPU if deterministic is None else deterministic
        return det, self.wall(self.allowed(share, keep))

    def allowed(self, share: float, keep: float = 0.0) -> float:
        """The CPU seconds a phase of `share` of the ceiling may take now, keeping `keep` of it."""
        return max(0.0, min(share * self.seconds, self.left() - keep * self.seconds))

    def wall(self, cpu: float) -> float:
        """The wall seconds in which this thread gets about `cpu` seconds of CPU."""
        return max(FLOOR, cpu) / self.share_of_core()
