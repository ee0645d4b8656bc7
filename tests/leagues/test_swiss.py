"""Pairing a tournament round (issue 51): nobody meets again where any split avoids it; then the pods as even in
standings as possible (checked against every split on small rounds); seats in standings order (the leader last
in Swiss rounds, the top seed first in the cut); pods of the nights' sizes, a round with no split refused;
dropped players left out, late entries paired at 0 points; and the `manage.py swiss` contract."""

import json
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.tournaments.pairing import Entrant, PairingError, Round, pair, pod_sizes, pod_spread, spread_floor
from leagues.tournaments.pairing_json import round_from_json

ROOT = Path(__file__).resolve().parent.parent.parent
PLACES = {4: [4, 2, 1, 0], 3: [4, 2, 0]}  # a scheme per place for a pod of four and of three


def every_split(players, sizes):
    """Every split of `players` into pods of exactly the sizes `sizes` (a multiset), no pruning."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for split in every_split(others, left):
                yield [(first, *mates), *split]


def score(players, pods):
    """(repeats, spread) of pods of ids, by the contract's words: meetings per pair, |points_i - points_j|."""
    by_id = {p.id: p for p in players}
    repeats = spread = 0
    for pod in pods:
        for a, b in combinations(pod, 2):
            repeats += max(by_id[a].opponents.count(b), by_id[b].opponents.count(a))
            spread += abs(by_id[a].points - by_id[b].points)
    return repeats, spread


def play_round(rng, points, opponents, pods):
    """Each pod's finish drawn by the seeded generator and scored by PLACES; everyone's meetings recorded."""
    for pod in pods:
        for player in pod:
            opponents[player] += [other for other in pod if other != player]
        finish = list(pod)
        rng.shuffle(finish)
        for place, player in enumerate(finish):
            points[player] += PLACES[len(pod)][place]


@pytest.mark.parametrize("count, seed", [(16, 1), (23, 2), (40, 3), (64, 4)])
def test_no_avoidable_repeat_over_five_rounds(count, seed):
    """Each round's repeats equal the proven least of any split (bound), and every round seats everyone once in
    pods of the nights' sizes."""
    rng = random.Random(seed)
    points = {p: 0 for p in range(1, count + 1)}
    opponents = {p: [] for p in points}
    order = list(points)
    rng.shuffle(order)  # round 1: random pods
    for number in range(1, 6):
        players = [Entrant(p, points[p], tuple(opponents[p])) for p in order]
        pairing = pair(Round(players, (3, 4), seed=seed))
        assert pairing.repeats == pairing.bound, f"round {number}: an avoidable repeat ({pairing.solver})"
        assert pairing.repeats == score(players, pairing.pods)[0]
        assert sorted(p for pod in pairing.pods for p in pod) == sorted(points)
        assert sorted(len(pod) for pod in pairing.pods) == sorted(pod_sizes(count, (3, 4)))
        play_round(rng, points, opponents, pairing.pods)
        order = sorted(points, key=lambda p: -points[p])
    if count >= 23:  # enough players that five rounds need no rematch
        assert all(len(set(met)) == len(met) for met in opponents.values())


def random_round(rng, count):
    players = list(range(1, count + 1))
    met = {p: [] for p in players}
    for a, b in combinations(players, 2):
        for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
            met[a].append(b)
            met[b].append(a)
    points = {p: rng.choice([0, 1, 2, 4, 5, 6, 8]) for p in players}
    return [Entrant(p, points[p], tuple(met[p])) for p in sorted(players, key=lambda p: -points[p])]


@pytest.mark.parametrize("seed", range(24))
def test_the_split_is_the_best_of_every_split_on_small_rounds(seed):
    rng = random.Random(seed)
    players = random_round(rng, rng.randint(5, 10))
    sizes = rng.choice([(3, 4), (2, 3), (4,), (3,)])
    fill = pod_sizes(len(players), sizes)
    if fill is None:
        with pytest.raises(PairingError):
            pair(Round(players, sizes))
        return
    best = min(score(players, split) for split in every_split([p.id for p in players], list(fill)))
    pairing = pair(Round(players, sizes))
    assert (pairing.repeats, pairing.spread) == best == score(players, pairing.pods)
    assert pairing.exact and pairing.bound == pairing.repeats


@given(st.lists(st.integers(0, 12), min_size=2, max_size=12), st.sampled_from([(3, 4), (2, 3), (2,)]))
@settings(max_examples=60)
def test_the_spread_floor_holds_for_every_split(values, sizes):
    fill = pod_sizes(len(values), sizes)
    if fill is None or len(values) > 9:
        return
    splits = every_split(list(range(len(values))), list(fill))
    least = min(sum(pod_spread([values[i] for i in pod]) for pod in split) for split in splits)
    assert spread_floor(values, list(fill)) <= least


def test_the_leaders_play_each_other():
    players = [Entrant(p, points) for p, points in zip("abcdefgh", [9, 9, 8, 8, 3, 2, 1, 0], strict=True)]
    pairing = pair(Round(players, (4,)))
    assert [set(pod) for pod in pairing.pods] == [set("abcd"), set("efgh")]
    assert pairing.spread == (0 + 1 + 1 + 1 + 1 + 0) + (1 + 2 + 3 + 1 + 2 + 1)


def test_a_rematch_is_paid_in_spread_before_it_is_allowed():
    players = [
        Entrant("a", 9, ("b",)),
        Entrant("b", 9, ("a",)),
        Entrant("c", 8),
        Entrant("d", 8),
        Entrant("e", 0),
        Entrant("f", 0),
    ]
    pairing = pair(Round(players, (3,)))
    assert pairing.repeats == 0 and not any({"a", "b"} <= set(pod) for pod in pairing.pods)


