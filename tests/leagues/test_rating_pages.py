"""The displayed rating on the rankings, the player page and the API, and the win chances' API (issue 29)."""

import datetime

import pytest
from django.utils import timezone

from leagues.models import Rating, RatingEvent

from .league_helpers import snapshot
from .test_league_pages import rated_season

pytestmark = pytest.mark.django_db


def test_the_rankings_show_the_displayed_rating_marked_provisional(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    alice_rating = Rating.objects.get(kind="league", key=str(league.pk), player=alice.player)
    page = client.get(f"/rankings/?scope=league:{league.pk}").content.decode()
    number = round(1500 + 24 * (alice_rating.mu - 25))
    assert f"<strong>{number}</strong><abbr" in page  # one game: provisional, "?"
    assert number > 1500


def test_the_rankings_can_hide_who_has_not_played_for_a_while_without_rewriting_a_rating(
    client, club, alice, bob, carol
):
    league, _season, _pending = rated_season(club, alice, bob, carol)  # the counted game was 3 days ago
    before = snapshot()
    assert "alice" in client.get(f"/rankings/?scope=league:{league.pk}&active=90").content.decode()
    RatingEvent.objects.filter(player=alice.player).update(played_on=timezone.localdate() - datetime.timedelta(400))
    page = client.get(f"/rankings/?scope=league:{league.pk}&active=365").content.decode()
    assert "alice" not in page and "bob" in page
    assert "alice" in client.get(f"/rankings/?scope=league:{league.pk}&active=0").content.decode()
    after = snapshot()
    assert after[0] == before[0]  # reading with rust rewrote no rating
    refused = client.get(f"/rankings/?scope=league:{league.pk}&active=-1")
    assert refused.status_code == 400 and b"active" in refused.content


def test_the_player_page_shows_the_number_and_the_chart_its_band(client, club, alice, bob, carol):
    rated_season(club, alice, bob, carol)
    page = client.get(alice.player.get_absolute_url()).content.decode()
    assert 'class="band"' in page and "μ ± 2σ" in page
    rating = Rating.objects.get(kind="game", key="shitenno", player=alice.player)
    assert f"<strong>{round(1500 + 24 * (rating.mu - 25))}</strong>" in page


def test_the_ratings_api_gives_the_displayed_number_beside_mu_and_sigma(api, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    rows = api.get(f"/api/ratings/?league={league.pk}").json()["results"]
    top = rows[0]
    assert {"mu", "sigma", "rating", "rating_low", "rating_high", "provisional", "last_played"} <= set(top)
    assert top["rating"] == round(1500 + 24 * (top["mu"] - 25)) and top["provisional"] is True
    assert top["rating_low"] < top["rating"] < top["rating_high"]


def test_the_chances_api_answers_each_seat_in_order_summing_to_one(api, club, alice, bob, carol, dave):
    rated_season(club, alice, bob, carol)
    ids = [bob.player.pk, alice.player.pk, dave.player.pk]  # dave has no rating: the prior
    answer = api.get(f"/api/games/shitenno/chances/?players={','.join(map(str, ids))}")
    assert answer.status_code == 200
    players = answer.json()["players"]
    assert [p["id"] for p in players] == ids
    assert abs(sum(p["win"] for p in players) - 1) < 1e-9
    alice_seat, dave_seat = players[1], players[2]
    assert alice_seat["win"] > dave_seat["win"] and alice_seat["expected_place"] < dave_seat["expected_place"]
    assert dave_seat["rating"] == 1500 and dave_seat["provisional"] is True


@pytest.mark.parametrize(
    ("players", "says"),
    [
        ("", "Give 2 to 5 players, not 0"),
        ("{a}", "Give 2 to 5 players, not 1"),
        ("{a},{b},{a}", "repeated {a}"),
        ("{a},999999", "No such player: 999999"),
        ("{a},99999999999999999999", "No such player: 99999999999999999999"),  # past the id column: no 500
        ("{a},x", "'x' is not a player id"),
        ("{a},{b},{a},{b},{a},{b}", "not 6"),
    ],
)
def test_the_chances_api_says_what_is_wrong_with_the_players(api, alice, bob, players, says):
    ids = {"a": alice.player.pk, "b": bob.player.pk}
    answer = api.get(f"/api/games/shitenno/chances/?players={players.format(**ids)}")
    assert answer.status_code == 400
    assert says.format(**ids) in answer.json()["errors"]["players"][0]


def test_the_chances_api_refuses_a_player_count_the_game_does_not_allow(api, alice, bob, carol, dave):
    """As the new-table page does (issue 40): five players for a game of two to four is a 400 naming the game's
    counts, while a game that seats five answers."""
    from games.plugins import all_games

    from .test_game_names import _five_players

    ids = ",".join(str(p.pk) for p in _five_players(alice, bob, carol, dave))
    before = snapshot()
    small = next(game for game in all_games() if game.engine.max_players < 5)
    answer = api.get(f"/api/games/{small.slug}/chances/?players={ids}")
    assert answer.status_code == 400
    engine = small.engine
    assert answer.json()["errors"]["players"] == [
        f"{engine.name} is played by {engine.min_players} to {engine.max_players} players, not 5."
    ]
    assert snapshot() == before
    five = next(game for game in all_games() if game.engine.min_players <= 5 <= game.engine.max_players)
    assert api.get(f"/api/games/{five.slug}/chances/?players={ids}").status_code == 200


def test_the_chances_api_refuses_an_unknown_game_and_a_private_league(api, club, alice, bob, dave):
    from .league_helpers import league_with_season

    league, _season = league_with_season(club, alice)
    query = f"players={alice.player.pk},{bob.player.pk}"
    assert api.get(f"/api/games/no-such-game/chances/?{query}").status_code == 404
    api.login(dave)
    assert api.get(f"/api/games/shitenno/chances/?{query}&league={league.pk}").status_code == 404
    api.login(alice)
    assert api.get(f"/api/games/shitenno/chances/?{query}&league={league.pk}").status_code == 200


def test_a_table_page_shows_each_seats_chance_from_the_games_read_together(client, club, alice, bob, carol):
    """An open table: the chances from what its game's games say of the players (one is enough, issue 50: no
    threshold), from the seats' own query."""
    from games import services as game_services
    from games.engines.shitenno.simulation import random_legal_game

    rated_season(club, alice, bob, carol)
    setup, _legal = random_legal_game(3, 2)
    session = game_services.session_create(
        game="shitenno", created_by=alice, players=[alice.player, bob.player], setup=setup
    )
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "Chances" in page and "alice has a" in page and "bob has a" in page
    from leagues.rating.chances import table_chances

    expected = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk])
    assert f"alice has a {round(expected[0].win * 100)}% chance" in page
    # the scope's one counted game is read together already: the note says so
    assert expected[0].read_together and "From this game’s latest results, read together" in page
    assert "From the players’ ratings in this game:" not in page


