"""The shared cache (Redis) stops answering: the site gets slower, never wrong. Sessions come from the database,
table heads and bodies are recomputed, one warning a minute is logged and /healthz says "cache down".

The cache here is the site's own shared-cache backend pointed at a local port where nothing listens (bound, then
closed), so the shared Redis of the other tests is never touched."""

import contextlib
import logging
import os
import socket
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse
from redis.exceptions import ConnectionError as RedisConnectionError

from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, TableSession
from leagues.club import seasons
from leagues.people.players import player_for_user
from shitenno_site.cache import ForgivingRedisCache
from tests.conftest import PASSWORD
from tests.games.test_pages import _new_table_post

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _silent_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed on leaving: nothing answers there any more


@pytest.fixture
def cache_down():
    location = f"redis://127.0.0.1:{_silent_port()}/0"
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": settings.SHARED_CACHE_BACKEND,
                "LOCATION": location,
                "OPTIONS": settings.SHARED_CACHE_OPTIONS,
            }
        },
        SESSION_ENGINE="django.contrib.sessions.backends.cached_db",  # the production engine with a shared cache
    ):
        yield caches["default"]


def test_a_phone_plays_a_whole_evening_while_the_cache_is_down(client, cache_down, alice, bob, club, caplog):
    with caplog.at_level(logging.WARNING, logger="shitenno_site.cache"):
        response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
        assert response.status_code == 302  # signed in: the session is in the database alone
        assert client.get("/").status_code == 200 and client.get("/").wsgi_request.user.username == "alice"

        data = _new_table_post(seat0_player=player_for_user(alice).pk, seat1_guest="Eve")
        assert client.post(reverse("table_new"), data).status_code == 302
        session = TableSession.objects.get()
        assert client.get(session.get_absolute_url()).status_code == 200

        setup, moves = random_legal_game(3, 2)
        api_table = game_services.session_create(
            game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
        )
        response = client.post(
            f"/api/tables/{api_table.code}/moves/", {"seq": 0, "move": moves[0]}, content_type="application/json"
        )
        assert response.status_code == 201
        assert MoveEvent.objects.filter(session=api_table).count() == 1

        live = reverse("table_live", args=[api_table.code])
        assert client.get(live, {"seq": 0, "v": 0}, **HTMX).status_code == 200  # behind: the new body, recomputed
        assert client.get(live, {"seq": 1, "v": 0}, **HTMX).status_code == 204  # up to date: from the database
        client.logout()
        assert client.get(live, {"seq": 0, "v": 0}, **HTMX).status_code == 200  # a watcher who is not signed in

        client.force_login(alice)
        league = seasons.league_create(club=club, name="Winter league", games=["shitenno"], user=alice)
        assert client.get(reverse("league_detail", args=[league.pk])).status_code == 200
        assert client.get(reverse("player_detail", args=[player_for_user(alice).pk])).status_code == 200
    warnings = [r for r in caplog.records if r.name == "shitenno_site.cache"]
    assert len(warnings) == 1 and "cannot be reached" in warnings[0].getMessage()  # once a minute, not a request
    assert cache_down.down


def test_healthz_says_the_cache_is_down_and_the_site_still_serves(client, cache_down):
    response = client.get("/healthz")
    assert response.status_code == 200  # the database answers: the site is up, only slower
    assert response.json()["cache"] == "cache down"


def test_healthz_names_the_cache_it_uses(client):
    expected = "ok" if isinstance(caches["default"], ForgivingRedisCache) else "local"
    assert client.get("/healthz").json()["cache"] == expected


def test_the_site_uses_the_forgiving_backend_for_a_shared_cache():
    assert settings.SHARED_CACHE_BACKEND == "shitenno_site.cache.ForgivingRedisCache"
    if os.environ.get("CACHE_URL"):
        assert settings.CACHES["default"]["BACKEND"] == settings.SHARED_CACHE_BACKEND


NEEDS_REDIS = pytest.mark.skipif(not os.environ.get("CACHE_URL"), reason="needs the shared Redis of `make test`")


@contextlib.contextmanager
def outage(cache: ForgivingRedisCache):
    """This process cannot reach Redis (its client raises as a refused connection does); the others can."""

    def refused(*args, **kwargs):
        raise RedisConnectionError("Connection refused")

    with mock.patch.object(cache._cache, "get_client", refused):
        yield


def _process(prefix: str = "cache-down-test") -> ForgivingRedisCache:
    """One process's view of the shared cache (each gunicorn worker has its own backend object)."""
    return ForgivingRedisCache(os.environ["CACHE_URL"], {"KEY_PREFIX": prefix})


@NEEDS_REDIS
def test_a_write_lost_in_an_outage_is_not_served_when_the_cache_comes_back():
    """A session ended or a table head forgotten while the cache was down must not come back with it."""
    cache = _process()
    cache.set("table-head:ABC", "5.0")
    with outage(cache):
        assert cache.delete("table-head:ABC") is False  # the forget that could not be written
        assert cache.get("table-head:ABC") is None and cache.down
    assert cache.get("table-head:ABC") is None  # the first call that reaches it again forgets the key
    cache.set("table-head:ABC", "6.0")
    assert cache.get("table-head:ABC") == "6.0" and not cache.down  # and only once
    cache.delete("table-head:ABC")


@NEEDS_REDIS
def test_what_others_wrote_after_the_recovery_survives_a_process_that_lost_writes():
    """The whole cache was emptied by the first process to reach it again after lost writes: an upload another
    worker had stored since the recovery went with it (issue 36). Only the lost writes' keys go now."""
    worker_a, worker_b = _process(), _process()
    worker_a.set("table-head:ABC", "5.0")
    worker_a.set("table-head:DEF", "2.0")
    with outage(worker_a):
        worker_a.delete("table-head:ABC")  # lost
        worker_a.set("session:alice", "signed in")  # lost too
    worker_b.set("plays-import:token", {"files": ["bgg.xml"]})  # after the recovery, by another worker
    assert worker_a.get("plays-import:token") == {"files": ["bgg.xml"]}  # worker A's first call after it
    assert worker_b.get("plays-import:token") == {"files": ["bgg.xml"]}
    assert worker_b.get("table-head:DEF") == "2.0"  # written before, never touched by a lost write: kept
    assert worker_b.get("table-head:ABC") is None  # the lost forget, done now
    worker_b.delete_many(["plays-import:token", "table-head:DEF"])


@NEEDS_REDIS
def test_a_cache_that_comes_back_after_missed_reads_only_is_kept():
    cache = _process()
    cache.set("table-head:ABC", "5.0")
    with outage(cache):
        assert cache.get("table-head:ABC") is None
    assert cache.get("table-head:ABC") == "5.0"
    cache.delete("table-head:ABC")


@NEEDS_REDIS
def test_lost_keys_stay_remembered_while_it_is_still_down():
    cache = _process()
    cache.set("table-head:ABC", "5.0")
    with outage(cache):
        cache.delete("table-head:ABC")
        cache.get("x")  # the repair cannot run yet
    assert cache.get("table-head:ABC") is None
