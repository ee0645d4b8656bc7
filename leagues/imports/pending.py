"""An upload between its preview and its commit, kept in the database (`PendingImport`, issue 34).

The cache was per process by default (a preview on one gunicorn worker, a commit on the other, found nothing) and a
Redis flush lost every upload; the row is found by any process and lives until its expiry, when the beat's
`pending_expire` deletes it. The commit's outcome is kept on it, where the progress page reads it; only the
running job's progress steps go through the cache (a lost step shows an older bar, never a wrong outcome).
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from ..models import Club, PendingImport

KEEP = datetime.timedelta(hours=1)  # an upload waits this long between preview and commit; an outcome is kept as long
LOST_AFTER = 120  # seconds a running upload may wait unheld for its job before the beat queues it again


def _progress_key(token: str) -> str:
    return f"plays-import-progress:{token}"


def pending_create(
    *, club: Club, user: AbstractBaseUser, kind: str, files: Sequence[tuple[str, bytes]]
) -> PendingImport:
    return PendingImport.objects.create(
        token=secrets.token_urlsafe(16),
        club=club,
        user=user,
        kind=kind,
        files=[name for name, _data in files],
        sizes=[len(data) for _name, data in files],
        data=b"".join(data for _name, data in files),
        expires_at=timezone.now() + KEEP,
    )


def pending_start(pending: PendingImport, choices: dict) -> bool:
    """Mark the upload as being committed with these choices; False when another tap got there first."""
    limit = datetime.timedelta(seconds=settings.IMPORT_JOB_TIME_LIMIT)
    started = PendingImport.objects.filter(pk=pending.pk, state=PendingImport.State.WAITING).update(
        state=PendingImport.State.RUNNING,
        choices=choices,
        started_at=timezone.now(),
        expires_at=timezone.now() + KEEP + limit,
    )
    return bool(started)


def pending_unstart(pending: PendingImport) -> None:
    """The job could not be queued: the upload waits again, for another tap."""
    PendingImport.objects.filter(pk=pending.pk, state=PendingImport.State.RUNNING).update(
        state=PendingImport.State.WAITING
    )


def pending_step(token: str, done: int, total: int) -> None:
    cache.set(_progress_key(token), {"done": done, "total": total}, int(KEEP.total_seconds()))


def pending_finish(pending_id: int, state: str, outcome: dict) -> None:
    """The commit's outcome, kept an hour for the progress page; the files' bytes are not needed any more."""
    PendingImport.objects.filter(pk=pending_id).update(
        state=state, outcome=outcome, data=b"", expires_at=timezone.now() + KEEP
    )


def pending_progress(pending: PendingImport) -> dict:
    """What the progress page shows: the outcome once there is one, else the job's last step."""
    if pending.state == PendingImport.State.DONE:
        return {"summary": pending.outcome.get("summary", {})}
    if pending.state in (PendingImport.State.REFUSED, PendingImport.State.FAILED):
        return {"error": pending.outcome.get("error", "")}
    return cache.get(_progress_key(pending.token)) or {"done": 0, "total": 0}


@transaction.atomic
def pending_expire() -> int:
    """Delete the uploads past their expiry (the beat's job), except one a commit holds right now."""
    expired = list(
        PendingImport.objects.select_for_update(of=("self",), skip_locked=True)
        .filter(expires_at__lt=timezone.now())
        .values_list("pk", flat=True)[:1000]
    )
    PendingImport.objects.filter(pk__in=expired).delete()
    return len(expired)


@transaction.atomic
def pending_lost(older_than: float = LOST_AFTER) -> list[str]:
    """The running uploads nobody holds since `older_than` seconds: their job's message was lost (a broker
    flush or restart) or the process committing them died. Returned (their clock reset) for the beat to queue
    again; a second delivery of a job that was only slow does nothing (leagues/imports/job.py)."""
    since = timezone.now() - datetime.timedelta(seconds=older_than)
    lost = list(
        PendingImport.objects.select_for_update(of=("self",), skip_locked=True)
        .filter(state=PendingImport.State.RUNNING, started_at__lt=since)
        .values_list("pk", "token")[:100]
    )
    PendingImport.objects.filter(pk__in=[pk for pk, _token in lost]).update(started_at=timezone.now())
    return [token for _pk, token in lost]
