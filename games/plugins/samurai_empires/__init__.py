"""Small Samurai Empires' Django side: its set-up form (with the club's saved boards), the era score sheet and
the solo moves as forms, the board, the result, statistics and a demo game.

The rules are games.engines.samurai_empires'; the templates are under templates/games/samurai_empires/. The
base game's printed numbers and map are not in the rulebook seed: the players enter them as the board set-up.
"""

from __future__ import annotations

import random
import secrets

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import balance_stats
from games.engines.base import InvalidMove
from games.engines.samurai_empires import SamuraiEmpiresEngine
from games.engines.samurai_empires.state import SEED_LIMIT
from games.plugins import GameAdapter, TableRow, tally

from . import context, forms, phrases, stats


class SamuraiEmpiresGame(GameAdapter):
    engine_class = SamuraiEmpiresEngine
    phrases = phrases.CATALOGUE
    score_unit = gettext_lazy("victory points")
    table_heading = gettext_lazy("Small Samurai Empires table")

    setup_form_class = forms.NewTableForm
    setup_template = "games/samurai_empires/setup.html"
    board_template = "games/samurai_empires/board.html"
    panel_template = "games/samurai_empires/panel.html"
    outcome_template = "games/samurai_empires/outcome.html"
    view_params = ("era",)
    move_labels = {
        "era_score": gettext_lazy("enter the era's score sheet"),
        "final_score": gettext_lazy("enter the final count"),
        "ai_step": gettext_lazy("next AI step"),
        "place": gettext_lazy("place your token"),
        "pass": gettext_lazy("pass"),
        "resolve": gettext_lazy("resolve your token"),
        "report": gettext_lazy("report your armies"),
    }
    stats_template = "games/samurai_empires/stats.html"
    player_stats_template = "games/samurai_empires/player_stats.html"
    stylesheets = ("games/samurai_empires/table.css",)
    urls = "games.plugins.samurai_empires.urls"  # the board editor (games/urls.py mounts it under /games/<slug>/)

    def night_setup(self, *, number: int, names: list[str], club, count: int | None = None) -> tuple[dict, bool]:
        """A multiplayer table on the club's saved board (the latest): the site does not know the printed board."""
        from games.models import BoardSetup

        board = BoardSetup.objects.filter(club=club, game=self.slug).order_by("-created_at", "-pk").first()
        if board is None:
            raise ValidationError(
                _(
                    "Table %(n)d: Samurai Empires needs your club's board. Save it once on the new-table page "
                    '("Save this board for the club as"), then open the tables again.'
                )
                % {"n": number}
            )
        return {"mode": "multiplayer", "players": [{"name": name} for name in names], "board": board.board}, False

    def deal(self, setup: dict, rng: random.Random) -> dict:
        """A solo table's seed, drawn by the site (`secrets`) when the set-up names none; nothing else is dealt."""
        if not isinstance(setup, dict):
            raise InvalidMove(gettext_lazy("The set-up is a JSON object."))
        if setup.get("mode") == "solo" and "seed" not in setup:
            return {**setup, "seed": secrets.randbelow(SEED_LIMIT + 1)}
        return setup

    def table_opened(self, session, data: dict, user) -> None:
        """Save the board for the club when the set-up form asked to (the engine has just accepted it; the form
        checked the name is free)."""
        from .models_access import board_save

        name = (data.get("save_board_as") or "").strip()
        if name and session.club is not None:
            board_save(session=session, name=name, user=user)

    def move_from_post(self, state: dict, data: QueryDict) -> dict:
        return forms.move_from_post(state, data.get("type", ""), data)

    def table_context(self, session, seats: list, query: QueryDict) -> dict:
        return context.table_context(session.state, seats, query)

    outcome_context = staticmethod(context.outcome_context)  # the game's own functions, as the adapter's
    stats_present = staticmethod(stats.present)
    balance_factions = staticmethod(stats.balance_factions)

    stats_version = 2  # 2: the seat and first-era turn order balance counts (issue 29)
    balance_dimensions = {"turn": gettext_lazy("Balance by turn order in the first era")}

    def stats_table(self, row: TableRow) -> dict:
        return tally.add(stats.table_tally(row), balance_stats.table_tally(row, self))

    def stats_context(self, found: dict) -> dict:
        for group in (found["solo"]["by_era"], found["multiplayer"]["by_seat"]):
            for row in group:
                row["percent"] = round(100 * row["win_rate"])
        found["solo"]["percent"] = round(100 * found["solo"]["win_rate"])
        return {"stats": found}

    def player_stats(self, seats: QuerySet) -> dict:
        return stats.player_stats(seats.values_list("position", "session__outcome"))


GAME = SamuraiEmpiresGame()  # what games.registry's "samurai_empires" finds
