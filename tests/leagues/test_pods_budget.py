"""The night optimiser's CPU ceiling (issue 49): 2 s of CPU up to 60 players, 5 s at 200, aimed at with a
margin; every solve's wall limit is what is left of it, and the last phase's rounds stop once it is spent."""

from itertools import combinations

from leagues.nights import pods_budget, pods_improve
from leagues.nights.pods import Evaluator, Night, propose


def test_the_ceiling_follows_the_stated_budgets_with_a_margin():
    assert pods_budget.ceiling(24) == pods_budget.ceiling(60) == 0.9 * 2.0
    assert pods_budget.ceiling(130) == 0.9 * 3.5
    assert pods_budget.ceiling(200) == pods_budget.ceiling(400) == 0.9 * 5.0
    assert pods_budget.ceiling(200, time_budget=2.0) == 0.9 * 10.0


def test_a_solve_is_given_a_fixed_deterministic_limit_and_at_most_the_cpu_left():
    cpu = pods_budget.Cpu(2.0)
    deterministic, wall = cpu.limits(0.5)
    assert deterministic == 0.5 * 2.0 * pods_budget.DET_PER_CPU
    assert wall <= 1.0
    cpu.started -= 1.7  # as if 1.7 s of CPU were spent: 0.3 s left, of which 0.2 s kept for what follows
    deterministic_again, wall = cpu.limits(0.5, keep=0.1)
    assert deterministic_again == deterministic  # the same night, the same limit: the same answer
    assert wall <= 0.3 - 0.2 + 1e-3
    cpu.started -= 1.0
    assert cpu.over() and cpu.limits(0.5)[1] == pods_budget.FLOOR


def test_the_last_phase_stops_once_the_ceiling_is_spent_whatever_work_is_left():
    players = list(range(1, 41))
    met = {frozenset(pair): 1 for pair in combinations(range(1, 21), 2)}
    night = Night(players=players, met=met, mix="fill")
    evaluator = Evaluator(night)
    start = [set(players[i : i + 4]) for i in range(0, 40, 4)]  # players 1-20 meet again at every table
    spent = pods_budget.Cpu(0.0)
    assert pods_improve.settle(start, evaluator, "fill", 10**9, 0, spent) == start
    assert pods_improve.settle(start, evaluator, "fill", 10**9, 0) != start  # with time, it does better


def test_the_answer_states_its_cpu_ceiling_and_what_it_spent():
    proposal = propose(Night(players=list(range(1, 31)), mix="free"))
    assert proposal.solver["cpu_limit_seconds"] == 0.9 * 2.0
    assert 0 < proposal.solver["cpu_seconds"]


def test_on_a_loaded_machine_a_solve_gets_its_cpu_in_more_wall_time():
    cpu = pods_budget.Cpu(2.0)
    cpu.wall_started -= 10.0  # as if 10 s of wall time had passed with (almost) no CPU: at most 4 x
    assert cpu.share_of_core() == pods_budget.MIN_SHARE
    _deterministic, wall = cpu.limits(0.5)
    assert 0.5 * 2.0 * 3.9 <= wall <= 0.5 * 2.0 * 4.0  # 1 s of CPU in up to 4 s of wall time
