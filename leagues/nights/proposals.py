"""Asking for a night's round (issues 36 and 37): one proposal of a night at a time, a hard night's off the request,
and every outcome kept for the organiser to read.

Why: the optimiser (leagues.nights.pods) takes up to 1-2 s of one core on a night past the exact search's
`pods.EXACT_LIMIT` free players, and about 1 s more for a process's first OR-Tools load. Run inside the request,
two such proposals held both gunicorn workers (the site stopped answering); a second proposal of the same night
waited on the first, holding a worker too.

The rule:
- A night of at most `IN_REQUEST_LIMIT` free players (checked in, not at a locked table) is proposed in the
  request: the exact search, no solver, no clock, about 0.1 s. A larger one is the Celery job
  `leagues.nights.propose_round` (leagues/nights/jobs.py) and the request answers at once ("proposing"); the page
  and the API poll its row. With eager Celery (`make run`) the job runs in the request, as before.
- One proposal of a night at a time: each claims the night's `NightProposal` row first (one conditional UPDATE,
  no lock held); a "propose" while one is queued or running is answered at once with that one.
- The proposal itself (`services.round_propose`) runs outside the night's row lock and writes only if the night is
  as it read it.
- Every outcome is kept on the row: the round's number, a refusal and its reason, a failure and its reason. A job
  that never reported (its message lost, its worker killed) reads as failed once it is older than `LOST_AFTER`,
  and a new "propose" may start then; its late run, if any, finds its attempt taken and does nothing.
"""

from __future__ import annotations

import datetime
import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from leagues.common.access import require_club_manager

from . import pods, services
from .models import Night, NightProposal

logger = logging.getLogger(__name__)
State = NightProposal.State
IN_REQUEST_LIMIT = pods.EXACT_LIMIT
WAITING = (State.QUEUED, State.RUNNING)
QUEUED_LOST_AFTER = datetime.timedelta(seconds=120)  # a job not taken by then was lost (or the queue is jammed)


def running_lost_after() -> datetime.timedelta:
    """A running job past its hard time limit (jobs.py) died without a word."""
    return datetime.timedelta(seconds=settings.NIGHT_PROPOSAL_TIME_LIMIT + 30)


def _lost(row: NightProposal) -> bool:
    limit = QUEUED_LOST_AFTER if row.state == State.QUEUED else running_lost_after()
    return row.state in WAITING and (row.started_at is None or row.started_at < timezone.now() - limit)


def proposal_start(*, night: Night, user: AbstractBaseUser) -> tuple[NightProposal, bool]:
    """Managers only. Claim the night's proposal for a new attempt: (row, True); (row, False) when one is queued
    or running already (the caller answers with that one)."""
    require_club_manager(night.season.league.club, user)
    NightProposal.objects.bulk_create([NightProposal(night=night)], ignore_conflicts=True)  # the night's first
    now = timezone.now()
    busy = Q(state=State.QUEUED, started_at__gte=now - QUEUED_LOST_AFTER) | Q(
        state=State.RUNNING, started_at__gte=now - running_lost_after()
    )
    claimed = (
        NightProposal.objects.filter(night=night)
        .exclude(busy)
        .update(
            state=State.QUEUED,
            attempt=F("attempt") + 1,
            outcome={},
            started_at=now,
            finished_at=None,
            requested_by=user,
            language=translation.get_language() or "",
        )
    )
    return NightProposal.objects.get(night=night), bool(claimed)


def proposal_run(proposal_id: int, attempt: int) -> None:
    """Run attempt `attempt` of a night's proposal once, and keep its outcome on the row, in the organiser's
    language. A delivery of an attempt taken already, replaced, or lost does nothing."""
    lost = timezone.now() - QUEUED_LOST_AFTER
    taken = NightProposal.objects.filter(
        pk=proposal_id, attempt=attempt, state=State.QUEUED, started_at__gte=lost
    ).update(state=State.RUNNING, started_at=timezone.now())
    if not taken:
        return
    row = NightProposal.objects.select_related("night", "requested_by").get(pk=proposal_id)
    with translation.override(row.language or None):
        state, outcome = _outcome(row)
    NightProposal.objects.filter(pk=proposal_id, attempt=attempt).update(
        state=state, outcome=outcome, finished_at=timezone.now()
    )


