"""The club's export downloads (issue 27), and for a large club their job's pages (issue 46 finding 6). Thin:
leagues.imports.export and leagues.imports.export_job do the work. Members only, as for the club's other inner
pages; any member may download a file another member asked for (it is the same file)."""

from __future__ import annotations

import logging

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from leagues.common.access import club_for_member
from leagues.imports.export_job import (
    KINDS,
    export_ask,
    export_unqueue,
    failure_text,
    file_name,
    in_page,
    unpacked,
)
from leagues.models import Club, ClubExport

logger = logging.getLogger(__name__)


def _member_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user)
    return club


def _attachment(response: HttpResponse, name: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def club_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """A small club's file, streamed as it is read; a large club's page, whose button asks the heavy queue to
    make the file (a club of 100,000 entries held a web worker 7-11 s per download: issue 46)."""
    club = _member_club(request, slug)
    if kind not in KINDS:
        raise Http404
    pieces, content_type, _name = KINDS[kind]
    if request.method != "POST":
        if in_page(club):
            return _attachment(
                StreamingHttpResponse(pieces(club), content_type=f"{content_type}; charset=utf-8"),
                file_name(club, kind),
            )
        return render(request, "leagues/export_ask.html", {"club": club, "kind": kind})
    made, queue = export_ask(club, request.user, kind)
    if queue:
        from leagues.imports.tasks import club_export_job

        try:
            club_export_job.delay(made.token)
        except Exception:  # the queue is down: nothing kept, the member may tap again
            logger.warning("Could not queue the export %s.", made.token, exc_info=True)
            export_unqueue(made)
            return render(
                request,
                "leagues/export_ask.html",
                {
                    "club": club,
                    "kind": kind,
                    "error": _("The file could not be started (the job queue does not answer). Try again in a minute."),
                },
                status=503,
            )
    return redirect("export_progress", slug=club.slug, token=made.token)


def _made(club: Club, token: str) -> ClubExport:
    return get_object_or_404(ClubExport.objects.defer("data"), club=club, token=token)


@require_safe
@login_required
def export_progress(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The file's page: being made (the page, or with htmx its part alone, polled until it ends), ready with its
    download, or failed with the reason."""
    club = _member_club(request, slug)
    made = _made(club, token)
    template = "leagues/partials/export_progress.html" if request.htmx else "leagues/export_progress.html"
    return render(
        request,
        template,
        {
            "club": club,
            "made": made,
            "name": file_name(club, made.kind),
            "failure": failure_text(made.error) if made.error else "",
        },
    )


@require_safe
@login_required
@vary_on_headers("Accept-Encoding")
def export_download(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The file made: its compressed bytes as they are kept to a client that takes gzip (no work for the web
    process), else unpacked as they are read. 404 until it is ready, and after it expired."""
    club = _member_club(request, slug)
    made = get_object_or_404(ClubExport, club=club, token=token, state=ClubExport.State.READY)
    content_type = f"{KINDS[made.kind][1]}; charset=utf-8"
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        response: HttpResponse = HttpResponse(bytes(made.data), content_type=content_type)
        response["Content-Encoding"] = "gzip"  # Django's GZipMiddleware leaves an encoded answer alone
    else:
        response = StreamingHttpResponse(unpacked(made), content_type=content_type)
    return _attachment(response, file_name(club, made.kind))


__all__ = ["club_export", "export_download", "export_progress"]
