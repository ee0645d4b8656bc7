"""Reads for notifications: what waits for a person's sign-off (the page and the nav's count badge)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from leagues.models import Club


def to_sign_count(user: AbstractBaseUser) -> int:
    """The badge's number: what the waiting page lists for this reader (leagues.common.selectors.results_to_sign,
    guests he signs for included), counted in one query."""
    from leagues.common.selectors import results_to_sign

    return results_to_sign(user).count() if user.is_authenticated else 0


def clubs_managed(user: AbstractBaseUser) -> list[Club]:
    """The clubs whose hours this user sets (an owner or admin of them)."""
    from leagues.common.access import managed_club_ids

    return list(Club.objects.filter(pk__in=managed_club_ids(user)).order_by("name"))
