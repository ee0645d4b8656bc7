"""Issue 50 finding 1: a table that counts in a league shows the chances of the league's ratings, where its result
will count, not the game's (a night's round read "25% to win, 1500?" for players the league page rated 1347-1623);
a table where nobody has a league rating yet reads its game's, and says so; before and after the game alike."""

# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)

import pytest
from django.urls import reverse

from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from games.models import TableSession
from leagues.models import Rating, RatingFit, Result
from leagues.nights import services
from leagues.rating.chances import table_chances, tables_chances
from leagues.result import scope as table_scopes

from .league_helpers import thursday_season  # noqa: F401 (the `season` fixture)
from .test_league_pages import rated_season
from .test_nights import night, regulars  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


def rate(kind, key, player, mu, sigma=2.0, games=30):
    """A rating set by hand, read as it is: the scope's posterior (what its rating job read together) cleared."""
    Rating.objects.update_or_create(
        kind=kind,
        key=key,
        player=player,
        defaults={"mu": mu, "sigma": sigma, "games": games, "chance_mean": None, "chance_sd": None},
    )
    RatingFit.objects.filter(kind=kind, key=key).update(skill_sd=None)


def club_table(club, alice, players):
    setup, _legal = random_legal_game(3, len(players))
    return game_services.session_create(game="shitenno", created_by=alice, players=players, setup=setup, club=club)


def test_a_round_in_a_league_reads_the_league_s_ratings_and_a_table_new_to_it_the_game_s():
    """The selector alone: the same players, rated apart in the league and in the game."""
    from leagues.models import Player

    a, b, c, d = (Player.objects.create(name=n) for n in "abcd")
    rate("league", "7", a, 35.0)
    rate("league", "7", b, 15.0)
    rate("game", "shitenno", a, 15.0)
    rate("game", "shitenno", b, 35.0)
    rate("game", "shitenno", c, 30.0)
    league_table, new_table = tables_chances([("shitenno", [a.pk, b.pk]), ("shitenno", [c.pk, d.pk])], league_id=7)
    assert [s.scope for s in league_table] == ["league", "league"] and league_table[0].win > 0.75
    assert league_table == table_chances(game="shitenno", player_ids=[a.pk, b.pk], league_id=7)
    assert [s.scope for s in new_table] == ["game", "game"] and new_table[0].win > 0.5  # c's game rating
    assert new_table == table_chances(game="shitenno", player_ids=[c.pk, d.pk])
    # outside a league the round reads the game as before
    (game_table,) = tables_chances([("shitenno", [a.pk, b.pk])])
    assert game_table[0].scope == "game" and game_table[0].win < 0.25


def test_a_night_s_proposed_round_shows_the_league_s_chances_and_names_a_table_read_from_the_game(
    client, night, alice, carol, regulars
):
    for user in [alice, carol, *regulars[:4]]:
        services.night_check_in(night=night, user=user)
    league = str(night.season.league_id)
    rate("league", league, carol.player, 40.0)  # the league's best
    rate("game", "shitenno", carol.player, 10.0)  # the game's worst: a private club's games never reach it
    client.force_login(alice)
    client.post(reverse("night_propose", args=[night.pk]))
    page = client.get(
        reverse("night_detail", args=[night.pk]), {"part": "round"}, headers={"HX-Request": "true"}
    ).content.decode()
    from leagues.models import NightRound
    from leagues.nights import selectors as night_selectors

    rows = night_selectors.round_tables(NightRound.objects.get(night=night))
    (with_carol,) = [t["players"] for t in rows if carol.player.pk in t["players"]]
    expected = table_chances(game="shitenno", player_ids=with_carol, league_id=int(league))
    carol_win = round(next(s.win for s in expected if s.player_id == carol.player.pk) * 100)
    assert carol_win > 50 and f"{carol_win}% to win" in page
    note = "Nobody at this table has a rating in this league yet"
    assert page.count(note) == 1  # the other table, read from the game
    dutch = client.get(
        reverse("night_detail", args=[night.pk]),
        {"part": "round"},
        headers={"HX-Request": "true", "Accept-Language": "nl"},
    ).content.decode()
    assert note not in dutch and "Niemand aan deze tafel" in dutch


def test_a_club_table_that_counts_in_a_league_reads_the_league_and_says_which(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    key = str(league.pk)
    rate("league", key, alice.player, 20.0)
    rate("league", key, bob.player, 30.0)
    rate("game", "shitenno", alice.player, 30.0)
    rate("game", "shitenno", bob.player, 20.0)
    session = club_table(club, alice, [alice.player, bob.player])
    assert table_scopes.table_scope(session) == table_scopes.TableScope("league", key, league="Winter league")
    expected = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk], league_id=league.pk)
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert f"alice has a {round(expected[0].win * 100)}% chance" in page and expected[0].win < 0.5
    assert "From the players’ ratings in the league Winter league, where this table counts" in page
    # the same table outside the club reads the game
    TableSession.objects.filter(pk=session.pk).update(club=None)
    session.refresh_from_db()
    assert table_scopes.table_scope(session) == table_scopes.TableScope("game", "shitenno")
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "From the players’ ratings in this game:" in page and "Winter league" not in page


def test_a_league_table_where_nobody_has_a_league_rating_reads_the_game_and_says_so(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    Rating.objects.filter(kind="league", key=str(league.pk)).delete()
    session = club_table(club, alice, [alice.player, bob.player])
    assert table_scopes.table_scope(session) == table_scopes.TableScope(
        "game", "shitenno", league="Winter league", fallback=True
    )
    expected = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk])
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "This table counts in the league Winter league, where nobody at it has a rating yet" in page
    assert f"alice has a {round(expected[0].win * 100)}% chance" in page
    dutch = client.get(f"/tables/{session.code}/", headers={"Accept-Language": "nl"}).content.decode()
    assert "Winter league" in dutch and "nobody at it" not in dutch


