"""Shared personas and the real Celery worker.

alice hosts and owns the club, bob sits at her table, carol is in the club but not at the table,
dave is an outsider.
"""

import datetime
import ipaddress
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import pytest
from django.conf import settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings

from leagues.club import clubs
from leagues.people import players
from tests.accounts import verified
from tests.clock import TONIGHT, travel_to
from tests.xdist_env import worker_environment

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis profiles. "ci", the default (CI and `make test`): derandomized, so a run fails or passes the same way
# every time and a failure is reproduced by running the test again; no deadline, since a busy CI machine is slow
# and a test must not fail on wall-clock luck. "thorough", by hand
# (`HYPOTHESIS_PROFILE=thorough pytest tests/games/engines`): random examples, ten times as many where a test does
# not name its own number, no deadline, so it can find what the fixed examples never try.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
hypothesis_settings.register_profile("thorough", derandomize=False, max_examples=1000, deadline=None, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# TESTS_TODAY=YYYY-MM-DD runs the suite as if on that day (from 12:00, ticking). It starts here, when this first
# conftest is imported, before the test modules and the other conftests are, so their own "today" moves too. CI runs
# the date-sensitive modules so on days where calendars bite (.ci/run): a test that passes only on some days fails
# there. Python's clock only: PostgreSQL's CURRENT_DATE and the Celery worker keep the machine's (tests/clock.py).
if os.environ.get("TESTS_TODAY"):
    travel_to(datetime.date.fromisoformat(os.environ["TESTS_TODAY"]), datetime.time(12, 0)).start()
PASSWORD = "a long test passphrase 42"


REAL_PASSWORD_HASHERS = list(settings.PASSWORD_HASHERS)  # the site's own (PBKDF2 first), for the tests that need it

# `make test` runs the suite on pytest-xdist workers. Nothing is shared between them: each has its own test database
# (pytest-django), its own Redis databases (below) and, when it runs a test marked celery_worker, its own Celery
# worker process; the scale-out test alone uses fixed ports. (No `--dist loadgroup`: with pytest 9.2 it silently
# stops grouping, pytest-xdist issue #1386, so nothing here may depend on two tests sharing a worker.)


def pytest_configure(config):
    """The opt-out of the schema check on every API answer (tests/schema_contract.py). Registered here, not in
    pyproject.toml's markers, beside the fixture it turns off."""
    config.addinivalue_line(
        "markers",
        "outside_the_schema(reason): the test's API answers are deliberately outside "
        "the OpenAPI schema, so they are not checked against it",
    )


def pytest_terminal_summary(terminalreporter):
    from tests import schema_contract

    said = schema_contract.summary()
    if said:
        terminalreporter.write_line(said)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Each xdist worker starts with Redis databases of its own (tests/xdist_env.py says why and which)."""
    for index, spec in enumerate(specs):
        spec.env.update(worker_environment(os.environ, index))


@pytest.fixture
def on_the_night():
    """The clock at 20:00 on the league nights' Thursday (tests/clock.py): for the tests whose services read
    "today", such as a member's removal, which clears his check-ins at nights from yesterday on."""
    with travel_to(TONIGHT):
        yield


@pytest.fixture(autouse=True)
def api_answers_within_the_schema(request, monkeypatch):
    """Every answer under /api/ that a test gets from Django's test client or DRF's APIClient is checked against
    the live OpenAPI schema (tests/schema_contract.py, issue 48): a status the operation does not document, a
    Content-Type it does not name or a body its schema refuses raises SchemaDrift in the test that saw it. A test
    that deliberately goes outside the contract says so and why: `@pytest.mark.outside_the_schema(reason=...)`."""
    from django.test import Client

    from tests import schema_contract

    marker = request.node.get_closest_marker("outside_the_schema")
    if marker is not None:
        if not marker.kwargs.get("reason"):
            pytest.fail("outside_the_schema needs reason=...: why this test's answers are outside the schema")
        yield
        return
    monkeypatch.setattr(Client, "request", schema_contract.checking(Client.request))
    yield


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Every persona's password is hashed with MD5 in tests: PBKDF2 costs ~0.2 s a hash on purpose, which made up
    much of the suite's time. The site keeps PBKDF2 (tests/leagues/test_accounts.py checks it); a test that wants
    the real hashers asks for `real_password_hashing`."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


PUBLIC_ADDRESS = "93.184.215.14"  # what every push service's name resolves to in tests (a public address)


@pytest.fixture(autouse=True)
def no_dns_for_push_endpoints(monkeypatch):
    """The push endpoints' check resolves names (leagues/notifications/endpoints.py); no test may need the
    network, so every name resolves to one public address, and IP literals and localhost to themselves. A test
    that wants a name to resolve elsewhere sets `endpoints.resolver` itself."""
    import socket

    from leagues.notifications import endpoints

    def resolve(host, port, *args, **kwargs):
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if host != "localhost":
                return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (PUBLIC_ADDRESS, port))]
        return socket.getaddrinfo(host, port, *args, **kwargs)

    monkeypatch.setattr(endpoints, "resolver", resolve)


