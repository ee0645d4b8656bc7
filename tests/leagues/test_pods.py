"""The league-night optimiser (issue 25): every hard rule holds, small nights are split optimally, and the
`manage.py pods` contract answers JSON or refuses with exit 2."""

import json
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.nights.pods import Night, PodsError, Table, night_from_json, propose, seat_cost

ROOT = Path(__file__).resolve().parent.parent.parent


def pair(a, b):
    return frozenset((a, b))


def assert_every_rule_kept(night: Night, proposal):
    seated = [p for table in proposal.tables for p in table.players]
    assert sorted(seated) == sorted(night.players), "everyone seated exactly once"
    games = night.games or {"": tuple(night.table_sizes)}
    for table in proposal.tables:
        if table.locked:
            continue
        assert len(table.players) in games[table.game]
        for p in table.players:
            assert table.game in night.accepts.get(p, set(games))
        for a, b in combinations(table.players, 2):
            assert pair(a, b) not in night.forbidden
    for kept, table in zip(night.locked, proposal.tables[:len(night.locked)], strict=True):
        assert table.players == kept.players and table.locked


def splits(players, sizes):
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sizes:
        for mates in combinations(rest, size - 1):
            table = {first, *mates}
            for split in splits([p for p in rest if p not in table], sizes):
                yield [table, *split]


def test_a_rematch_is_avoided_when_a_rematch_free_split_exists():
    # round 1 was {1,2,3,4} and {5,6,7,8}: the only good round 2 mixes them two and two
    met = {pair(a, b): 1 for group in ((1, 2, 3, 4), (5, 6, 7, 8)) for a, b in combinations(group, 2)}
    proposal = propose(Night(players=list(range(1, 9)), table_sizes=(4,), met=met))
    assert proposal.repeats == 4  # two old partners per table is forced with two tables of four
    assert proposal.exact
    assert all(len({p <= 4 for p in t.players}) == 2 for t in proposal.tables)


def test_the_first_player_of_last_time_is_not_first_again():
    night = Night(players=[1, 2, 3], table_sizes=(3,), seats={(1, ""): (3, 0, 0), (2, ""): (0, 3, 0)})
    (table,) = propose(night).tables
    assert table.players[0] != 1 and table.players[1] != 2
    assert seat_cost((3, 0, 0), 0, 3) > seat_cost((3, 0, 0), 1, 3) == seat_cost((3, 0, 0), 2, 3)


def test_a_forbidden_pair_never_shares_a_table_even_at_a_cost():
    met = {pair(1, 3): 5, pair(1, 4): 5, pair(2, 3): 5, pair(2, 4): 5}
    night = Night(players=[1, 2, 3, 4, 5, 6], table_sizes=(3,), met=met, forbidden={pair(1, 2)})
    proposal = propose(night)
    assert_every_rule_kept(night, proposal)
    assert proposal.repeats > 0  # the cheaper split would have seated 1 with 2


def test_only_game_x_is_honoured():
    night = Night(players=list(range(1, 8)), games={"shitenno": (4,), "teikoku": (3,)},
                  accepts={1: {"teikoku"}, 2: {"teikoku"}, 5: {"shitenno"}})
    proposal = propose(night)
    assert_every_rule_kept(night, proposal)
    assert {t.game for t in proposal.tables if 1 in t.players} == {"teikoku"}


def test_no_valid_split_is_refused_and_says_why():
    with pytest.raises(PodsError, match="forbidden pairs"):
        propose(Night(players=[1, 2, 3], table_sizes=(3,), forbidden={pair(1, 2)}))
    with pytest.raises(PodsError, match="5 players cannot be split into tables of \\[4\\]"):
        propose(Night(players=[1, 2, 3, 4, 5], table_sizes=(4,)))


def test_a_latecomer_is_seated_and_the_locked_tables_are_kept():
    locked = Table((4, 2, 3), locked=True)
    night = Night(players=[1, 2, 3, 4, 5, 6, 7, 8, 9], table_sizes=(3,), locked=[locked],
                  met={pair(5, 6): 3, pair(7, 8): 3})
    before = propose(night)
    assert before.tables[0] == locked
    night.players.append(10)  # a latecomer; 9 leaves early
    night.players.remove(9)
    night.table_sizes = (3, 4)
    after = propose(night)
    assert after.tables[0] == locked
    assert_every_rule_kept(night, after)
    assert 10 in {p for t in after.tables for p in t.players} and 9 not in {p for t in after.tables for p in t.players}


def test_a_locked_table_naming_an_absent_player_is_refused():
    with pytest.raises(PodsError, match="not checked in"):
        propose(Night(players=[1, 2, 3], table_sizes=(3,), locked=[Table((1, 2, 9))]))