def test_a_finished_league_table_s_chances_before_come_from_the_league_s_history(client, club, alice, bob, carol):
    """The counted result of rated_season, moved onto a finished club table: its page reads the league's history
    rows of that game (all three were new to the league then: 33% each), and names the league."""
    league, _season, _pending = rated_season(club, alice, bob, carol)
    counted = Result.objects.get(status=Result.Status.COUNTED)
    session = club_table(club, alice, [alice.player, bob.player, carol.player])
    TableSession.objects.filter(pk=session.pk).update(status=TableSession.Status.FINISHED)
    Result.objects.filter(pk=counted.pk).update(session=session)
    session.refresh_from_db()
    assert table_scopes.table_scope(session).kind == "league"
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "Chances before this game" in page and "alice had a 33% chance" in page
    assert "From the players’ ratings in the league Winter league before it" in page


def test_a_finished_table_keeps_the_chances_it_showed_and_its_page_says_them_after_the_ratings_move(
    client, club, alice, bob, carol
):
    """Issue 50 finding 5: the chances a table showed while it was played are kept on its result when its game ends
    (here read from the league, where it counts), and its page gives those as the chances before the game, however
    the ratings move afterwards (they were read again from the ratings of that day, up to 60 points apart)."""
    import datetime

    from django.utils import timezone

    from leagues.club import seasons
    from leagues.club.clubs import club_join
    from leagues.models import ResultEntry
    from tests.games.teikoku_site.test_results import ATTRITION, MOVES, play

    club_join(token=club.invite_token, user=bob)
    today = timezone.localdate()
    league = seasons.league_create(club=club, name="Teikoku league", games=["teikoku"], user=alice)
    seasons.season_create(
        league=league,
        name="Spring",
        starts_on=today - datetime.timedelta(days=9),
        ends_on=today + datetime.timedelta(days=30),
        user=alice,
    )
    players = [alice.player, bob.player, carol.player]
    for player, mu in zip(players, (35.0, 25.0, 15.0), strict=True):
        rate("league", str(league.pk), player, mu)
    session = game_services.session_create(
        game="teikoku", created_by=alice, setup=ATTRITION, club=club, players=players
    )
    shown = table_chances(game="teikoku", player_ids=[p.pk for p in players], league_id=league.pk)
    assert client.get(f"/tables/{session.code}/").status_code == 200
    play(session, alice, MOVES)
    kept = {e.player_id: (e.win_before, e.place_before) for e in ResultEntry.objects.filter(result__session=session)}
    assert kept == {s.player_id: (s.win, s.expected_place) for s in shown}
    rate("league", str(league.pk), alice.player, 5.0)  # the ratings move after the game: the page does not
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "Chances before this game" in page and f"alice had a {round(shown[0].win * 100)}% chance" in page
    assert "As this table showed them when its game ended" in page
    dutch = client.get(f"/tables/{session.code}/", headers={"Accept-Language": "nl"}).content.decode()
    assert "Zoals deze tafel ze toonde toen het spel afliep" in dutch


def test_the_new_table_page_reads_the_league_the_table_would_count_in_with_the_chosen_club(
    client, club, alice, bob, carol
):
    """Before the table is open (issue 50's leftover): with the club chosen, the chances are the league's, as the
    table's own page will show them; no club, the game's; a club nobody at the table is rated in the league of,
    the game's with the league named; a club that is not the reader's is no club."""
    league, _season, _pending = rated_season(club, alice, bob, carol)
    key = str(league.pk)
    rate("league", key, alice.player, 20.0)
    rate("league", key, bob.player, 30.0)
    rate("game", "shitenno", alice.player, 30.0)
    rate("game", "shitenno", bob.player, 20.0)
    client.force_login(alice)
    seats = {"game": "shitenno", "players_count": "2", "seat0_player": alice.player.pk, "seat1_player": bob.player.pk}
    in_league = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk], league_id=league.pk)
    in_game = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk])
    assert round(in_league[0].win * 100) != round(in_game[0].win * 100)

    page = client.get(reverse("table_new_chances"), {**seats, "club": club.pk}).content.decode()
    assert f"alice has a {round(in_league[0].win * 100)}% chance" in page
    assert "From the players’ ratings in the league Winter league, where this table counts" in page
    dutch = client.get(
        reverse("table_new_chances"), {**seats, "club": club.pk}, HTTP_ACCEPT_LANGUAGE="nl"
    ).content.decode()
    assert "Winter league" in dutch and "where this table counts" not in dutch

    page = client.get(reverse("table_new_chances"), seats).content.decode()
    assert f"alice has a {round(in_game[0].win * 100)}% chance" in page and "Winter league" not in page

    from leagues.models import Club

    other = Club.objects.create(name="Elsewhere", slug="elsewhere")
    page = client.get(reverse("table_new_chances"), {**seats, "club": other.pk}).content.decode()
    assert f"alice has a {round(in_game[0].win * 100)}% chance" in page and "Winter league" not in page

    Rating.objects.filter(kind="league", key=key).delete()
    page = client.get(reverse("table_new_chances"), {**seats, "club": club.pk}).content.decode()
    assert "This table counts in the league Winter league, where nobody at it has a rating yet" in page
    assert f"alice has a {round(in_game[0].win * 100)}% chance" in page
