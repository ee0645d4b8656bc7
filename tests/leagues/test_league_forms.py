"""Club owners and admins create leagues and seasons and enter results through the site's forms; members get
403, outsiders 404, and a refused form says why (400) and writes nothing."""

import datetime

import pytest

from leagues.club.clubs import club_join
from leagues.models import League, Result, Season
from leagues.people.players import player_for_user

from .league_helpers import START, TODAY, league_with_season

pytestmark = pytest.mark.django_db


def season_post(**changes):
    data = {
        "name": "Spring",
        "starts_on": "2030-03-01",
        "ends_on": "2030-05-31",
        "points_scheme": "7-5-3-1",
        "custom_points": "",
        "min_games": "3",
        "tie_breaker_1": "wins",
        "tie_breaker_2": "head_to_head",
        "tie_breaker_3": "",
        "tie_breaker_4": "",
        "tie_breaker_5": "",
        "tie_breaker_6": "",
    }
    data.update(changes)
    return data


def result_post(*rows, game="Go", played_on=None):
    data = {"game": game, "played_on": (played_on or TODAY - datetime.timedelta(days=2)).isoformat()}
    for i, (player, rank, score) in enumerate(rows, start=1):
        score = "" if score is None else score
        data.update({f"player_{i}": str(player.pk), f"rank_{i}": str(rank), f"score_{i}": score})
    return data


# --- leagues ---


def test_an_owner_creates_a_league_from_the_club_page(client, club, alice):
    client.force_login(alice)
    assert f"/clubs/{club.slug}/leagues/new/" in client.get(club.get_absolute_url()).content.decode()
    assert client.get(f"/clubs/{club.slug}/leagues/new/").status_code == 200
    response = client.post(
        f"/clubs/{club.slug}/leagues/new/", {"name": "Autumn cup", "engines": ["shitenno"], "games": "Go, Chess, Go"}
    )
    league = League.objects.get(club=club, name="Autumn cup")
    assert response.status_code == 302 and response.url == league.get_absolute_url()
    assert league.games == ["shitenno", "Go", "Chess"]


def test_an_admin_may_create_a_league_too(client, club, alice, bob):
    from leagues.club.clubs import membership_set_role

    club_join(token=club.invite_token, user=bob)
    membership_set_role(membership=club.memberships.get(player__user=bob), role="admin", user=alice)
    client.force_login(bob)
    response = client.post(f"/clubs/{club.slug}/leagues/new/", {"name": "Bob's league", "games": "Go"})
    assert response.status_code == 302 and League.objects.filter(name="Bob's league").exists()


def test_a_plain_member_gets_403_and_an_outsider_404(client, club, carol, dave):
    client.force_login(carol)
    assert f"/clubs/{club.slug}/leagues/new/" not in client.get(club.get_absolute_url()).content.decode()
    assert client.get(f"/clubs/{club.slug}/leagues/new/").status_code == 403
    assert client.post(f"/clubs/{club.slug}/leagues/new/", {"name": "Carol's", "games": "Go"}).status_code == 403
    client.force_login(dave)
    assert client.post(f"/clubs/{club.slug}/leagues/new/", {"name": "Dave's", "games": "Go"}).status_code == 404
    client.logout()
    assert client.get(f"/clubs/{club.slug}/leagues/new/").status_code == 302  # to the log-in page
    assert not League.objects.exists()


def test_a_league_without_a_name_or_games_is_refused_with_the_reason(client, club, alice):
    client.force_login(alice)
    response = client.post(f"/clubs/{club.slug}/leagues/new/", {"name": "No games", "games": " , "})
    assert response.status_code == 400
    assert "Name at least one game." in response.content.decode()
    response = client.post(f"/clubs/{club.slug}/leagues/new/", {"name": "", "games": "Go"})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    assert not League.objects.exists()


# --- seasons ---


