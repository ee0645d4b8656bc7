"""Imports on their own queue (issue 46 finding 3): one club's import, and the re-rate it asks for, run on the
"heavy" queue, which its own worker consumes, so they never hold back the default queue's jobs of another club's
result (a fold-in, a rating, a night's proposal)."""

from unittest import mock

from django.conf import settings

from leagues.imports import tasks as imports_tasks
from leagues.jobs import outbox
from shitenno_site.celery import app


def queue_of(task_name: str) -> str:
    """The queue Celery's router sends a task to (settings.CELERY_TASK_ROUTES, else the default queue)."""
    route = app.amqp.router.route({}, task_name)
    return route["queue"].name


def test_imports_and_the_nightly_rebuilds_go_to_the_heavy_queue_and_a_result_s_jobs_to_the_default():
    assert settings.HEAVY_QUEUE == "heavy"
    for name in ("leagues.tasks.import_plays_job", "leagues.tasks.ratings_recompute_all", "games.tasks.stats_rebuild"):
        assert queue_of(name) == "heavy", name
    for name in (
        "leagues.tasks.outbox_run_many",
        "leagues.tasks.outbox_sweep",
        "leagues.tasks.ratings_apply_result",
        "leagues.nights.propose_round",
        "leagues.notifications.tasks.hourly",
    ):
        assert queue_of(name) == "celery", name


def hinted_queues(body) -> list:
    """The queue of each hint published while `body` runs (None: the default queue), sent to no broker."""
    eager, app.conf.task_always_eager = app.conf.task_always_eager, False  # as with a broker
    sent = []
    try:
        with (
            mock.patch.object(outbox, "_hint_pool"),
            mock.patch.object(app, "send_task", lambda *args, **kwargs: sent.append(kwargs.get("queue"))),
        ):
            body()
    finally:
        app.conf.task_always_eager = eager
    return sent


def test_a_result_s_hint_goes_to_the_default_queue():
    assert hinted_queues(lambda: outbox.publish([1])) == [None]


def test_the_re_rate_an_import_asks_for_is_hinted_to_the_heavy_queue(monkeypatch):
    def import_that_counts_results(token):
        outbox.publish([7])  # as the import's commit does, at its transaction's end

    monkeypatch.setattr(imports_tasks, "run_import_job", import_that_counts_results)
    assert hinted_queues(lambda: imports_tasks.import_plays_job.run("a-token")) == ["heavy"]
    # and only inside the job: the next hint of this process goes to the default queue again
    assert hinted_queues(lambda: outbox.publish([8])) == [None]
