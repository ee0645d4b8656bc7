"""Who sits at the tables: games seat players and open tables for clubs, but do not own either.

Players, clubs and their members live in leagues, which builds on games; games never import it (the one
direction, docs/architecture.md; tests/site/test_architecture.py holds it). What games need of them comes in two
ways:
- the models themselves through games' own foreign keys (`Seat.player`, `TableSession.club`), the way Django's
  `get_user_model()` names the user model, and the conditions on their fields games' queries need (a user's seat,
  a club's member) built here, the one module of games that names leagues' fields (`seated_q`, `club_member_q`,
  `is_club_member`, `seatable_q`, `unmerged_q`, `SEAT_PLAYER_NAME`; tests/site/test_architecture.py holds it);
- the few things only the owner knows (who a user's player is, how a guest is made, the club roles that may
  write, the seats' ratings and win chances, whether a table's result was settled without its moves) as one
  `People` that leagues registers in its AppConfig.ready.
A site without it fails at the first use with a message naming the missing piece, not with an import error.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Model, Q, QuerySet

from .models import Seat, TableSession


def player_model() -> type[Model]:
    """The model a seat's player is (leagues.Player)."""
    return Seat._meta.get_field("player").related_model


def club_model() -> type[Model]:
    """The model a table's club is (leagues.Club)."""
    return TableSession._meta.get_field("club").related_model


# --- leagues' fields in games' queries: named here only -----------------------------------------------------

SEAT_PLAYER_NAME = "player__name"  # a Seat's player's name, for values_list


def seated_q(user: Any, *, through: str = "seats") -> Q:
    """The rows (tables by default; `through=""` for Seat rows themselves) where `user`'s player has a seat he
    still holds: a seat withdrawn when he left the club (a night's table, issue 36) no longer reads or moves."""
    prefix = f"{through}__" if through else ""
    return Q(**{f"{prefix}player__user": user, f"{prefix}withdrawn_at__isnull": True})


def club_member_q(user: Any, *, roles: Sequence[str] | None = None) -> Q:
    """The tables of a club `user` is a member of (with one of `roles`, when given: the same membership)."""
    if roles is None:
        return Q(club__memberships__player__user=user)
    return Q(club__memberships__player__user=user, club__memberships__role__in=roles)


def seatable_q(me: Model, user: Any) -> Q:
    """The players `user` (whose own player is `me`) may seat at a new table: his clubs' members, the players he
    sat with and the guests he added (games.views.seatable_players)."""
    return (
        Q(memberships__club__memberships__player=me)
        | Q(seats__session__seats__player=me)
        | Q(created_by=user, user__isnull=True)
    )


def unmerged_q() -> Q:
    """Players not merged into another (a claimed guest's old row): the ones a list offers."""
    return Q(merged_into__isnull=True)


def is_club_member(club: Model | int, user: Any, *, roles: Sequence[str] | None = None) -> bool:
    """Whether `user` is a member of `club` (a Club or its id), with one of `roles` when given: one query."""
    condition = {"memberships__player__user": user}
    if roles is not None:
        condition["memberships__role__in"] = roles
    return club_model().objects.filter(pk=getattr(club, "pk", club), **condition).exists()


@dataclass(frozen=True)
class Settled:
    """A table still playing whose result the owner of results already holds from elsewhere (a league night's table
    whose game the organiser entered by hand): its moves no longer count, so its page offers none and a move or an
    undo is refused (409) with `says`. The owner moves the table's version on when this starts or stops
    (services.tables_touched), so every phone's poll shows it."""

    says: str  # one sentence for the page and the refusal, in the request's language: what settled it, who won
    url: str  # where that result is shown


@dataclass(frozen=True)
class People:
    """What the owner of players and clubs answers for games."""

    player_for_user: Callable[[Any], Model]  # the user's own player (made on first need)
    guest_create: Callable[..., Model]  # guest_create(name=..., created_by=...): a guest player, or a 400
    clubs_of_user: Callable[[Any], QuerySet]  # the clubs a user may open a table for
    writer_roles: tuple[str, ...]  # the club roles whose members may write at any of the club's tables
    # seats with rating_* and before_* columns (the table page), in the scope the owner chooses for that table
    seats_rated: Callable[[QuerySet, TableSession], QuerySet]
    seat_chances: Callable[[TableSession], Any]  # the table page's win chances from those columns, or None
    # a club's table still playing (games.selectors.session_settled asks only for those): Settled, or None
    table_settled: Callable[[TableSession], Settled | None]
    # the same for a list of such tables at once, by their ids (games.selectors.sessions_settled): the ids of the
    # settled ones, in a few queries however long the list
    tables_settled: Callable[[list[int]], set[int]]
    # a finished table's result for its API answer, as the viewer may see it (games.api.views.TableResultOutput:
    # id, status, who still signs, links), or None; an owner without results leaves it out
    table_result: Callable[[TableSession, Any], dict | None] | None = None


_registered: People | None = None


def register(people: People) -> None:
    """Called once, from the owning app's AppConfig.ready."""
    global _registered
    _registered = people


def people() -> People:
    if _registered is None:
        raise ImproperlyConfigured("No app registered games.people.People (leagues does, in LeaguesConfig.ready).")
    return _registered
