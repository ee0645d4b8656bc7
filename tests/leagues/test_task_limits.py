"""Workers that share fairly (issue 46 finding 3): every job has a soft and a hard time limit, and a job stopped at
its soft limit writes nothing and leaves its outbox row for a later run.

alice owns the club and records the games; bob signs them off. The time limit is not waited for: the job's body
raises SoftTimeLimitExceeded, as the worker's signal handler makes it do.
"""

from unittest import mock

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from leagues.jobs import outbox, repair, tasks
from leagues.models import LeagueJob, Rating, RatingEvent, Standing
from leagues.rating import store as rating_store
from shitenno_site.celery import app

from .league_helpers import enter, join, league_with_season, sign_all


def registered_tasks() -> dict:
    """Every task the worker would run: the app's own, after the same discovery the worker does."""
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if not name.startswith("celery.")}


def test_every_task_of_the_app_has_a_soft_and_a_hard_time_limit_inside_the_visibility_timeout():
    found = registered_tasks()
    # the discovery found the jobs of every package (or the test below would check nothing)
    assert {
        "leagues.tasks.outbox_run_many",
        "leagues.tasks.import_plays_job",
        "leagues.nights.propose_round",
        "leagues.notifications.tasks.hourly",
        "games.tasks.stats_rebuild",
    } <= set(found)
    timeout = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    for name, task in found.items():
        soft = task.soft_time_limit or app.conf.task_soft_time_limit
        hard = task.time_limit or app.conf.task_time_limit
        assert soft and hard, f"{name} has no time limit"
        assert soft < hard < timeout, f"{name}: soft {soft} s, hard {hard} s, visibility timeout {timeout} s"


def test_every_task_s_name_is_written_in_its_decorator():
    """A task's name is what queued messages and the beat's schedule call it: a name Celery derives from the
    module would change when the code moves, and the messages in flight then name no task. Each decorator says it
    (a task object cannot tell a given name from a derived one, so the test reads its module for the name, written
    in the decorator or in a constant it uses); the beat names only tasks that exist."""
    import inspect

    for name, task in registered_tasks().items():
        module = inspect.getmodule(task.run)
        source = inspect.getsource(module)
        constants = [key for key, value in vars(module).items() if value == name and key.isupper()]
        assert f'name="{name}"' in source or any(f"name={key}" in source for key in constants), (
            f"{name}: no name= in its @shared_task"
        )
    assert {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()} <= set(registered_tasks())


def test_the_jobs_of_one_change_take_the_defaults_and_a_scope_s_re_rate_the_long_limit():
    found = registered_tasks()
    assert app.conf.task_soft_time_limit == 300 and app.conf.task_time_limit == 330
    assert found["leagues.tasks.standings_apply_result"].soft_time_limit == 300  # the default, as Celery gives it
    for name in (
        "leagues.tasks.outbox_run_many",
        "leagues.tasks.outbox_sweep",
        "leagues.tasks.ratings_recompute",
        "leagues.tasks.ratings_recompute_all",
    ):
        assert found[name].soft_time_limit == settings.LONG_JOB_TIME_LIMIT > app.conf.task_soft_time_limit


def out_of_time(*args, **kwargs):
    raise SoftTimeLimitExceeded()


@pytest.fixture
def asked(club, alice, bob):
    """A counted result whose jobs were not run (the broker's hint lost): its scope's re-rate and its season's
    table asked for, in that order."""
    join(club, bob)
    league, season = league_with_season(club, alice)
    with mock.patch.object(outbox, "publish"):
        sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20)]), bob)
        LeagueJob.objects.all().delete()
        outbox.ask_rate_scope("league", str(league.pk))
        outbox.ask_compute_standings(season.pk)
    rows = list(LeagueJob.objects.order_by("pk").values_list("pk", "job", "generation"))
    assert [job for _pk, job, _generation in rows] == ["rate_scope", "compute_standings"]
    return league, season, rows


def nothing_written(league, season) -> bool:
    return not (
        RatingEvent.objects.filter(kind="league", key=str(league.pk)).exists()
        or Rating.objects.filter(kind="league", key=str(league.pk)).exists()
        or Standing.objects.filter(season=season).exists()
    )


@pytest.mark.django_db(transaction=True)
def test_a_re_rate_stopped_at_its_soft_limit_writes_nothing_and_keeps_its_outbox_rows(asked):
    league, season, rows = asked
    # out of time after the history is written, before the ratings: the re-rate's transaction rolls back
    with mock.patch.object(rating_store, "_write_ratings", out_of_time):
        with pytest.raises(SoftTimeLimitExceeded):
            tasks.outbox_run_many.run([pk for pk, _job, _generation in rows])  # the task's body, as the worker runs it
    assert nothing_written(league, season)
    # both rows stay as they were: the one in hand, and the one the run never reached (it stopped at once)
    assert list(LeagueJob.objects.order_by("pk").values_list("pk", "job", "generation")) == rows
    # a later run (the sweep) does them
    assert outbox.sweep(older_than=0) == {"ran": 2, "failed": []}
    assert not LeagueJob.objects.exists()
    assert Rating.objects.filter(kind="league", key=str(league.pk)).count() == 2
    assert Standing.objects.filter(season=season).count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_sweep_stops_at_its_soft_limit_and_the_next_sweep_goes_on(asked):
    league, season, rows = asked
    with mock.patch.object(rating_store, "ratings_recompute", out_of_time):
        with pytest.raises(SoftTimeLimitExceeded):
            tasks.outbox_sweep.run(0)
    assert nothing_written(league, season)
    assert list(LeagueJob.objects.order_by("pk").values_list("pk", "job", "generation")) == rows
    assert tasks.outbox_sweep.run(0) == {"ran": 2, "failed": []}


@pytest.mark.django_db(transaction=True)
def test_the_nightly_repair_stops_at_its_soft_limit_rather_than_going_on_to_the_next_scope(asked):
    league, season, _rows = asked
    calls = []

    def recompute_out_of_time(**kwargs):
        calls.append(kwargs)
        raise SoftTimeLimitExceeded()

    with mock.patch.object(rating_store, "ratings_recompute", recompute_out_of_time):
        with pytest.raises(SoftTimeLimitExceeded):
            repair.repair_all()
    assert len(calls) == 1  # the first scope only: the game's scope and the seasons were not begun
    assert nothing_written(league, season)
