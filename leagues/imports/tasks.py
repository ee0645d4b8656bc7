"""The import jobs (issue 27) as Celery tasks: a large import's commit and the uploads' expiry. Named as they were
before leagues/ was split into packages (`leagues.tasks.<function>`): the beat schedule and queued messages name
them so."""

import math

from celery import Task, shared_task
from django.conf import settings

from leagues.imports.export_job import export_build, export_expire, export_lost
from leagues.imports.job import run_import_job
from leagues.imports.pending import pending_expire, pending_lost
from leagues.imports.preview import preview_build_job
from leagues.jobs import outbox
from leagues.models import PendingImport


def import_job_limits(seats: int | None) -> tuple[int, int]:
    """The import job's (soft, hard) time limits in seconds, from its size in players' places (None: unknown,
    the largest): IMPORT_JOB_BASE_SECONDS + IMPORT_JOB_SECONDS_PER_SEAT a place, at most IMPORT_JOB_TIME_LIMIT,
    which sits inside the broker's visibility timeout (shitenno_site/settings.py, docs/import.md)."""
    cap = settings.IMPORT_JOB_TIME_LIMIT
    soft = (
        cap
        if seats is None
        else min(cap, settings.IMPORT_JOB_BASE_SECONDS + math.ceil(seats * settings.IMPORT_JOB_SECONDS_PER_SEAT))
    )
    return soft, soft + 30


class ImportJob(Task):
    """Every delivery of the import job, from the page or the beat, carries the time limits of its upload's size."""

    def apply_async(self, args=None, kwargs=None, **options):  # noqa: ANN201 (Celery's AsyncResult)
        if args and "soft_time_limit" not in options:
            choices = PendingImport.objects.filter(token=args[0]).values_list("choices", flat=True).first() or {}
            options["soft_time_limit"], options["time_limit"] = import_job_limits(choices.get("seats"))
        return super().apply_async(args, kwargs, **options)


@shared_task(
    name="leagues.tasks.import_plays_job",
    base=ImportJob,
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.IMPORT_JOB_TIME_LIMIT,
    time_limit=settings.IMPORT_JOB_TIME_LIMIT + 30,
)
def import_plays_job(token: str) -> None:
    """A large import's commit (issue 27), reporting its progress to the page (leagues.imports.views). Safe to
    deliver twice (leagues/imports/job.py); its time limit follows its size and ends within the broker's
    visibility timeout (`ImportJob`). It runs on the heavy queue (settings.CELERY_TASK_ROUTES), and so do the
    re-rates its results ask for (`outbox.hints_to`)."""
    with outbox.hints_to(settings.HEAVY_QUEUE):
        run_import_job(token)


@shared_task(
    name="leagues.imports.preview_job",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.IMPORT_JOB_TIME_LIMIT,
    time_limit=settings.IMPORT_JOB_TIME_LIMIT + 30,
)
def import_preview_job(token: str) -> None:
    """A large upload's preview, read and planned once for the choices it asks (issue 46 finding 6), on the heavy
    queue beside the import commits (settings.CELERY_TASK_ROUTES). Safe to deliver twice: a build whose choices
    are no longer asked keeps nothing (leagues/imports/preview.py)."""
    preview_build_job(token)


@shared_task(
    name="leagues.imports.export_job",
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.EXPORT_JOB_TIME_LIMIT,
    time_limit=settings.EXPORT_JOB_TIME_LIMIT + 30,
)
def club_export_job(token: str) -> None:
    """A large club's export file (issue 46 finding 6), on the heavy queue. Safe to deliver twice: a file already
    made is not made again (leagues/imports/export_job.py)."""
    export_build(token)


@shared_task(name="leagues.tasks.imports_expire", ignore_result=True)
def imports_expire() -> int:
    """Delete the import uploads and export files past their expiry, and queue again the jobs nobody holds (a
    lost message, a dead process): every import and every export asked ends with an outcome."""
    for token in pending_lost():
        import_plays_job.delay(token)
    for token in export_lost():
        club_export_job.delay(token)
    return pending_expire() + export_expire()
