"""A game is a plug-in: each game's Django side, found by slug through the one list in games.registry.

Everything about one game lives in its own folders:

    games/engines/<slug>/     the pure rules engine (no Django); its package's `ENGINE`
    games/plugins/<slug>/     its Django side; its package's `GAME`, a `GameAdapter` subclass naming its engine class,
                              with its set-up form, moves from a POST, the context of its board and panel, its
                              statistics, its demo game, its static files and its API examples
    templates/games/<slug>/   the templates that adapter names
    static/games/<slug>/      its style sheets and scripts (`stylesheets`, `scripts`), put in the page's head

The shared tables, move log, polling, undo, API, results for leagues and the statistics page ask the
adapter and never import a game's board (the pattern of Django's own `ModelAdmin`: one generic set of views,
one registered class per model). Adding a game is new folders plus one line in games/registry.py; see
docs/games.md. tests/games/test_game_code_stays_home.py fails when a game's slug or words leak into shared code.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from importlib import import_module
from typing import TYPE_CHECKING, NamedTuple

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.engines import UnknownGame, get_engine
from games.engines.base import Engine, MoveError, Outcome
from games.phrases import EMPTY, Catalogue, say_error, say_phrase
from games.plugins import tally
from games.registry import GAMES as REGISTERED

if TYPE_CHECKING:
    from django import forms
    from django.db.models import QuerySet
    from django.http import QueryDict

    from games.models import TableSession


class TableRow(NamedTuple):
    """One finished table, as the statistics read it: its set-up and its outcome."""

    setup: dict
    outcome: dict


class GameAdapter:
    """What the shared site asks of a game. Subclass it in games/plugins/<slug>/, give an instance as that package's
    `GAME`, and add the slug to games.registry.GAMES.

    The attributes name templates (under templates/games/<slug>/) and form classes; a `None` says the game
    lacks that part (no final-count calculator, no statistics page), and the site then offers no link to it.
    """

    engine_class: type[Engine] | None = None  # the engine this adapter drives; its slug is the adapter's
    slug: str = ""  # set from engine_class
    score_unit: str = ""  # the unit in the reader's language (gettext_lazy), e.g. "victory points"
    table_heading: str = ""  # the table page's heading (gettext_lazy), e.g. "Go table"

    # The new-table page: a form (a games.forms.TableSetupForm) and the template of its game-specific part.
    setup_form_class: type[forms.Form] | None = None
    setup_template: str = ""

    # The table page: the status line, board and score track; the move forms; the result once the game is over.
    board_template: str = ""
    panel_template: str = ""
    outcome_template: str = ""
    # Query parameters the board's links add (e.g. ?era=2); a page asked with one is rendered afresh
    # rather than taken from the body shared by every phone at the table.
    view_params: tuple[str, ...] = ()
    # Each move type in the reader's words (gettext_lazy), for the "to play" line and the log.
    move_labels: Mapping[str, str] = {}
    # What the engine says (move descriptions, refusals, tie-breaks) as a code with parameters, in the reader's
    # language: every code the engine can produce maps to a gettext sentence (games/plugins/<slug>/phrases.py).
    phrases: Catalogue = EMPTY

    # The final-count calculator (an end state entered by hand); None when the game has none.
    final_count_form_class: type[forms.Form] | None = None
    final_count_template: str | None = None

    # Statistics: the game's page over its finished tables, and its part of a player's page.
    stats_template: str | None = None
    player_stats_template: str | None = None

    # The game's own style sheets and scripts, as paths under static/ (in static/games/<slug>/): every page that
    # shows the game (table, history, final count, statistics) puts them in its head, once, rather than in the body
    # htmx swaps on each poll; the offline worker keeps them with the site's own (shitenno_site/pwa.py).
    stylesheets: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()

    # A URLconf module of the game's own pages (e.g. "games.plugins.<slug>.urls"), mounted under /games/<slug>/;
    # None for a game whose pages are all the shared ones.
    urls: str | None = None

    # The API (games/api): request examples for its OpenAPI schema, each a (name, value) pair in the engine's JSON: a
    # POST /api/tables/ body, moves, and the final-count calculator's end state; and a deprecated name under which
    # the table's answers also give the score, for clients older than `score` (null for the other games' tables).
    api_setup_example: tuple[str, dict] | None = None
    api_move_examples: tuple[tuple[str, dict], ...] = ()
    api_final_count_example: tuple[str, dict] | None = None
    api_score_alias: str | None = None

    # The player counts the demo data seats at this game's tables, in turn; () for a game without a demo game.
    demo_players: tuple[int, ...] = ()

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.engine_class is not None:
            cls.slug = cls.engine_class.slug

    @property
    def engine(self) -> Engine:
        return get_engine(self.slug)

    @property
    def name(self) -> str:
        return self.engine.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.slug}>"

    # --- set-up ---

    def deal(self, setup: dict, rng: random.Random) -> dict:
        """The set-up with what the site deals at random filled in (a game's starting cards or titles, a solo
        opponent's seed: each game's own).

        Games whose set-up the site does not deal keep this refusal.
        """
        raise ValidationError(
            {"deal_titles": _("The site deals nothing for %(game)s: enter the whole set-up.") % {"game": self.name}}
        )

    # --- league nights (leagues/nights): the tables the site opens for a round ---

    # What the organiser counts at each of the game's tables before the site opens it (gettext_lazy, the label of a
    # whole-number field, e.g. the cards of a deck), or None when nothing is asked.
    night_count_label: str | None = None
    # A short hint under that field (gettext_lazy): what exactly to count and why the site needs it, for an
    # organiser who has not set the game up before. None says nothing more than the label.
    night_count_help: str | None = None

    def night_setup(self, *, number: int, names: list[str], club, count: int | None = None) -> tuple[dict, bool]:
        """(set-up, deal) for table `number` of a league night's round, with the seated players' `names` in seat
        order, the night's `club` and the organiser's `count` (see `night_count_label`); `deal` asks for the game's
        `deal` to fill in what is dealt at random. Raise ValidationError with the reason, naming the table, when
        the site cannot open it by itself. ({}, True) by default: such a game's `deal` then says what it needs."""
        return {}, True

    def table_opened(self, session: TableSession, data: dict, user) -> None:
        """Called by the new-table page once `session` is open, with the set-up form's cleaned_data (a game whose
        boards differ saves the club's board here, games.models.BoardSetup). Nothing by default."""

    # --- the table ---

    def move_label(self, kind: str) -> str:
        return self.move_labels.get(kind, kind.replace("_", " "))

    def say(self, phrase: dict | None, english: str, state: dict | None = None) -> str:
        """A stored phrase ({"code", "params"}) in the reader's language; `english` when it cannot be said."""
        return say_phrase(self.phrases, phrase, english, state)

    def say_error(self, error: MoveError, state: dict | None = None) -> str:
        """A refused move's reason in the reader's language (`state`: the table's, for its players' names)."""
        return say_error(self.phrases, error, state)

    def move_from_post(self, state: dict, data: QueryDict) -> dict:
        """The engine move a move form posted (its "type" field names the move); the engine judges it.

        Raises games.engines.base.MoveError for a form that names no move of this game.
        """
        raise NotImplementedError

    def table_context(self, session: TableSession, seats: list, query: QueryDict) -> dict:
        """The context of `board_template` and `panel_template` for a table entered move by move.

        `seats` are the session's Seat rows (players loaded), `query` the page's GET parameters.
        """
        raise NotImplementedError

    def outcome_context(self, outcome: dict, names: list[str], state: dict) -> dict:
        """The context of `outcome_template` for a stored outcome (Outcome.to_json()), the seats' names and
        the state it ended in (for a table that entered only its final count: {"final_count": end})."""
        raise NotImplementedError

    # --- the final count ---

    def final_count(self, end: dict) -> Outcome:
        """The outcome of an end state entered by hand (the final-count form's `end()`)."""
        raise NotImplementedError

    # --- statistics ---

    # Bump when `stats_table` counts differently: the stored tallies of older versions are rebuilt on first read.
    stats_version: int = 1

    def stats(self, rows: Iterable[TableRow]) -> dict:
        """Statistics (plain values) over the finished move-by-move tables the reader may see."""
        return self.stats_present(self.stats_tally(rows))

    def stats_table(self, row: TableRow) -> dict:
        """One finished table's part of the statistics: a tally (games.plugins.tally) of whole-number counts and
        sums that adds up over tables and can be taken out again, so the site keeps the public tables' tally
        stored and up to date as tables finish or are reopened (games/stats_store.py) instead of counting every
        table at each page view."""
        raise NotImplementedError

    def stats_present(self, tally: dict) -> dict:
        """The statistics `stats` gives, from the tally of the tables they are over."""
        raise NotImplementedError

    def stats_tally(self, rows: Iterable[TableRow]) -> dict:
        return tally.add_up(self.stats_table(row) for row in rows)

    def stats_merge(self, a: dict, b: dict) -> dict:
        return tally.add(a, b)

    def stats_subtract(self, a: dict, b: dict) -> dict:
        return tally.add(a, b, sign=-1)

    def stats_context(self, found: dict) -> dict:
        """The context of `stats_template` for what `stats` found, in the reader's language."""
        return {"stats": found}

    # --- seat and faction balance (issue 29; games/balance_stats.py counts and shows it) ---

    # What a seat had at the table beyond its place, that may give it an edge: dimension -> the heading of its section
    # (gettext_lazy), in page order, e.g. {"general": _("Win rate by general")}. "turn" is the turn order of the
    # first round (0 = the first player); the seat itself is always counted.
    balance_dimensions: Mapping[str, str] = {}

    def balance_factions(self, row: TableRow) -> dict[str, list] | None:
        """Each seat's key for each of `balance_dimensions`, in seat order, at one finished table (e.g.
        {"general": ["honda", "ii", "sakai"]}); None when the table has no seats to compare (a solo game)."""
        return {}

    def balance_label(self, dimension: str, key) -> str:
        """A game-specific key in the reader's words (a general's or a clan's name)."""
        return str(key)

    def player_stats(self, seats: QuerySet) -> dict:
        """The context of `player_stats_template` from a player's seats (games.models.Seat) at finished
        move-by-move tables of this game; `tables` counts them (0 hides the section)."""
        raise NotImplementedError

    # --- demo data ---

    def demo_game(self, seed: int, players: int) -> tuple[dict, list[dict]]:
        """A complete legal game (set-up, moves) for `players` players, played at random from `seed`, for the
        demo data (`manage.py demo_data`); only asked of games with `demo_players`."""
        raise NotImplementedError