def test_swiss_seats_the_lowest_placed_first_and_the_leader_last():
    players = [Entrant("lead", 6), Entrant("second", 5), Entrant("third", 4), Entrant("last", 1)]
    assert pair(Round(players, (4,))).pods == (("last", "third", "second", "lead"),)


def test_the_cut_seats_the_top_seed_first():
    players = [Entrant("seed1", 6), Entrant("seed2", 5), Entrant("seed3", 4), Entrant("seed4", 1)]
    assert pair(Round(players, (4,), seat_rule="cut")).pods == (("seed1", "seed2", "seed3", "seed4"),)


def test_equal_points_keep_the_order_the_tie_breakers_gave():
    players = [Entrant("x", 4), Entrant("y", 4), Entrant("z", 4)]
    assert pair(Round(players, (3,))).pods == (("z", "y", "x"),)
    assert pair(Round(players[::-1], (3,))).pods == (("x", "y", "z"),)


def test_a_dropped_player_is_left_out_and_a_late_entry_sits_with_the_last():
    players = [
        Entrant(1, 8, (2,)),
        Entrant(2, 8, (1, 9)),
        Entrant(3, 7),
        Entrant(4, 6),
        Entrant(5, 5),
        Entrant(9, 5, (2,), dropped=True),
        Entrant(6, 2),
        Entrant(7, 1),
        Entrant("late", 0),
    ]
    pairing = pair(Round(players, (4,)))
    seated = [p for pod in pairing.pods for p in pod]
    assert 9 not in seated and sorted(seated, key=str) == sorted([1, 2, 3, 4, 5, 6, 7, "late"], key=str)
    late = next(pod for pod in pairing.pods if "late" in pod)
    assert {6, 7} < set(late) and late[0] == "late"  # with the lowest placed, in the first seat
    assert pairing.repeats == 0


def test_short_pods_not_byes():
    players = [Entrant(p, 13 - p) for p in range(13)]
    assert sorted(len(pod) for pod in pair(Round(players, (3, 4))).pods) == [3, 3, 3, 4]


@pytest.mark.parametrize("count, sizes, byes", [(5, (3, 4), 1), (2, (3, 4), None), (7, (4,), 3)])
def test_a_round_with_no_split_is_refused(count, sizes, byes):
    players = [Entrant(p, p) for p in range(count)]
    with pytest.raises(PairingError) as refused:
        pair(Round(players, sizes))
    assert refused.value.code == "unsplittable" and refused.value.params["byes"] == byes
    assert f"{count} players cannot be split" in str(refused.value)


def test_the_same_round_gives_the_same_pods():
    players = random_round(random.Random(7), 20)
    first, second = pair(Round(players, (3, 4))), pair(Round(players, (3, 4)))
    assert first.as_json() == second.as_json()


def write(tmp_path, data):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_the_swiss_command_answers_the_contract(tmp_path, capsys):
    data = {
        "players": [
            {"id": 1, "points": 6, "opponents": [2, 3, 4]},
            {"id": 2, "points": 4, "opponents": [1]},
            {"id": 3, "points": 4, "opponents": [1]},
            {"id": 4, "points": 2, "opponents": [1]},
            {"id": 5, "points": 1},
            {"id": 6, "points": 0, "opponents": [], "dropped": False},
            {"id": 7, "points": 9, "dropped": True},
        ],
        "table_sizes": [3],
        "seat_rule": "swiss",
    }
    call_command("swiss", "--input", write(tmp_path, data))
    answer = json.loads(capsys.readouterr().out)
    assert answer == {"pods": [[6, 5, 1], [4, 3, 2]], "repeats": 0, "spread": 16, "bound": 0}


@pytest.mark.parametrize(
    "data, says",
    [
        ("{not json", "not valid JSON"),
        ({"table_sizes": [3]}, '"players" must be a non-empty list'),
        ({"players": [1, 2, 3]}, 'Each player must be an object with an "id"'),
        ({"players": [{"id": 1, "points": "x"}]}, '"points" of 1 must be a number'),
        ({"players": [{"id": 1, "opponents": [1]}]}, '"opponents" of 1 must be a list of other players'),
        ({"players": [{"id": 1, "dropped": "no"}]}, '"dropped" of 1 must be true or false'),
        ({"players": [{"id": 1}, {"id": 1}, {"id": 2}]}, "listed twice"),
        ({"players": [{"id": p} for p in range(3)], "table_sizes": [1]}, "Table sizes must be whole numbers from 2"),
        ({"players": [{"id": p} for p in range(3)], "seat_rule": "random"}, '"seat_rule" must be "swiss"'),
        ({"players": [{"id": 1, "dropped": True}]}, "No player is left to pair"),
        ({"players": [{"id": p} for p in range(5)]}, "5 players cannot be split into pods of [3, 4]; 1 bye(s)"),
    ],
)
def test_bad_input_is_refused_with_exit_two(tmp_path, data, says, capsys):
    with pytest.raises(CommandError) as refused:
        call_command("swiss", "--input", write(tmp_path, data))
    assert refused.value.returncode == 2
    assert says in str(refused.value)
    assert capsys.readouterr().out == ""  # no pods printed


def test_the_swiss_command_exits_two_from_the_shell(tmp_path):
    path = write(tmp_path, {"players": [{"id": p} for p in range(5)], "table_sizes": [3, 4]})
    done = subprocess.run(
        [sys.executable, "manage.py", "swiss", "--input", path], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "cannot be split" in done.stderr and done.stdout == ""


def test_round_from_json_defaults_a_late_entry_to_no_points_and_no_meetings():
    round_ = round_from_json({"players": [{"id": "late"}]})
    assert round_.players == [Entrant("late", 0, (), False)]
    assert round_.table_sizes == (3, 4) and round_.seat_rule == "swiss"
