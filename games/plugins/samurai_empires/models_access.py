"""The club's saved boards (games.models.BoardSetup) as the set-up form offers them, and saving one."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from games.engines.samurai_empires.engine import SamuraiEmpiresEngine


def board_choices(clubs) -> dict[str, tuple[str, object]]:
    """pk -> ("name (club)", board) for the boards of the clubs the user may open tables for: one query."""
    from games.models import BoardSetup

    rows = BoardSetup.objects.filter(game=SamuraiEmpiresEngine.slug, club__in=clubs).select_related("club")
    return {str(b.pk): (f"{b.name} ({b.club.name})", b.board) for b in rows}


def board_save(*, session, name: str, user) -> bool:
    """Save the board of a table that just opened (so the engine accepted it) for the table's club; False when
    the club already has a board of that name."""
    from games.models import BoardSetup

    try:
        with transaction.atomic():
            BoardSetup.objects.create(club=session.club, game=session.game, name=name,
                                      board=session.setup["board"], created_by=user)
    except IntegrityError:
        return False
    return True
