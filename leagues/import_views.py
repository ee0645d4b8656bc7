"""The import pages (issue 27): upload, a preview that writes nothing, one commit (a Celery job with a progress
bar for a large file), and the club's export downloads. Thin: leagues.imports does the work."""

from __future__ import annotations

import io
import secrets

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from .access import club_for_member
from .imports import export
from .imports.formats import MAX_BYTES, ImportRefused
from .imports.job import KEEP, run_import_job  # noqa: F401 (the job's body, kept here for its page's tests)
from .imports.plan import SKIP_INCOMPLETE, SKIP_OTHER_GAME, SKIP_SAME_PLAYER_TWICE, SKIP_TOO_FEW, fold
from .imports.service import FORMATS, club_plan, import_commit, read_files, site_games
from .models import Club

IN_PAGE = 300  # plays committed while the page waits; more run as a job with a progress bar
MAX_FILES = 20
REASONS = {SKIP_OTHER_GAME: gettext_lazy("not one of the site's games"), SKIP_INCOMPLETE: gettext_lazy("incomplete"),
           SKIP_TOO_FEW: gettext_lazy("fewer than two players"),
           SKIP_SAME_PLAYER_TWICE: gettext_lazy("a player twice at one table")}


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
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(_("%(name)s is %(mb)d MB; at most 20 MB a file.") % {
                    "name": upload.name, "mb": upload.size // (1024 * 1024)})
        return uploads


def _managed_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user, manage=True)
    return club


def _upload(request: HttpRequest, club: Club, token: str) -> dict:
    upload = cache.get(f"plays-import:{token}")
    if not upload or upload["club"] != club.pk or upload["user"] != request.user.pk:
        raise Http404
    return upload


def _choices(request: HttpRequest, upload: dict) -> tuple[list[str], dict[str, str | None]]:
    """The organiser's merges (one "A=B" a line) and game choices, from the preview form (or the upload's last)."""
    if request.method != "POST" or "merges" not in request.POST:
        return upload.get("merges", []), upload.get("games", {})
    merges = [line.strip() for line in request.POST.get("merges", "").splitlines() if line.strip()]
    slugs = {g.slug for g in site_games()}
    games = {}
    for key, value in request.POST.items():
        if key.startswith("game:"):
            games[key[5:]] = value if value in slugs else None
    return merges, games


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
            token = secrets.token_urlsafe(16)
            cache.set(f"plays-import:{token}", {"club": club.pk, "user": request.user.pk,
                                                 "kind": form.cleaned_data["kind"], "files": files}, KEEP)
            return redirect("import_preview", slug=club.slug, token=token)
    return render(request, "leagues/import_form.html", {"form": form, "club": club},
                  status=400 if form.errors else 200)


@login_required
def import_preview(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """Plays per game, each imported name's proposed player, merges, duplicates: nothing written."""
    club = _managed_club(request, slug)
    upload = _upload(request, club, token)
    merges, games = _choices(request, upload)
    source = read_files(upload["kind"], upload["files"])
    error = ""
    try:
        plan = club_plan(club, source, merges=merges, game_overrides=games)
    except ImportRefused as refused:
        error, merges = str(refused), upload.get("merges", [])
        plan = club_plan(club, source, merges=merges, game_overrides=upload.get("games", {}))
    else:
        cache.set(f"plays-import:{token}", {**upload, "merges": merges, "games": games}, KEEP)
    names = sorted({p.game.name for p in source.plays}, key=fold)
    chosen = {name: plan.game_matches.get(name) for name in names}
    game_rows = [{"name": name, "field": f"game:{name}", "slug": chosen[name],
                  "results": sum(1 for r in plan.results if r.game == chosen[name]) if chosen[name] else 0}
                 for name in names]
    people = sorted({id(p): p for p in plan.people.values()}.values(), key=lambda p: fold(p.name))
    return render(request, "leagues/import_preview.html", {
        "club": club, "token": token, "plan": plan, "summary": plan.summary(), "games": game_rows,
        "site_games": site_games(), "people": people, "merges": "\n".join(merges), "error": error,
        "skipped": [(REASONS.get(reason, reason), n) for reason, n in sorted(plan.skipped.items())],
        "skipped_plays": [(i, game, REASONS.get(reason, reason)) for i, game, reason in plan.skipped_plays[:50]],
    }, status=400 if error else 200)


@login_required
@require_POST
def import_commit_view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    club = _managed_club(request, slug)
    upload = _upload(request, club, token)
    source = read_files(upload["kind"], upload["files"])
    if len(source.plays) <= IN_PAGE:
        summary = import_commit(club=club, user=request.user, source=source, merges=upload.get("merges", []),
                                game_overrides=upload.get("games", {}))
        cache.set(f"plays-import-progress:{token}", {"done": 1, "total": 1, "summary": summary}, KEEP)
    else:
        from .tasks import import_plays_job

        cache.set(f"plays-import-progress:{token}", {"done": 0, "total": 0}, KEEP)
        import_plays_job.delay(token)
    return redirect("import_progress", slug=club.slug, token=token)


@login_required
def import_progress(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """The job's progress: the page itself, or (htmx) the bar alone, polled until the job ends."""
    club = _managed_club(request, slug)
    progress = cache.get(f"plays-import-progress:{token}")
    if progress is None:
        raise Http404
    template = "leagues/partials/import_progress.html" if request.htmx else "leagues/import_progress.html"
    return render(request, template, {"club": club, "token": token, "progress": progress})


@login_required
def club_export(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """The club's results to take elsewhere: members only, as for its other inner pages."""
    club = get_object_or_404(Club, slug=slug)
    club_for_member(club, request.user)
    if kind == "bgstats":
        data, content_type, name = export.export_bgstats(club), "application/json", f"{club.slug}-bgstats.json"
    elif kind == "bgg":
        data, content_type, name = export.export_bgg(club), "application/xml", f"{club.slug}-bgg-plays.xml"
    elif kind == "csv":
        out = io.StringIO()
        export.export_results_csv(club, out)
        data, content_type, name = out.getvalue().encode(), "text/csv", f"{club.slug}-results.csv"
    else:
        raise Http404
    response = HttpResponse(data, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


__all__ = ["FORMATS", "club_export", "import_commit_view", "import_preview", "import_progress", "import_start"]
