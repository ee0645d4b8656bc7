"""`make test` runs the suite on pytest-xdist workers; each must have Redis databases of its own (a cache clear or a
Celery worker in one must not reach into the other), which tests/xdist_env.py and tests/conftest.py arrange."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.xdist_env import shifted, worker_environment

ROOT = Path(__file__).resolve().parents[2]


def test_worker_n_uses_the_given_database_number_minus_n():
    assert shifted("redis://127.0.0.1:6379/15", 0) == "redis://127.0.0.1:6379/15"
    assert shifted("redis://127.0.0.1:6379/15", 1) == "redis://127.0.0.1:6379/14"
    assert shifted("rediss://user:pw@cache.example.org:6380/3", 3) == "rediss://user:pw@cache.example.org:6380/0"
    assert shifted("redis://127.0.0.1:6379", 0) == "redis://127.0.0.1:6379/0"


@pytest.mark.parametrize(
    "url, index",
    [
        ("redis://127.0.0.1:6379/1", 2),
        ("redis://127.0.0.1:6379", 1),
        ("redis://127.0.0.1:6379/1?timeout=3", 1),
        ("redis:///tmp/redis.sock", 1),
    ],
)
def test_a_url_that_leaves_no_database_for_the_worker_is_refused(url, index):
    with pytest.raises(ValueError, match="Redis database"):
        shifted(url, index)


def test_only_the_redis_urls_are_shifted():
    environ = {
        "CACHE_URL": "redis://h:1/11",
        "CELERY_BROKER_URL": "memory://localhost/",
        "DATABASE_URL": "postgres://x",
    }
    assert worker_environment(environ, 1) == {"CACHE_URL": "redis://h:1/10"}
    assert worker_environment({}, 1) == {}


def test_two_xdist_workers_get_different_redis_databases(tmp_path):
    env = dict(
        os.environ,
        XDIST_PROBE_DIR=str(tmp_path),
        CACHE_URL="redis://127.0.0.1:1/9",
        CELERY_BROKER_URL="redis://127.0.0.1:1/7",
    )  # never connected to: the probe only reads its settings
    for name in (
        "CELERY_RESULT_BACKEND",
        "PYTEST_XDIST_WORKER",
        "PYTEST_XDIST_WORKER_COUNT",
        "PYTEST_XDIST_TESTRUNUID",
    ):
        env.pop(name, None)  # a run of its own, also when this test runs on an xdist worker
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "each",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:schemathesis",
            "-p",
            "no:hypothesispytest",
            "-p",
            "no:anyio",  # quicker start
            "-q",
            "tests/site/xdist_probe.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    seen = {path.stem: json.loads(path.read_text()) for path in tmp_path.glob("gw*.json")}
    assert seen == {
        "gw0": {
            "cache": "redis://127.0.0.1:1/9",
            "broker": "redis://127.0.0.1:1/7",
            "backend": "redis://127.0.0.1:1/7",
            "environ": "redis://127.0.0.1:1/9",
        },
        "gw1": {
            "cache": "redis://127.0.0.1:1/8",
            "broker": "redis://127.0.0.1:1/6",
            "backend": "redis://127.0.0.1:1/6",
            "environ": "redis://127.0.0.1:1/8",
        },
    }
