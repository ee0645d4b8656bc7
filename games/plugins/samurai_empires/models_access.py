"""The club's saved boards as the set-up form offers them, and saving one.

The saved board's model is imported in `_boards()` alone, so moving the model (into this plug-in, say) changes
one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from games.engines.samurai_empires.engine import SamuraiEmpiresEngine

if TYPE_CHECKING:
    from games.models import BoardSetup


def _boards():
    from games.models import BoardSetup

    return BoardSetup


def board_choices(clubs) -> dict[str, tuple[str, object]]:
    """pk -> ("name (club)", board) for the boards of the clubs the user may open tables for: one query."""
    rows = _boards().objects.filter(game=SamuraiEmpiresEngine.slug, club__in=clubs).select_related("club")
    return {str(b.pk): (f"{b.name} ({b.club.name})", b.board) for b in rows}


def board_name_taken(club, name: str) -> bool:
    return _boards().objects.filter(club=club, game=SamuraiEmpiresEngine.slug, name=name).exists()


def board_create(*, club, name: str, board: dict, user) -> BoardSetup | None:
    """Save a board the engine has accepted for `club`; None when the club already has a board of that name (the
    unique constraint decides, so two phones saving the same name at once save one board)."""
    try:
        with transaction.atomic():
            return _boards().objects.create(
                club=club, game=SamuraiEmpiresEngine.slug, name=name, board=board, created_by=user
            )
    except IntegrityError:
        return None


def board_save(*, session, name: str, user) -> bool:
    """Save the board of a table that just opened (so the engine accepted it) for the table's club; False when
    the club already has a board of that name."""
    return board_create(club=session.club, name=name, board=session.setup["board"], user=user) is not None