def _outcome(row: NightProposal) -> tuple[str, dict]:
    try:
        if row.requested_by is None:
            raise PermissionDenied(_("The organiser who asked for this proposal has no account any more."))
        night_round = services.round_propose(night=row.night, user=row.requested_by)
    except services.NightChanged as error:
        return State.REFUSED, {"error": error.message, "code": "changed"}
    except (ValidationError, PermissionDenied) as error:
        messages = getattr(error, "messages", None) or [str(error)]
        return State.REFUSED, {"error": " ".join(str(m) for m in messages), "code": "refused"}
    except SoftTimeLimitExceeded:
        logger.warning("The proposal of night %s took longer than its time limit.", row.night_id)
        return State.FAILED, {
            "error": _(
                "The proposal took longer than its time limit; nothing was written. "
                "Propose again, or ease the pairs kept apart."
            )
        }
    except Exception as error:  # noqa: BLE001 (a database error, a bug: reported, never "Proposing..." for ever)
        logger.exception("The proposal of night %s failed.", row.night_id)
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return State.FAILED, {
            "error": _("The proposal failed and wrote nothing (%(reason)s). Propose again.") % {"reason": reason}
        }
    return State.DONE, {"round": night_round.number}


PROPOSE_TASK = "leagues.nights.propose_round"  # by name: jobs.py imports this module, not back
SEND_TIMEOUT = 1  # seconds: a broker that does not answer by then is as good as down


def send_job(proposal_id: int, attempt: int) -> None:
    """Queue the job (leagues/nights/jobs.py) on a connection of its own that gives up after SEND_TIMEOUT (the
    shared producer pool retries connecting, which kept a request waiting on a dead broker: leagues.jobs.outbox); in
    eager mode (`make run`, no broker) run it here."""
    from shitenno_site.celery import app

    if app.conf.task_always_eager:
        proposal_run(proposal_id, attempt)
        return
    with app.connection_for_write(
        connect_timeout=SEND_TIMEOUT,
        transport_options={"max_retries": 0, "socket_connect_timeout": SEND_TIMEOUT, "socket_timeout": SEND_TIMEOUT},
    ) as connection:
        connection.ensure_connection(max_retries=0)
        app.send_task(PROPOSE_TASK, (proposal_id, attempt), connection=connection, retry=False, ignore_result=True)


def proposal_ask(*, night: Night, user: AbstractBaseUser) -> tuple[NightProposal, bool]:
    """Managers only. Propose the night's round: in the request for a small night, else as the job. Returns the
    row as claimed (its `attempt`; `proposal_state` says how it went) and whether this ask started it (False: one
    was running already, and that one is returned)."""
    row, started = proposal_start(night=night, user=user)
    if not started:
        return row, False
    if services.snapshot(night.pk).free <= IN_REQUEST_LIMIT:
        proposal_run(row.pk, row.attempt)
    else:
        try:
            send_job(row.pk, row.attempt)
        except Exception:  # the queue is down: say so now rather than "proposing" for two minutes
            logger.warning("Could not queue the proposal of night %s.", night.pk, exc_info=True)
            NightProposal.objects.filter(pk=row.pk, attempt=row.attempt, state=State.QUEUED).update(
                state=State.FAILED,
                finished_at=timezone.now(),
                outcome={
                    "error": _(
                        "The proposal could not be started (the job queue does not answer); nothing was written. Try "
                        "again in a minute."
                    )
                },
            )
    return row, True


def proposal_state(night: Night, attempt: int | None = None) -> dict:
    """What the page and the API show of the night's latest proposal: {"state": None (never asked) | "queued" |
    "running" | "done" | "refused" | "failed", "attempt", "round" (its number, once done), "error" (the reason
    of a refusal or failure), "code" ("changed" when the night changed meanwhile)}. A job lost reads as failed.
    `attempt`: the one the reader asked about; a newer one is reported as it is."""
    row = NightProposal.objects.filter(night=night).first()
    if row is None or (attempt is not None and row.attempt < attempt):
        return {"state": None, "attempt": 0, "round": None, "error": "", "code": ""}
    state, outcome = row.state, row.outcome or {}
    if _lost(row):
        state, outcome = (
            State.FAILED,
            {
                "error": _(
                    "The proposal did not finish (its job was lost or stopped); nothing was written. Propose again."
                )
            },
        )
    return {
        "state": str(state),
        "attempt": row.attempt,
        "round": outcome.get("round"),
        "error": outcome.get("error", ""),
        "code": outcome.get("code", ""),
    }
