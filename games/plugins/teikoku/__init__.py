"""Teikoku's Django side: its set-up form, the movement forms (with the site's dice roller), the treasure board,
the victory screen, statistics and demo game.

The rules are games.engines.teikoku's; the templates are under templates/games/teikoku/.
"""

from __future__ import annotations

import random

from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import balance_stats
from games.engines.teikoku import TeikokuEngine
from games.engines.teikoku.random_game import random_legal_game
from games.engines.teikoku.rules import CLAN_NAMES, CLANS_BY_PLAYERS, SPECIAL_DECKS
from games.plugins import GameAdapter, TableRow, tally

from . import context, forms, phrases, stats


class TeikokuGame(GameAdapter):
    engine_class = TeikokuEngine
    phrases = phrases.CATALOGUE
    score_unit = gettext_lazy("treasure")
    table_heading = gettext_lazy("Teikoku table")

    setup_form_class = forms.NewTableForm
    setup_template = "games/teikoku/setup.html"
    board_template = "games/teikoku/board.html"
    panel_template = "games/teikoku/panel.html"
    outcome_template = "games/teikoku/outcome.html"
    night_count_label = gettext_lazy("cards in the Units deck")
    # the rulebook prints no size for the Units deck (docs/rules/teikoku.md, T4): the table counts it
    night_count_help = gettext_lazy(
        "Once the 3 Port cards are face up, count the face-down cards left in the Units deck. The rulebook prints "
        "no number; the site counts the deck down to know when the Port lies open to attack and when two empty "
        "decks end the game."
    )
    move_labels = {
        "end_turn": gettext_lazy("end the turn"),
        "banish": gettext_lazy("banish a card (Autumn)"),
        "bounty": gettext_lazy("bounty"),
        "acquire": gettext_lazy("acquire a Port card"),
        "port_attack": gettext_lazy("attack the Port"),
        "raid": gettext_lazy("raid"),
        "commerce": gettext_lazy("commerce"),
        "trade": gettext_lazy("trade"),
        "pit_fee": gettext_lazy("pit fee"),
        "card_effect": gettext_lazy("card effect"),
        "correction": gettext_lazy("correction"),
        "cards_leave": gettext_lazy("cards leave a deck"),
        "fortify": gettext_lazy("fortified or not"),
        "roll": gettext_lazy("roll dice"),
    }
    stats_template = "games/teikoku/stats.html"
    demo_players = (3, 4, 2)
    api_setup_example = (
        "Two clans, a short game",
        {
            "game": "teikoku",
            "players": [1, 2],
            "setup": {
                "clans": ["fujiwara", "minamoto"],
                "units_deck": 20,
                "chosen_specials": ["ninja", "market"],
                "aggression_target": 35,
            },
        },
    )

    def night_setup(self, *, number: int, names: list[str], club, count: int | None = None) -> tuple[dict, bool]:
        """The clans in the rulebook's order for the seats, the Units deck as the table counted it (`count`: the
        site cannot know it), each opening special card from the new-table page's default deck."""
        if count is None:
            raise ValidationError(
                _("Table %(n)d: count the cards in Teikoku's Units deck and enter them to open it.") % {"n": number}
            )
        seated = len(names)
        return {
            "clans": list(CLANS_BY_PLAYERS[seated]),
            "units_deck": count,
            "chosen_specials": [SPECIAL_DECKS[i % len(SPECIAL_DECKS)] for i in range(seated)],
        }, False

    def move_from_post(self, state: dict, data: QueryDict) -> dict:
        seat = self.engine.hint(state)["to_move"]
        return forms.move_from_post(data.get("type", ""), seat if seat is not None else 0, data)

    def table_context(self, session, seats: list, query: QueryDict) -> dict:
        return context.table_context(
            session.state, seats, query, say=lambda phrase: self.phrases.say_phrase(phrase) or phrase.text
        )

    # the game's own functions, as the adapter's (GameAdapter says what each is for)
    outcome_context = staticmethod(context.outcome_context)
    stats_present = staticmethod(stats.present)

    def stats_table(self, row: TableRow) -> dict:
        """Win rates by clan and by seat, victories by kind and the game's length in seasons."""
        return tally.add(stats.table_tally(row), balance_stats.table_tally(row, self))

    # The clans sit in playing order (Fujiwara holds the first-player token), so the seat is the turn order.
    stats_version = 2  # 2: the seat and clan balance counts (issue 29)
    balance_dimensions = {"clan": gettext_lazy("Balance by clan")}

    def balance_factions(self, row: TableRow) -> dict[str, list]:
        return {"clan": list((row.setup or {}).get("clans") or [])}

    def balance_label(self, dimension: str, key) -> str:
        return CLAN_NAMES.get(key, str(key))

    def stats_context(self, found: dict) -> dict:
        for row in found["by_clan"]:
            row["label"] = CLAN_NAMES[row["key"]]
        for row in found["by_seat"]:
            row["label"] = _("Seat %(n)d") % {"n": row["key"] + 1}
        for group in ("by_clan", "by_seat"):
            for row in found[group]:
                row["percent"] = round(100 * row["win_rate"])
        for row in found["victories"]:
            row["label"] = context.VICTORIES.get(row["kind"], row["kind"])
            row["percent"] = round(100 * row["tables"] / found["tables"]) if found["tables"] else 0
        win_rates = [
            {"title": _("Win rate by clan"), "heading": _("Clan"), "rows": found["by_clan"]},
            {"title": _("Win rate by seat"), "heading": _("Seat"), "rows": found["by_seat"]},
        ]
        return {"stats": found, "win_rates": win_rates}

    def demo_game(self, seed: int, players: int) -> tuple[dict, list[dict]]:
        return random_legal_game(random.Random(seed), players)


GAME = TeikokuGame()  # what games.registry's "teikoku" finds
