"""A game's own style sheets and scripts (its adapter's `stylesheets`/`scripts`, issue 28 section 1): in the head
of the pages that show the game, once, and never in the table body htmx swaps on every poll; kept by the offline
worker; and absent from the other games' pages and from the shared files."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders

from games import services
from games.plugins import all_games, get_game
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import SOLO_BOARD
from tests.games.tables import two_player_setup
from tests.games.teikoku_site.test_pages import SHORT

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ASSET = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def _head_and_body(html: str) -> tuple[str, str]:
    head, _, body = html.partition("</head>")
    return head, body


def _assets(html: str) -> list[str]:
    return ASSET.findall(html)


def _session(game: str, alice, bob):
    if game == "samurai_empires":
        return services.session_create(
            game=game,
            created_by=alice,
            players=[player_for_user(alice)],
            setup={
                "mode": "solo",
                "players": [{"name": "alice", "training_ground": 1}],
                "board": SOLO_BOARD,
                "seed": 7,
            },
        )
    if game == "shitenno":
        return services.session_create(
            game=game,
            created_by=alice,
            setup=two_player_setup(),
            players=[player_for_user(alice), player_for_user(bob)],
        )
    return services.session_create(
        game=game,
        created_by=alice,
        setup=SHORT,
        colours=["red", "blue"],
        players=[player_for_user(alice), player_for_user(bob)],
    )


def test_every_games_files_exist_under_its_own_static_folder():
    for game in all_games():
        for path in (*game.stylesheets, *game.scripts):
            assert path.startswith(f"games/{game.slug}/"), (game, path)
            assert finders.find(path), (game, path)


@pytest.mark.parametrize("slug", ["shitenno", "samurai_empires"])
def test_a_games_files_are_in_the_table_pages_head_once_and_never_in_the_polled_body(client, alice, bob, slug):
    game = get_game(slug)
    session = _session(slug, alice, bob)
    client.force_login(alice)
    page = client.get(f"/tables/{session.code}/")
    assert page.status_code == 200
    head, body = _head_and_body(page.content.decode())
    wanted = [*game.stylesheets, *game.scripts]
    assert wanted
    for path in wanted:
        assert sum(path in url for url in _assets(head)) == 1, path
        assert path not in body, path
    polled = client.get(f"/tables/{session.code}/", **HTMX).content.decode()
    assert "<link" not in polled and "<script" not in polled
    assert not any(path in polled for path in wanted)
    history = client.get(f"/tables/{session.code}/history/").content.decode()
    assert all(any(path in url for url in _assets(_head_and_body(history)[0])) for path in wanted)


def test_another_games_page_carries_none_of_them(client, alice, bob):
    teikoku = _session("teikoku", alice, bob)
    client.force_login(alice)
    html = client.get(f"/tables/{teikoku.code}/").content.decode()
    others = [path for game in all_games() for path in (*game.stylesheets, *game.scripts)]
    assert others and not any(path in html for path in others)
    home = client.get("/").content.decode()
    assert not any(path in home for path in others)


def test_the_final_count_page_has_its_games_style_sheet(client):
    html = client.get("/tables/final-count/shitenno/").content.decode()
    head, _ = _head_and_body(html)
    assert any("games/shitenno/table.css" in url for url in _assets(head))


def test_the_offline_worker_keeps_every_games_files(client):
    worker = client.get("/sw.js").content.decode()
    settings = json.loads(re.search(r"const SETTINGS = (\{.*?\});", worker, re.S).group(1))
    for game in all_games():
        for path in (*game.stylesheets, *game.scripts):
            assert any(entry["url"].endswith(path) for entry in settings["precache"]), path  # Workbox's manifest
