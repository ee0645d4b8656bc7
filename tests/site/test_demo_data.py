"""`manage.py demo_data` (run by `make run`) loads a club, eight players and tables, once."""

import pytest
from django.core.management import call_command

from games.models import TableSession
from games.plugins import all_games, get_game
from leagues.models import Club, Player, Rating, Result, Standing
from shitenno_site.celery import app
from tests.games import tiny


@pytest.mark.django_db
def test_it_loads_the_demo_once(django_capture_on_commit_callbacks):
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True  # as in `make run`, jobs run in-process
    try:
        with django_capture_on_commit_callbacks(execute=True):
            call_command("demo_data", games=2)
        call_command("demo_data", games=2)
    finally:
        app.conf.task_always_eager = eager
    club = Club.objects.get(name="Edo Gamers")
    assert club.memberships.count() == 8 and Player.objects.count() == 8
    assert TableSession.objects.filter(status="finished").count() == 2
    assert TableSession.objects.filter(status="playing").count() == 1
    assert Result.objects.filter(status="counted").count() == 2
    assert Rating.objects.filter(kind="league").exists() and Standing.objects.exists()
    in_play = TableSession.objects.get(status="playing")
    assert "hana" in {seat.player.name for seat in in_play.seats.select_related("player")}  # the README's first login


@pytest.mark.django_db
@pytest.mark.parametrize("with_pile", [False, True], ids=["registered", "and-pile"])
def test_the_logged_out_home_page_shows_the_demo_table_in_play_and_where_the_rankings_are(
    client, with_pile, monkeypatch, settings
):
    if with_pile:  # the test-only game too: the games take turns, and Pile gets demo tables of its own
        tiny.register(monkeypatch, settings)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        call_command("demo_data", games=2)
    finally:
        app.conf.task_always_eager = eager
    in_play = TableSession.objects.get(status="playing")
    page = client.get("/").content.decode()
    assert in_play.game in {game.slug for game in all_games()}  # whichever game's turn the rotation left in play
    assert TableSession.objects.filter(game=tiny.SLUG).exists() == with_pile  # every registered game gets its demo
    watch = f"Watch a {get_game(in_play.game).name} table in play"  # the game the demo left in play, by its name
    assert f'href="{in_play.get_absolute_url()}"' in page and watch in page
    assert 'href="/rankings/"' in page
    for game in all_games():  # each game's statistics page, for the games that have one
        assert (f'href="/games/{game.slug}/"' in page) == bool(game.stats_template), game.slug
    client.force_login(in_play.seats.first().player.user)
    assert "Watch a" not in client.get("/").content.decode()  # a player sees their own tables instead
