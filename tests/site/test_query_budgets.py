"""Query budgets (issue 6): each page costs a fixed number of queries, the same with 10 and with 1,000
underlying rows (moves in the log, standings and results, ratings, games of the player).

Rows are made with bulk_create: these tests count queries, they do not play games. With a shared cache
(CACHE_URL, as `make test` sets it) a signed-in client's session is read from it and costs no query.
"""

import datetime

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from games import services as game_services
from games.engines import get_engine
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, Seat, TableSession
from games.plugins import all_games
from leagues.club import seasons
from leagues.common import selectors
from leagues.models import Player, Rating, RatingEvent, Result, ResultEntry, SignOff, Standing
from leagues.notifications.selectors import to_sign_count
from leagues.people.players import player_for_user
from leagues.standings import tally as tally_store

pytestmark = pytest.mark.django_db
SESSION = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1  # the session's query, if it is not cached
BADGE = 1  # the nav's "to sign" count for a signed-in member (issue 39): one query

SIZES = [10, 1000]
TODAY = timezone.localdate()


def _players(n: int, prefix: str = "p") -> list[Player]:
    return Player.objects.bulk_create(Player(name=f"{prefix}{i:04d}") for i in range(n))


def _table(alice, bob, moves: int) -> tuple[TableSession, list[dict]]:
    """A 2-player table whose log holds `moves` entries (every tenth an undo of the move before it); the
    cached state is left at the start so the next legal move can still be posted."""
    setup, legal = random_legal_game(3, 2)
    session = game_services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
    )
    events = [
        MoveEvent(
            session=session,
            seq=seq,
            kind=MoveEvent.Kind.UNDO if seq % 10 == 0 else MoveEvent.Kind.MOVE,
            payload={"undoes": seq - 1} if seq % 10 == 0 else legal[0],
            description=f"move {seq}",
            entered_by=alice,
        )
        for seq in range(1, moves + 1)
    ]
    MoveEvent.objects.bulk_create(events)
    TableSession.objects.filter(pk=session.pk).update(head_seq=moves)
    session.refresh_from_db()
    return session, legal


@pytest.mark.parametrize("rows", SIZES)
def test_the_table_page_costs_the_same_with_a_long_log(client, alice, bob, rows, django_assert_num_queries):
    session, _legal = _table(alice, bob, rows)
    client.force_login(bob)
    with django_assert_num_queries(4 + SESSION + BADGE):
        response = client.get(f"/tables/{session.code}/")
    assert response.status_code == 200 and f"move {rows - 1}" in response.content.decode()


