"""Who sits at the tables: games seat players and open tables for clubs, but do not own either.

Players, clubs and their members live in leagues, which builds on games; games never import it (the one
direction, docs/architecture.md; tests/site/test_architecture.py holds it). What games need of them comes in two
ways:
- the models themselves through games' own foreign keys (`Seat.player`, `TableSession.club`), the way Django's
  `get_user_model()` names the user model, and their relations by name in queries (`club__memberships__...`);
- the few things only the owner knows (who a user's player is, how a guest is made, the club roles that may
  write, the seats' ratings and win chances) as one `People` that leagues registers in its AppConfig.ready.
A site without it fails at the first use with a message naming the missing piece, not with an import error.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Model, QuerySet

from .models import Seat, TableSession


def player_model() -> type[Model]:
    """The model a seat's player is (leagues.Player)."""
    return Seat._meta.get_field("player").related_model


def club_model() -> type[Model]:
    """The model a table's club is (leagues.Club)."""
    return TableSession._meta.get_field("club").related_model


@dataclass(frozen=True)
class People:
    """What the owner of players and clubs answers for games."""

    player_for_user: Callable[[Any], Model]  # the user's own player (made on first need)
    guest_create: Callable[..., Model]  # guest_create(name=..., created_by=...): a guest player, or a 400
    clubs_of_user: Callable[[Any], QuerySet]  # the clubs a user may open a table for
    writer_roles: tuple[str, ...]  # the club roles whose members may write at any of the club's tables
    seats_rated: Callable[[QuerySet], QuerySet]  # seats with rating_* and before_* columns (the table page)
    seat_chances: Callable[[TableSession], Any]  # the table page's win chances from those columns, or None


_registered: People | None = None


def register(people: People) -> None:
    """Called once, from the owning app's AppConfig.ready."""
    global _registered
    _registered = people


def people() -> People:
    if _registered is None:
        raise ImproperlyConfigured("No app registered games.people.People (leagues does, in LeaguesConfig.ready).")
    return _registered
