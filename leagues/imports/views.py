"""The import pages (issue 27): upload, a preview that writes nothing, one commit (a Celery job with a progress
bar for a large file), and the club's export downloads. Thin: leagues.imports does the work."""

from __future__ import annotations

import logging

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from leagues.common.access import club_for_member
from leagues.imports import export
from leagues.imports.formats import MAX_BYTES, ImportRefused
from leagues.imports.job import run_import, run_import_job  # noqa: F401 (the job's body, kept here for its page's tests)
from leagues.imports.pending import pending_choose, pending_create, pending_progress, pending_start, pending_unstart
from leagues.imports.plan import (
    SKIP_INCOMPLETE,
    SKIP_OTHER_GAME,
    SKIP_PLAYER_COUNT,
    SKIP_SAME_PLAYER_TWICE,
    SKIP_TOO_FEW,
    fold,
)
from leagues.imports.seasons import place_plan
from leagues.imports.service import FORMATS, club_plan, read_files, site_games
from leagues.models import Club, PendingImport
from shitenno_site.middleware import body_limit
from shitenno_site.validation import text_problem

logger = logging.getLogger(__name__)
IN_PAGE = 300  # results (a play of quantity n is n) committed while the page waits; more run as a job
PLAYS_SHOWN = 200  # plays listed with their season on the preview
MAX_FILES = 20
REASONS = {SKIP_OTHER_GAME: gettext_lazy("not one of the site's games"), SKIP_INCOMPLETE: gettext_lazy("incomplete"),
           SKIP_TOO_FEW: gettext_lazy("fewer than two players"),
           SKIP_SAME_PLAYER_TWICE: gettext_lazy("a player twice at one table"),
           SKIP_PLAYER_COUNT: gettext_lazy("a player count the game does not allow")}


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def clean(self, data, initial=None):
        single = super().clean
        return [single(d, initial) for d in data] if isinstance(data, (list, tuple)) else [single(data, initial)]


class ImportForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Format"), choices=[
        ("bgstats", gettext_lazy("BG Stats export (JSON)")), ("bgg", gettext_lazy("BoardGameGeek plays (XML pages)"))])
    files = MultipleFileField(label=gettext_lazy("Files"), widget=MultipleFileInput(),
                            help_text=gettext_lazy("At most 20 MB a file; nothing is written before you confirm."))

    def clean_files(self):
        uploads = self.cleaned_data["files"]
        if len(uploads) > MAX_FILES:
            raise forms.ValidationError(_("At most %(n)d files at once.") % {"n": MAX_FILES})
        for upload in uploads:
            problem = text_problem(upload.name or "")
            if problem:
                raise forms.ValidationError(_("A file's name: %(problem)s") % {"problem": problem})
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is %(mb)d MB; at most 20 MB a file.") % {
                    "name": upload.name, "mb": upload.size // (1024 * 1024)})
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
    games = {key[5:]: (value if value in slugs else None)
             for key, value in request.POST.items() if key.startswith("game:") and not text_problem(key)}
    league = request.POST.get("season_league", "")
    return {"merges": merges, "games": games, "league": int(league) if league.isdigit() else None,
            "vouch": request.POST.get("vouch") == "1"}


@require_http_methods(["GET", "HEAD", "POST"])
@body_limit(MAX_FILES * MAX_BYTES + 1024 * 1024)  # the files, and room for the form's other fields
@login_required
def import_start(request: HttpRequest, slug: str) -> HttpResponse:
    club = _managed_club(request, slug)
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        files = [(f.name, f.read()) for f in form.cleaned_data["files"]]
        try:
            read_files(form.cleaned_data["kind"], files)
        except ImportRefused as error:
            form.add_error("files", str(error))
        else:
            pending = pending_create(club=club, user=request.user, kind=form.cleaned_data["kind"], files=files)
            return redirect("import_preview", slug=club.slug, token=pending.token)
    return render(request, "leagues/import_form.html", {"form": form, "club": club},
                  status=400 if form.errors else 200)


def _plan_and_placing(club: Club, source, choices: dict):
    plan = club_plan(club, source, merges=choices.get("merges", []), game_overrides=choices.get("games", {}))
    return plan, place_plan(club, plan, choices.get("league", "default"))


