"""One list of games (games/registry.py, issue 28 section 1): the engine and the adapter are found through it by the
slug's folders, the adapter names its engine, and the engines are found without Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from games import engines, plugins, registry
from games.engines import UnknownGame, get_engine
from games.plugins import GameAdapter, get_game

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_is_the_one_list_both_sides_follow_in_its_order():
    assert list(engines.REGISTRY) == list(registry.GAMES) == list(plugins.ADAPTERS)
    assert [game.slug for game in plugins.all_games()] == list(registry.GAMES)
    assert plugins.default_game().slug == registry.GAMES[0]


@pytest.mark.parametrize("slug", registry.GAMES)
def test_each_adapter_names_the_engine_of_its_folder(slug):
    game = get_game(slug)
    assert type(get_engine(slug)) is game.engine_class
    assert game.slug == game.engine_class.slug == slug
    assert game.engine is get_engine(slug)


def test_an_unknown_slug_is_refused_by_both_lookups():
    for lookup in (get_engine, get_game):
        with pytest.raises(UnknownGame):
            lookup("go")
        with pytest.raises(KeyError):  # callers that catch KeyError keep working
            lookup("../shitenno")


def test_the_engines_are_found_without_django():
    code = (
        "import sys, games.engines as e\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')], 'django loaded'\n"
        "print(','.join(e.REGISTRY))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ",".join(registry.GAMES)


def test_a_folder_whose_engine_says_another_slug_is_refused(monkeypatch):
    import games.engines.teikoku as teikoku

    monkeypatch.setattr(teikoku, "ENGINE", get_engine("shitenno"))
    with pytest.raises(ImportError, match="teikoku"):
        engines._load("teikoku")


def test_a_plug_in_whose_adapter_drives_another_engine_is_refused(monkeypatch):
    import games.plugins.teikoku as teikoku

    class Wrong(GameAdapter):
        engine_class = type(get_engine("shitenno"))

    monkeypatch.setattr(teikoku, "GAME", Wrong())
    with pytest.raises(ImportError, match="teikoku"):
        plugins._load("teikoku")


def test_a_game_opens_a_league_nights_table_its_own_way():
    from django.core.exceptions import ValidationError

    names = ["Aiko", "Ren", "Sora"]
    assert get_game("shitenno").night_setup(number=1, names=names, club=None) == (
        {"players": [{"general": g} for g in ("honda", "ii", "sakakibara")]},
        True,
    )
    assert GameAdapter().night_setup(number=1, names=names, club=None) == ({}, True)
    teikoku = get_game("teikoku")
    assert teikoku.night_count_label and GameAdapter.night_count_label is None
    with pytest.raises(ValidationError, match="Table 2"):
        teikoku.night_setup(number=2, names=names, club=None)
    setup, deal = teikoku.night_setup(number=2, names=names, club=None, count=27)
    assert setup["units_deck"] == 27 and len(setup["clans"]) == 3 and deal is False


def test_a_games_own_pages_are_mounted_under_its_slug():
    from django.urls import Resolver404, URLResolver

    from games.urls import game_patterns

    class WithPages(GameAdapter):
        slug = "dice"
        urls = "tests.games.dice_urls"

    class WithoutPages(GameAdapter):
        slug = "cards"

    patterns = game_patterns([WithPages(), WithoutPages()])
    assert len(patterns) == 1 and isinstance(patterns[0], URLResolver)
    match = patterns[0].resolve("games/dice/boards/new/")
    assert match and match.func.__name__ == "board_new"
    with pytest.raises(Resolver404):
        patterns[0].resolve("games/cards/boards/new/")
