"""The Shitennō page and the player's favourite general: statistics from finished tables' set-ups and outcomes."""

import pytest

from games import selectors, services
from games.engines.shitenno import final_count
from games.engines.shitenno.simulation import random_legal_game
from games.models import Seat, TableSession
from games.plugins import get_game
from games.plugins.shitenno.stats import TableRow, player_shitenno_stats
from leagues.models import Player
from leagues.people.player_record import player_stats
from leagues.people.players import player_for_user
from tests.games.tables import GATES

NO_TILES = {"exchange": 0, "plus_one": 0, "card_taking": 0}


def finished(generals, titles, *, positions, kokus=None, provinces=None, last_titles=None):
    """A set-up and the outcome the final count gives for it: favour from placements, kokus and majorities."""
    n = len(generals)
    setup = {
        "players": [{"general": g} for g in generals],
        "titles": dict(zip(generals, titles, strict=True)),
        "gates": dict(GATES),
    }
    end = {
        "generals": generals,
        "titles": dict(zip(generals, last_titles or titles, strict=True)),
        "favour": [{"positions": p, "title_bonus": 0} for p in positions],
        "provinces": provinces or {},
        "kokus": kokus or [[] for _ in range(n)],
        "troops": [[] for _ in range(n)],
        "tiles": [dict(NO_TILES) for _ in range(n)],
    }
    return setup, final_count(end).to_json()


# --- the pure statistics ---------------------------------------------------------------------------------


def test_it_counts_win_rates_by_general_title_and_seat():
    # Honda (Daimyō, seat 0) wins on placements; Ii (Hatamoto, seat 1) wins the second on a majority.
    first = finished(["honda", "ii"], ["daimyo", "hatamoto"], positions=[20, 10])
    second = finished(
        ["ii", "sakai"], ["hatamoto", "sensei"], positions=[5, 8], provinces={"kanto": [{"seat": 0, "face": "simple"}]}
    )
    stats = get_game("shitenno").stats([TableRow(*first), TableRow(*second)])

    assert stats["tables"] == 2 and stats["seats"] == 4
    by_general = {row["key"]: row for row in stats["by_general"]}
    assert by_general["honda"] == {"key": "honda", "plays": 1, "wins": 1, "win_rate": 1.0}
    assert by_general["ii"]["plays"] == 2 and by_general["ii"]["wins"] == 1 and by_general["ii"]["win_rate"] == 0.5
    assert by_general["sakai"]["wins"] == 0 and "sakakibara" not in by_general
    by_title = {row["key"]: (row["plays"], row["wins"]) for row in stats["by_title"]}
    assert by_title == {"daimyo": (1, 1), "sensei": (1, 0), "hatamoto": (2, 1)}
    by_seat = {row["key"]: (row["plays"], row["wins"]) for row in stats["by_seat"]}
    assert by_seat == {0: (2, 2), 1: (2, 0)}
    assert stats["average_winning_score"] == (20 + 11) / 2 and stats["best_winning_score"] == 20
    assert stats["by_players"] == [{"players": 2, "tables": 2}]


def test_it_splits_favour_into_placements_and_majorities():
    setup, outcome = finished(
        ["honda", "ii"],
        ["daimyo", "shomyo"],
        positions=[4, 2],
        kokus=[[3], []],
        provinces={"kanto": [{"seat": 1, "face": "golden"}]},
    )
    sources = {s["source"]: s for s in get_game("shitenno").stats([TableRow(setup, outcome)])["favour_sources"]}
    # Honda: 4 placements + 3 koku = 7; Ii: 2 placements + 6 majority = 8 and wins.
    assert sources["placements"]["average"] == 3 and sources["majorities"]["average"] == 3
    assert sources["kokus"]["average"] == 1.5 and sources["tiles"]["average"] == 0
    assert sources["majorities"]["winners_average"] == 6 and sources["placements"]["winners_average"] == 2
    assert sources["majorities"]["share"] == pytest.approx(6 / 15)
    assert sum(s["share"] for s in sources.values()) == pytest.approx(1)


def test_it_has_nothing_to_say_without_tables():
    stats = get_game("shitenno").stats([])
    assert stats["tables"] == 0 and stats["by_general"] == [] and stats["average_winning_score"] is None


