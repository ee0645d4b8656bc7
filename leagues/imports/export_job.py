"""A large club's export as a job with a download (issue 46 finding 6).

Streaming the file kept a web worker busy as long as the club's history took to read: 7-11 s for a club of 100,000
entries, asked by any member, as often as he liked. Now a club past `IN_PAGE_ENTRIES` entries gets its files from
the heavy queue (the imports' own workers): the member asks on the page, the job writes the file once into its row
(gzip-compressed), the page polls until it is ready and then downloads it, from any web process, in a fraction of a
second. A small club's file is still streamed while the page waits, as it takes well under a second.

What one club can cost is bounded: one build per club and kind at a time (a second ask, by anyone, joins it: the
`one_export_building` constraint), and a club whose results did not change since a file was made `REUSE` ago gets
that file again. A file is kept `KEEP`; the beat deletes it after, and asks again for a build whose message was lost.
"""

from __future__ import annotations

import datetime
import gzip
import io
import logging
import secrets
from collections.abc import Callable, Iterator

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club, ClubExport, Result, ResultEntry
from . import export

logger = logging.getLogger(__name__)
IN_PAGE_ENTRIES = 5000  # a club with at most this many players' places is streamed while the page waits (~0.5 s)
KEEP = datetime.timedelta(hours=1)  # a file made is downloadable this long
REUSE = datetime.timedelta(minutes=10)  # an unchanged club asked again within this gets the file already made
LOST_AFTER = datetime.timedelta(minutes=2)  # a queued build no worker took by then: its message is asked again

# kind: (the pieces of the file, its content type, its name after the club's slug)
KINDS: dict[str, tuple[Callable[[Club], Iterator[bytes]], str, str]] = {
    "bgstats": (export.bgstats_pieces, "application/json", "bgstats.json"),
    "bgg": (export.bgg_pieces, "application/xml", "bgg-plays.xml"),
    "csv": (export.results_csv_pieces, "text/csv", "results.csv"),
}


# Why a build failed, as a code: the page says it in its reader's language (the job's own language is nobody's).
TOO_LONG, BROKE = "too-long", "failed"


def failure_text(code: str) -> str:
    if code == TOO_LONG:
        return _("Making the file took longer than the site allows a job; nothing was kept. Try again later.")
    return _("The file could not be made; the site's operators have been told. Try again later.")


def file_name(club: Club, kind: str) -> str:
    return f"{club.slug}-{KINDS[kind][2]}"


def in_page(club: Club) -> bool:
    """Whether the club is small enough for its file to be streamed while the page waits: a count that stops
    at the bound, so asking costs the same for the largest club."""
    entries = ResultEntry.objects.filter(Q(result__club=club) | Q(result__season__league__club=club))
    return entries[: IN_PAGE_ENTRIES + 1].count() <= IN_PAGE_ENTRIES


def fingerprint(club: Club) -> dict:
    """What tells that the club's results changed: their count and their last change (an edit, a sign-off, a
    deletion moves one or the other)."""
    found = Result.objects.filter(Q(club=club) | Q(season__league__club=club)).aggregate(
        results=Count("id"), changed=Max("updated_at")
    )
    return {"results": found["results"], "changed": found["changed"].isoformat() if found["changed"] else ""}


def export_ask(club: Club, user: AbstractBaseUser, kind: str) -> tuple[ClubExport, bool]:
    """The export this ask is answered by, and whether its job must be queued: a fresh file of an unchanged club,
    else the build under way for this club and kind, else a new one (queued by the caller)."""
    now = timezone.now()
    mark = fingerprint(club)
    fresh = (
        ClubExport.objects.filter(
            club=club,
            kind=kind,
            state=ClubExport.State.READY,
            fingerprint=mark,
            finished_at__gte=now - REUSE,
            expires_at__gt=now,
        )
        .order_by("-finished_at")
        .first()
    )
    if fresh is not None:
        return fresh, False
    building = _building(club, kind)
    if building is not None:
        return building, False
    try:
        with transaction.atomic():
            made = ClubExport.objects.create(
                token=secrets.token_urlsafe(16),
                club=club,
                user=user,
                kind=kind,
                fingerprint=mark,
                expires_at=now + KEEP,
            )
    except IntegrityError:  # another ask got there first: join its build
        building = _building(club, kind)
        if building is None:  # it ended meanwhile: its file is the club's as of a moment ago
            return ClubExport.objects.filter(club=club, kind=kind).latest("created_at"), False
        return building, False
    return made, True


