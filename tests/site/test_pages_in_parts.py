"""Issue 18: lists without bound come a page at a time (a plain link, which htmx follows in place), and a
page's figures are the same as when the whole list was read."""

import datetime
import random

import pytest
from django.utils import timezone

from games.models import MoveEvent
from leagues.club import seasons
from leagues.common import selectors
from leagues.models import Player, Rating, Result, ResultEntry
from leagues.people import player_record
from leagues.people.players import player_for_user
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store

from .test_query_budgets import _table

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
HTMX = {"HTTP_HX_REQUEST": "true"}


def _season_with_ties(club, alice, players: int, results: int):
    """A season of four-player results among `players` players with scores drawn from a few values, so that
    many rows are level and tie-breakers separate others; its table computed."""
    club.members_public = True
    club.save()
    league = seasons.league_create(club=club, name="Big league", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="2026",
        starts_on=TODAY - datetime.timedelta(days=60),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    people = Player.objects.bulk_create(Player(name=f"p{i:03d}") for i in range(players))
    rng = random.Random(18)
    made = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=TODAY - datetime.timedelta(days=i % 50),
            club=club,
            season=season,
            status=Result.Status.COUNTED,
            ranked_publicly=True,
            created_by=alice,
        )
        for i in range(results)
    )
    entries = []
    for result in made:
        table = rng.sample(people, 4)
        scores = sorted((rng.choice([10, 20, 30]) for _ in table), reverse=True)
        for place, (player, score) in enumerate(zip(table, scores, strict=True)):
            rank = 1 + scores.index(score)
            entries.append(ResultEntry(result=result, player=player, rank=rank if place else 1, score=score))
    ResultEntry.objects.bulk_create(entries)
    standings_store.standings_compute(season=season)
    return league, season


def test_the_standings_a_page_at_a_time_are_the_whole_table_cut_in_pages(club, alice):
    _league, season = _season_with_ties(club, alice, players=40, results=30)
    whole = [(row.player_id, row.position, row.separated_by) for row in selectors.standings_of(season)]
    paged, number = [], 1
    while True:
        page = selectors.standings_page(season, page=number, per_page=7)
        paged += [(row.player_id, row.position, row.separated_by) for row in page.object_list]
        if not page.has_next():
            break
        number += 1
    assert number > 2 and paged == whole


def test_the_league_page_shows_more_standings_through_a_link(client, club, alice):
    league, season = _season_with_ties(club, alice, players=60, results=40)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    link = f"?standings=2&amp;season={season.pk}"
    assert f'href="{link}"' in page and f'data-hx-get="{link}"' in page
    more = client.get(f"/leagues/{league.pk}/?standings=2&season={season.pk}", **HTMX).content.decode()
    assert "<html" not in more and "<table" not in more and "<tr" in more and "standings=3" not in more
    plain = client.get(f"/leagues/{league.pk}/?standings=2&season={season.pk}").content.decode()
    assert "<html" in plain and "Standings: 2026" in plain  # without script: the page with the second part


def test_the_rankings_show_fifty_then_more(client, club, alice):
    players = Player.objects.bulk_create(Player(name=f"r{i:03d}") for i in range(120))
    Rating.objects.bulk_create(
        Rating(kind="game", key="shitenno", player=p, mu=30 - i / 10, sigma=2, games=3) for i, p in enumerate(players)
    )
    first = client.get("/rankings/?scope=game:shitenno").content.decode()
    assert "r000" in first and "r049" in first and "r050" not in first
    more = client.get("/rankings/?scope=game:shitenno&min_games=0&page=2", **HTMX).content.decode()
    assert "<table" not in more and "r050" in more and "r099" in more and "r049" not in more
    assert "<td>51</td>" in more and "page=3" in more  # numbered on from the first part; a link to the third
    whole = [r.player.name for r in selectors.ratings_list(kind="game", key="shitenno")]
    assert whole == sorted(whole)  # the best (highest mu - 3 sigma) first


def test_the_history_comes_thirty_entries_at_a_time_with_the_undone_ones_struck(client, alice, bob):
    session, legal = _table(alice, bob, 100)  # every tenth entry undoes the one before it
    first = client.get(f"/tables/{session.code}/history/").content.decode()
    assert "#30<" in first and "#31<" not in first and 'href="?page=2"' in first
    more = client.get(f"/tables/{session.code}/history/?page=2", **HTMX).content.decode()
    assert "<html" not in more and "#31<" in more and "#60<" in more and "#61<" not in more and "page=3" in more
    assert more.count("<del>") == 3  # 39 (undone by 40), 49 (by 50), 59 (by 60): struck on the page they are on
    undo = session.events.get(seq=60)
    assert undo.kind == MoveEvent.Kind.UNDO and undo.payload == {"undoes": 59}


def test_the_player_record_from_sql_is_the_record_of_his_games(club, alice, bob):
    """bob against carol-like opponents: the totals, the win rate by player count, the head-to-head and the
    nemesis, each counted by hand here."""
    me = player_for_user(bob)
    a, b = Player.objects.bulk_create([Player(name="ann"), Player(name="ben")])
    games = [  # (entries as (player, rank, score)), all counted
        [(me, 1, 30), (a, 2, 20)],
        [(me, 2, 20), (a, 1, 25), (b, 3, 5)],
        [(me, 3, None), (a, 1, None), (b, 2, None)],
        [(me, 1, 40), (b, 1, 40)],
    ]
    for i, entries in enumerate(games):
        result = Result.objects.create(
            game="shitenno",
            played_on=TODAY - datetime.timedelta(days=i),
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
        ResultEntry.objects.bulk_create(ResultEntry(result=result, player=p, rank=r, score=s) for p, r, s in entries)
    tally_store.tallies_recount(players=[me.pk, a.pk, b.pk])  # what the tally jobs do once the results count
    stats = player_record.player_stats(player=me, viewer=alice)
    assert stats["games"] == 4 and stats["wins"] == 2
    assert stats["by_player_count"] == [
        {"players": 2, "games": 2, "wins": 2, "win_rate": 1.0},
        {"players": 3, "games": 2, "wins": 0, "win_rate": 0.0},
    ]
    assert stats["average_score"] == pytest.approx(30) and stats["best_score"] == 40
    h2h = [(row["player"].name, row["won"], row["lost"]) for row in stats["head_to_head"]]
    assert h2h == [("ann", 1, 2), ("ben", 1, 1)]  # most games decided between them first; the tie decides none
    assert stats["nemesis"]["player"].name == "ann" and stats["nemesis"]["lost"] == 2
