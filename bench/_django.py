"""Set Django up for a benchmark against a dedicated PostgreSQL database, migrated fresh each run."""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/shitenno_bench")


def setup() -> None:
    import psycopg

    sys.path.insert(0, str(ROOT))
    name = BENCH_DB.rsplit("/", 1)[1]
    with psycopg.connect(BENCH_DB.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = BENCH_DB
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks run eagerly: the benchmark times the site, not a queue
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
