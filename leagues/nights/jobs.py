"""The Celery job of a hard night's proposal (issue 36): thin over leagues.nights.proposals.

Found by the worker through `shitenno_site.celery` (`autodiscover_tasks(["leagues.nights"], related_name="jobs")`)
and named explicitly (`proposals.PROPOSE_TASK`, which sends it by name), so moving modules does not rename the
queued messages.

Delivered once in effect: the job runs only the attempt it was queued for, and only while its row says "queued"
(it marks it "running" first); a second delivery finds it taken and does nothing. Its soft time limit records
"failed: took too long" and writes nothing; both limits sit far inside the broker's visibility timeout.
"""

from celery import shared_task
from django.conf import settings

from .proposals import PROPOSE_TASK, proposal_run


@shared_task(
    name=PROPOSE_TASK,
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.NIGHT_PROPOSAL_TIME_LIMIT,
    time_limit=settings.NIGHT_PROPOSAL_TIME_LIMIT + 15,
)
def propose_round(proposal_id: int, attempt: int) -> None:
    proposal_run(proposal_id, attempt)