def test_an_owner_creates_a_season_with_its_rules_from_the_league_page(client, club, alice):
    league, _season = league_with_season(club, alice)
    client.force_login(alice)
    page = client.get(league.get_absolute_url()).content.decode()
    assert f"/leagues/{league.pk}/seasons/new/" in page and f"/leagues/{league.pk}/results/new/" in page
    response = client.post(f"/leagues/{league.pk}/seasons/new/", season_post())
    season = Season.objects.get(league=league, name="Spring")
    assert response.status_code == 302 and f"?season={season.pk}" in response.url
    assert (season.starts_on, season.ends_on) == (datetime.date(2030, 3, 1), datetime.date(2030, 5, 31))
    assert season.points_scheme == "7-5-3-1" and season.min_games == 3 and season.custom_points == {}
    assert season.tie_breakers == ["points", "wins", "head_to_head"]  # points first: the form did not place them


def test_a_season_with_custom_points(client, club, alice):
    league, _season = league_with_season(club, alice)
    client.force_login(alice)
    client.post(
        f"/leagues/{league.pk}/seasons/new/",
        season_post(points_scheme="custom", custom_points="4: 4, 2, 1, 0\n3: 4 2 0.5"),
    )
    season = Season.objects.get(league=league, name="Spring")
    assert season.custom_points == {"4": [4, 2, 1, 0], "3": [4, 2, 0.5]}


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"ends_on": "2030-02-01"}, "A season cannot end before it starts."),
        (
            {"starts_on": START.isoformat(), "ends_on": TODAY.isoformat()},
            "This season overlaps the league&#x27;s season",
        ),
        ({"points_scheme": "custom", "custom_points": ""}, "Give points by place for each player count"),
        ({"points_scheme": "custom", "custom_points": "4: 4, 2"}, "Player count 4 needs a list of 4 numbers."),
        ({"custom_points": "four: lots"}, "Write one line per player count"),
        ({"tie_breaker_2": "wins"}, "Use each tie-breaker at most once."),
        ({"min_games": "-1"}, "greater than or equal to 0"),
        ({"points_scheme": "nonsense"}, "Select a valid choice."),
    ],
)
def test_an_unsound_season_is_refused_with_the_reason(client, club, alice, changes, error):
    league, _season = league_with_season(club, alice)
    client.force_login(alice)
    response = client.post(f"/leagues/{league.pk}/seasons/new/", season_post(**changes))
    assert response.status_code == 400
    assert error in response.content.decode()
    assert not Season.objects.filter(name="Spring").exists()


def test_a_member_cannot_create_a_season_or_enter_a_result(client, club, alice, carol, dave):
    league, _season = league_with_season(club, alice)
    client.force_login(carol)
    assert "/seasons/new/" not in client.get(league.get_absolute_url()).content.decode()
    assert client.post(f"/leagues/{league.pk}/seasons/new/", season_post()).status_code == 403
    entries = [(player_for_user(alice), 1, 10), (player_for_user(carol), 2, 5)]
    assert client.post(f"/leagues/{league.pk}/results/new/", result_post(*entries)).status_code == 403
    client.force_login(dave)
    assert client.get(f"/leagues/{league.pk}/results/new/").status_code == 404
    assert Season.objects.count() == 1 and not Result.objects.exists()


# --- results ---


def test_an_owner_enters_a_result_for_any_game_of_the_league(client, club, alice, carol):
    league, season = league_with_season(club, alice)
    client.force_login(alice)
    page = client.get(f"/leagues/{league.pk}/results/new/").content.decode()
    assert "carol" in page and "shitenno" in page
    me, her = player_for_user(alice), player_for_user(carol)
    response = client.post(f"/leagues/{league.pk}/results/new/", result_post((me, 2, 3.5), (her, 1, None)))
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.game == "Go" and result.season == season and result.created_by == alice
    assert [(e.player, e.rank, e.score) for e in result.entries.all()] == [(her, 1, None), (me, 2, 3.5)]
    assert result.status == "pending"  # carol signs it off on the league page
    assert f"/results/{result.pk}/sign-off/" not in client.get(response.url).content.decode()
    client.force_login(carol)
    assert f"/results/{result.pk}/sign-off/" in client.get(league.get_absolute_url()).content.decode()


