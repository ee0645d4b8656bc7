"""An upload's preview, built once for each set of choices and kept on the upload (issue 46 finding 6).

The preview re-read and re-planned the whole upload on every look, in the web request: 28 s for a 17.9 MB file, a
gunicorn worker held from every other club meanwhile. Now the upload is read and planned once for each set of the
organiser's choices (merges, game matches, the league for new seasons), and what the page shows is kept on the
upload (`PendingImport.preview`) as plain data. A small upload (at most `IN_PAGE_BYTES`) is previewed while the page
waits, as it takes a fraction of a second; a larger one by the preview job on the heavy queue (the imports' own
workers), while the page says it is reading and polls. The commit re-plans under the club's lock, as it always did,
so what it writes is what the club holds then; it takes its size from the kept preview rather than reading again.

`pending.preview` is one of:
- `{}`: nothing asked yet;
- `{"asked": choices, "asked_at": iso}`: a build for these choices is under way (or its message was lost: asked
  again when older than `LOST_AFTER`);
- `{"for": choices, "shown": choices, "view": {...}, "error": ""}`: built for the choices asked (`for`), which the
  form shows as `shown` (every default named); `error` says why the choices asked were refused (the view then shows
  the last good ones, `pending.choices`, and `shown` is theirs);
- `{"for": choices, "refused": message}`: the files themselves were refused (a large upload is first read here).
"""

from __future__ import annotations

import datetime
import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club, PendingImport
from .formats import ImportRefused
from .plan import fold
from .seasons import place_plan
from .service import club_plan, read_files

logger = logging.getLogger(__name__)
IN_PAGE_BYTES = 512 * 1024  # an upload this small is read and planned while the page waits (~0.15 s on this machine)
PLAYS_SHOWN = 200  # plays listed with their season on the preview
SKIPPED_SHOWN = 50
PLAN_KEYS = ("merges", "games", "league")  # the choices the plan depends on (vouch does not change it)


def plan_of(choices: dict) -> dict:
    """The part of the choices that the plan and the seasons depend on: two choices equal here preview the same."""
    return {key: choices.get(key, "default" if key == "league" else None) for key in PLAN_KEYS}


def in_page(sizes: list[int]) -> bool:
    """An upload of files this large is read and planned while the page waits."""
    return sum(sizes) <= IN_PAGE_BYTES


def _view(club: Club, pending: PendingImport, choices: dict) -> tuple[dict, dict, dict, str]:
    """(the page's data, the choices it was built with, the same as the page's form posts them back, the refusal of
    the choices asked). The form names every game's match and the league it shows chosen, where the choices asked
    may have left them to their defaults: a commit of the form as shown is of the preview seen. Raises ImportRefused
    when the files themselves are refused."""
    source = read_files(pending.kind, pending.file_list())
    error = ""
    try:
        plan = club_plan(club, source, merges=choices.get("merges", []), game_overrides=choices.get("games", {}))
        placing = place_plan(club, plan, choices.get("league", "default"))
    except ImportRefused as refused:  # a merge naming nobody: said, and the last good choices shown
        error, choices = str(refused), dict(pending.choices)
        plan = club_plan(club, source, merges=choices.get("merges", []), game_overrides=choices.get("games", {}))
        placing = place_plan(club, plan, choices.get("league", "default"))
    names = sorted({p.game.name for p in source.plays}, key=fold)
    chosen = {name: plan.game_matches.get(name) for name in names}
    people = sorted({id(p): p for p in plan.people.values()}.values(), key=lambda p: fold(p.name))
    league = {"pk": placing.league.pk, "name": placing.league.name} if placing.league else None
    view = {
        "summary": plan.summary(),
        "seats": sum(len(r.entries) for r in plan.results),  # the commit job's size: its time limit follows it
        "games": [
            {
                "name": name,
                "field": f"game:{name}",
                "slug": chosen[name],
                "results": sum(1 for r in plan.results if r.game == chosen[name]) if chosen[name] else 0,
            }
            for name in names
        ],
        "people": [{"names": list(p.names), "name": p.name, "player_id": p.player_id, "how": p.how} for p in people],
        "placing": {
            "leagues": [{"pk": item.pk, "name": item.name} for item in placing.leagues],
            "league": league,
            "existing": [
                [{"name": season.name, "league": {"name": season.league.name}}, n] for season, n in placing.existing
            ],
            "offers": [
                {
                    "name": o.name,
                    "starts_on": o.starts_on.isoformat(),
                    "ends_on": o.ends_on.isoformat(),
                    "plays": o.plays,
                }
                for o in placing.offers
            ],
            "blocked_years": list(placing.blocked_years),
        },
        "left_out": [[year, n] for year, n in sorted(placing.left_out.items())],
        "plays_seasons": [
            [r.played_on.isoformat(), r.game, placing.by_result.get(r.external_id, "")]
            for r in plan.results[:PLAYS_SHOWN]
        ],
        "skipped": [[reason, n] for reason, n in sorted(plan.skipped.items())],
        "skipped_plays": [list(row) for row in plan.skipped_plays[:SKIPPED_SHOWN]],
    }
    shown = {"merges": list(choices.get("merges") or []), "games": chosen, "league": league["pk"] if league else None}
    return view, choices, shown, error


