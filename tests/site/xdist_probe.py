"""Run by tests/site/test_xdist_env.py on two xdist workers (`--dist each`): each worker writes down the Redis
databases its settings point at. Not collected by the suite itself (not a test_*.py file)."""

import json
import os
from pathlib import Path

from django.conf import settings


def test_write_down_this_workers_redis(worker_id):
    Path(os.environ["XDIST_PROBE_DIR"], f"{worker_id}.json").write_text(
        json.dumps(
            {
                "cache": settings.CACHES["default"].get("LOCATION"),
                "broker": settings.CELERY_BROKER_URL,
                "backend": settings.CELERY_RESULT_BACKEND,
                "environ": os.environ.get("CACHE_URL"),
            }
        )
    )
