"""Settings for bench/load.py's gunicorn only: the site's settings with the benchmark's URLs, and static files
collected into a scratch directory (the manifest storage needs them, as in production)."""

import os

from shitenno_site.settings import *  # noqa: F403

ROOT_URLCONF = "baseline_urls"
STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