@pytest.mark.parametrize(
    ("case", "error", "field"),
    [
        ("one player", "A game needs at least two players.", None),
        ("twice", "A player can appear only once.", None),
        ("no place", "Give this player&#x27;s place.", "rank_2"),
        ("place too far", "Ranks go from 1 to the number of players.", None),
        ("future", "The game cannot be in the future.", None),
        ("no season", "No season of this league runs on this date.", None),
        ("not a member", "Select a valid choice.", "player_2"),
        ("unknown game", "Select a valid choice.", "game"),
    ],
)
def test_an_unsound_result_is_refused_with_the_reason(client, club, alice, carol, dave, case, error, field):
    league, _season = league_with_season(club, alice)
    client.force_login(alice)
    me, her, outsider = player_for_user(alice), player_for_user(carol), player_for_user(dave)
    data = {
        "one player": result_post((me, 1, None)),
        "twice": result_post((me, 1, None), (me, 2, None)),
        "no place": result_post((me, 1, None), (her, 1, None)) | {"rank_2": ""},
        "place too far": result_post((me, 1, None), (her, 3, None)),
        "future": result_post((me, 1, None), (her, 2, None), played_on=TODAY + datetime.timedelta(days=1)),
        "no season": result_post((me, 1, None), (her, 2, None), played_on=START - datetime.timedelta(days=1)),
        "not a member": result_post((me, 1, None), (outsider, 2, None)),
        "unknown game": result_post((me, 1, None), (her, 2, None), game="Chess"),
    }[case]
    response = client.post(f"/leagues/{league.pk}/results/new/", data)
    assert response.status_code == 400
    assert error in response.content.decode()
    if field:
        assert field in response.context["form"].errors
    assert not Result.objects.exists()


# --- the season form's defaults ---


@pytest.mark.parametrize("language", ["en", "nl"])  # a date field's value is ISO in any language (or it shows empty)
def test_a_new_season_starts_today_ends_in_three_months_and_does_not_repeat_points_as_a_tie_breaker(
    client, club, alice, language
):
    from django.utils import timezone

    from leagues.common.forms import months_later
    from leagues.standings import DEFAULT_TIE_BREAKERS
    from tests.games.page_form import form_as_left

    league = League.objects.create(club=club, name="Cup", games=["Go"])
    client.force_login(alice)
    url = f"/leagues/{league.pk}/seasons/new/"
    page = client.get(url, headers={"Accept-Language": language}).content.decode()
    assert f'lang="{language}"' in page
    today = timezone.localdate()
    data = form_as_left(page, "stack")
    assert data["starts_on"] == today.isoformat() and data["ends_on"] == months_later(today, 3).isoformat()
    assert data["tie_breaker_1"] == "wins" and data["tie_breaker_6"] == ""
    data["name"] = "Now"
    assert client.post(url, data).status_code == 302  # the defaults as left: the usual order is stored
    assert Season.objects.get(league=league).tie_breakers == list(DEFAULT_TIE_BREAKERS)


@pytest.mark.parametrize(
    ("day", "later"),
    [
        (datetime.date(2026, 11, 26), datetime.date(2027, 2, 26)),
        (datetime.date(2026, 11, 30), datetime.date(2027, 2, 28)),  # no 30 February: its last day
        (datetime.date(2027, 11, 30), datetime.date(2028, 2, 29)),
        (datetime.date(2026, 1, 31), datetime.date(2026, 4, 30)),
    ],
)
def test_three_months_later_is_the_same_day_or_the_months_last(day, later):
    from leagues.common.forms import months_later

    assert months_later(day, 3) == later