def test_a_finished_rated_tables_page_says_the_chances_the_players_had_before_it(client, club, alice, bob, carol):
    """A rated result from a table: its page gives the chances from the ratings stored before the game, not the
    ratings after it."""
    from games import services as game_services
    from games.engines.shitenno.simulation import random_legal_game
    from games.models import TableSession
    from leagues.models import Result
    from leagues.rating.chances import table_chances

    rated_season(club, alice, bob, carol)
    counted = Result.objects.get(status=Result.Status.COUNTED)
    setup, _legal = random_legal_game(3, 3)
    session = game_services.session_create(
        game="shitenno", created_by=alice, players=[alice.player, bob.player, carol.player], setup=setup
    )
    TableSession.objects.filter(pk=session.pk).update(status=TableSession.Status.FINISHED)
    Result.objects.filter(pk=counted.pk).update(session=session)
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert "Chances before this game" in page and "alice had a 33% chance" in page  # all three were new then
    now = table_chances(game="shitenno", player_ids=[alice.player.pk, bob.player.pk, carol.player.pk])
    assert round(now[0].win * 100) != 33  # after the game alice, who won it, is favoured


def test_every_reader_of_the_chances_takes_the_scope_s_own_spread_in_the_same_query(
    client, club, alice, bob, carol, django_assert_num_queries
):
    """Issue 40: a game whose own games gave a wide performance spread (b = 40, stored by the rating job) gives
    flatter chances than the fixed b, on the API's selector, a league night's round and the table page, and reading
    it costs no query of its own."""
    from games import services as game_services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues.models import RatingFit
    from leagues.rating import display as rating_display
    from leagues.rating.chances import table_chances, tables_chances

    rated_season(club, alice, bob, carol)
    RatingFit.objects.filter(kind="game", key="shitenno").update(skill_sd=None)  # no posterior: the ratings are read
    ids = [alice.player.pk, bob.player.pk, carol.player.pk]
    stored = [(r.mu, r.sigma) for r in (Rating.objects.get(kind="game", key="shitenno", player_id=p) for p in ids)]
    fixed = table_chances(game="shitenno", player_ids=ids)
    RatingFit.objects.filter(kind="game", key="shitenno").update(performance_sd=40.0)
    wide = [c.win for c in rating_display.chances(stored, 40.0)]
    with django_assert_num_queries(1):
        seats = table_chances(game="shitenno", player_ids=ids)
    assert [s.win for s in seats] == wide and seats[0].win < fixed[0].win  # alice won: less sure of her now
    with django_assert_num_queries(1):
        (round_,) = tables_chances([("shitenno", ids)])
    assert [s.win for s in round_] == wide
    setup, _legal = random_legal_game(3, 3)
    session = game_services.session_create(
        game="shitenno", created_by=alice, players=[alice.player, bob.player, carol.player], setup=setup
    )
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert f"alice has a {round(wide[0] * 100)}% chance" in page
    assert round(wide[0] * 100) != round(fixed[0].win * 100)


