"""Each pytest-xdist worker gets Redis databases of its own (`make test` runs the suite on several workers).

The settings take CACHE_URL and CELERY_BROKER_URL from the environment when they are imported, which pytest-django
does before any conftest runs in the worker, so the worker must be started with the right values:
tests/conftest.py's `pytest_xdist_setupnodes` puts them in each worker's spec (execnet sets a spec's env in the
new process before pytest starts there). PostgreSQL needs nothing here: pytest-django already gives each worker
its own test database (test_<name>_gw0, test_<name>_gw1, ...).

Why Redis needs it: a test that clears the cache would clear the other worker's cache mid-test, and each worker
starting a real Celery worker (tests/conftest.py) on its own test database must not take the other's tasks from a
shared queue, nor answer its pings and purges. Worker number N uses the given database number minus N, on the same
server: with CI's broker db 15 and cache db 11 and at most four workers that is 15-12 and 11-8. A serial run (no
xdist) and the first worker use the given numbers. The processes the tests start inherit the worker's values.
"""

import re

SHIFTED = ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL")


def shifted(url: str, index: int) -> str:
    """`url` with its Redis database number lowered by `index` (redis://host:port/15 -> /14 for index 1)."""
    match = re.fullmatch(r"(rediss?://[^/?#]*)(?:/(\d*))?", url)
    if not match:
        raise ValueError(f"cannot give each xdist worker its own Redis database in {url!r} (redis://host:port/N)")
    number = int(match.group(2) or 0) - index
    if number < 0:
        raise ValueError(
            f"{url!r} leaves no Redis database for xdist worker {index}: "
            "name a higher database number or run fewer workers (-n)"
        )
    return f"{match.group(1)}/{number}"


def worker_environment(environ, index: int) -> dict[str, str]:
    """The variables xdist worker number `index` is started with: the Redis URLs of `environ`, shifted."""
    return {name: shifted(environ[name], index) for name in SHIFTED if environ.get(name, "").startswith("redis")}
