"""The one list of the games the site knows. Pure Python (no Django): the engines are found without it.

Adding a game is one line here. Its slug names its two folders, found by that name:

    games/engines/<slug>/   the rules; its package's `ENGINE` is the engine (an instance of games.engines.base.Engine)
    games/plugins/<slug>/   the Django side; its package's `GAME` is the adapter (a games.plugins.GameAdapter), whose
                            `engine_class` names the engine it drives

`games.engines.get_engine(slug)` and `games.plugins.get_game(slug)` look a slug up in this list, as python-chess's
single `VARIANTS` list and `find_variant()` do: no second list spells the slug again. The order is the order in
which pages list the games (the first is the default).

One name for each game (issue 40): a result, a league, the API and the pages may name a registered game by its slug
or by its name, in any case, with or without accents ("Shitennō", "shitenno", "SHITENNO"); `one_name` turns any of
those into the slug, which is what is stored, so the ratings have one scope per game. Any other text is a game the
site does not know, kept as written (stripped): it can never take a registered game's name, as that is folded.
"""

from __future__ import annotations

import re
import unicodedata

GAMES: tuple[str, ...] = (
    "shitenno",
    "teikoku",
    "samurai_empires",
)


def game_key(text: str) -> str:
    """What two spellings of one game share: accents dropped (NFKD), case folded, every run of other characters
    than letters and digits one "_" ("Shitennō" and "SHITENNO" give "shitenno", "Samurai  Empires" gives
    "samurai_empires")."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", "_", plain.casefold()).strip("_")


def registered_slug(text: str) -> str | None:
    """The slug of the registered game `text` names by its slug or its name (see game_key), else None."""
    from games.engines import REGISTRY  # here: the engines import this module for GAMES

    key = game_key(text)
    if not key:
        return None
    for slug, engine in REGISTRY.items():
        if key in (game_key(slug), game_key(engine.name)):
            return slug
    return None


def one_name(text: str) -> str:
    """The game as stored: a registered game's slug when `text` names one, else `text` stripped (a game the site
    does not know)."""
    return registered_slug(text) or text.strip()


__all__ = ["GAMES", "game_key", "one_name", "registered_slug"]
