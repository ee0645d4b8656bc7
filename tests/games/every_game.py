"""Every game the shared tests run: the games registered in games/registry.py and Pile, a tiny game registered
only in the tests (tests/games/tiny), so a test written for today's games fails here before a new game meets it.

A shared test parametrizes its `any_game` fixture (tests/conftest.py) over `SLUGS` with `indirect=True`: the
fixture registers Pile for that test when it is Pile's turn and gives the adapter. What a test needs of a game it
asks the game, never a table of its own:

- a complete legal game: `legal_game(slug, seed)`, the adapter's demo game (`demo_players`, `demo_game`), or, for
  a game without one, `legal_game(seed)` in the game's own tests, tests/games/engines/<slug>/__init__.py (Small
  Samurai Empires'); either way a new game brings its own;
- the seats: `engine.min_players` to `engine.max_players`, or the legal game's set-up as the engine reads it.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from games.engines import REGISTRY
from games.engines.base import Engine
from games.plugins import GameAdapter, get_game
from games.registry import GAMES as REGISTERED
from tests.games import tiny

SLUGS: tuple[str, ...] = (*REGISTERED, tiny.SLUG)


def engine(slug: str) -> Engine:
    """The engine of `slug` (Pile's without registering it: an engine needs no Django)."""
    return tiny.ENGINE if slug == tiny.SLUG else REGISTRY[slug]


def adapter(slug: str) -> GameAdapter:
    return tiny.GAME if slug == tiny.SLUG else get_game(slug)


def own_tests(slug: str) -> ModuleType:
    """The game's own test package: tests/games/engines/<slug>/ (Pile's: tests/games/tiny)."""
    return tiny if slug == tiny.SLUG else import_module(f"tests.games.engines.{slug}")


def legal_game(slug: str, seed: int) -> tuple[dict, list[dict]]:
    """A complete legal game of `slug` played at random from `seed`: its tests' `legal_game(seed)`, else its
    demo game with the demo's player counts in turn."""
    own = getattr(own_tests(slug), "legal_game", None)
    if own is not None:
        return own(seed)
    game = adapter(slug)
    assert game.demo_players, (
        f"{slug} has no demo game: give `legal_game(seed) -> (setup, moves)` in tests/games/engines/{slug}/__init__.py"
    )
    return game.demo_game(seed, game.demo_players[seed % len(game.demo_players)])


def seats(slug: str, setup: dict) -> int:
    """How many seats a legal game's set-up has, as the engine reads it."""
    return len(engine(slug).score(engine(slug).initial_state(setup)))
