"""An import's commit, in the page for a small one and as a Celery job (`leagues.tasks.import_plays_job`) for a large
one (issues 27, 34, 36). Its own module, so the task and the page both import it and neither imports the other.

Delivered once in effect: the commit runs holding the upload's row (`skip_locked`), only while the row says
"running", and writes the outcome on it in the same transaction as the results; a second delivery finds the row
held (the first is at it) or finished, and does nothing. A delivery whose worker died rolled back, so the next one
starts afresh. Every outcome is written on the row: done, refused (the reason), or failed (the reason: a deadlock,
the time limit), so the progress page never shows "Importing..." for ever.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from ..models import PendingImport
from .formats import ImportRefused
from .pending import pending_finish, pending_step
from .service import import_commit, read_files

logger = logging.getLogger(__name__)
REFUSALS = (ImportRefused, PermissionDenied, ValidationError)


def _commit(pending: PendingImport) -> tuple[str, dict]:
    choices = pending.choices
    try:
        summary = import_commit(
            club=pending.club,
            user=pending.user,
            source=read_files(pending.kind, pending.file_list()),
            merges=choices.get("merges", []),
            game_overrides=choices.get("games", {}),
            vouch=bool(choices.get("vouch")),
            season_league=choices.get("league"),
            progress=lambda done, total: pending_step(pending.token, done, total),
        )
    except REFUSALS as error:  # import_commit's own savepoint rolled back: nothing of it is written
        messages = getattr(error, "messages", None) or [str(error)]
        return PendingImport.State.REFUSED, {"error": " ".join(str(m) for m in messages)}
    return PendingImport.State.DONE, {"summary": summary}


def run_import(pending_id: int) -> None:
    """Commit the running upload `pending_id`, once, and keep its outcome on it, in its importer's language."""
    language = (PendingImport.objects.filter(pk=pending_id).values_list("choices", flat=True).first() or {}).get(
        "language"
    ) or translation.get_language()
    with translation.override(language):
        _run(pending_id)


def _run(pending_id: int) -> None:
    try:
        with transaction.atomic():
            pending = (
                PendingImport.objects.select_for_update(of=("self",), skip_locked=True)
                .select_related("club", "user")
                .filter(pk=pending_id, state=PendingImport.State.RUNNING)
                .first()
            )
            if pending is None:  # finished already, or another delivery holds it
                return
            state, outcome = _commit(pending)
            pending_finish(pending.pk, state, outcome)
    except (DatabaseError, SoftTimeLimitExceeded) as error:
        logger.exception("The import %s failed.", pending_id)
        if isinstance(error, SoftTimeLimitExceeded):
            reason = _("it took longer than the import's time limit; import the files in smaller parts")
        else:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        pending_finish(
            pending_id,
            PendingImport.State.FAILED,
            {"error": _("The import failed and wrote nothing (%(reason)s). Try again.") % {"reason": reason}},
        )


def run_import_job(token: str) -> None:
    """The Celery job's body."""
    pending = PendingImport.objects.filter(token=token).values_list("pk", flat=True).first()
    if pending is not None:
        run_import(pending)
