"""The demo database (SQLite, `make run`) survives two phones writing at once, as PostgreSQL does."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_it_answers_the_second_of_two_phones_ending_the_turn_at_once_with_the_new_table(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'demo.sqlite3'}",
        DJANGO_SETTINGS_MODULE="shitenno_site.settings",
        DEBUG="1",
    )
    run = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "site" / "sqlite_race.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    answer = json.loads(run.stdout.strip().splitlines()[-1])
    assert answer["overlapped"], run.stderr[-3000:]  # the second post began while the first was in its transaction
    assert answer["statuses"] == [200, 409], run.stderr[-3000:]  # one move lands, the other phone is told
    assert answer["stale"].count("Someone else moved") == 1  # and told once
    assert "Here is the table now." in answer["stale"]