def preview_ask(pending: PendingImport, choices: dict) -> None:
    """Ask for the preview of these choices: the upload says so until the build is kept."""
    pending.preview = {"asked": choices, "asked_at": timezone.now().isoformat()}
    PendingImport.objects.filter(pk=pending.pk, state=PendingImport.State.WAITING).update(preview=pending.preview)


def preview_is_for(preview: dict, choices: dict) -> dict | None:
    """The posted choices, when the kept preview shows them: as they were asked, or as its form posts them back (a
    game the post does not name is as the preview showed it). Returned completed so, for the commit to write what
    was shown; None when they would change the plan (a new preview is needed)."""
    if "for" not in preview:
        return None
    if plan_of(preview["for"]) == plan_of(choices):
        return choices
    shown = preview.get("shown")
    if preview.get("error") or not shown:
        return None
    completed = {**choices, "games": {**shown["games"], **(choices.get("games") or {})}}
    return completed if plan_of(completed) == plan_of(shown) else None


def preview_lost(pending: PendingImport) -> bool:
    """A build asked for so long ago that its job is lost (a broker flush, a dead worker) or was never queued."""
    asked_at = pending.preview.get("asked_at")
    if "asked" not in pending.preview or not asked_at:
        return False
    limit = settings.IMPORT_JOB_TIME_LIMIT + 60
    return timezone.now() - datetime.datetime.fromisoformat(asked_at) > datetime.timedelta(seconds=limit)


def preview_build(pending_id: int) -> None:
    """Build the preview the upload asks for and keep it, unless the organiser asked for other choices meanwhile
    (the later build keeps its own) or the upload is being committed. Reads without holding the upload's row (a
    build of a large file takes seconds); keeps the outcome in one short transaction."""
    pending = (
        PendingImport.objects.select_related("club").filter(pk=pending_id, state=PendingImport.State.WAITING).first()
    )
    if pending is None or "asked" not in pending.preview:
        return
    asked = pending.preview["asked"]
    good = None
    try:
        view, good, shown, error = _view(pending.club, pending, asked)
        kept = {"for": asked, "shown": shown, "view": view, "error": error}
    except ImportRefused as refused:
        kept = {"for": asked, "refused": str(refused)}
    except SoftTimeLimitExceeded:
        logger.warning("The preview of the import %s took past its time limit.", pending.token)
        kept = {
            "for": asked,
            "refused": _("Reading these files took longer than the import's time limit; import them in smaller parts."),
        }
    with transaction.atomic():
        row = PendingImport.objects.select_for_update().filter(pk=pending_id).first()
        if row is None or row.state != PendingImport.State.WAITING or row.preview.get("asked") != asked:
            return
        row.preview = kept
        fields = ["preview"]
        if good is not None and good != row.choices:
            row.choices = good
            fields.append("choices")
        row.save(update_fields=fields)


def preview_build_job(token: str) -> None:
    """The Celery job's body (leagues.imports.tasks.import_preview_job)."""
    pending = PendingImport.objects.filter(token=token).values_list("pk", flat=True).first()
    if pending is not None:
        preview_build(pending)


def preview_shown(pending: PendingImport) -> dict | None:
    """The kept page data, dates as dates for the template; None when none is kept."""
    view = pending.preview.get("view")
    if view is None:
        return None
    view = dict(view)
    placing = dict(view["placing"])
    placing["offers"] = [
        {
            **offer,
            "starts_on": datetime.date.fromisoformat(offer["starts_on"]),
            "ends_on": datetime.date.fromisoformat(offer["ends_on"]),
        }
        for offer in placing["offers"]
    ]
    view["placing"] = placing
    view["plays_seasons"] = [
        (datetime.date.fromisoformat(day), game, season) for day, game, season in view["plays_seasons"]
    ]
    return view