nights = st.integers(min_value=2, max_value=14).flatmap(lambda n: st.fixed_dictionaries({
    "players": st.just(list(range(1, n + 1))),
    "sizes": st.lists(st.integers(2, 5), min_size=1, max_size=3, unique=True),
    "met": st.dictionaries(st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1]),
                           st.integers(0, 3), max_size=20),
    "forbidden": st.lists(st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda t: t[0] != t[1]),
                          max_size=3),
    "teikoku_only": st.lists(st.integers(1, n), max_size=3, unique=True),
    "locked": st.integers(0, min(3, n)),
}))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nights)
def test_every_hard_rule_holds_or_the_night_is_refused(data):
    players = data["players"]
    locked = [Table(tuple(players[:data["locked"]]), "shitenno")] if data["locked"] >= 2 else []
    night = Night(players=list(players), games={"shitenno": tuple(data["sizes"]), "teikoku": (3, 4)},
                  met={pair(*k): v for k, v in data["met"].items()},
                  forbidden={pair(*f) for f in data["forbidden"]},
                  accepts={p: {"teikoku"} for p in data["teikoku_only"]}, locked=locked)
    try:
        proposal = propose(night)
    except PodsError:
        free = [p for p in players if p not in {q for t in locked for q in t.players}]
        if len(free) <= 8:  # small enough to prove by brute force that nothing valid exists
            sizes = sorted(set(data["sizes"]) | {3, 4})
            for split in splits(free, sizes):
                valid = True
                for table in split:
                    if any(pair(a, b) in night.forbidden for a, b in combinations(table, 2)):
                        valid = False
                    games = {g for g, s in night.games.items() if len(table) in s}
                    for p in table:
                        games &= night.accepts.get(p, {"shitenno", "teikoku"})
                    valid &= bool(games)
                assert not valid, f"refused, yet {split} keeps every rule"
        return
    assert_every_rule_kept(night, proposal)


@settings(max_examples=40, deadline=None)
@given(st.integers(4, 9), st.dictionaries(st.tuples(st.integers(1, 9), st.integers(1, 9)), st.integers(0, 3)),
       st.dictionaries(st.integers(1, 9), st.tuples(*[st.integers(0, 3)] * 4)))
def test_small_nights_are_split_optimally(n, met, seats):
    players = list(range(1, n + 1))
    night = Night(players=players, table_sizes=(2, 3, 4),
                  met={pair(a, b): t for (a, b), t in met.items() if a != b and a <= n and b <= n},
                  seats={(p, ""): s for p, s in seats.items()})
    proposal = propose(night)
    best = min(round(sum(night.met.get(pair(a, b), 0) for t in split for a, b in combinations(t, 2)), 9)
               for split in splits(players, (2, 3, 4)))
    assert proposal.repeats == best
    assert proposal.repeats_lower_bound <= best


def test_a_large_night_keeps_every_rule_and_is_deterministic():
    players = list(range(1, 41))
    met = {pair(a, a + 1): 2 for a in range(1, 40)} | {pair(a, a + 4): 1 for a in range(1, 37)}
    night = Night(players=players, table_sizes=(3, 4), met=met, forbidden={pair(1, 3), pair(10, 12)},
                  seats={(p, ""): (p % 3, 1, 0, 0) for p in players})
    first, second = propose(night), propose(night)
    assert not first.exact
    assert_every_rule_kept(night, first)
    assert first == second
    assert first.repeats >= first.repeats_lower_bound


def write(tmp_path, data):
    path = tmp_path / "night.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_the_pods_command_answers_the_contract(tmp_path, capsys):
    data = {"players": [1, 2, 3, 4, 5, 6, 7], "table_sizes": [3, 4], "met": [[1, 2, 3], [9, 1, 4]],
            "seats": {"1": [2, 0, 0, 0]}, "forbidden": [[5, 6]]}
    call_command("pods", "--input", write(tmp_path, data))
    answer = json.loads(capsys.readouterr().out)
    assert set(answer) == {"tables", "repeats", "seat_cost"}
    assert sorted(p for t in answer["tables"] for p in t) == data["players"]
    assert answer["repeats"] == 0 and answer["seat_cost"] > 0
    assert not any({5, 6} <= set(t) for t in answer["tables"])
    assert all(t[0] != 1 for t in answer["tables"])  # 1 was first player twice before


@pytest.mark.parametrize("data, says", [
    ("{not json", "not valid JSON"),
    ({"table_sizes": [3]}, '"players" must be a non-empty list'),
    ({"players": [1, 2, 3], "table_sizes": [1]}, "Table sizes must be whole numbers from 2"),
    ({"players": [1, 2, 3, 4], "met": [[1, 2]]}, '"met" entry must be [a, b, times]'),
    ({"players": [1, 2, 3, 4], "met": [[1, 2, -1]]}, "times >= 0"),
    ({"players": [1, 2, 3], "seats": {"1": ["x"]}}, "Seat history for '1'"),
    ({"players": [1, 1, 2]}, "listed twice"),
    ({"players": [1, 2, 3, 4, 5], "table_sizes": [4]}, "cannot be split"),
    ({"players": [1, 2, 3], "table_sizes": [3], "forbidden": [[1, 2]]}, "No split keeps every hard rule"),
])
def test_bad_input_is_refused_with_exit_two(tmp_path, data, says):
    with pytest.raises(CommandError) as refused:
        call_command("pods", "--input", write(tmp_path, data))
    assert refused.value.returncode == 2
    assert says in str(refused.value)


def test_the_pods_command_exits_two_from_the_shell(tmp_path):
    done = subprocess.run([sys.executable, "manage.py", "pods", "--input", str(tmp_path / "missing.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Cannot read" in done.stderr and done.stdout == ""


def test_night_from_json_ignores_history_about_absentees():
    night = night_from_json({"players": [1, 2, 3], "met": [[1, 9, 2], [1, 2, 1], [2, 1, 1]], "seats": {"9": [1]}})
    assert night.met == {pair(1, 2): 2} and night.seats == {}


def test_the_league_nights_benchmark_runs():
    done = subprocess.run([sys.executable, "bench/league_nights.py", "--small-cases", "2", "--big-players", "24",
                           "--big-runs", "1", "--nights", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "every case optimal: yes" in done.stdout
