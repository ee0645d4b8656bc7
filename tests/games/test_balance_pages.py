"""Seat and faction balance on the games' statistics pages (issue 29): the counts each plug-in adds to its stored
tally (games/balance_stats.py), split by player count, and the page's verdict in words, at the same query cost."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import balance_stats, stats_store
from games.models import TableSession
from games.plugins import TableRow, get_game


def shitenno_row(generals, titles, ranks):
    setup = {"players": [{"general": g} for g in generals], "titles": dict(zip(generals, titles, strict=True))}
    outcome = {
        "termination": "end",
        "details": {},
        "placings": [{"seat": s, "rank": r, "score": 10 - r} for s, r in enumerate(ranks)],
    }
    return TableRow(setup, outcome)


def counts(game, row):
    found = get_game(game).stats_table(row)
    plays = {tuple(balance_stats.tally.unkey(k)): n for k, n in found.get(balance_stats.PLAYS, {}).items()}
    wins = {tuple(balance_stats.tally.unkey(k)): n for k, n in found.get(balance_stats.WINS, {}).items()}
    return plays, wins


def test_a_shitenno_table_counts_its_seats_turn_order_and_generals_by_player_count():
    # sakai holds the daimyo title: seat 2 plays first in the first year
    plays, wins = counts("shitenno", shitenno_row(["honda", "ii", "sakai"], ["sensei", "shomyo", "daimyo"], [2, 1, 3]))
    assert plays[("seat", 3, 0)] == 1 and wins == {("seat", 3, 1): 1, ("turn", 3, 1): 1, ("general", 3, "ii"): 1}
    assert {k[2] for k in plays if k[0] == "turn"} == {0, 1, 2} and plays[("turn", 3, 0)] == 1
    assert plays[("general", 3, "sakai")] == 1 and len(plays) == 9


def test_a_shared_first_place_and_a_solo_game_count_nothing_for_balance():
    plays, _wins = counts("shitenno", shitenno_row(["honda", "ii"], ["daimyo", "shomyo"], [1, 1]))
    assert plays == {}
    solo = TableRow(
        {"mode": "solo"},
        {
            "termination": "solo_victory",
            "details": {"won": True},
            "placings": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}],
        },
    )
    assert balance_stats.table_tally(solo, get_game("samurai_empires")) == {}


def test_teikoku_counts_clans_and_samurai_empires_the_first_eras_turn_order():
    row = TableRow(
        {"clans": ["fujiwara", "minamoto", "tokugawa"]},
        {"termination": "x", "placings": [{"seat": 0, "rank": 2}, {"seat": 1, "rank": 3}, {"seat": 2, "rank": 1}]},
    )
    _plays, wins = counts("teikoku", row)
    assert wins == {("seat", 3, 2): 1, ("clan", 3, "tokugawa"): 1}
    row = TableRow(
        {"mode": "multiplayer", "turn_order": [1, 0]},
        {"termination": "end", "placings": [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}]},
    )
    _plays, wins = counts("samurai_empires", row)
    assert wins == {("seat", 2, 0): 1, ("turn", 2, 1): 1}  # seat 1 played second in era 1 and won


def store(alice, tables):
    for generals, titles, ranks in tables:
        row = shitenno_row(generals, titles, ranks)
        session = TableSession.objects.create(
            game="shitenno",
            rules_version="1",
            setup=row.setup,
            created_by=alice,
            is_public=True,
            entry="moves",
            status="finished",
            state={},
            outcome=row.outcome,
        )
        stats_store.table_changed(session)  # what the services do as a table finishes


def page_queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


@pytest.mark.django_db
def test_the_page_says_when_there_are_not_enough_games_and_when_seat_one_is_favoured(client, alice):
    store(alice, [(["honda", "ii"], ["daimyo", "shomyo"], [1, 2])] * 3)
    client.get("/games/shitenno/")  # the first read builds the stored tally
    page, few = page_queries(client, "/games/shitenno/")
    assert "Balance by seat" in page and "Balance by general" in page
    assert "Balance by turn order in the first year" in page
    assert "Not enough games to tell (3 games with one winner" in page and 'data-verdict="uneven"' not in page
    # 30 two-player tables, seat 1 (holding the daimyo title, so also the first player) wins 26
    store(
        alice,
        [(["honda", "ii"], ["daimyo", "shomyo"], [1, 2])] * 23 + [(["sakai", "ii"], ["daimyo", "shomyo"], [2, 1])] * 4,
    )
    page, many = page_queries(client, "/games/shitenno/")
    assert many == few  # the balance rides in the stored tally: no query more with more tables
    assert "Seat 1 wins more often than chance would give: p &lt; 0.001." in page
    assert "First player wins more often than chance would give" in page
    assert "Pearson’s χ² test" in page and "50%" in page  # the expected rate of a two-player seat
    dutch = client.get("/games/shitenno/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Plaats 1 wint vaker dan toeval zou geven: p &lt; 0,001." in dutch and "Balance by seat" not in dutch


@pytest.mark.django_db
def test_an_even_seat_record_is_said_to_be_within_chance_with_the_exact_test(client, alice):
    store(
        alice,
        [
            (["honda", "ii", "sakai"], ["daimyo", "shomyo", "sensei"], ranks)
            for ranks in ([1, 2, 3], [2, 1, 3], [3, 2, 1])
        ]
        * 4,
    )  # 12 three-player tables, 4 wins a seat
    page = client.get("/games/shitenno/").content.decode()
    assert "The differences are within what chance gives: p = 1.00." in page
    assert "Exact multinomial test (too few games for the chi-square approximation)." in page
