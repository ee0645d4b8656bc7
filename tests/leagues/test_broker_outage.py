"""A worker outlives a broker outage (issue 46 finding 7): Redis goes away for 20 s, with a job running, and comes
back; the worker reconnects by itself and runs the next job, nobody restarting it.

The worker here has a Redis of its own (a `redis-server` the test starts on a free port), so stopping it touches no
other test. Issue 46 saw the worker die in 2 of 3 such outages ("Unrecoverable error: AttributeError ...
'hostname'" after "Restoring 1 unacknowledged message(s)"); with celery 5.7.0, kombu 5.7.0 and redis-py 8.1.0
(pyproject.toml) it survives, and this test keeps it so. A worker that dies anyway is restarted by the supervisor
(docs/operations.md, "Workers, queues and a supervisor").
"""

import shutil
import socket
import subprocess
import time

import pytest

from leagues.jobs import tasks
from leagues.models import Rating
from shitenno_site.celery import app
from tests.conftest import start_worker, stop_worker
from tests.leagues.test_worker_crash import build_league, wait_for

QUEUE = "outage-test"
OUTAGE_SECONDS = 20


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis(port: int) -> subprocess.Popen:
    server = shutil.which("redis-server") or "/usr/bin/redis-server"
    process = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    pytest.fail(f"redis-server did not listen on {port} within 20 s")


def stop_redis(process: subprocess.Popen) -> None:
    process.kill()  # as an outage: no shutdown, no save
    process.wait()


def recompute_through(broker: str, league) -> None:
    with app.connection_for_write(broker) as connection:
        tasks.ratings_recompute.apply_async(("league", str(league.pk)), queue=QUEUE, connection=connection)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not shutil.which("redis-server") and not shutil.which("/usr/bin/redis-server"),
    reason="needs redis-server to make an outage of its own",
)
def test_the_worker_outlives_a_broker_outage_with_a_job_in_flight_and_runs_the_next(celery_worker_process):
    port = free_port()
    broker = f"redis://127.0.0.1:{port}/0"
    redis = start_redis(port)
    worker = start_worker("outage", queues=QUEUE, CELERY_BROKER_URL=broker, CELERY_RESULT_BACKEND=broker)
    try:
        league = build_league(4_000)
        recompute_through(broker, league)
        time.sleep(0.5)  # the job taken (or about to be): the outage meets a worker at work
        stop_redis(redis)
        time.sleep(OUTAGE_SECONDS)
        assert worker.poll() is None, "the worker died while Redis was away"
        redis = start_redis(port)  # back, empty (no persistence): the job in flight is the outbox's to send again
        Rating.objects.all().delete()
        recompute_through(broker, league)
        wait_for(
            lambda: Rating.objects.filter(kind="league").count() == 200,
            90,
            "the worker to reconnect by itself and run the next job",
        )
        assert worker.poll() is None
    finally:
        stop_worker(worker)
        stop_redis(redis)
