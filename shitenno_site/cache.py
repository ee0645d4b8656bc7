"""The shared cache (Redis) as a cache only: when it cannot be reached, a read misses and a write is dropped, so
an outage costs speed, never an answer. Everything kept in it (sessions under `cached_db`, table heads and
bodies, head-to-head figures) is recomputed from the database on a miss.

Two things cannot be recomputed, so they are handled here:
- A write that was dropped (a session ended, a table head forgotten) leaves whatever the cache held before, and
  a Redis that comes back with its data would serve it again: a signed-out session, a table version that is no
  longer the newest. So each process remembers the keys whose writes it lost, and the first call that reaches
  the cache again deletes exactly those keys (their next read recomputes them). It never empties the whole
  cache: that wiped what other processes had written since the recovery, an upload waiting for its preview
  among it (issue 36). A `clear()` that was lost is done then, as asked.
- One warning per minute and process while it is down, not one per request; /healthz asks `cache_state()`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("shitenno_site.cache")

UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)
WARN_EVERY_SECONDS = 60
# Keys of lost writes a process remembers (about 100 bytes each): far beyond an outage's requests on one process.
# Past it, the rest cannot be repaired, and the recovery's warning says how many.
MAX_LOST_KEYS = 100_000


class ForgivingRedisCache(RedisCache):
    """Django's Redis cache whose connection errors are a miss (reads) or a no-op (writes)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._lock = threading.Lock()
        self._last_warning: float | None = None  # time.monotonic() of the last warning logged
        self._lost_keys: set[str] = set()  # the Redis keys whose writes were lost while it was down
        self._unrepaired = 0  # lost writes beyond MAX_LOST_KEYS
        self._lost_clear = False
        self.down = False

    def _unreachable(self, operation: str, exc: Exception, *, lost: Iterable[str] = ()) -> None:
        with self._lock:
            self.down = True
            for key in lost:
                if len(self._lost_keys) < MAX_LOST_KEYS:
                    self._lost_keys.add(key)
                else:
                    self._unrepaired += 1
            self._lost_clear = self._lost_clear or operation == "clear"
            now = time.monotonic()
            if self._last_warning is None or now - self._last_warning >= WARN_EVERY_SECONDS:
                self._last_warning = now
                logger.warning(
                    "The shared cache cannot be reached (%s: %s); answering from the database.",
                    operation,
                    exc.__class__.__name__,
                )

    def _repair(self) -> None:
        """Before the first call after writes were lost: delete the keys they would have changed, so that the
        cache serves nothing stale from before, and nothing else (raises as the call would if still down)."""
        if not (self._lost_keys or self._lost_clear):
            return
        with self._lock:
            keys, self._lost_keys = self._lost_keys, set()
            clear, self._lost_clear = self._lost_clear, False
            unrepaired, self._unrepaired = self._unrepaired, 0
        try:
            if clear:
                self._cache.clear()
            elif keys:
                self._cache.delete_many(list(keys))
        except UNREACHABLE:
            with self._lock:  # still down: remembered for the next call
                self._lost_keys |= keys
                self._lost_clear = self._lost_clear or clear
                self._unrepaired += unrepaired
            raise
        logger.warning(
            "The shared cache answers again: %d key(s) whose writes were lost are forgotten%s.",
            len(keys),
            f"; {unrepaired} more lost write(s) could not be remembered" if unrepaired else "",
        )

    def _reached(self) -> None:
        if self.down:
            with self._lock:
                self.down, self._last_warning = False, None

    def _read(self, operation: str, default, call):
        try:
            self._repair()
            found = call()
        except UNREACHABLE as exc:
            self._unreachable(operation, exc)
            return default
        self._reached()
        return found

    def _write(self, operation: str, failed, call, keys: Iterable, version=None):
        try:
            self._repair()
            done = call()
        except UNREACHABLE as exc:
            self._unreachable(operation, exc, lost=[self.make_and_validate_key(k, version=version) for k in keys])
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
        return self._write(
            "add", False, lambda: super(ForgivingRedisCache, self).add(key, value, timeout, version), [key], version
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write(
            "set", None, lambda: super(ForgivingRedisCache, self).set(key, value, timeout, version), [key], version
        )

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write(
            "set_many",
            list(data),
            lambda: super(ForgivingRedisCache, self).set_many(data, timeout, version),
            list(data),
            version,
        )

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._write(
            "touch", False, lambda: super(ForgivingRedisCache, self).touch(key, timeout, version), [key], version
        )

    def delete(self, key, version=None):
        return self._write(
            "delete", False, lambda: super(ForgivingRedisCache, self).delete(key, version), [key], version
        )

    def delete_many(self, keys, version=None):
        keys = list(keys)
        return self._write(
            "delete_many", None, lambda: super(ForgivingRedisCache, self).delete_many(keys, version), keys, version
        )

    def clear(self):
        return self._write("clear", False, lambda: super(ForgivingRedisCache, self).clear(), [])

    # incr (and decr through it) is Redis's own and not forgiven: the site does not count in the cache.


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
            backend._unreachable("ping", RedisConnectionError())
        return "cache down"
    return "ok"
