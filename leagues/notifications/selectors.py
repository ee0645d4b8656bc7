"""Reads for notifications: what waits for a person's sign-off (the page and the nav's count badge)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet

from leagues.models import Club, Result


def results_to_sign(user: AbstractBaseUser) -> QuerySet[Result]:
    """Results not counted yet in which the user's own player plays and has not signed off."""
    return (Result.objects.filter(status__in=[Result.Status.PENDING, Result.Status.DISPUTED],
                                  entries__player__user=user)
            .exclude(sign_offs__player__user=user).order_by("-played_on", "-pk"))


def to_sign_count(user: AbstractBaseUser) -> int:
    """The badge's number: one query."""
    return results_to_sign(user).count() if user.is_authenticated else 0


def clubs_managed(user: AbstractBaseUser) -> list[Club]:
    """The clubs whose hours this user sets (an owner or admin of them)."""
    from leagues.common.access import managed_club_ids

    return list(Club.objects.filter(pk__in=managed_club_ids(user)).order_by("name"))
