"""Issue 30: the player page averaged scores across games ("Average score 41.0": Teikoku treasure with Small
Samurai Empires victory points). Each game the player has played gets its own games, wins, average and best,
in that game's unit; no figure mixes two games."""

import datetime

import pytest
from django.utils import timezone, translation

from leagues.models import Player, Result, ResultEntry
from leagues.people import player_record
from leagues.people.players import player_for_user
from leagues.standings import tally as tally_store

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _counted(game: str, entries: list[tuple], days_ago: int = 0) -> None:
    result = Result.objects.create(
        game=game,
        played_on=TODAY - datetime.timedelta(days=days_ago),
        status=Result.Status.COUNTED,
        ranked_publicly=True,
    )
    ResultEntry.objects.bulk_create(ResultEntry(result=result, player=p, rank=r, score=s) for p, r, s in entries)


@pytest.fixture
def evening(bob):
    """bob won a Teikoku game on 70 treasure and lost one on 50; at Small Samurai Empires he won on 12 points."""
    me = player_for_user(bob)
    ann = Player.objects.create(name="ann")
    _counted("teikoku", [(me, 1, 70), (ann, 2, 40)], 3)
    _counted("teikoku", [(me, 2, 50), (ann, 1, 60)], 2)
    _counted("samurai_empires", [(me, 1, 12), (ann, 2, 9)], 1)
    tally_store.tallies_recount(players=[me.pk, ann.pk])
    return me


def test_each_game_keeps_its_own_record_and_no_average_mixes_two_games(evening, alice):
    stats = player_record.player_stats(player=evening, viewer=alice)
    by_game = {row["game"]: row for row in stats["by_game"]}
    assert set(by_game) == {"teikoku", "samurai_empires"}
    teikoku, sse = by_game["teikoku"], by_game["samurai_empires"]
    assert (teikoku["games"], teikoku["wins"], teikoku["average_score"], teikoku["best_score"]) == (2, 1, 60, 70)
    assert (sse["games"], sse["wins"], sse["average_score"], sse["best_score"]) == (1, 1, 12, 12)
    assert str(teikoku["unit"]) == "treasure" and str(sse["unit"]) == "victory points"
    # the totals of games and wins still add up; the cross-game average (44.0 here) is gone
    assert stats["games"] == 3 and stats["wins"] == 2
    assert stats["average_score"] is None and stats["best_score"] is None
    assert [row["game"] for row in stats["by_game"]] == ["teikoku", "samurai_empires"]  # most played first


def test_the_page_shows_a_section_per_game_in_its_unit(client, evening, alice):
    client.force_login(alice)
    page = client.get(evening.get_absolute_url()).content.decode()
    assert 'id="record-teikoku"' in page and 'id="record-samurai_empires"' in page
    assert "Average 60.0 treasure, best 70 treasure." in page
    assert "Average 12.0 victory points, best 12 victory points." in page
    assert "Average score" not in page and "44.0" not in page


def test_the_sections_read_in_dutch(client, evening, alice):
    client.force_login(alice)
    with translation.override("nl"):
        page = client.get(evening.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Gemiddeld 60,0 schat, beste 70 schat." in page


def test_a_player_of_one_game_keeps_the_overall_average(bob, alice):
    me = player_for_user(bob)
    ann = Player.objects.create(name="ann")
    _counted("teikoku", [(me, 1, 70), (ann, 2, 40)])
    tally_store.tallies_recount(players=[me.pk, ann.pk])
    stats = player_record.player_stats(player=me, viewer=alice)
    assert stats["average_score"] == 70 and stats["best_score"] == 70


def test_the_api_gives_each_game(api, evening, alice):
    api.login(alice)
    body = api.get(f"/api/players/{evening.pk}/stats/").json()
    assert {row["game"]: row["average_score"] for row in body["by_game"]} == {"teikoku": 60, "samurai_empires": 12}
    assert body["average_score"] is None


def _section(page: str, slug: str) -> str:
    start = page.index(f'id="record-{slug}"')
    return page[start : page.index("</section>", start)]


def test_each_game_is_one_section_with_its_own_player_counts_and_no_mixed_table(client, evening, alice):
    """Issue 30 §5: a section per game, Teikoku included; the win rate by number of players is each game's own
    (one table per section), not a table over every game."""
    Player.objects.create(name="cas")
    ann = Player.objects.get(name="ann")
    _counted("samurai_empires", [(evening, 3, 4), (ann, 1, 20), (Player.objects.get(name="cas"), 2, 10)])
    tally_store.tallies_recount(players=[evening.pk, ann.pk])
    client.force_login(alice)
    page = client.get(evening.get_absolute_url()).content.decode()
    teikoku, sse = _section(page, "teikoku"), _section(page, "samurai_empires")
    assert "<h3" in teikoku and "Teikoku" in teikoku and teikoku.count("<table") == 1
    assert "<td>2</td><td>2</td><td>50%</td>" in teikoku  # 2 players: 2 games, 1 won
    assert "<td>2</td><td>1</td><td>100%</td>" in sse and "<td>3</td><td>1</td><td>0%</td>" in sse
    assert "<td>2</td><td>3</td>" not in page  # no table adds the two games' 2-player games up
    assert page.count("<table") == 2
