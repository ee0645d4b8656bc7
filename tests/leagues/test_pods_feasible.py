"""Feasibility before any refusal (issue 49): a night the local search cannot split is searched completely, and
refused only with a proof, whose reason the refusal says in words (English, and Dutch on the site)."""

from itertools import combinations

import pytest

from leagues.nights import pods_feasible, pods_solver
from leagues.nights.pods import Evaluator, Night, PodsError, propose


def groups_of(sizes):
    groups, first = [], 1
    for size in sizes:
        groups.append(list(range(first, first + size)))
        first += size
    return groups


def planted(sizes, mix, table_sizes=(3, 4)):
    """Players in groups; every pair across groups kept apart but a matching between neighbouring groups (the
    k-th of group i with the k-th of group i+1). Across groups no three players are all allowed together, so
    the only tables of 3 or more are within a group: a group of 3 or 4 is one table, and a group of 5 cannot be
    seated at tables of 3-4 at all."""
    groups = groups_of(sizes)
    group = {p: i for i, members in enumerate(groups) for p in members}
    matched = {
        frozenset(pair) for i in range(0, len(groups) - 1, 2) for pair in zip(groups[i], groups[i + 1], strict=False)
    }
    players = [p for members in groups for p in members]
    forbidden = {
        frozenset((a, b))
        for a, b in combinations(players, 2)
        if group[a] != group[b] and frozenset((a, b)) not in matched
    }
    return Night(players=players, table_sizes=table_sizes, forbidden=forbidden, mix=mix)


@pytest.mark.parametrize("mix", ["fill", "free"])
@pytest.mark.parametrize("sizes", [[4, 3, 4, 3, 4, 3, 4, 3], [4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3]])
def test_a_night_with_exactly_one_split_that_the_local_search_misses_gets_that_split(sizes, mix):
    night = planted(sizes, mix)
    _tables, warm_key = pods_solver._warm_start(night.players, Evaluator(night), night)
    assert warm_key[0] > 0  # the heuristic breaks a rule: only the complete search finds the split
    proposal = propose(night)
    assert sorted(sorted(t.players) for t in proposal.tables) == groups_of(sizes)


@pytest.mark.parametrize("mix", ["fill", "free"])
def test_a_night_with_no_split_is_refused_with_the_proof_and_its_reason(mix):
    night = planted([5, 4, 3, 4, 3, 4, 3, 4], mix)  # 30 players: sizes alone allow 4x6 + 3x2, the pairs do not
    evaluator = Evaluator(night)
    assert pods_feasible.feasibility(night.players, evaluator, night).solve(10)[0] == "INFEASIBLE"
    with pytest.raises(PodsError) as refused:
        propose(night)
    assert refused.value.code == "infeasible" and refused.value.params == {"rule": "forbidden", "count": 30}
    assert str(refused.value) == (
        "No split keeps every hard rule: the pairs kept apart leave no way to seat the 30 players at tables of [3, 4]."
    )
    from django.utils import translation

    from leagues.nights.services import pods_message

    with translation.override("nl"):
        assert "de paren die uit elkaar blijven, laten geen manier over" in pods_message(refused.value)


def test_fill_takes_the_fewest_most_even_tables_the_pairs_kept_apart_allow():
    # 24 players: six tables of 4 would be the plain mix, but only three groups of 4 exist; of the seven-table
    # mixes, 4+4+4+3+3+3+3 is the most even, and the planted groups are its only split
    night = planted([4, 4, 4, 3, 3, 3, 3], "fill", table_sizes=(2, 3, 4))
    proposal = propose(night)
    assert sorted(sorted(t.players) for t in proposal.tables) == groups_of([4, 4, 4, 3, 3, 3, 3])
    assert proposal.solver["levels"]["tables"] == {"value": 7, "bound": 7, "proven": True}


