"""Issue 46's neighbours benchmark at a tiny size (bench/neighbours.py: gunicorn, the two Celery workers of the README
and a beat, club A's import, proposals and export beside club B's moves and result). It checks that the run counts
(A's import job done, B's results rated) and prints its table, not its figures.

About a minute on this busy 2-core machine (starting the processes, most of it), so it is marked slow. Its Redis
databases are NEIGHBOURS_BROKER_URL and NEIGHBOURS_CACHE_URL (default 6379/2 and /3), which it flushes."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench import smoke_database_suffix

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.slow
def test_club_a_s_worst_case_beside_club_b_runs_and_counts():
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("needs PostgreSQL")
    env = dict(os.environ, BENCH_DATABASE_SUFFIX=smoke_database_suffix(), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench/neighbours.py"),
            "--season-plays",
            "10",
            "--import-plays",
            "400",
            "--moves",
            "4",
            "--pause",
            "0.1",
            "--scopes",
            "3",
            "6",
            "--runs",
            "1",
            "--port",
            "18291",
            "--a-wait",
            "60",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-3000:]
    assert "| B's move p95 |" in done.stdout and "| B's result rated after its last sign-off |" in done.stdout
    assert "done: {'games': {'shitenno': 400}" in done.stdout
    assert done.stdout.count("lock waits: ") == 2 and "not sampled" not in done.stdout  # both phases sampled
