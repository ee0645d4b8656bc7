"""The one list of the games the site knows. Pure Python (no Django): the engines are found without it.

Adding a game is one line here. Its slug names its two folders, found by that name:

    games/engines/<slug>/   the rules; its package's `ENGINE` is the engine (an instance of games.engines.base.Engine)
    games/plugins/<slug>/   the Django side; its package's `GAME` is the adapter (a games.plugins.GameAdapter), whose
                            `engine_class` names the engine it drives

`games.engines.get_engine(slug)` and `games.plugins.get_game(slug)` look a slug up in this list, as python-chess's
single `VARIANTS` list and `find_variant()` do: no second list spells the slug again. The order is the order in
which pages list the games (the first is the default).
"""

from __future__ import annotations

GAMES: tuple[str, ...] = (
    "shitenno",
    "teikoku",
    "samurai_empires",
)

__all__ = ["GAMES"]