def test_the_favourite_general_and_title_count_starting_and_last_year_titles():
    a = finished(["honda", "ii"], ["daimyo", "shomyo"], positions=[1, 0])[0]
    b = finished(["honda", "sakai"], ["sensei", "daimyo"], positions=[1, 0])[0]
    c = finished(["sakai", "ii"], ["daimyo", "sensei"], positions=[1, 0])[0]
    mine = player_shitenno_stats([(0, a, ["sensei", "daimyo"]), (0, b, None), (1, c, ["daimyo", "sensei"])])
    assert mine["tables"] == 3
    assert mine["favourite_general"] == "honda" and mine["favourite_general_tables"] == 2
    # Sensei: dealt at b and c, held in the last year of a and c; Daimyō only dealt at a.
    assert mine["title_held_most"] == "sensei" and mine["title_held_most_name"] == "Sensei"
    titles = {row["key"]: (row["starting"], row["last_year"]) for row in mine["titles"]}
    assert titles == {"daimyo": (1, 0), "sensei": (2, 2)}


# --- from the database --------------------------------------------------------------------------------------


def stored(alice, players, setup, outcome, *, is_public=True, state=None, entry="moves", status="finished"):
    session = TableSession.objects.create(
        game="shitenno",
        rules_version="1",
        setup=setup,
        created_by=alice,
        is_public=is_public,
        entry=entry,
        status=status,
        state=state or {"titles": [setup["titles"][p["general"]] for p in setup["players"]]},
        outcome=outcome,
    )
    Seat.objects.bulk_create(Seat(session=session, position=i, player=p) for i, p in enumerate(players))
    return session


@pytest.mark.django_db
def test_the_selector_reads_finished_move_tables_the_viewer_may_see_in_one_query(
    alice, bob, dave, django_assert_num_queries, django_user_model
):
    players = [player_for_user(alice), player_for_user(bob)]
    setup, outcome = finished(["honda", "ii"], ["daimyo", "shomyo"], positions=[9, 3])
    stored(alice, players, setup, outcome)
    stored(alice, players, setup, outcome, is_public=False)
    stored(alice, players, setup, outcome, entry="final_count")
    stored(alice, players, setup, None, status="playing")
    from django.contrib.auth.models import AnonymousUser

    # the first read counts the public tables once and stores their tally (games/stats_store.py)
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 1
    with django_assert_num_queries(1):  # then a visitor's read is the stored tally's one row
        assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 1
    with django_assert_num_queries(2):  # a signed-in reader's adds the private tables they may see, in one query
        assert selectors.game_stats(game="shitenno", viewer=dave)["tables"] == 1
    with django_assert_num_queries(2):
        assert selectors.game_stats(game="shitenno", viewer=bob)["tables"] == 2  # bob sat at the private table


