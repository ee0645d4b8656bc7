"""A finished table's result, found by the table's code (the address every client has): for the table's page and
its fragment (table_result), the API's /api/tables/<code>/result/ and sign-off, and the summary a finished table's
API answer carries (for_games registers it with games, which never import leagues)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from games.models import TableSession
from leagues.common import selectors
from leagues.models import Result
from leagues.nights import selectors as night_selectors


def result_of_table(*, viewer: AbstractBaseUser, code: str) -> Result | None:
    """The table's result as the viewer may see it: its session's own or, for a night table, the one entered by
    hand that finished it (`by_hand` set: the phones then made no second one)."""
    visible = (
        selectors.results_visible(viewer)
        .select_related("season__league", "session")
        .prefetch_related("entries__player", "sign_offs")
    )
    result = visible.filter(session__code=code).first()
    if result is not None:
        return result
    session_id = TableSession.objects.filter(code=code).values_list("pk", flat=True).first()
    by_hand = night_selectors.hand_result_of_session(session_id) if session_id else None
    result = visible.filter(pk=by_hand.pk).first() if by_hand else None
    if result is not None:
        result.by_hand = True
    return result


def players_to_sign(result: Result) -> list[dict]:
    """Who still signs: the players (id and name) nobody has agreed for yet; none once the result counts. Read from
    the prefetched entries and sign-offs, without a query."""
    if result.status == Result.Status.COUNTED:
        return []
    agreed = {s.player_id for s in result.sign_offs.all() if s.agreed}
    return [{"player": e.player_id, "name": e.player.name} for e in result.entries.all() if e.player_id not in agreed]


def result_links(result: Result, code: str | None) -> dict:
    """Where a client goes next: the result itself, and, for a table's result, the table's result and sign-off."""
    return {
        "result": reverse("api-result", args=[result.pk]),
        "sign_off": reverse("api-result-sign-off", args=[result.pk]),
        "table_result": reverse("api-table-result", args=[code]) if code else None,
        "table_sign_off": reverse("api-table-sign-off", args=[code]) if code else None,
    }


def table_result_summary(session: TableSession, viewer: AbstractBaseUser) -> dict | None:
    """A finished table's result for its API answer (games.api.views.TableResultOutput): id, status, who still
    signs and the links to sign it off; None while there is none (a table still playing, or one of fewer than two
    players), or none the viewer may see."""
    result = result_of_table(viewer=viewer, code=session.code)
    if result is None:
        return None
    return {
        "id": result.pk,
        "status": result.status,
        "season": result.season_id,
        "waiting_for": players_to_sign(result),
        "links": result_links(result, session.code),
    }
