"""Set Django up for a benchmark against a dedicated PostgreSQL database, migrated fresh each run."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")


def setup(name: str = "shitenno_bench", *, fresh: bool = True) -> None:
    """Each benchmark names its own database, so two can run side by side. `fresh=False` reuses it as it is
    (for a benchmark's child process working on the data its parent made)."""
    import psycopg

    name += os.environ.get("BENCH_DATABASE_SUFFIX", "")  # the test suite's smoke runs use databases of their own
    sys.path.insert(0, str(ROOT))
    if fresh:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{SERVER}/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks run eagerly: the benchmark times the site, not a queue
    import django

    django.setup()
    from django.core.management import call_command

    if fresh:
        call_command("migrate", verbosity=0)
