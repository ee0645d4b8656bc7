"""The rules engines the site knows, found by slug through the one list in games.registry (pure Python, no Django).

Each slug's package, games/engines/<slug>/, gives its engine as `ENGINE`; nothing here names a game.
"""

from __future__ import annotations

from importlib import import_module

from games.engines.base import Engine
from games.registry import GAMES


class UnknownGame(KeyError):
    """No engine is registered under this slug."""


def _load(slug: str) -> Engine:
    engine = import_module(f"games.engines.{slug}").ENGINE
    if engine.slug != slug:  # the folder and the engine's own slug must agree, or the tables' stored slug would not
        raise ImportError(f"games/engines/{slug}/ gives an engine whose slug is {engine.slug!r}")
    return engine


REGISTRY: dict[str, Engine] = {slug: _load(slug) for slug in GAMES}


def get_engine(slug: str) -> Engine:
    try:
        return REGISTRY[slug]
    except KeyError:
        raise UnknownGame(slug) from None
