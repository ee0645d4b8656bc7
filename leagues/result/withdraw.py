"""Sign-offs taken back: a claimed guest's creator's words and a deleted account's (issue 47 findings 5, 8). Here,
in result, because the status they leave is result's rule (`signed_status`); people calls it by the name it
registers (`players.register_sign_offs_withdraw`, from `for_games.connect`)."""

from __future__ import annotations

from leagues.models import Result
from leagues.result.results import signed_status


def sign_offs_withdraw(rows) -> list[Result]:
    """Drop the sign-offs `rows` that stand on results not counted yet, and give those results the status the
    sign-offs left say (a dispute withdrawn: waiting again); the results, locked. Counted results keep theirs:
    taking a word back does not pull a game out of the standings. Also for a deleted account's words
    (account_deletion): nobody answers for them any more."""
    rows = rows.filter(result__status__in=[Result.Status.PENDING, Result.Status.DISPUTED])
    result_ids = set(rows.values_list("result_id", flat=True))
    if not result_ids:
        return []
    rows.delete()
    reopened = list(Result.objects.select_for_update().filter(pk__in=result_ids).order_by("pk"))
    for result in reopened:
        status, public = signed_status(result)
        if status not in (result.status, Result.Status.COUNTED):  # a dispute made for the guest is gone
            result.status, result.ranked_publicly = status, public
            result.save(update_fields=["status", "ranked_publicly", "updated_at"])
    return reopened
