"""The board editor's pages (thin): the club and name first, then a region per screen, then the solo parts and
the save. Every screen is a plain form that works without script; the draft stays in the session until the
engine has accepted the whole board (board_editor.py says why)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games.people import people

from . import board_editor as editor
from .models_access import board_create

TEMPLATES = "games/samurai_empires/board_editor/"


def _region_url(n: int) -> str:
    return reverse("sse_board_region", args=[n])


@login_required
@require_http_methods(["GET", "POST"])
def board_new(request: HttpRequest) -> HttpResponse:
    """Which club the board is for, its name and how many regions; a POST starts a new draft."""
    clubs = people().clubs_of_user(request.user)
    form = editor.StartForm(request.POST if request.method == "POST" else None, clubs=clubs)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            request.session[editor.DRAFT_KEY] = editor.draft_new(
                club_pk=data["club"].pk, name=data["name"], regions=data["regions"]
            )
            return redirect(_region_url(1))
        status = 400
    draft = editor.draft_of(request.session)
    resume = None
    if draft is not None:  # the draft's first region not entered yet, or its save screen
        missing = editor.first_missing(draft)
        resume = _region_url(missing) if missing is not None else reverse("sse_board_finish")
    return render(
        request,
        TEMPLATES + "start.html",
        {"form": form, "has_clubs": clubs.exists(), "draft": draft, "resume": resume},
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def board_region(request: HttpRequest, n: int) -> HttpResponse:
    """Region n of the draft: saved when the engine accepts it, then the next screen (or a copy of it there)."""
    draft = editor.draft_of(request.session)
    if draft is None:
        return redirect("sse_board_new")
    count = len(draft["regions"])
    if not 1 <= n <= count:
        raise Http404(_("The board has no such region."))
    index = n - 1
    saved = draft["regions"][index] or draft["copies"].get(str(index))
    error, status = None, 200
    if request.method == "POST":
        action = request.POST.get("action", "next")
        rows = _rows(request.POST.get("rows"))
        if action == "more":  # one more province row, nothing checked or saved yet
            form = editor.RegionForm(initial=request.POST.dict(), rows=min(rows + 1, editor.MAX_PROVINCE_ROWS))
        else:
            form = editor.RegionForm(request.POST, rows=rows)
            if form.is_valid():
                try:
                    region = editor.region_checked(form, draft, index)
                except editor.EditorError as exc:
                    error = str(exc)
                else:
                    return _region_saved(request, draft, n, region, copy=action == "copy")
            status = 400
    else:
        form = editor.RegionForm(initial=editor.region_initial(saved), rows=editor.rows_for(saved))
    return render(
        request,
        TEMPLATES + "region.html",
        {
            "form": form,
            "draft": draft,
            "n": n,
            "count": count,
            "error": error,
            "last": n == count,
            "copied": saved is not None and draft["regions"][index] is None,
            "steps": _steps(draft, n),
        },
        status=status,
    )


def _region_saved(request: HttpRequest, draft: dict, n: int, region: dict, *, copy: bool) -> HttpResponse:
    """Keep region n in the session's draft (and its copy for the next region), then lead to the next screen:
    the next region, the first one not entered yet, or the save screen."""
    count, index = len(draft["regions"]), n - 1
    draft["regions"][index] = region
    draft["copies"].pop(str(index), None)
    if copy and n < count and draft["regions"][n] is None:
        draft["copies"][str(n)] = editor.copy_for_next(region)
    request.session[editor.DRAFT_KEY] = draft
    request.session.modified = True
    missing = editor.first_missing(draft)
    if n < count and (copy or draft["regions"][n] is None):
        return redirect(_region_url(n + 1))
    if missing is not None and missing != n:
        return redirect(_region_url(missing))
    return redirect("sse_board_finish")


def _rows(raw: str | None) -> int:
    try:
        rows = int(raw or "")
    except ValueError:
        return editor.MIN_PROVINCE_ROWS
    return max(editor.MIN_PROVINCE_ROWS, min(rows, editor.MAX_PROVINCE_ROWS))


def _steps(draft: dict, current: int | None) -> list[dict]:
    """The regions as links (entered or not), so a phone can go back to any of them."""
    return [
        {
            "n": i + 1,
            "url": _region_url(i + 1),
            "name": r["name"] if r else "",
            "done": r is not None,
            "current": i + 1 == current,
        }
        for i, r in enumerate(draft["regions"])
    ]


@login_required
@require_http_methods(["GET", "POST"])
def board_finish(request: HttpRequest) -> HttpResponse:
    """The solo parts (optional) and the save: the whole board checked by the engine, then the club's board."""
    draft = editor.draft_of(request.session)
    if draft is None:
        return redirect("sse_board_new")
    missing = editor.first_missing(draft)
    if missing is not None:
        return redirect(_region_url(missing))
    names = [r["name"] for r in draft["regions"]]
    form = editor.FinishForm(request.POST if request.method == "POST" else None, region_names=names)
    error, status = None, 200
    if request.method == "POST":
        status = 400
        club = people().clubs_of_user(request.user).filter(pk=draft["club"]).first()
        if club is None:
            error = _("You are no longer a member of the club this board is for: start the board again.")
        elif form.is_valid():
            try:
                board = editor.whole_board(draft, form.cleaned_data["solo"])
            except editor.EditorError as exc:
                error = str(exc)
            else:
                if board_create(club=club, name=draft["name"], board=board, user=request.user) is None:
                    error = _("Your club already has a board of that name.")
                else:
                    del request.session[editor.DRAFT_KEY]
                    messages.success(
                        request,
                        _("The board “%(name)s” is saved for %(club)s.") % {"name": draft["name"], "club": club.name},
                    )
                    return redirect(reverse("table_new") + "?game=samurai_empires")
    return render(
        request,
        TEMPLATES + "finish.html",
        {"form": form, "draft": draft, "error": error, "steps": _steps(draft, None)},
        status=status,
    )
