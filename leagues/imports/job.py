"""A large import's commit as a Celery job (issue 27): the body `leagues.tasks.import_plays_job` runs, writing its
progress where the import's page (leagues/import_views.py) polls it. Its own module, so the task and the page both
import it and neither imports the other."""

from __future__ import annotations

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ..models import Club
from .formats import ImportRefused
from .service import import_commit, read_files

KEEP = 3600  # seconds an upload waits between preview and commit


def run_import_job(token: str) -> None:
    """The Celery job's body: commit the upload, writing the progress where the page polls it."""
    from django.contrib.auth import get_user_model

    upload = cache.get(f"plays-import:{token}")
    key = f"plays-import-progress:{token}"
    if upload is None:
        cache.set(key, {"done": 0, "total": 0, "error": _("The upload expired: start again.")}, KEEP)
        return
    club = Club.objects.get(pk=upload["club"])
    user = get_user_model().objects.get(pk=upload["user"])
    try:
        summary = import_commit(
            club=club, user=user, source=read_files(upload["kind"], upload["files"]),
            merges=upload.get("merges", []), game_overrides=upload.get("games", {}),
            progress=lambda done, total: cache.set(key, {"done": done, "total": total}, KEEP))
    except (ImportRefused, PermissionDenied) as error:
        cache.set(key, {"done": 0, "total": 0, "error": str(error)}, KEEP)
        return
    cache.set(key, {"done": 1, "total": 1, "summary": summary}, KEEP)
