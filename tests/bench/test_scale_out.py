"""Issue 18, past one machine: the reduced run of bench/scale_out.py (two gunicorn instances behind nginx, PgBouncer
in transaction mode, two Celery workers and one beat). It checks behaviour, not speed: phones at one table see each
other's moves across the instances, a lost answer is given again by the other instance, a league result signed off
through both instances is rated once, and killing an instance under load loses no accepted move.

55-86 s on this busy 2-core machine (load average 8-12; half of it starting the processes), so it is marked slow:
`-m "not slow"` leaves it out of a quick run; the whole suite (`make test`, CI) runs it."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bench import smoke_database_suffix

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.slow
def test_the_site_runs_on_two_instances_behind_nginx_and_pgbouncer():
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        pytest.skip("needs PostgreSQL")
    missing = [
        tool for tool in ("nginx", "pgbouncer") if not (shutil.which(tool) or Path(f"/usr/sbin/{tool}").exists())
    ]
    if missing:
        pytest.skip(f"needs Debian's {' and '.join(missing)}")
    env = dict(os.environ, BENCH_DATABASE_SUFFIX=smoke_database_suffix(), PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench/scale_out.py"), "--quick", "--port-base", "18280"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-3000:]
    assert "all checks passed" in done.stdout
    assert "[FAILED]" not in done.stdout
