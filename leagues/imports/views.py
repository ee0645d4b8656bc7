"""The import pages (issue 27): upload, a preview that writes nothing, one commit (a Celery job with a progress
bar for a large file). The exports' pages are in leagues.imports.export_views. Thin: leagues.imports does the work."""

from __future__ import annotations

import logging

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from leagues.common.access import club_for_member
from leagues.imports.formats import MAX_BYTES, ImportRefused
from leagues.imports.job import run_import, run_import_job  # noqa: F401 (the job's body, kept here for its page's tests)
from leagues.imports.pending import pending_create, pending_progress, pending_start, pending_unstart
from leagues.imports.plan import (
    SKIP_INCOMPLETE,
    SKIP_OTHER_GAME,
    SKIP_PLAYER_COUNT,
    SKIP_SAME_PLAYER_TWICE,
    SKIP_TOO_FEW,
)
from leagues.imports.preview import (
    in_page,
    plan_of,
    preview_ask,
    preview_build,
    preview_is_for,
    preview_lost,
    preview_shown,
)
from leagues.imports.service import FORMATS, read_files, site_games
from leagues.models import Club, PendingImport
from shitenno_site.middleware import body_limit
from shitenno_site.validation import text_problem

logger = logging.getLogger(__name__)
IN_PAGE = 300  # results (a play of quantity n is n) committed while the page waits; more run as a job
MAX_FILES = 20
REASONS = {
    SKIP_OTHER_GAME: gettext_lazy("not one of the site's games"),
    SKIP_INCOMPLETE: gettext_lazy("incomplete"),
    SKIP_TOO_FEW: gettext_lazy("fewer than two players"),
    SKIP_SAME_PLAYER_TWICE: gettext_lazy("a player twice at one table"),
    SKIP_PLAYER_COUNT: gettext_lazy("a player count the game does not allow"),
}


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def clean(self, data, initial=None):
        single = super().clean
        return [single(d, initial) for d in data] if isinstance(data, (list, tuple)) else [single(data, initial)]


