"""The benchmarks still run against the current schema and code (tiny sizes, their own databases): a
benchmark that broke would otherwise be found only when someone next measures. Their figures are not
checked here; bench/README.md holds them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench._django import server_of
from tests.bench import smoke_database_suffix

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize(
    "script, args, says",
    [
        ("ratings.py", ["--results", "1000", "--players", "60"], "largest difference 0.00e+00"),
        (
            "standings.py",
            ["--results", "400", "--players", "40", "--incremental", "5", "--old-way", "2", "--runs", "1"],
            "same order, positions and separations",
        ),
        ("table_moves.py", ["--tables", "1"], "ratio 150th / 1st"),
        (
            "stores.py",
            ["--season-results", "200", "--game-results", "600", "--players", "40", "--runs", "1"],
            "every way left the rows the other (or a full recompute) leaves: yes",
        ),
        ("pages.py", ["--small", "4", "--big", "8", "--runs", "1"], "largest ratio"),
        ("game_stats.py", ["--sizes", "4", "8", "--runs", "1"], "every table the reader sees: yes"),
        ("profile_requests.py", ["--requests", "2", "--top", "0"], "poll, not modified (204)"),
        ("request_cpu.py", ["--requests", "2"], "round trips: PostgreSQL"),
        (
            "neighbours_pairs.py",
            ["--plays", "20", "--players", "12", "--at-play", "5", "--tonight", "4", "--guests", "2", "--runs", "1"],
            "same meetings: yes",
        ),
        ("neighbours_partitions.py", ["--scopes", "3", "--runs", "1"], "partitions: old (key from OuterRef)"),
        ("exports.py", ["400"], "the web streamed it in"),
    ],
)
def test_the_benchmark_runs(script, args, says):
    database = os.environ.get("DATABASE_URL", "")
    if not database.startswith("postgres"):
        pytest.skip("the benchmarks need PostgreSQL")
    # the benchmark drops and creates its database on the server the tests use, whatever BENCH_POSTGRES says
    env = dict(os.environ, BENCH_DATABASE_SUFFIX=smoke_database_suffix(), BENCH_POSTGRES=server_of(database))
    if script in ("profile_requests.py", "request_cpu.py"):  # they clear their cache: the tests' own, not db 10
        if not os.environ.get("CACHE_URL", "").startswith("redis"):
            pytest.skip("the request profiles need the Redis cache (CACHE_URL)")
        env["BENCH_CACHE_URL"] = os.environ["CACHE_URL"]
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert says in done.stdout, done.stdout[-3000:]


def test_the_calibration_benchmark_runs():
    """bench/calibration.py needs no database: one small club of each kind, a few held-out tables."""
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "calibration.py"),
            "--club-games",
            "300",
            "--seeds",
            "1",
            "--held-out",
            "8",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| wide (sd 2.0), 300 games | 5 |" in done.stdout and "target Brier within 0.01" in done.stdout


def test_a_benchmark_uses_the_configured_server():
    assert server_of("postgres://bench:pw@db.example.org:6543/shitenno") == "postgres://bench:pw@db.example.org:6543"
    assert server_of("postgresql://postgres@127.0.0.1/x") == "postgresql://postgres@127.0.0.1"
    with pytest.raises(SystemExit):
        server_of("sqlite:///db.sqlite3")


def test_each_xdist_worker_runs_the_benchmarks_on_databases_of_its_own(monkeypatch):
    monkeypatch.delenv("BENCH_DATABASE_SUFFIX", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert smoke_database_suffix() == "_smoke"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw1")
    assert smoke_database_suffix() == "_smoke_gw1"
