"""The import jobs (issue 27) as Celery tasks: a large import's commit and the uploads' expiry. Named as they were
before leagues/ was split into packages (`leagues.tasks.<function>`): the beat schedule and queued messages name
them so."""

from celery import shared_task
from django.conf import settings

from leagues.imports.job import run_import_job
from leagues.imports.pending import pending_expire, pending_lost


@shared_task(name="leagues.tasks.import_plays_job", ignore_result=True, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=settings.IMPORT_JOB_TIME_LIMIT, time_limit=settings.IMPORT_JOB_TIME_LIMIT + 30)
def import_plays_job(token: str) -> None:
    """A large import's commit (issue 27), reporting its progress to the page (leagues.imports.views). Safe to
    deliver twice (leagues/imports/job.py); it ends within the broker's visibility timeout."""
    run_import_job(token)


@shared_task(name="leagues.tasks.imports_expire", ignore_result=True)
def imports_expire() -> int:
    """Delete the import uploads past their expiry, and queue again the jobs of running uploads nobody holds (a
    lost message, a dead process): every import ends with an outcome."""
    for token in pending_lost():
        import_plays_job.delay(token)
    return pending_expire()
