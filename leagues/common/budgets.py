"""Creation budgets (issue 46): how many of one kind of thing an account, or a club, may make in a window.

One fresh account made 1,500 public clubs in 168 s and `/clubs/` slowed for everyone; one made 499 guests in 25 s
(issue 36). Each budget below is a refusal with a sentence saying when the next may come (TooMany: 429 on the
API, the form's error on a page), never a half-written change; docs/operations.md "Budgets and size limits"
states them and tests/site/test_creation_budgets.py shows they hold (the guests' budget, older, is in
leagues/people/players.py). An import's rows are
bounded by the import's own limits (docs/import.md) and not counted here.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from shitenno_site.errors import TooMany

HOUR = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)

CLUBS_PER_DAY = 10  # clubs one account founds in a day: a person runs one or two
LEAGUES_PER_DAY = 20  # leagues made in one club in a day: a club runs a handful
RESULTS_PER_HOUR = 120  # results one account enters by hand in an hour: a busy night has some 30 tables


def hold_account(user: AbstractBaseUser) -> None:
    """Lock the account's row until the transaction ends, so two requests of one account at once are counted one
    after the other and a budget is exact."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).exists()


def refuse_past_budget(
    made: QuerySet, *, limit: int, window: datetime.timedelta, refusal: Callable[[int, str], str]
) -> None:
    """TooMany when `made` (rows with a `created_at`, already narrowed to the account's or the club's) holds
    `limit` rows within the last `window`. `refusal(limit, wait)` says it, `wait` being when the next may come
    ("23 minutes", "5 hours", in the reader's language). The caller holds the row that serialises the count."""
    now = timezone.now()
    recent = list(
        made.filter(created_at__gte=now - window).order_by("created_at").values_list("created_at", flat=True)[:limit]
    )
    if len(recent) >= limit:
        next_at = max(recent[0] + window, now + datetime.timedelta(minutes=1))
        raise TooMany(refusal(limit, timeuntil(next_at, now, depth=1)))


def clubs_budget(user: AbstractBaseUser, founded: QuerySet) -> None:
    refuse_past_budget(
        founded,
        limit=CLUBS_PER_DAY,
        window=DAY,
        refusal=lambda n, wait: (
            _("You founded %(n)d clubs in the last day, the most one account may; you may found the next in %(wait)s.")
            % {"n": n, "wait": wait}
        ),
    )


def leagues_budget(made: QuerySet) -> None:
    refuse_past_budget(
        made,
        limit=LEAGUES_PER_DAY,
        window=DAY,
        refusal=lambda n, wait: (
            _("The club made %(n)d leagues in the last day, the most a club may; the next may come in %(wait)s.")
            % {"n": n, "wait": wait}
        ),
    )


def results_budget(entered: QuerySet) -> None:
    refuse_past_budget(
        entered,
        limit=RESULTS_PER_HOUR,
        window=HOUR,
        refusal=lambda n, wait: (
            _(
                "You entered %(n)d results in the last hour, the most one account may enter by hand; you may enter the "
                "next in %(wait)s (an import has its own limits)."
            )
            % {"n": n, "wait": wait}
        ),
    )