@pytest.mark.parametrize("rows", SIZES)
def test_the_live_fragment_costs_the_same_with_a_long_log(client, alice, bob, rows, django_assert_num_queries):
    session, _legal = _table(alice, bob, rows)
    client.force_login(bob)
    with django_assert_num_queries(5 + SESSION):
        response = client.get(f"/tables/{session.code}/live/?seq={rows - 1}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "<html" not in response.content.decode()
    with django_assert_num_queries(3 + SESSION):  # the body is rendered now: the head, the user, may he write
        again = client.get(f"/tables/{session.code}/live/?seq={rows - 1}", HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and 'name="key"' in again.content.decode()  # a writer's body: his forms
    assert again.content.decode().replace(" ", "") != response.content.decode().replace(" ", "")  # own key, token
    with django_assert_num_queries(1):  # a public table: the viewer is not even read
        unchanged = client.get(f"/tables/{session.code}/live/?seq={rows}", HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204


@pytest.mark.parametrize("rows", SIZES)
def test_a_move_post_costs_the_same_with_a_long_log(api, alice, bob, rows, django_assert_num_queries):
    session, legal = _table(alice, bob, rows)
    api.login(bob)
    # the user (the token's, or the session's), BEGIN, the table found and locked, whether bob (not its creator) is
    # seated, the log entry and the new state in one statement, COMMIT
    with django_assert_num_queries(6 + SESSION):
        response = api.post(f"/api/tables/{session.code}/moves/", {"seq": rows, "move": legal[0]})
    assert response.status_code == 201, response.content
    assert response.json()["event"]["seq"] == rows + 1


def _league(club, alice, bob, carol, rows: int):
    """A season with `rows` standings rows and `rows` results: most counted, some pending or disputed with
    sign-offs (the page lists 20 of those), every result with two entries. The club is public, as most league
    pages read by the crowd are."""
    club.members_public = True
    club.save()
    league = seasons.league_create(club=club, name="Winter league", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="2026",
        starts_on=TODAY - datetime.timedelta(days=60),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    players = _players(rows)
    me = player_for_user(bob)
    Standing.objects.bulk_create(
        Standing(
            season=season, player=p, sort_key=bytes([0]) + (rows - i).to_bytes(8), points=rows - i, games=3, wins=1
        )
        for i, p in enumerate(players)
    )
    statuses = [Result.Status.PENDING, Result.Status.DISPUTED, Result.Status.COUNTED]
    results = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=TODAY - datetime.timedelta(days=i % 50),
            club=club,
            season=season,
            status=statuses[i % 3],
            created_by=alice,
        )
        for i in range(rows)
    )
    ResultEntry.objects.bulk_create(
        entry
        for i, r in enumerate(results)
        for entry in (
            ResultEntry(result=r, player=me, rank=1 + i % 2, score=10),
            ResultEntry(result=r, player=players[i], rank=2 - i % 2, score=5),
        )
    )
    SignOff.objects.bulk_create(
        SignOff(result=r, player=players[i], by=None, agreed=r.status != Result.Status.DISPUTED, note="wrong")
        for i, r in enumerate(results)
        if r.status != Result.Status.COUNTED
    )
    return league, season, players, results


@pytest.mark.parametrize("rows", SIZES)
def test_the_league_page_costs_the_same_with_many_standings_and_results(
    client, club, alice, bob, carol, rows, django_assert_num_queries
):
    league, _season, players, _results = _league(club, alice, bob, carol, rows)
    Rating.objects.bulk_create(
        Rating(kind="league", key=str(league.pk), player=p, mu=25 + i % 7, sigma=8 - i % 5, games=1 + i % 12)
        for i, p in enumerate(players)
    )
    client.force_login(bob)
    # the standings a page at a time: their count, then the page; the league's best ratings (issue 29): one
    with django_assert_num_queries(17 + SESSION + BADGE):
        response = client.get(f"/leagues/{league.pk}/")
    page = response.content.decode()
    assert response.status_code == 200 and "p0000" in page and "Waiting for sign-off" in page
    assert "Ratings in this league" in page and page[page.index('id="league-ratings"') :].count("</tr>") == 1 + min(
        rows, 10
    )  # the heading's row and the best ten


@pytest.mark.parametrize("rows", SIZES)
def test_the_badge_counts_an_organiser_s_guests_in_one_query(club, alice, bob, carol, rows, django_assert_num_queries):
    """The league's other players are guests (no account), so its club's owner signs for them: the header's badge
    counts every result waiting for her (the disputed ones: a dispute she did not make waits for her) as the
    waiting page lists them, in one query however many there are; bob's own games likewise."""
    _league(club, alice, bob, carol, rows)
    disputed = Result.objects.filter(status=Result.Status.DISPUTED).count()
    with django_assert_num_queries(BADGE):
        count = to_sign_count(alice)
    assert count == disputed == len([i for i in range(rows) if i % 3 == 1])
    assert len(selectors.results_waiting_for(alice)[0]) == min(count, selectors.WAITING_SHOWN)
    with django_assert_num_queries(BADGE):
        count = to_sign_count(bob)
    assert count == Result.objects.exclude(status=Result.Status.COUNTED).count()
    with django_assert_num_queries(BADGE):
        count = to_sign_count(carol)  # a member who plays in none and signs for no guest
    assert count == 0


@pytest.mark.parametrize("rows", SIZES)
def test_the_rankings_page_costs_the_same_with_many_ratings(
    client, club, alice, bob, carol, rows, django_assert_num_queries
):
    league, _season, players, _results = _league(club, alice, bob, carol, 1)
    players = _players(rows, prefix="r")
    Rating.objects.bulk_create(
        Rating(kind=kind, key=key, player=p, mu=25 + i % 7, sigma=8 - i % 5, games=1 + i % 4)
        for i, p in enumerate(players)
        for kind, key in (("game", "shitenno"), ("league", str(league.pk)))
    )
    with django_assert_num_queries(4):  # the scopes, the leagues seen, the rows' count, a page of them
        response = client.get(f"/rankings/?scope=league:{league.pk}")
    best = selectors.ratings_list(kind="league", key=str(league.pk)).first().player.name
    assert response.status_code == 200 and best in response.content.decode()


@pytest.mark.parametrize("rows", SIZES)
def test_a_player_page_costs_the_same_with_many_games(client, club, alice, bob, carol, rows, django_assert_num_queries):
    """bob played `rows` counted results (with rating history) and sat at `rows` tables."""
    league, _season, players, results = _league(club, alice, bob, carol, rows)
    me = player_for_user(bob)
    Result.objects.update(status=Result.Status.COUNTED)
    Rating.objects.create(kind="game", key="shitenno", player=me, mu=27, sigma=6, games=rows)
    RatingEvent.objects.bulk_create(
        RatingEvent(
            kind="game",
            key="shitenno",
            result=r,
            player=me,
            played_on=r.played_on,
            mu_before=25 + i % 3,
            sigma_before=8,
            mu_after=26 + i % 3,
            sigma_after=7.9,
        )
        for i, r in enumerate(results)
    )
    state = get_engine("shitenno").initial_state(random_legal_game(3, 2)[0])
    setup = random_legal_game(3, 2)[0]
    sessions = TableSession.objects.bulk_create(
        TableSession(game="shitenno", rules_version="1", setup=setup, state=state, created_by=alice)
        for _ in range(rows)
    )
    Seat.objects.bulk_create(
        seat
        for i, s in enumerate(sessions)
        for seat in (Seat(session=s, position=0, player=me), Seat(session=s, position=1, player=players[i]))
    )
    tally_store.tallies_recount(players=[me.pk, *(p.pk for p in players)])  # the tally jobs' rows
    per_game = sum(1 for game in all_games() if game.player_stats_template)  # each game's section: one query
    # the player; his stored record rows (by club and player count); the names of a page of opponents and of the
    # nemesis; the mark of the seats seen, all games in two queries (their tables' ids, their latest change); the
    # ratings and the rating chart; the places in the latest games; the tables and their seats; the counted games
    # one account alone signed, per game (issue 24: why a game is not in the public rankings). The first time
    # (nothing kept in the cache): a page of the opponents (one row more says whether more follow: no count) and
    # the nemesis from the stored head-to-head, kept under the record rows' ids, and each game's seats, kept under
    # their mark.
    cache.clear()  # "the first time": an earlier test's page may have left sections under the same marks
    with django_assert_num_queries(11 + 2 + per_game):
        client.get(me.get_absolute_url())
    with django_assert_num_queries(11):  # the same tallies and seats: the head-to-head and the sections kept
        response = client.get(me.get_absolute_url())
    page = response.content.decode()
    assert response.status_code == 200 and "Nemesis" in page and "polyline" in page


@pytest.mark.parametrize(
    "pattern",
    [
        "m",
        "mu",
        "mmu",
        "mmuu",
        "mmumu",
        "m" + "mu" * 20,
        "m" * 20 + "u" * 20,
        "m" * 25 + "u" * 20,
        "m" * 30 + "u" * 20 + "m",
        "mmmu" * 10,
    ],
)
def test_the_recent_moves_read_backwards_agree_with_the_whole_log(alice, bob, pattern):
    """The table page reads the log backwards; it finds the same last standing move as a full replay."""
    from games.selectors import effective_moves, session_recent

    session, legal = _table(alice, bob, 0)
    MoveEvent.objects.bulk_create(
        MoveEvent(
            session=session,
            seq=i + 1,
            kind=MoveEvent.Kind.UNDO if c == "u" else MoveEvent.Kind.MOVE,
            payload=legal[0],
            description=str(i + 1),
        )
        for i, c in enumerate(pattern)
    )
    events = list(session.events.order_by("seq"))
    standing = effective_moves(events)
    recent, last = session_recent(session)
    assert [e.seq for e in recent] == [e.seq for e in events[-3:][::-1]]
    assert (last.seq if last else None) == (standing[-1].seq if standing else None)


def test_the_poll_of_a_private_table_still_hides_it_from_outsiders(client, alice, bob, dave):
    """The one-query poll is for public tables; a private one is checked against the viewer as before."""
    session, _legal = _table(alice, bob, 3)
    TableSession.objects.filter(pk=session.pk).update(is_public=False)
    url = f"/tables/{session.code}/live/?seq=3"
    assert client.get(url).status_code == 404
    client.force_login(dave)
    assert client.get(url).status_code == 404
    assert client.get("/tables/no-such-table/live/?seq=3").status_code == 404
    client.force_login(bob)
    assert client.get(url).status_code == 204
    assert client.get(f"/tables/{session.code}/live/?seq=2", HTTP_HX_REQUEST="true").status_code == 200