@pytest.mark.django_db
def test_the_game_page_shows_win_rates_and_favour_sources(client, alice, bob):
    setup, outcome = finished(
        ["honda", "ii"], ["daimyo", "shomyo"], positions=[9, 3], provinces={"kanto": [{"seat": 1, "face": "simple"}]}
    )
    stored(alice, [player_for_user(alice), player_for_user(bob)], setup, outcome)
    response = client.get("/games/shitenno/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Win rate by general" in page and "Win rate by starting title" in page and "Win rate by seat" in page
    assert "Honda" in page and "Daimyō" in page and "Majorities" in page and "Kamon placements" in page
    assert "Average winning score" in page
    assert "/games/shitenno/" in client.get("/leagues/").content.decode()
    dutch = client.get("/games/shitenno/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Winstpercentage per generaal" in dutch and "Waar het aanzien vandaan komt" in dutch
    assert "Win rate by general" not in dutch


@pytest.mark.django_db
def test_the_player_page_names_the_favourite_general_and_title(client, alice, bob):
    me, other = player_for_user(alice), player_for_user(bob)
    for generals, titles in ((["honda", "ii"], ["sensei", "daimyo"]), (["honda", "sakai"], ["sensei", "shomyo"])):
        setup, outcome = finished(generals, titles, positions=[5, 1])
        stored(alice, [me, other], setup, outcome)
    stats = player_stats(player=me, viewer=alice)["shitenno"]
    assert stats["favourite_general"] == "honda" and stats["title_held_most"] == "sensei"
    page = client.get(me.get_absolute_url()).content.decode()
    assert "Favourite general" in page and "Honda" in page and "Title held most" in page and "Sensei" in page
    assert player_stats(player=Player.objects.create(name="nobody"), viewer=alice)["shitenno"]["tables"] == 0


# --- simulated games played through the services -------------------------------------------------------------


def play(alice, players, seed):
    setup, moves = random_legal_game(seed, len(players))
    session = services.session_create(game="shitenno", created_by=alice, players=players, setup=setup)
    for seq, move in enumerate(moves):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED
    return session


@pytest.mark.django_db
def test_simulated_games_add_up(alice, bob, carol, dave):
    players = [player_for_user(u) for u in (alice, bob, carol, dave)]
    sessions = [play(alice, players[:n], seed) for seed, n in ((1, 2), (2, 3), (3, 4), (4, 4))]
    stats = selectors.game_stats(game="shitenno", viewer=alice)
    seats = sum(len(s.setup["players"]) for s in sessions)
    assert stats["tables"] == 4 and stats["seats"] == seats == 13
    for group in ("by_general", "by_title", "by_seat"):
        assert sum(row["plays"] for row in stats[group]) == seats
        assert sum(row["wins"] for row in stats[group]) == 4  # one winner a table: ranks are never shared
    played = {}
    for s in sessions:
        for p in s.setup["players"]:
            played[p["general"]] = played.get(p["general"], 0) + 1
    assert {row["key"]: row["plays"] for row in stats["by_general"]} == played
    winners = [next(p["score"] for p in s.outcome["placings"] if p["rank"] == 1) for s in sessions]
    assert stats["average_winning_score"] == pytest.approx(sum(winners) / 4)
    total = sum(p["score"] for s in sessions for p in s.outcome["placings"])
    assert sum(src["average"] for src in stats["favour_sources"]) * seats == pytest.approx(total)
    mine = player_stats(player=players[0], viewer=alice)["shitenno"]
    assert mine["tables"] == 4
    assert sum(row["tables"] for row in mine["generals"]) == 4
    assert sum(row["last_year"] for row in mine["titles"]) == 4  # the final state knows the last year's titles


@pytest.mark.django_db
def test_two_different_sets_of_tables_do_not_share_the_players_statistics(alice, bob):
    """The cache mark was (how many tables, the sum of their ids, the latest change): tables {1, 4, 5} and {2, 3, 5}
    shared it, and the second set was shown the first set's favourite general. The digest of the set tells them
    apart."""
    from django.contrib.auth.models import AnonymousUser
    from django.utils import timezone

    me, other = player_for_user(alice), player_for_user(bob)
    mine = ["honda", "sakai", "sakai", "honda", "ii"]  # the first set's favourite is Honda, the second's Sakai
    tables = []
    for general in mine:
        setup, outcome = finished([general, "sakakibara"], ["daimyo", "shomyo"], positions=[5, 1])
        tables.append(stored(alice, [me, other], setup, outcome))
    first = tables[0].pk
    assert [t.pk - first for t in tables] == [0, 1, 2, 3, 4]  # so that the two sets' ids add up the same
    moment = timezone.now()
    for n, table in enumerate(tables):  # the last one changed last, as in both sets
        TableSession.objects.filter(pk=table.pk).update(updated_at=moment + timezone.timedelta(seconds=n))
    ids = [t.pk for t in tables]

    def shown(public: list[int]) -> str:
        TableSession.objects.filter(pk__in=ids).update(is_public=False)
        TableSession.objects.filter(pk__in=[ids[i] for i in public]).update(is_public=True)
        return player_stats(player=me, viewer=AnonymousUser())["shitenno"]["favourite_general"]

    assert shown([0, 3, 4]) == "honda"
    assert shown([1, 2, 4]) == "sakai"
    assert shown([0, 3, 4]) == "honda"  # and back: each set keeps its own