def test_every_reader_of_the_chances_reads_the_scope_s_posterior_skills_in_the_same_query(
    client, club, alice, bob, carol, django_assert_num_queries
):
    """Issue 40: a game whose latest games gave posterior skills (stored by the rating job; set here so the reading
    is pinned) has its chances read from them, not from the ratings, on the API's selector, a league night's round
    and an open table's page, in one query each; a player outside those games is new to them (N(0, spread²)); a
    finished table's chances before it still come from the ratings of that day."""
    from games import services as game_services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues.models import RatingFit
    from leagues.rating import display as rating_display
    from leagues.rating.chances import table_chances, tables_chances

    rated_season(club, alice, bob, carol)
    ids = [alice.player.pk, bob.player.pk, carol.player.pk]
    RatingFit.objects.filter(kind="game", key="shitenno").update(skill_sd=None)
    from_ratings = [s.win for s in table_chances(game="shitenno", player_ids=ids)]
    RatingFit.objects.filter(kind="game", key="shitenno").update(skill_sd=0.9)
    Rating.objects.filter(kind="game", key="shitenno").update(chance_mean=None, chance_sd=None)
    Rating.objects.filter(kind="game", key="shitenno", player=bob.player).update(chance_mean=1.2, chance_sd=0.3)
    Rating.objects.filter(kind="game", key="shitenno", player=alice.player).update(chance_mean=-0.4, chance_sd=0.5)
    expected = [c.win for c in rating_display.posterior_chances([(-0.4, 0.5), (1.2, 0.3), None], 0.9)]
    with django_assert_num_queries(1):
        seats = table_chances(game="shitenno", player_ids=ids)
    assert [s.win for s in seats] == expected
    assert seats[1].win > seats[0].win and from_ratings[0] > from_ratings[1]  # alice won the game; bob reads better
    with django_assert_num_queries(1):
        (round_,) = tables_chances([("shitenno", ids)])
    assert [s.win for s in round_] == expected
    setup, _legal = random_legal_game(3, 3)
    session = game_services.session_create(
        game="shitenno", created_by=alice, players=[alice.player, bob.player, carol.player], setup=setup
    )
    page = client.get(f"/tables/{session.code}/").content.decode()
    assert f"bob has a {round(expected[1] * 100)}% chance" in page
    assert seats[0].read_together and "From this game’s latest results, read together" in page
    client.force_login(alice)
    new_table = client.get(
        "/tables/new/chances/",
        {
            "game": "shitenno",
            "players_count": 3,
            "seat0_player": alice.player.pk,
            "seat1_player": bob.player.pk,
            "seat2_player": carol.player.pk,
        },
    ).content.decode()
    assert "read together" in new_table and f"bob has a {round(expected[1] * 100)}% chance" in new_table
