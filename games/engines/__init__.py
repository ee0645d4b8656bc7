"""The rules engines the site knows, registered by slug (pure Python, no Django)."""

from __future__ import annotations

from games.engines.base import Engine
from games.engines.samurai_empires import SamuraiEmpiresEngine
from games.engines.shitenno import ShitennoEngine
from games.engines.teikoku import TeikokuEngine


class UnknownGame(KeyError):
    """No engine is registered under this slug."""


REGISTRY: dict[str, Engine] = {engine.slug: engine for engine in (
    ShitennoEngine(), TeikokuEngine(), SamuraiEmpiresEngine())}


def get_engine(slug: str) -> Engine:
    try:
        return REGISTRY[slug]
    except KeyError:
        raise UnknownGame(slug) from None