def _load(slug: str) -> GameAdapter:
    game = import_module(f"games.plugins.{slug}").GAME
    if game.slug != slug or type(get_engine(slug)) is not game.engine_class:
        raise ImportError(f"games/plugins/{slug}/ gives an adapter for {game.slug!r}, not for the engine of {slug!r}")
    return game


def _games() -> dict[str, GameAdapter]:
    games = [_load(slug) for slug in REGISTERED]  # in the registry's order: the order pages list them
    # A game's ratings are keyed by its slug and a league's by its id: the rating history's partitions
    # (leagues/rating/partitions.py) tell them apart only because a slug is never all digits.
    assert not any(game.slug.isdigit() for game in games), "a game's slug cannot be all digits"
    return {game.slug: game for game in games}


# The adapters by slug, in the registry's order (games.registry.GAMES is the list of slugs they are loaded from).
ADAPTERS: dict[str, GameAdapter] = _games()


def get_game(slug: str) -> GameAdapter:
    try:
        return ADAPTERS[slug]
    except KeyError:
        raise UnknownGame(slug) from None


def all_games() -> list[GameAdapter]:
    return list(ADAPTERS.values())


def default_game() -> GameAdapter:
    """The first registered game: what a page shows when the reader has not picked one."""
    return next(iter(ADAPTERS.values()))


def default_final_count_game() -> GameAdapter:
    """The first registered game with a final-count calculator (the API's default)."""
    return next((game for game in ADAPTERS.values() if game.final_count_form_class), default_game())


def game_name(slug: str) -> str:
    """A registered game's name, by its slug ("dice_race" -> "Dice race"); a game the site does not know (a league
    may count Go) as it was entered."""
    game = ADAPTERS.get(slug)
    return game.name if game else slug


def game_choices() -> list[tuple[str, str]]:
    return [(game.slug, game.name) for game in ADAPTERS.values()]


__all__ = [
    "ADAPTERS",
    "GameAdapter",
    "TableRow",
    "all_games",
    "default_final_count_game",
    "default_game",
    "game_choices",
    "game_name",
    "get_game",
]