@pytest.fixture(autouse=True)
def rate_limits_of_this_test(monkeypatch):
    """Each test counts its own mail budgets (shitenno_site/rate_limits.py): the shared cache outlives a test,
    and every test client comes from 127.0.0.1."""
    import uuid

    from shitenno_site import rate_limits

    monkeypatch.setattr(rate_limits, "NAMESPACE", f"rate-test-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def language_of_the_site():
    """Each test starts in the site's own language: a request in Dutch leaves Dutch active on the thread (the
    locale middleware activates, nothing deactivates), and a later test's lazy strings would read Dutch."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def no_hints_to_another_tests_worker(request):
    """A transactional test's commits publish the outbox's hints to the real broker, and the session's Celery
    worker (started by an earlier job test in this process) runs them against this test's rows while its teardown
    TRUNCATEs the tables: the flush deadlocked and failed CI (test_import_jobs, 2 December), leaving the next
    test's rows behind. Only tests that ask for the worker (marked `celery_worker`) publish; for the others the
    rows stay in the outbox, as when the broker is down, and the flush empties them. (In eager
    mode, SQLite's run, there is no worker: the hint is the job, run at once, and stays so.)"""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker is not None and marker.kwargs.get("transaction")) or bool(
        {"live_server", "transactional_db"} & set(request.fixturenames)
    )
    if not transactional or request.node.get_closest_marker("celery_worker"):
        yield
        return
    from leagues.jobs import outbox
    from shitenno_site.celery import app

    publish = outbox.publish

    def publish_only_when_eager(row_ids):  # a test that turns eager on (`make run`'s way) still runs its jobs
        if app.conf.task_always_eager:
            publish(row_ids)

    with mock.patch.object(outbox, "publish", publish_only_when_eager):
        yield


@pytest.fixture
def real_password_hashing(settings):
    settings.PASSWORD_HASHERS = REAL_PASSWORD_HASHERS


def _user(name: str):
    return verified(players.user_sign_up(username=name, email=f"{name}@example.org", password=PASSWORD))


@pytest.fixture
def alice(db):
    return _user("alice")


@pytest.fixture
def bob(db):
    return _user("bob")


@pytest.fixture
def carol(db):
    return _user("carol")


@pytest.fixture
def dave(db):
    return _user("dave")


@pytest.fixture
def club(alice, carol):
    club = clubs.club_create(name="Edo Gamers", owner=alice)
    clubs.club_join(token=club.invite_token, user=carol)
    return club


@pytest.fixture
def any_game(request, monkeypatch, settings):
    """The adapter of the game a shared test is parametrized with (`indirect=True` over tests.games.every_game.SLUGS):
    a registered game as it is, or Pile, the test-only game, registered for this test alone."""
    from games.plugins import get_game
    from tests.games import tiny

    if request.param == tiny.SLUG:
        return tiny.register(monkeypatch, settings)
    return get_game(request.param)


@pytest.fixture
def api(client):
    """Django's test client speaking JSON."""

    class Api:
        def __init__(self, client):
            self.client = client

        def login(self, user):
            self.client.force_login(user)
            return self

        def get(self, url, **kw):
            return self.client.get(url, **kw)

        def post(self, url, data=None, **kw):
            return self.client.post(url, data if data is not None else {}, content_type="application/json", **kw)

        def patch(self, url, data=None, **kw):
            return self.client.patch(url, data or {}, content_type="application/json", **kw)

        def delete(self, url, **kw):
            return self.client.delete(url, **kw)

    return Api(client)


def start_worker(name: str, *, queues: str = "celery", **env_overrides: str) -> subprocess.Popen:
    """Start a real `celery worker` process on the real broker, reading the test database; wait until it answers."""
    from django.db import connection

    env = dict(os.environ)
    db = connection.settings_dict
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env["DATABASE_CONN_MAX_AGE"] = "0"
    env.update(env_overrides)
    logfile = ROOT / ".ci" / "logs" / f"celery-{name}.log"
    logfile.parent.mkdir(parents=True, exist_ok=True)
    since = logfile.stat().st_size if logfile.exists() else 0
    celery = shutil.which("celery", path=str(Path(sys.executable).parent))
    hostname = f"{name}-{os.getpid()}@%h"
    process = subprocess.Popen(
        [
            celery,
            "-A",
            "shitenno_site",
            "worker",
            "--concurrency=1",
            "--pool=prefork",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
            "-n",
            hostname,
            "-Q",
            queues,
        ],
        cwd=ROOT,
        env=env,
        stdout=logfile.open("a"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"The Celery worker exited at start: see {logfile}")
        if worker_answers(hostname.split("@")[0], logfile, since, env_overrides.get("CELERY_BROKER_URL")):
            return process
    process.kill()
    pytest.fail(f"The Celery worker did not answer in 60 s: see {logfile}")


def worker_answers(name: str, logfile: Path, since: int, broker: str | None) -> bool:
    """Whether the worker named `name` is up: it answers a ping on the run's broker or, on a broker of its own
    (a control ping through another connection gets no reply), its log says it is ready."""
    if broker is None:
        from shitenno_site.celery import app

        return any(name in host for reply in app.control.ping(timeout=1) for host in reply)
    with logfile.open("rb") as log:
        log.seek(since)
        said = log.read()
    if f"{name}@".encode() in said and b" ready." in said:
        return True
    time.sleep(0.2)
    return False


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """A real `celery worker` process on the real broker, reading the test database."""
    broker = os.environ.get("CELERY_BROKER_URL")
    if not broker or settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.fail("The job tests need CELERY_BROKER_URL (run them with `make test`).")
    with django_db_blocker.unblock():
        from shitenno_site.celery import app

        app.control.purge()
        # both queues: the tests that run an import (the heavy queue, settings.CELERY_TASK_ROUTES) need it too
        process = start_worker("worker", queues=f"celery,{settings.HEAVY_QUEUE}")
    yield process
    stop_worker(process)