def _render_preview(request: HttpRequest, club: Club, pending: PendingImport, choices: dict | None,
                    error: str = "") -> HttpResponse:
    """Plays per game, each imported name's proposed player, merges, duplicates, the season each play goes
    to: nothing written. A refused choice (a merge naming nobody) is said, and the last good choices shown."""
    source = read_files(pending.kind, pending.file_list())
    choices = dict(pending.choices) if choices is None else choices
    try:
        plan, placing = _plan_and_placing(club, source, choices)
    except ImportRefused as refused:
        error, choices = str(refused), dict(pending.choices)
        plan, placing = _plan_and_placing(club, source, choices)
    else:
        pending_choose(pending, choices)
    names = sorted({p.game.name for p in source.plays}, key=fold)
    chosen = {name: plan.game_matches.get(name) for name in names}
    game_rows = [{"name": name, "field": f"game:{name}", "slug": chosen[name],
                  "results": sum(1 for r in plan.results if r.game == chosen[name]) if chosen[name] else 0}
                 for name in names]
    people = sorted({id(p): p for p in plan.people.values()}.values(), key=lambda p: fold(p.name))
    return render(request, "leagues/import_preview.html", {
        "club": club, "token": pending.token, "plan": plan, "summary": plan.summary(), "games": game_rows,
        "site_games": site_games(), "people": people, "merges": "\n".join(choices.get("merges", [])),
        "error": error, "placing": placing, "left_out": sorted(placing.left_out.items()),
        "vouch": bool(choices.get("vouch")),  # an explicit act: never ticked for the organiser
        "plays_seasons": [(r.played_on, r.game, placing.by_result.get(r.external_id, ""))
                          for r in plan.results[:PLAYS_SHOWN]],
        "skipped": [(REASONS.get(reason, reason), n) for reason, n in sorted(plan.skipped.items())],
        "skipped_plays": [(i, game, REASONS.get(reason, reason)) for i, game, reason in plan.skipped_plays[:50]],
    }, status=400 if error else 200)


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
        return _render_preview(request, club, pending, None, str(refused))
    return _render_preview(request, club, pending, choices)


@login_required
@require_POST
def import_commit_view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The preview's form, committed: what it says now (merges, games, seasons, vouch) is what is written. A
    small import is written while the page waits; a large one (counted in results) runs as a job."""
    club = _managed_club(request, slug)
    pending = _pending(request, club, token)
    if pending.state != PendingImport.State.WAITING:  # a second tap: the first one's outcome
        return redirect("import_progress", slug=club.slug, token=token)
    source = read_files(pending.kind, pending.file_list())
    try:
        choices = _choices(request, pending)
        plan = club_plan(club, source, merges=choices.get("merges", []), game_overrides=choices.get("games", {}))
    except ImportRefused as refused:  # says why; nothing written
        return _render_preview(request, club, pending, None, str(refused))
    choices["language"] = translation.get_language()  # the job says its outcome in the importer's language
    choices["seats"] = sum(len(r.entries) for r in plan.results)  # the job's size: its time limit follows it
    if not pending_start(pending, choices):
        return redirect("import_progress", slug=club.slug, token=token)
    if len(plan.results) <= IN_PAGE:
        run_import(pending.pk)
    else:
        from leagues.imports.tasks import import_plays_job

        try:
            import_plays_job.delay(token)  # the row says "running" already (autocommit): the worker finds it
        except Exception:  # the queue is down: nothing started, the upload waits for another tap
            logger.warning("Could not queue the import %s.", token, exc_info=True)
            pending_unstart(pending)
            return _render_preview(request, club, pending, None, _(
                "The import could not be started (the job queue does not answer); nothing was written. Try again "
                "in a minute."))
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


@require_safe
@login_required
def club_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """The club's results to take elsewhere: members only, as for its other inner pages. Streamed as they are
    read (a club of 100,000 entries took past gunicorn's 30 s when the file was built first: issue 46)."""
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user)
    if kind == "bgstats":
        pieces, content_type, name = export.bgstats_pieces(club), "application/json", f"{club.slug}-bgstats.json"
    elif kind == "bgg":
        pieces, content_type, name = export.bgg_pieces(club), "application/xml", f"{club.slug}-bgg-plays.xml"
    elif kind == "csv":
        pieces, content_type, name = export.results_csv_pieces(club), "text/csv", f"{club.slug}-results.csv"
    else:
        raise Http404
    response = StreamingHttpResponse(pieces, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


__all__ = ["FORMATS", "club_export", "import_commit_view", "import_preview", "import_progress", "import_start"]
