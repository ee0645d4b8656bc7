"""Shitennō's Django side: its set-up and move forms, board, final-count calculator, statistics and demo game.

The rules are games.engines.shitenno's; the templates are under templates/games/shitenno/.
"""

from __future__ import annotations

import random

from django.db.models import QuerySet
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import balance_stats
from games.engines.base import InvalidMove
from games.engines.shitenno import ShitennoEngine, deal_gates, deal_titles, simulation
from games.engines.shitenno import final_count as shitenno_final_count
from games.engines.shitenno.board import GENERALS, TITLE_NAMES
from games.plugins import GameAdapter, TableRow, tally

from . import api_examples, context, forms, phrases, stats

FAVOUR_SOURCE_NAMES = {
    "placements": gettext_lazy("Kamon placements"),
    "title_bonus": gettext_lazy("Title bonuses"),
    "majorities": gettext_lazy("Majorities"),
    "kokus": gettext_lazy("Koku"),
    "tiles": gettext_lazy("Bonus tiles"),
}


class ShitennoGame(GameAdapter):
    engine_class = ShitennoEngine
    phrases = phrases.CATALOGUE
    score_unit = gettext_lazy("favour")
    table_heading = gettext_lazy("Shitennō table")

    setup_form_class = forms.NewTableForm
    setup_template = "games/shitenno/setup.html"
    board_template = "games/shitenno/board.html"
    panel_template = "games/shitenno/panel.html"
    outcome_template = "games/shitenno/outcome.html"
    view_params = ("province",)
    move_labels = {
        "draw": gettext_lazy("enter the draw"),
        "offer": gettext_lazy("offer a lot"),
        "accept": gettext_lazy("accept"),
        "refuse": gettext_lazy("refuse"),
        "split": gettext_lazy("split the rest in two lots"),
        "choose": gettext_lazy("choose lot A or B"),
        "place": gettext_lazy("place a kamon"),
        "take_card": gettext_lazy("Card Taking"),
        "end_turn": gettext_lazy("end the turn"),
    }

    final_count_form_class = forms.FinalCountForm
    final_count_template = "games/shitenno/final_count.html"
    stats_template = "games/shitenno/stats.html"
    player_stats_template = "games/shitenno/player_stats.html"
    stylesheets = ("games/shitenno/table.css",)
    api_setup_example = api_examples.SETUP_EXAMPLE
    api_move_examples = api_examples.MOVE_EXAMPLES
    api_final_count_example = api_examples.FINAL_COUNT_EXAMPLE
    api_score_alias = "favour"  # the API's name for the score before other games came (docs/api.md: deprecated)
    scripts = ("games/shitenno/table.js",)
    demo_players = (2, 3, 4)

    def deal(self, setup: dict, rng: random.Random) -> dict:
        """The starting titles dealt at random to the set-up's generals, and the gates piled at random when the
        set-up gives none (the new-table page leaves out what the players let the site deal). Titles the set-up
        names are kept, so "deal the gates, we dealt the titles" works too."""
        players = setup.get("players") if isinstance(setup, dict) else None
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise InvalidMove(_('The set-up needs "players": a list such as [{"general": "honda"}, ...].'))
        generals = [p.get("general") for p in players]
        if not all(isinstance(g, str) for g in generals):  # dealt titles are keyed by general: names only
            raise InvalidMove(_('Each player of the set-up names a general, e.g. {"general": "honda"}.'))
        dealt = dict(setup)
        if not setup.get("titles"):
            dealt["titles"] = deal_titles(generals, rng)
        if not setup.get("gates"):
            dealt["gates"] = deal_gates(rng)
        return dealt

    def night_setup(self, *, number: int, names: list[str], club, count: int | None = None) -> tuple[dict, bool]:
        """The generals in their order, one per seat: `deal` then deals their titles and the gates."""
        return {"players": [{"general": general} for general in list(GENERALS)[: len(names)]]}, True

    def move_from_post(self, state: dict, data: QueryDict) -> dict:
        seat = self.engine.hint(state)["to_move"]
        move = forms.move_from_post(data.get("type", ""), seat if seat is not None else 0, data)
        if move["type"] == "place":
            forms.check_place_fields(state, move)
        return move

    def table_context(self, session, seats: list, query: QueryDict) -> dict:
        return context.table_context(session.state, seats, query)

    # the game's own functions, as the adapter's (GameAdapter says what each is for)
    outcome_context = staticmethod(context.outcome_context)
    final_count = staticmethod(shitenno_final_count)
    stats_present = staticmethod(stats.present)
    balance_factions = staticmethod(stats.balance_factions)
    demo_game = staticmethod(simulation.random_legal_game)

    stats_version = 2  # 2: the seat, turn and general balance counts (issue 29)
    balance_dimensions = {
        "turn": gettext_lazy("Balance by turn order in the first year"),
        "general": gettext_lazy("Balance by general"),
    }

    def stats_table(self, row: TableRow) -> dict:
        """Win rates by general, starting title and seat, where the favour comes from, and the balance counts."""
        return tally.add(stats.table_tally(row), balance_stats.table_tally(row, self))

    def balance_label(self, dimension: str, key) -> str:
        return GENERALS.get(key, str(key))

    def stats_context(self, found: dict) -> dict:
        for row in found["by_general"]:
            row["label"] = GENERALS[row["key"]]
        for row in found["by_title"]:
            row["label"] = TITLE_NAMES[row["key"]]
        for row in found["by_seat"]:
            row["label"] = _("Seat %(n)d") % {"n": row["key"] + 1}
        for group in ("by_general", "by_title", "by_seat"):
            for row in found[group]:
                row["percent"] = round(100 * row["win_rate"])
        widest = max((s["average"] for s in found["favour_sources"]), default=0) or 1
        for source in found["favour_sources"]:
            source["label"] = FAVOUR_SOURCE_NAMES[source["source"]]
            source["width"] = round(100 * source["average"] / widest)
            source["percent"] = round(100 * source["share"])
        win_rates = [
            {"title": _("Win rate by general"), "heading": _("General"), "rows": found["by_general"]},
            {"title": _("Win rate by starting title"), "heading": _("Title"), "rows": found["by_title"]},
            {"title": _("Win rate by seat"), "heading": _("Seat"), "rows": found["by_seat"]},
        ]
        return {"stats": found, "win_rates": win_rates}

    def player_stats(self, seats: QuerySet) -> dict:
        """Favourite general and title held most (at the start and in the last year)."""
        rows = seats.values_list("position", "session__setup", "session__state__titles")
        return stats.player_shitenno_stats(rows)


GAME = ShitennoGame()  # what games.registry's "shitenno" finds
