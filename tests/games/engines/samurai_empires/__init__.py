"""Small Samurai Empires' rulebook tests. `legal_game(seed)` is its source of complete legal games for the shared
tests that run every game (tests/games/every_game.py): the game has no demo game in the site."""

from __future__ import annotations


def legal_game(seed: int) -> tuple[dict, list[dict]]:
    """A solo game for an odd seed, a multiplayer one (three parties) for an even seed."""
    from .tables import random_legal_game

    return random_legal_game(seed, "solo" if seed % 2 else "multiplayer")