def test_the_hard_nights_benchmark_runs_and_refuses_no_night_that_has_a_split():
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run(
        [sys.executable, "bench/optimiser_hard.py", "--sizes", "13", "--per-size", "4", "--reference-seconds", "2"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert " 0 false refusals" in done.stdout


def test_the_refusal_without_a_proof_never_says_ask_again():
    from django.utils import translation

    from leagues.nights.services import pods_message

    error = PodsError("", "undecided", seconds=20)
    assert pods_message(error) == (
        "The optimiser's complete search neither found a split nor proved that none "
        "exists in 20 seconds: the pairs kept apart are too many to decide."
    )
    with translation.override("nl"):
        assert pods_message(error).startswith("De volledige zoektocht van de optimalisator vond in 20 seconden")


def test_the_possible_tables_of_a_planted_night_lie_within_its_groups():
    night = planted([4, 3, 4, 3], "free")
    tables = pods_feasible.possible_tables(night.players, Evaluator(night), night, {3, 4})
    within = sorted(
        sorted(t) for members in groups_of([4, 3, 4, 3]) for size in (3, 4) for t in combinations(members, size)
    )
    assert sorted(sorted(t) for t in tables) == within  # a group of 4, its four threes; a group of 3 itself


# --- the rule in full: in "free", at equal repeats, the fewest tables ----------------------------------------


@pytest.mark.parametrize("count, clique, tables", [(60, 16, 16), (100, 26, 26)])
def test_free_seats_the_fewest_tables_among_the_splits_with_the_fewest_repeats(count, clique, tables):
    # the first `clique` players all met each other: no repeat means one of them per table, so at least `clique`
    # tables; tables of 4 alone (count / 4) cannot avoid a repeat, tables of 3 (a third of count) are too many
    players = list(range(1, count + 1))
    met = {frozenset((a, b)): 1 for a, b in combinations(range(1, clique + 1), 2)}
    proposal = propose(Night(players=players, met=met, mix="free"))
    assert proposal.repeats == 0
    assert len(proposal.tables) == tables
    assert proposal.solver["levels"]["tables"]["value"] == tables
    assert proposal.solver["levels"]["repeats"] == {"value": 0.0, "bound": 0.0, "proven": True}


def test_every_level_states_a_bound_no_higher_than_its_value():
    night = planted([4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3], "free")
    night.met = {frozenset((a, a + 1)): 1 for a in range(1, 38)}
    proposal = propose(night)
    assert list(proposal.solver["levels"]) == ["repeats", "tables", "seat_cost"]
    for level in proposal.solver["levels"].values():
        assert level["bound"] <= level["value"] and level["proven"] == (level["bound"] == level["value"])


def test_fill_asks_the_local_search_in_free_before_searching_completely_for_any_split(monkeypatch):
    # 34 players at sizes 2-4: the plain mix (8x4 + 2) has no split, so the local search in "fill" breaks a
    # rule; in "free" it finds the planted groups, which the complete search then only has to better in mix
    # (it searched for any split at all first: 2.7-5.5 s of CPU on dense 100-150-player nights)
    sizes = [4, 4, 4, 4, 3, 3, 3, 3, 3, 3]
    night = planted(sizes, "fill", table_sizes=(2, 3, 4))
    asked = []

    def first_split(*args, known=None, **kwargs):
        asked.append(known)
        return pods_feasible.first_split(*args, known=known, **kwargs)

    monkeypatch.setattr(pods_solver, "first_split", first_split)
    proposal = propose(night)
    assert len(asked) == 1 and asked[0] is not None
    assert sorted(sorted(t.players) for t in proposal.tables) == groups_of(sizes)


def test_fill_makes_its_tables_fewer_even_at_a_repeat_which_free_does_not():
    # player 10 met 1-9: whichever table of 3 is dissolved into the other three, someone sits with 10 again
    from leagues.nights import pods_improve

    night = Night(
        players=list(range(1, 13)), table_sizes=(3, 4), met={frozenset((10, p)): 1 for p in range(1, 10)}, mix="fill"
    )
    start = [{1, 2, 3}, {4, 5, 6}, {7, 8, 9}, {10, 11, 12}]
    assert len(pods_improve.fewer_tables(start, Evaluator(night))) == 4  # free: the repeats come first
    fewer = pods_improve.fewer_tables(start, Evaluator(night), repeats_may_grow=True)
    assert sorted(map(len, fewer)) == [4, 4, 4]  # fill: the tables come first


def test_fill_halves_the_count_of_tables_and_proves_the_fewest():
    # 24 players in groups 4, 4, 4, 3, 3, 3, 3 at sizes 2-4: no table of 3 or more spans two groups, so seven
    # tables are the fewest; from a split of ten (each group of 4 as two pairs) the halving finds seven and
    # proves it (at most six: INFEASIBLE)
    from leagues.nights.pods_budget import Cpu

    night = planted([4, 4, 4, 3, 3, 3, 3], "fill", table_sizes=(2, 3, 4))
    evaluator = Evaluator(night)
    cover = pods_feasible.Columns(
        pods_feasible.possible_tables(night.players, evaluator, night, {2, 3, 4}), night.players
    )
    assert cover.at_most(6).solve(5)[0] == "INFEASIBLE"
    groups = groups_of([4, 4, 4, 3, 3, 3, 3])
    ten = [set(g[:2]) for g in groups[:3]] + [set(g[2:]) for g in groups[:3]] + [set(g) for g in groups[3:]]
    found, proven = pods_feasible._fewest(cover, night, ten, Cpu(20.0), 6)
    assert len(found) == 7 and proven
