"""A result changed in the Django admin, outside the site's forms (issue 24): what its derived rows depended on before
the edit (its footprint), and the jobs and audit line the change calls for after it. Beside results.py, whose
helpers it shares, so that module keeps to the forms' and the API's writes."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from leagues.common.audit import audit_record
from leagues.jobs import outbox
from leagues.models import Result
from leagues.rating.store import result_scopes
from leagues.result.results import (
    enqueue_recompute,
    night_tables_touched,
    players_of,
    result_summary,
    signed_status,
)


@dataclass(frozen=True)
class ResultFootprint:
    """What a result's derived rows depend on: where it counts, from when, in which season, for whom."""

    counted: bool
    scopes: frozenset[tuple[str, str]]
    played_on: datetime.date
    seasons: frozenset[int]
    players: frozenset[int]
    club_id: int | None
    summary: dict


def result_footprint(result_id: int) -> ResultFootprint | None:
    """The stored result's footprint (None when there is none): read before an admin edit saves anything."""
    result = Result.objects.select_related("club", "season__league").filter(pk=result_id).first()
    if result is None:
        return None
    return ResultFootprint(
        counted=result.status == Result.Status.COUNTED,
        scopes=frozenset(result_scopes(result)),
        played_on=result.played_on,
        seasons=frozenset({result.season_id} if result.season_id else ()),
        players=frozenset(players_of(result)),
        club_id=result.season.league.club_id if result.season_id else result.club_id,
        summary=result_summary(result),
    )


@transaction.atomic
def result_changed_in_admin(*, before: ResultFootprint | None, result_id: int, user: AbstractBaseUser) -> None:
    """The admin saved or deleted a result and its entries directly: ask for every job the change calls for,
    before and after it (ratings of both scopes from the earlier date, both seasons' tables, everyone's tallies),
    and keep an audit line. Without this an admin's correction stayed out of the ratings, standings and player
    tallies until the nightly repair.

    The admin does not set a result's status either: it follows the sign-offs saved with it (`signed_status`),
    as everywhere else (issue 24)."""
    stored = Result.objects.select_for_update().filter(pk=result_id).first()
    if stored is not None:
        signed = signed_status(stored)
        if signed != (stored.status, stored.ranked_publicly):
            stored.status, stored.ranked_publicly = signed
            stored.save(update_fields=["status", "ranked_publicly", "updated_at"])
    after = result_footprint(result_id)
    if before is None and after is None:
        return
    sides = [side for side in (before, after) if side is not None]
    if any(side.counted for side in sides):
        since = min(side.played_on for side in sides)
        enqueue_recompute(
            set().union(*(side.scopes for side in sides)), since, set().union(*(side.seasons for side in sides))
        )
        outbox.ask_tally_players(set().union(*(side.players for side in sides)))
    for season_id in set().union(*(side.seasons for side in sides)):  # a night table it settles, or did
        night_tables_touched(season_id, *(side.played_on for side in sides))
    action = "result.delete" if after is None else "result.edit" if before is not None else "result.admin_add"
    details = {
        "via": "admin",
        **({"before": before.summary} if before else {}),
        **({"after": after.summary} if after else {}),
    }
    audit_record(
        action=action,
        obj=Result(pk=result_id),
        user=user,
        club=(after or before).club_id,
        details=details,
        object_id=result_id,
    )
