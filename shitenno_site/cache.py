"""The shared cache (Redis) as a cache only: when it cannot be reached, a read misses and a write is dropped, so
an outage costs speed, never an answer. Everything kept in it (sessions under `cached_db`, table heads and
bodies, head-to-head figures) is recomputed from the database on a miss.

Two things cannot be recomputed, so they are handled here:
- A write that was dropped (a session ended, a table head forgotten) leaves whatever the cache held before, and
  a Redis that comes back with its data would serve it again: a signed-out session, a table version that is no
  longer the newest. So the first call that reaches the cache again after a dropped write empties it.
- One warning per minute and process while it is down, not one per request; /healthz asks `cache_state()`.
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("shitenno_site.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
WARN_EVERY_SECONDS = 60


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache whose connection errors are a miss (reads) or a no-op (writes)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._lock = threading.Lock()
        self._last_warning: float | None = None  # time.monotonic() of the last warning logged
        self._dropped_write = False  # a write was lost while down: empty the cache when it answers again
        self.down = False

    def _unreachable(self, operation: str, exc: Exception, *, write: bool) -> None:
        with self._lock:
            self.down = True
            self._dropped_write = self._dropped_write or write
            now = time.monotonic()
            if self._last_warning is None or now - self._last_warning >= WARN_EVERY_SECONDS:
                self._last_warning = now
                logger.warning("The shared cache cannot be reached (%s: %s); answering from the database.",
                               operation, exc.__class__.__name__)

    def _empty_if_stale(self) -> None:
        """Before the first call after writes were lost: empty the cache, so that it serves nothing from before
        (raises as the call would if it is still down)."""
        if self._dropped_write:
            super().clear()
            with self._lock:
                self._dropped_write = False
            logger.warning("The shared cache answers again and was emptied: writes were lost while it was down.")

    def _reached(self) -> None:
        if self.down:
            with self._lock:
                self.down, self._last_warning = False, None

    def _read(self, operation: str, default, call):
        try:
            self._empty_if_stale()
            found = call()
        except UNREACHABLE as exc:
            self._unreachable(operation, exc, write=False)
            return default
        self._reached()
        return found

    def _write(self, operation: str, failed, call):
        try:
            self._empty_if_stale()
            done = call()
        except UNREACHABLE as exc:
            self._unreachable(operation, exc, write=True)
            return failed
        self._reached()
        return done

    def get(self, key, default=None, version=None):
        return self._read("get", default, lambda: super(ForgivingRedisCache, self).get(key, default, version))

    def get_many(self, keys, version=None):
        return self._read("get_many", {}, lambda: super(ForgivingRedisCache, self).get_many(keys, version))

    def has_key(self, key, version=None):
        return self._read("has_key", False, lambda: super(ForgivingRedisCache, self).has_key(key, version))

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write("add", False, lambda: super(ForgivingRedisCache, self).add(key, value, timeout, version))

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write("set", None, lambda: super(ForgivingRedisCache, self).set(key, value, timeout, version))

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write("set_many", list(data),
                           lambda: super(ForgivingRedisCache, self).set_many(data, timeout, version))

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write("touch", False, lambda: super(ForgivingRedisCache, self).touch(key, timeout, version))

    def delete(self, key, version=None):
        return self._write("delete", False, lambda: super(ForgivingRedisCache, self).delete(key, version))

    def delete_many(self, keys, version=None):
        return self._write("delete_many", None, lambda: super(ForgivingRedisCache, self).delete_many(keys, version))

    def clear(self):
        return self._write("clear", False, lambda: super(ForgivingRedisCache, self).clear())


def cache_state() -> str:
    """For /healthz: "ok", "local" (each process's own memory) or "cache down"."""
    from django.core.cache import caches

    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        return "local"
    try:
        backend._cache.get_client(write=False).ping()
    except UNREACHABLE:
        if isinstance(backend, ForgivingRedisCache):
            backend._unreachable("ping", RedisConnectionError(), write=False)
        return "cache down"
    return "ok"
