"""Opening one site table with its seats filled from a split of players (issue 25; shared with tournament days,
issue 51): the game's own set-up for a table the site opens by itself (its adapter's `night_setup`), the seats in
the split's order, the table in the club. League nights open a round's tables with it (services.tables_open), and
a tournament's round its pods (leagues.tournaments.tables), so both open a table the same way.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games import services as game_services
from games.engines import UnknownGame
from games.engines.base import MoveError
from games.models import TableSession
from games.plugins import get_game
from leagues.models import Club, Player


def dealt_setup(game: str, number: int, club: Club, names: list[str], count: int | None = None) -> tuple[dict, bool]:
    """(set-up, deal) the site gives table `number` (1 for the first) by itself: the game's own (its adapter's
    `night_setup`: the seats in order, the club's saved board...), with `count` the number the organiser counted at
    the table when the game asks one (`night_count_label`). A game that cannot open a table by itself refuses with
    the reason, naming the table."""
    try:
        adapter = get_game(game)
    except UnknownGame:
        return {}, True
    try:
        return adapter.night_setup(number=number, names=names, club=club, count=count)
    except ValidationError as error:
        raise ValidationError({"setups": error.messages}) from None


def seated_table_open(
    *,
    game: str,
    number: int,
    players: list[Player],
    club: Club,
    user: AbstractBaseUser,
    setup: dict | None = None,
    count: int | None = None,
) -> TableSession:
    """Table `number` of `game` in `club` with `players` seated in their order (seat 0, the first player, first):
    the given `setup` as it is, else the one the site deals (`dealt_setup`). A refused set-up raises
    ValidationError naming the table, in the reader's language. Call it inside the caller's transaction."""
    if setup is not None:
        deal = False
    else:
        setup, deal = dealt_setup(game, number, club, [p.name for p in players], count)
    try:
        return game_services.table_open(
            game=game,
            created_by=user,
            seats=[{"player": p} for p in players],
            setup=setup,
            deal=deal,
            club=club,
            is_public=club.members_public,
        )
    except MoveError as error:  # the engine refused the set-up: say which table, in the reader's language
        raise ValidationError(
            {"setups": _("Table %(n)d: %(reason)s") % {"n": number, "reason": get_game(game).say_error(error)}}
        ) from None
