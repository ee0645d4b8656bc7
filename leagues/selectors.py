"""Reads for players and clubs, with the visibility rules in one place."""

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from .models import Club, Membership, Player


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("player", "player__user").order_by("role", "player__name")


def club_members_visible(club: Club, user: AbstractBaseUser) -> bool:
    """Nobody outside a club sees a private members list."""
    if club.members_public or user.is_superuser:
        return True
    return user.is_authenticated and club.memberships.filter(player__user=user).exists()


def clubs_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def clubs_of_user(user: AbstractBaseUser) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__player__user=user).order_by("name")


def players_list(*, search: str = "") -> QuerySet[Player]:
    players = Player.objects.filter(merged_into__isnull=True).select_related("user")
    if search:
        players = players.filter(name__icontains=search)
    return players.order_by("name", "id")
