"""/healthz: is the database answering, can tasks reach the broker, and is the shared cache there?

The broker's and the cache's states are asked at most once per STATE_SECONDS per process, and never while a
request waits (but for the very first time): during a broker outage each check waited up to its 2 s timeout, so
four anonymous pollers made every answer 4 s and slowed real pages (issue 36). A request answers the last state
known; when it is older than STATE_SECONDS, one background thread asks again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from kombu import Connection

from .cache import cache_state

STATE_SECONDS = 5.0


class RecentCheck:
    """A slow check's answer per target, kept for `seconds`; at most one check of a target at a time."""

    def __init__(
        self,
        check: Callable[[str], str],
        *,
        seconds: float = STATE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.check, self.seconds, self.clock = check, seconds, clock
        self._lock = threading.Lock()
        self._first = threading.Lock()  # the first checks, which requests wait for: one at a time
        self._answers: dict[str, tuple[str, float]] = {}
        self._refreshing: set[str] = set()
        self.refresher: threading.Thread | None = None  # the last background check (tests join it)

    def __call__(self, target: str) -> str:
        with self._lock:
            known = self._answers.get(target)
            if known is not None:
                if self.clock() - known[1] < self.seconds or target in self._refreshing:
                    return known[0]
                self._refreshing.add(target)
        if known is None:
            return self._first_answer(target)
        self.refresher = threading.Thread(target=self._refresh, args=(target,), name="healthz-check", daemon=True)
        self.refresher.start()
        return known[0]

    def _first_answer(self, target: str) -> str:
        with self._first:
            with self._lock:
                known = self._answers.get(target)
            if known is not None:  # another request asked it while this one waited
                return known[0]
            return self._store(target, self.check(target))

    def _refresh(self, target: str) -> None:
        try:
            self._store(target, self.check(target))
        finally:
            with self._lock:
                self._refreshing.discard(target)

    def _store(self, target: str, answer: str) -> str:
        with self._lock:
            self._answers[target] = (answer, self.clock())
        return answer


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any failure means "down"; the message says which
        return f"error: {exc.__class__.__name__}"
    return "ok"


def _broker_check(url: str) -> str:
    try:
        with Connection(url, connect_timeout=2, transport_options={"socket_timeout": 2}) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return f"error: {exc.__class__.__name__}"
    return "ok"


BROKER = RecentCheck(_broker_check)
CACHE = RecentCheck(lambda _location: cache_state())


def _broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    return BROKER(settings.CELERY_BROKER_URL)


def _cache() -> str:
    where = settings.CACHES["default"]
    return CACHE(f"{where['BACKEND']} {where.get('LOCATION', '')}")


@require_safe
@never_cache
def healthz(request):
    checks = {"database": _database(), "broker": _broker()}
    healthy = all(value in ("ok", "eager") for value in checks.values())
    # A cache outage costs speed, not answers (shitenno_site.cache): it is reported, the site stays healthy.
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks, "cache": _cache()}, status=200 if healthy else 503
    )
