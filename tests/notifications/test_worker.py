"""The outbox path with a real worker (issue 39): a result recorded while the broker is down answers at once and
its push waits in the outbox; the sweep in a real worker pushes it to the device once, and a late hint and another
sweep push nothing twice."""

import pytest
from django.db import connection

from leagues.jobs import tasks
from leagues.models import LeagueJob
from leagues.notifications.models import Notification
from leagues.people.players import player_for_user
from leagues.result import results
from shitenno_site.celery import app
from tests.conftest import start_worker, stop_worker
from tests.leagues.test_outbox import DeadBroker

from .conftest import TONIGHT
from .test_web_push import Browser, PushService, vapid  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]
QUEUE = "notify-test"  # this test's worker alone takes these: it has the VAPID keys


@pytest.fixture
def service(settings):
    settings.PUSH_LOCAL_ENDPOINTS = True  # the test's push service is plain http on this machine
    service = PushService()
    yield service
    service.close()


@pytest.fixture
def push_worker(request, settings):
    """A worker with the site's VAPID keys (a worker reads its settings from its environment)."""
    request.getfixturevalue("vapid")
    connection.close()  # the worker reads the test database with its own connection
    worker = start_worker(
        "notify",
        queues=QUEUE,
        VAPID_PRIVATE_KEY=settings.VAPID_PRIVATE_KEY,
        VAPID_PUBLIC_KEY=settings.VAPID_PUBLIC_KEY,
        VAPID_SUBJECT=settings.VAPID_SUBJECT,
        PUSH_LOCAL_ENDPOINTS="1",
    )
    # Its start queued a sweep on the default queue: let the session's worker (no keys) finish it now, or drop it
    # when none runs, so it cannot take this test's row.
    if any(host.startswith("worker-") for reply in app.control.ping(timeout=1) for host in reply):
        tasks.outbox_sweep.apply_async((0,), ignore_result=False).get(timeout=60)
    else:
        app.control.purge()
    yield worker
    stop_worker(worker)


def sweep() -> dict:
    """What the beat sends every minute, run by this test's worker; waits for its answer."""
    return tasks.outbox_sweep.apply_async((0,), queue=QUEUE, ignore_result=False).get(timeout=60)


def test_a_push_asked_while_the_broker_is_down_reaches_the_phone_once(
    monkeypatch, season, alice, bob, members, service, push_worker
):
    phone = Browser(service, "bob-phone")
    phone.subscribe(bob)
    dead = DeadBroker(monkeypatch)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    assert dead.attempts == 1  # the hint was tried once, and lost
    monkeypatch.undo()
    job = LeagueJob.objects.get(job=LeagueJob.Job.NOTIFY)
    assert Notification.objects.get(recipient=bob).state == Notification.State.QUEUED and not service.received

    assert sweep() == {"ran": 1, "failed": []}
    assert len(service.received) == 1
    assert phone.decrypt(service.received[0])["title"] == "Shitennō of 26 November waits for your sign-off"
    # a late hint for the same row, then another sweep: both run to the end and push nothing more
    tasks.outbox_run_many.apply_async(([job.pk],), queue=QUEUE, ignore_result=False).get(timeout=60)
    assert sweep() == {"ran": 0, "failed": []}
    assert len(service.received) == 1
    assert Notification.objects.get(recipient=bob).state == Notification.State.PUSHED
    assert not LeagueJob.objects.exists()