def _building(club: Club, kind: str) -> ClubExport | None:
    return ClubExport.objects.filter(
        club=club, kind=kind, state__in=[ClubExport.State.QUEUED, ClubExport.State.RUNNING]
    ).first()


def export_unqueue(made: ClubExport) -> None:
    """The job could not be queued: nothing is kept, so the next ask starts again."""
    ClubExport.objects.filter(pk=made.pk, state=ClubExport.State.QUEUED).delete()


def _claim(token: str) -> ClubExport | None:
    """The export to build now, marked running; None when it is built already (a second delivery) or gone."""
    with transaction.atomic():
        made = (
            ClubExport.objects.select_for_update(of=("self",))
            .select_related("club")
            .filter(token=token, state__in=[ClubExport.State.QUEUED, ClubExport.State.RUNNING])
            .first()
        )
        if made is None:
            return None
        made.state, made.started_at = ClubExport.State.RUNNING, timezone.now()
        made.save(update_fields=["state", "started_at"])
    return made


def _finish(made: ClubExport, **fields) -> None:
    ClubExport.objects.filter(pk=made.pk).update(finished_at=timezone.now(), expires_at=timezone.now() + KEEP, **fields)


def export_build(token: str) -> None:
    """The job's work: the file read from the club's results as the streamed download reads them, compressed into
    the row; a failure is kept with its reason (the page says it), never left running."""
    made = _claim(token)
    if made is None:
        return
    pieces = KINDS[made.kind][0]
    packed, size = io.BytesIO(), 0
    try:
        with gzip.GzipFile(fileobj=packed, mode="wb", compresslevel=6, mtime=0) as out:
            for piece in pieces(made.club):
                out.write(piece)
                size += len(piece)
    except SoftTimeLimitExceeded:
        _finish(made, state=ClubExport.State.FAILED, error=TOO_LONG)
        return
    except Exception:
        logger.exception("The export %s failed.", token)
        _finish(made, state=ClubExport.State.FAILED, error=BROKE)
        return
    _finish(made, state=ClubExport.State.READY, data=packed.getvalue(), size=size)


def export_lost() -> list[str]:
    """The builds no worker holds: queued past `LOST_AFTER` (the message was lost) or running past the job's hard
    limit (its process died). Returned, their clock reset, for the beat to queue again."""
    now = timezone.now()
    hard = datetime.timedelta(seconds=settings.EXPORT_JOB_TIME_LIMIT + 60)
    with transaction.atomic():
        lost = list(
            ClubExport.objects.select_for_update(of=("self",), skip_locked=True)
            .filter(
                Q(state=ClubExport.State.QUEUED, created_at__lt=now - LOST_AFTER, started_at__isnull=True)
                | Q(state=ClubExport.State.QUEUED, started_at__lt=now - LOST_AFTER)
                | Q(state=ClubExport.State.RUNNING, started_at__lt=now - hard)
            )
            .values_list("pk", "token")[:100]
        )
        ClubExport.objects.filter(pk__in=[pk for pk, _token in lost]).update(
            state=ClubExport.State.QUEUED, started_at=now
        )
    return [token for _pk, token in lost]


def export_expire() -> int:
    """Delete the files past their expiry (the beat's job); a build under way is never expired."""
    with transaction.atomic():
        expired = list(
            ClubExport.objects.select_for_update(of=("self",), skip_locked=True)
            .filter(expires_at__lt=timezone.now(), state__in=[ClubExport.State.READY, ClubExport.State.FAILED])
            .values_list("pk", flat=True)[:1000]
        )
        ClubExport.objects.filter(pk__in=expired).delete()
    return len(expired)


def unpacked(made: ClubExport, chunk: int = 64 * 1024) -> Iterator[bytes]:
    """The file's bytes, for a client that does not take gzip."""
    with gzip.GzipFile(fileobj=io.BytesIO(bytes(made.data)), mode="rb") as packed:
        while piece := packed.read(chunk):
            yield piece
