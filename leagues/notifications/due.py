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
from leagues.models import Membership

from .models import DEFAULT_CHANNELS, Kind, Notification, Preference


def split_due(rows: Sequence[Notification], user_id: int, channel: str) -> tuple[list, list]:
    """`rows` (one person's, oldest first) as (still due by `channel`, no longer due): four reads at most. A
    sign-off message is due while its result waits for him by the waiting page's own rule (results_to_sign: an
    organiser's guests' results too), so the e-mail, the push, the page and the badge agree."""
    clubs = set(Membership.objects.filter(player__user_id=user_id, player__user__is_active=True)
                .values_list("club_id", flat=True))
    chosen = Preference.objects.filter(user_id=user_id).first()
    asked = {row.payload.get("result") for row in rows if row.kind == Kind.SIGN_OFF} - {None}
    reader = get_user_model().objects.filter(pk=user_id).first() if asked else None
    waiting = set(results_to_sign(reader).filter(pk__in=asked).values_list("pk", flat=True)) if reader else set()
    due, gone, told = [], [], set()
    for row in rows:
        result = row.payload.get("result") if row.kind == Kind.SIGN_OFF else None
        keep = ((row.club_id is None or row.club_id in clubs)
                and (chosen.channel(row.kind) if chosen else DEFAULT_CHANNELS[row.kind]) == channel
                and (result is None or (result in waiting and result not in told)))
        (due if keep else gone).append(row)
        if keep and result is not None:
            told.add(result)  # a reminder beside its first message says it once
    return due, gone
