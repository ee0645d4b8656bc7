"""Reads that do not grow with the site (issue 46 finding 5): the rating history is partitioned by scope key, and
every read of a scope's ratings (the rankings, a table's win chances, the table page's seats) plans only that
scope's partition, however many other scopes the site holds."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors as game_selectors
from games.engines.shitenno.simulation import random_legal_game
from games.models import Seat, TableSession
from leagues.common import selectors
from leagues.models import Player, Rating, RatingEvent
from leagues.rating import chances
from leagues.rating import partitions as rating_partitions

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="partitions are PostgreSQL's"),
]

SCOPES = [("game", "shitenno"), ("game", "teikoku"), ("game", "Go"), ("league", "101"), ("league", "102")]


@pytest.fixture
def site(alice, bob):
    """Five scopes, each with its own partition and a rating and a game of alice's and bob's in it."""
    from leagues.models import Result

    result = Result.objects.create(game="shitenno", played_on="2026-11-26")
    for kind, key in SCOPES:
        rating_partitions.ensure_partition(key)
        for player in (alice.player, bob.player):
            Rating.objects.create(kind=kind, key=key, player=player, mu=25, sigma=8, games=1)
            RatingEvent.objects.create(
                kind=kind,
                key=key,
                player=player,
                result=result,
                played_on="2026-11-26",
                mu_before=25,
                sigma_before=8.3,
                mu_after=25,
                sigma_after=8,
            )
    return [alice.player.pk, bob.player.pk]


def partitions_planned(sql: str, params=()) -> set[str]:
    """The rating history's partitions in the plan of `sql` (EXPLAIN: what PostgreSQL plans, before running)."""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    return set(re.findall(r" on (leagues_ratingevent_\w+)", plan))  # the tables scanned, not their indexes


def captured(read) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        read()
    return [q["sql"] for q in queries.captured_queries if "leagues_ratingevent" in q["sql"]]


def one_partition(key: str) -> set[str]:
    return {rating_partitions.partition_name(key)}


def test_a_subquery_taking_the_key_from_the_outer_row_plans_every_partition(site):
    """The shape issue 46 found (the reference this file's tests must differ from): every scope's partition."""
    from django.db.models import OuterRef, Subquery

    old = Subquery(
        RatingEvent.objects.filter(player=OuterRef("player_id"), kind=OuterRef("kind"), key=OuterRef("key"))
        .order_by("-played_on")
        .values("played_on")[:1]
    )
    sql, params = Rating.objects.filter(kind="game", key="shitenno").annotate(last=old).query.sql_with_params()
    assert len(partitions_planned(sql, params)) >= len(SCOPES)


def test_the_rankings_plan_the_scopes_partition_only(site):
    for kind, key in (("game", "shitenno"), ("league", "101")):
        sql, params = selectors.ratings_list(kind=kind, key=key).query.sql_with_params()
        assert partitions_planned(sql, params) == one_partition(key)


def test_a_tables_chances_plan_the_scopes_partition_only(site):
    for kwargs, key in (({"game": "shitenno"}, "shitenno"), ({"game": "shitenno", "league_id": 102}, "102")):
        (sql,) = captured(lambda kwargs=kwargs: chances.table_chances(player_ids=site, **kwargs))
        assert partitions_planned(sql) == one_partition(key)


def test_a_rounds_chances_plan_its_games_partitions_only(site):
    (sql,) = captured(lambda: chances.tables_chances([("shitenno", site), ("teikoku", site)]))
    assert partitions_planned(sql) == one_partition("shitenno") | one_partition("teikoku")


def test_the_table_page_s_seats_plan_the_games_partition_only(site, alice):
    setup = random_legal_game(3, 2)[0]
    from games.engines import get_engine

    session = TableSession.objects.create(
        game="shitenno",
        rules_version="1",
        setup=setup,
        created_by=alice,
        state=get_engine("shitenno").initial_state(setup),
        is_public=True,
    )
    for position, player_id in enumerate(site):
        Seat.objects.create(session=session, position=position, player=Player.objects.get(pk=player_id))
    (sql,) = captured(lambda: game_selectors.session_for_viewer(code=session.code, viewer=alice, rated=True))
    assert partitions_planned(sql) == one_partition("shitenno")
    read = game_selectors.session_for_viewer(code=session.code, viewer=alice, rated=True)
    assert [seat.rating_games for seat in read.seats.all()] == [1, 1]  # still the game's own ratings
    assert {str(seat.rating_last_played) for seat in read.seats.all()} == {"2026-11-26"}
