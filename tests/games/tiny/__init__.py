"""Pile, a tiny game registered ONLY in the tests, never in the site: the shared tests run it beside the registered
games (tests/games/every_game.py), so a fourth game meets no shared test written for today's three.

It is laid out as docs/games.md asks of a real game, in one folder here instead of the site's:

    engine/        the rules (games/engines/<slug>/ for a real game): `ENGINE`
    __init__.py    the adapter (games/plugins/<slug>/): `GAME`, its set-up form and its phrases
    templates/     its templates (templates/games/<slug>/)
    locale/        its Dutch (a real game's goes in locale/nl/LC_MESSAGES/django.po)

`register(monkeypatch, settings)` does for one test what the game's line in games/registry.py does for the site:
its engine and adapter join the registries, its templates and Dutch the settings; all of it is undone after the
test. (Rebuild its catalogue after editing the .po: `msgfmt -o locale/nl/LC_MESSAGES/django.mo
locale/nl/LC_MESSAGES/django.po` in this folder.)
"""

from __future__ import annotations

import random
from pathlib import Path

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from games import engines, plugins
from games.engines.base import InvalidMove
from games.forms import PlayerCountField, TableSetupForm
from games.phrases import Catalogue

from .engine import ENGINE, PileEngine

HERE = Path(__file__).resolve().parent
SLUG = ENGINE.slug

PHRASES = Catalogue(
    {
        "pile.setup": _("The set-up is a JSON object."),
        "pile.players": _("Pile seats %(low)s to %(high)s players."),
        "pile.goal": _("The goal is 3 to %(high)s stones."),
        "pile.move": _("A move adds stones."),
        "pile.stones": _("Add 1 to 3 stones."),
        "pile.over": _("The pile is complete: the game is over."),
        "pile.turn": _("It is seat %(seat)s's turn."),
        "pile.describe.add": _("Seat %(seat)s adds %(stones)s stones"),
    }
)


class PileSetupForm(TableSetupForm):
    """The player count first, then a seat for each of up to six players, then the goal."""

    players_count = PlayerCountField(ENGINE.min_players, ENGINE.max_players, initial=2)
    goal = forms.IntegerField(label=_("Stones to complete the pile"), min_value=3, max_value=60, initial=10)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for i in range(ENGINE.max_players):
            self.fields[f"seat{i}_player"] = forms.ChoiceField(
                label=_("Player"), choices=self.player_choices, required=False
            )
            self.fields[f"seat{i}_guest"] = forms.CharField(
                label=_("…or a new guest's name"), max_length=80, required=False
            )

    def seat_rows(self) -> list[list[forms.BoundField]]:
        return [[self[f"seat{i}_player"], self[f"seat{i}_guest"]] for i in range(ENGINE.max_players)]

    def clean(self) -> dict:
        data = super().clean()
        count = data.get("players_count")
        if count is None:
            return data
        seats = [self.seat_player(i, label=str(i + 1)) for i in range(count)]
        self.refuse_repeats([f"seat{i}_player" for i in range(count)], _("%(value)s already has a seat."))
        if not self.errors:
            data["seats"] = [{**seat, "colour": ""} for seat in seats]
            data["setup"], data["deal"] = {"players": count, "goal": data.get("goal") or 10}, False
        return data


class PileGame(plugins.GameAdapter):
    engine_class = PileEngine
    phrases = PHRASES
    score_unit = _("stones")
    table_heading = _("Pile table")
    setup_form_class = PileSetupForm
    setup_template = "games/pile/setup.html"
    board_template = "games/pile/board.html"
    panel_template = "games/pile/panel.html"
    outcome_template = "games/pile/outcome.html"
    move_labels = {"add": _("add stones")}
    demo_players = (6, 2, 3)

    def move_from_post(self, state: dict, data: QueryDict) -> dict:
        try:
            stones = int(data.get("stones") or "")
        except ValueError:
            raise InvalidMove("Add 1 to 3 stones.", code="pile.stones") from None
        return {"type": data.get("type"), "seat": state["turn"], "stones": stones}

    def table_context(self, session, seats: list, query: QueryDict) -> dict:
        return {
            "hint": self.engine.hint(session.state),
            "pile": session.state["pile"],
            "goal": session.state["goal"],
            "seats": seats,
        }

    def outcome_context(self, outcome: dict, names: list[str], state: dict) -> dict:
        return {
            "rows": [{"rank": p["rank"], "name": names[p["seat"]], "score": p["score"]} for p in outcome["placings"]]
        }

    def night_setup(self, *, number: int, names: list[str], club, count: int | None = None) -> tuple[dict, bool]:
        return {"players": len(names), "goal": 10}, False

    def demo_game(self, seed: int, players: int) -> tuple[dict, list[dict]]:
        return legal_game(seed, players)


GAME = PileGame()


def legal_game(seed: int, players: int | None = None) -> tuple[dict, list[dict]]:
    """A complete legal game of Pile played at random from `seed` (two to six seats as the seed says)."""
    rng = random.Random(seed)
    players = players or 2 + seed % 5
    setup = {"players": players, "goal": rng.randint(5, 20)}
    state, moves = ENGINE.initial_state(setup), []
    while ENGINE.outcome(state) is None:
        move = {"type": "add", "seat": state["turn"], "stones": rng.randint(1, 3)}
        state = ENGINE.apply(state, move)
        moves.append(move)
    return setup, moves


def register(monkeypatch, settings) -> PileGame:
    """Pile registered for one test, as its line in games/registry.py would register it for the site."""
    monkeypatch.setitem(engines.REGISTRY, SLUG, ENGINE)
    monkeypatch.setitem(plugins.ADAPTERS, SLUG, GAME)
    settings.TEMPLATES = [
        {**engine, "DIRS": [*engine.get("DIRS", []), HERE / "templates"]} for engine in settings.TEMPLATES
    ]
    settings.LOCALE_PATHS = [*settings.LOCALE_PATHS, HERE / "locale"]
    return GAME
