"""What is still worth telling when a message goes out, not only when it was written.

A message waits: hours for the daily e-mail, a night for quiet hours. Meanwhile its reader may have left the
club (a private club's names must not reach him then), changed his mind on the settings page, or signed the
result it asks him to sign; and a day-old reminder may sit beside the first message it repeats. Delivery asks
`split_due` just before sending, by push or by e-mail, and drops the rest (issue 39: never spam, never leak).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth import get_user_model

from leagues.common.selectors import results_to_sign
from leagues.models import Membership, Result, SignOff

from .models import Kind, Notification, Preference, default_channel


def split_due(rows: Sequence[Notification], user_id: int, channel: str) -> tuple[list, list]:
    """`rows` (one person's, oldest first) as (still due by `channel`, no longer due): four reads at most. A
    sign-off message is due while its result waits for him by the waiting page's own rule (results_to_sign: an
    organiser's guests' results too), so the e-mail, the push, the page and the badge agree."""
    clubs = set(
        Membership.objects.filter(player__user_id=user_id, player__user__is_active=True).values_list(
            "club_id", flat=True
        )
    )
    chosen = Preference.objects.filter(user_id=user_id).first()
    asked = {row.payload.get("result") for row in rows if row.kind == Kind.SIGN_OFF} - {None}
    reader = get_user_model().objects.filter(pk=user_id).first() if asked else None
    waiting = set(results_to_sign(reader).filter(pk__in=asked).values_list("pk", flat=True)) if reader else set()
    open_disputes = disputes_open([row for row in rows if row.kind == Kind.DISPUTE])
    due, gone, told = [], [], set()
    for row in rows:
        result = row.payload.get("result") if row.kind == Kind.SIGN_OFF else None
        keep = (
            (row.club_id is None or row.club_id in clubs)
            and (chosen.channel(row.kind) if chosen else default_channel(row.kind)) == channel
            and (result is None or (result in waiting and result not in told))
            and (row.kind != Kind.DISPUTE or row.pk in open_disputes)
        )
        (due if keep else gone).append(row)
        if keep and result is not None:
            told.add(result)  # a reminder beside its first message says it once
    return due, gone


def _disputer(row: Notification) -> int | None:
    """Who disputed, by the message's payload (`by_user`), or for a message written before it kept him, by its
    key ("dispute:<result>:<by>:<recipient>")."""
    if row.payload.get("by_user"):
        return int(row.payload["by_user"])
    parts = row.dedupe_key.split(":")
    return int(parts[2]) if len(parts) == 4 and parts[2].isdigit() else None


def disputes_open(rows: Sequence[Notification]) -> set[int]:
    """The ids of the dispute messages among `rows` whose dispute still stands (issue 47 finding 7: a dispute
    settled before the digest went out was mailed, its link's anchor gone): the result is still there, and the
    disputer's word still holds it: his "no" among its sign-offs (it is disputed, not counted), or his flag on it
    (it counts, and waits for a manager). A manager's correction, confirmation or deletion, or everyone agreeing,
    settles it. Two reads whatever the number of rows."""
    if not rows:
        return set()
    asked = {row.payload.get("result") for row in rows} - {None}
    results = {r.pk: r for r in Result.objects.filter(pk__in=asked).only("pk", "status", "flagged_by_id")}
    denied = set(
        SignOff.objects.filter(result_id__in=results, agreed=False).exclude(by=None).values_list("result_id", "by_id")
    )
    still = set()
    for row in rows:
        result, by = results.get(row.payload.get("result")), _disputer(row)
        if result is None or by is None:
            continue
        if result.flagged_by_id == by or (result.status == Result.Status.DISPUTED and (result.pk, by) in denied):
            still.add(row.pk)
    return still