class ImportForm(forms.Form):
    kind = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=[
            ("bgstats", gettext_lazy("BG Stats export (JSON)")),
            ("bgg", gettext_lazy("BoardGameGeek plays (XML pages)")),
        ],
    )
    files = MultipleFileField(
        label=gettext_lazy("Files"),
        widget=MultipleFileInput(),
        help_text=gettext_lazy("At most 20 MB a file; nothing is written before you confirm."),
    )

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        if len(uploads) > MAX_FILES:
            raise forms.ValidationError(_("At most %(n)d files at once.") % {"n": MAX_FILES})
        for upload in uploads:
            problem = text_problem(upload.name or "")
            if problem:
                raise forms.ValidationError(_("A file's name: %(problem)s") % {"problem": problem})
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(
                    _("%(name)s is %(mb)d MB; at most 20 MB a file.")
                    % {"name": upload.name, "mb": upload.size // (1024 * 1024)}
                )
        return uploads


def _managed_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    return club


def _pending(request: HttpRequest, club: Club, token: str) -> PendingImport:
    """The manager's own upload of this club, from the database: any process finds it (issue 34)."""
    pending = PendingImport.objects.filter(token=token, club=club, user=request.user).first()
    if pending is None:
        raise Http404
    return pending


def _choices(request: HttpRequest, pending: PendingImport) -> dict:
    """The organiser's merges (one "A=B" a line), game choices, league for new seasons and vouch, from the
    preview's one form (the preview's "update" and its commit post the same fields); else the upload's last."""
    if request.method != "POST" or not {"choices", "merges"} & set(request.POST):
        return dict(pending.choices)
    problem = text_problem(request.POST.get("merges", ""), multiline=True)
    if problem:
        raise ImportRefused(_("Merges: %(problem)s") % {"problem": problem})
    merges = [line.strip() for line in request.POST.get("merges", "").splitlines() if line.strip()]
    slugs = {g.slug for g in site_games()}
    games = {
        key[5:]: (value if value in slugs else None)
        for key, value in request.POST.items()
        if key.startswith("game:") and not text_problem(key)
    }
    league = request.POST.get("season_league", "")
    return {
        "merges": merges,
        "games": games,
        "league": int(league) if league.isdigit() else None,
        "vouch": request.POST.get("vouch") == "1",
    }


@require_http_methods(["GET", "HEAD", "POST"])
@body_limit(MAX_FILES * MAX_BYTES + 1024 * 1024)  # the files, and room for the form's other fields
@login_required
def import_start(request: HttpRequest, slug: str) -> HttpResponse:
    """The upload. A small one is read here (a refusal is said on the form at once); a larger one is kept and read
    by the preview job, whose page says a refusal (leagues/imports/preview.py)."""
    club = _managed_club(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        files = [(f.name, f.read()) for f in form.cleaned_data["files"]]
        try:
            if in_page([len(data) for _name, data in files]):
                read_files(form.cleaned_data["kind"], files)
        except ImportRefused as error:
            form.add_error("files", str(error))
        else:
            pending = pending_create(club=club, user=request.user, kind=form.cleaned_data["kind"], files=files)
            _ask(pending, dict(pending.choices))
            return redirect("import_preview", slug=club.slug, token=pending.token)
    return render(request, "leagues/import_form.html", {"form": form, "club": club}, status=400 if form.errors else 200)


def _ask(pending: PendingImport, choices: dict) -> bool:
    """Ask for the preview of these choices: built here for a small upload, by the preview job for a larger one.
    False when the job could not be queued (the page says so; a later look asks again)."""
    preview_ask(pending, choices)
    if in_page(pending.sizes):
        preview_build(pending.pk)
    else:
        from leagues.imports.tasks import import_preview_job

        try:
            import_preview_job.delay(pending.token)
        except Exception:  # the queue is down: the page says so, and its next look asks again
            logger.warning("Could not queue the preview of the import %s.", pending.token, exc_info=True)
            PendingImport.objects.filter(pk=pending.pk).update(preview={})
            return False
    pending.refresh_from_db(fields=["preview", "choices"])
    return True


def _render_preview(
    request: HttpRequest, club: Club, pending: PendingImport, error: str = "", status: int | None = None
) -> HttpResponse:
    """The kept preview: plays per game, each imported name's proposed player, merges, duplicates, the season each
    play goes to (nothing written); or, while it is being built, a page that says so and looks again."""
    preview = pending.preview
    if request.htmx and "asked" not in preview:  # the look of the reading page: the preview is there now
        return HttpResponseClientRefresh()
    if "refused" in preview:
        return render(
            request,
            "leagues/import_reading.html",
            {"club": club, "token": pending.token, "refused": preview["refused"]},
            status=400,
        )
    view = preview_shown(pending)
    if view is None:
        template = "leagues/partials/import_reading.html" if request.htmx else "leagues/import_reading.html"
        return render(
            request,
            template,
            {"club": club, "token": pending.token, "error": error},
            status=503 if error and not request.htmx else 200,
        )
    error = error or preview.get("error", "")
    choices = dict(pending.choices)
    return render(
        request,
        "leagues/import_preview.html",
        {
            **view,
            "club": club,
            "token": pending.token,
            "site_games": site_games(),
            "error": error,
            "merges": "\n".join(choices.get("merges", [])),
            "vouch": bool(preview["for"].get("vouch")),
            "skipped": [(REASONS.get(reason, reason), n) for reason, n in view["skipped"]],
            "skipped_plays": [(i, game, REASONS.get(reason, reason)) for i, game, reason in view["skipped_plays"]],
        },
        status=status or (400 if error else 200),
    )


QUEUE_DOWN = gettext_lazy(
    "The preview could not be started (the job queue does not answer); nothing was written. "
    "This page tries again in a moment."
)


def _shown_for(pending: PendingImport, choices: dict | None) -> tuple[str, dict | None]:
    """Make sure the kept preview is for these choices (None: whatever was asked last), asking for it when not.
    Returns the refusal to say, if any, and the choices as the kept preview shows them (None while it is built)."""
    preview = pending.preview
    if "refused" in preview:  # the files themselves: no choice changes that
        return "", None
    if choices is None:
        if preview and not preview_lost(pending):
            return "", None
        choices = preview.get("asked") or dict(pending.choices)
    elif "asked" in preview and not preview_lost(pending) and plan_of(preview["asked"]) == plan_of(choices):
        return "", None
    else:
        shown = preview_is_for(preview, choices)
        if shown is not None:
            if preview["for"].get("vouch") != shown.get("vouch"):  # the same plan, the new tick kept for the page
                pending.preview = {**preview, "for": {**preview["for"], "vouch": shown.get("vouch")}}
                PendingImport.objects.filter(pk=pending.pk).update(preview=pending.preview)
            return "", shown
    if not _ask(pending, choices):
        return str(QUEUE_DOWN), None
    return "", preview_is_for(pending.preview, choices)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def import_preview(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    club = _managed_club(request, slug)
    pending = _pending(request, club, token)
    if pending.state != PendingImport.State.WAITING:
        return redirect("import_progress", slug=club.slug, token=token)
    try:
        choices = _choices(request, pending)
    except ImportRefused as refused:
        return _render_preview(request, club, pending, str(refused), status=400)
    posted = request.method == "POST" and {"choices", "merges"} & set(request.POST)
    return _render_preview(request, club, pending, _shown_for(pending, choices if posted else None)[0])


@login_required
@require_POST
def import_commit_view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The preview's form, committed: what it says now (merges, games, seasons, vouch) is what is written. Choices
    the organiser changed without updating the preview are previewed first: in the page for a small upload (then
    committed, as posted), by the job for a larger one (the page shows them, to confirm). A small import is written
    while the page waits; a large one (counted in results) runs as a job."""
    club = _managed_club(request, slug)
    pending = _pending(request, club, token)
    if pending.state != PendingImport.State.WAITING:  # a second tap: the first one's outcome
        return redirect("import_progress", slug=club.slug, token=token)
    try:
        choices = _choices(request, pending)
    except ImportRefused as refused:  # says why; nothing written
        return _render_preview(request, club, pending, str(refused), status=400)
    problem, shown = _shown_for(pending, choices)
    preview = pending.preview
    if problem or shown is None or preview.get("error") or "view" not in preview:
        return _render_preview(request, club, pending, problem)  # refused, or not seen yet: nothing written
    choices, view = shown, preview["view"]
    choices["language"] = translation.get_language()  # the job says its outcome in the importer's language
    choices["seats"] = view["seats"]  # the job's size: its time limit follows it
    if not pending_start(pending, choices):
        return redirect("import_progress", slug=club.slug, token=token)
    if view["summary"]["imported"] <= IN_PAGE:
        run_import(pending.pk)
    else:
        from leagues.imports.tasks import import_plays_job

        try:
            import_plays_job.delay(token)  # the row says "running" already (autocommit): the worker finds it
        except Exception:  # the queue is down: nothing started, the upload waits for another tap
            logger.warning("Could not queue the import %s.", token, exc_info=True)
            pending_unstart(pending)
            return _render_preview(
                request,
                club,
                pending,
                _(
                    "The import could not be started (the job queue does not answer); nothing was written. Try again "
                    "in a minute."
                ),
            )
    return redirect("import_progress", slug=club.slug, token=token)


@require_safe
@login_required
def import_progress(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The job's progress: the page itself, or (htmx) the bar alone, polled until the job ends; its outcome
    (success, refusal, failure with its reason) is kept with the upload."""
    club = _managed_club(request, slug)
    progress = pending_progress(_pending(request, club, token))
    template = "leagues/partials/import_progress.html" if request.htmx else "leagues/import_progress.html"
    return render(request, template, {"club": club, "token": token, "progress": progress})


__all__ = ["FORMATS", "import_commit_view", "import_preview", "import_progress", "import_start"]
