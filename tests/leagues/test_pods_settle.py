"""The optimiser's last phase (issue 37, leagues/nights/pods_improve.py): one player from every table leaves and
the leavers are seated again by an exact assignment; kicks and two-table re-splits in turn. Whatever the night,
it never makes the repeats or the seat cost worse, never breaks a hard rule, keeps the table sizes, and gives the
same tables for the same night, because its work is counted, not timed."""

import random
from itertools import combinations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.nights import pods_improve, pods_solver
from leagues.nights.pods import Evaluator, Night, propose, split_key


def pair(a, b):
    return frozenset((a, b))


def key(tables, evaluator: Evaluator, mix: str) -> tuple:
    return split_key([evaluator.score(frozenset(t))[0] for t in tables], [len(t) for t in tables], mix)


def keeps_rules(tables, evaluator: Evaluator) -> bool:
    return all(not evaluator.score(frozenset(t))[0][0] for t in tables)


def some_split(players, rng: random.Random, evaluator: Evaluator) -> list[set]:
    """A split of tables of 4 and 3 that keeps the pairs apart where a shuffle finds one."""
    for _ in range(200):
        order = players[:]
        rng.shuffle(order)
        threes = (4 - len(order) % 4) % 4
        sizes = [3] * threes + [4] * ((len(order) - 3 * threes) // 4)
        tables, at = [], 0
        for size in sizes:
            tables.append(set(order[at : at + size]))
            at += size
        if keeps_rules(tables, evaluator):
            return tables
    return []


nights = st.integers(13, 30).flatmap(
    lambda n: st.fixed_dictionaries(
        {
            "n": st.just(n),
            "met": st.dictionaries(
                st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1]),
                st.sampled_from([0.5, 1, 2, 3]),
                max_size=3 * n,
            ),
            "seats": st.dictionaries(st.integers(1, n), st.tuples(*[st.integers(0, 4)] * 4), max_size=n),
            "forbidden": st.lists(
                st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1]), max_size=4
            ),
            "mix": st.sampled_from(["fill", "free"]),
            "seed": st.integers(0, 1000),
        }
    )
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights)
def test_settling_never_makes_a_split_worse_nor_breaks_a_rule(data):
    players = list(range(1, data["n"] + 1))
    night = Night(
        players=players,
        table_sizes=(3, 4),
        met={pair(*k): v for k, v in data["met"].items()},
        seats={(p, ""): s for p, s in data["seats"].items()},
        forbidden={pair(*f) for f in data["forbidden"]},
        mix=data["mix"],
        seed=data["seed"],
    )
    evaluator = Evaluator(night)
    shuffled = some_split(players, random.Random(data["seed"]), evaluator)
    warm, warm_key = pods_solver._warm_start(players, evaluator, night)  # a split swaps cannot improve
    for start in ([shuffled] if shuffled else []) + ([] if warm_key[0] else [warm]):
        check_settled(night, evaluator, start)


def check_settled(night: Night, evaluator: Evaluator, start: list) -> None:
    players = sorted(night.players)
    before = key(start, evaluator, night.mix)
    for settled in (
        pods_improve.reassign(start, evaluator, night.mix, 5_000, night.seed),
        pods_improve.settle(start, evaluator, night.mix, 20_000, night.seed),
    ):
        assert sorted(p for t in settled for p in t) == players, "everyone seated once"
        assert keeps_rules(settled, evaluator)
        assert sorted(map(len, settled)) == sorted(map(len, start)), "the table sizes are kept"
        after = key(settled, evaluator, night.mix)
        assert after <= before
        repeats, seats = (-4, -3) if night.mix == "fill" else (1, -2)
        assert after[repeats] <= before[repeats]
        if after[repeats] == before[repeats]:
            assert after[seats] <= before[seats]


def test_the_ejection_rounds_give_everyone_the_seat_he_played_least_where_the_tables_allow():
    # three tables of 3: at each, two players have played seat 0 (or 1, or 2) least and nobody the third seat;
    # one player of each kind at every table seats everyone in his seat at once
    want = {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 0}
    seats = {(p, ""): tuple(0 if s == w else 3 for s in range(3)) for p, w in want.items()}
    night = Night(players=list(want), table_sizes=(3,), seats=seats)
    evaluator = Evaluator(night)
    start = [{1, 2, 3}, {4, 5, 6}, {7, 8, 9}]
    settled = pods_improve.reassign(start, evaluator, "fill", 10_000)
    assert key(settled, evaluator, "fill") < key(start, evaluator, "fill")
    assert all(sorted(want[p] for p in t) == [0, 1, 2] for t in settled), "each table one of each seat"


def test_the_same_night_gives_the_same_tables_whatever_the_clock(monkeypatch):
    rng = random.Random(5)
    players = list(range(1, 41))
    met = {pair(a, b): 1 for a, b in combinations(players, 2) if rng.random() < 0.3}
    seats = {(p, ""): tuple(rng.randint(0, 3) for _ in range(4)) for p in players}
    night = Night(players=players, met=met, seats=seats, mix="free")
    first = propose(night)
    assert first.solver["method"] == "local search, repeats at the bound"
    clock = iter(range(10**6))  # a clock that runs a second a call: the counted work is what stops the search
    monkeypatch.setattr(pods_solver.time, "perf_counter", lambda: float(next(clock)))
    second = propose(night)
    assert (first.tables, first.repeats, first.seat_cost) == (second.tables, second.repeats, second.seat_cost)


def test_a_small_night_is_answered_without_loading_or_tools():
    """The exact search needs no solver: a first proposal of a dozen players in a fresh process (`manage.py pods`,
    a new worker) must not pay OR-Tools' load (about 0.4-0.7 s of CPU, most of a 12-player night's wall time)."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys; from leagues.nights.pods import Night, propose; "
        "propose(Night(players=list(range(1, 13)), table_sizes=(2, 3, 4, 5, 6), mix='free')); "
        "print(sorted(m for m in sys.modules if m.startswith('ortools'))[:1])"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
