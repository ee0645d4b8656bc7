"""Editing and deleting leagues and seasons (issue 34), in the API and on the pages: a league's name and games, a
season's name always and its dates and points only while no result is in it; an empty league or season deleted,
one holding results or nights refused with the reason. Only the club's owners and admins: a member gets 403, an
outsider of the private club 404. Every refusal leaves the database as it was."""

import datetime
import json
import re

import pytest
from django.utils.formats import date_format

from games.engines import REGISTRY
from leagues.club import seasons
from leagues.models import AuditEntry, League, Season
from leagues.nights.models import Night
from tests.games.page_form import form_as_left

from ..league_helpers import START, TODAY
from .edit_helpers import season_form, stored

pytestmark = pytest.mark.django_db
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}
LATER = TODAY + datetime.timedelta(days=30)


# --- the API: leagues ---------------------------------------------------------------------------------------------


def test_an_owner_renames_a_league_and_changes_its_games(api, league, alice):
    answer = api.login(alice).patch(
        f"/api/leagues/{league.pk}/", {"name": "Dinsdagcompetitie", "games": ["shitenno", "Chess"]}
    )
    assert answer.status_code == 200
    assert answer.json()["name"] == "Dinsdagcompetitie" and answer.json()["games"] == ["shitenno", "Chess"]
    league.refresh_from_db()
    assert (league.name, league.games, league.slug) == ("Dinsdagcompetitie", ["shitenno", "Chess"], "winter-league")
    entry = AuditEntry.objects.get(action="league.update")
    assert entry.details["before"]["name"] == "Winter league" and entry.details["after"]["games"] == league.games


@pytest.mark.parametrize("name", ["Summer cup", "  summer CUP "])
def test_a_league_cannot_take_the_name_of_another_league_of_the_club(api, club, league, alice, name):
    seasons.league_create(club=club, name="Summer cup", games=["Go"], user=alice)
    before = stored()
    answer = api.login(alice).patch(f"/api/leagues/{league.pk}/", {"name": name})
    assert answer.status_code == 400
    assert answer.json()["errors"]["name"] == ["The club has a league called Summer cup already."]
    assert stored() == before


def test_a_league_of_another_club_may_have_the_same_name(api, league, alice, dave):
    from leagues.club.clubs import club_create

    other = club_create(name="Kyoto", owner=dave)
    seasons.league_create(club=other, name="Summer cup", games=["Go"], user=dave)
    assert api.login(alice).patch(f"/api/leagues/{league.pk}/", {"name": "Summer cup"}).status_code == 200


def test_a_game_that_results_are_of_stays_in_the_league(api, league, alice, played):
    before = stored()
    answer = api.login(alice).patch(f"/api/leagues/{league.pk}/", {"games": ["shitenno"]})
    assert answer.status_code == 409
    assert answer.json()["detail"] == "Go cannot leave the league: results or nights of it are in its seasons."
    assert stored() == before
    answer = api.patch(f"/api/leagues/{league.pk}/", {"games": ["Go", "Chess"]})  # shitenno has no result
    assert answer.status_code == 200 and answer.json()["games"] == ["Go", "Chess"]


def test_a_game_a_night_offers_stays_in_the_league(api, league, season, alice):
    Night.objects.create(season=season, date=TODAY, games=["shitenno"], opened_by=alice)
    before = stored()
    assert api.login(alice).patch(f"/api/leagues/{league.pk}/", {"games": ["Go"]}).status_code == 409
    assert stored() == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "\u202eeugaeL"}, "name"),
        ({"games": []}, "games"),
        ({"slug": "other"}, "slug"),
        ({"name": 7}, "name"),
    ],
)
def test_a_malformed_league_edit_is_a_400_naming_the_field(api, league, alice, body, field):
    before = stored()
    answer = api.login(alice).patch(f"/api/leagues/{league.pk}/", body)
    assert answer.status_code == 400 and field in answer.json()["errors"]
    assert stored() == before


def test_an_empty_league_is_deleted_with_its_empty_seasons(api, league, alice):
    answer = api.login(alice).delete(f"/api/leagues/{league.pk}/")
    assert answer.status_code == 204
    assert not League.objects.exists() and not Season.objects.exists()
    assert AuditEntry.objects.get(action="league.delete").details["name"] == "Winter league"


def test_a_league_whose_season_holds_a_result_is_not_deleted(api, league, alice, played):
    before = stored()
    answer = api.login(alice).delete(f"/api/leagues/{league.pk}/")
    assert answer.status_code == 409
    assert answer.json()["detail"] == "The league cannot be deleted: its seasons hold 1 result."
    assert stored() == before


def test_a_league_whose_season_holds_a_night_is_not_deleted(api, league, season, alice):
    Night.objects.create(season=season, date=TODAY, games=["Go"], opened_by=alice)
    before = stored()
    answer = api.login(alice).delete(f"/api/leagues/{league.pk}/")
    assert answer.status_code == 409 and "1 league night" in answer.json()["detail"]
    assert stored() == before


# --- the API: seasons ---------------------------------------------------------------------------------------------


def test_an_empty_season_changes_its_dates_and_points(api, season, alice):
    body = {
        "name": "Winter 2026-27",
        "starts_on": "2030-01-01",
        "ends_on": "2030-03-31",
        "points_scheme": "custom",
        "custom_points": {"4": [4, 2, 1, 0]},
        "tie_breakers": ["wins"],
        "min_games": 2,
    }
    answer = api.login(alice).patch(f"/api/seasons/{season.pk}/", body)
    assert answer.status_code == 200
    season.refresh_from_db()
    assert (season.name, season.starts_on, season.ends_on) == (
        "Winter 2026-27",
        datetime.date(2030, 1, 1),
        datetime.date(2030, 3, 31),
    )
    assert (season.points_scheme, season.custom_points, season.tie_breakers, season.min_games) == (
        "custom",
        {"4": [4, 2, 1, 0]},
        ["points", "wins"],
        2,
    )
    assert api.get(f"/api/seasons/{season.pk}/").json()["name"] == "Winter 2026-27"


@pytest.mark.parametrize(
    "body",
    [
        {"starts_on": (START - datetime.timedelta(days=1)).isoformat()},
        {"ends_on": TODAY.isoformat()},
        {"points_scheme": "7-5-3-1"},
        {"tie_breakers": ["countback"]},
        {"min_games": 3},
    ],
)
def test_a_season_holding_a_counted_result_keeps_its_dates_and_points(api, season, alice, counted, body):
    before = stored()
    answer = api.login(alice).patch(f"/api/seasons/{season.pk}/", {"name": "Renamed", "confirm": True, **body})
    assert answer.status_code == 409
    assert answer.json()["detail"] == "1 result counts in this season already: its dates and points stay as they are."
    assert stored() == before  # not even the name: a refused request changes nothing


def test_a_season_holding_a_result_is_renamed_and_its_rules_resent_unchanged_pass(api, season, alice, played):
    body = {
        "name": "Winter 2026-27",
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "points_scheme": season.points_scheme,
        "tie_breakers": season.tie_breakers[1:],
    }  # "points" first is what a list without it means
    answer = api.login(alice).patch(f"/api/seasons/{season.pk}/", body)
    assert answer.status_code == 200
    season.refresh_from_db()
    assert season.name == "Winter 2026-27" and season.starts_on == START


def test_a_season_cannot_overlap_another_or_end_before_it_starts(api, league, season, alice):
    other = seasons.season_create(
        league=league, name="2031", starts_on=datetime.date(2031, 1, 1), ends_on=datetime.date(2031, 6, 30), user=alice
    )
    before = stored()
    answer = api.login(alice).patch(f"/api/seasons/{other.pk}/", {"starts_on": TODAY.isoformat()})
    assert answer.status_code == 400
    expected = (
        f"This season overlaps the league's season {season.name} ({date_format(season.starts_on)} to "
        f"{date_format(season.ends_on)})."
    )  # named, with its dates: an import's short season is found
    assert answer.json()["errors"] == {"starts_on": [expected]}
    answer = api.patch(f"/api/seasons/{other.pk}/", {"ends_on": "2030-12-31"})
    assert answer.status_code == 400
    assert answer.json()["errors"] == {"ends_on": ["A season cannot end before it starts."]}
    assert stored() == before


def test_a_seasons_dates_never_leave_one_of_its_nights_outside(api, season, alice):
    Night.objects.create(season=season, date=TODAY, games=["Go"], opened_by=alice)
    before = stored()
    answer = api.login(alice).patch(
        f"/api/seasons/{season.pk}/", {"starts_on": (TODAY + datetime.timedelta(days=1)).isoformat()}
    )
    assert answer.status_code == 409
    assert answer.json()["detail"] == (f"A league night of this season is on {TODAY.isoformat()}, outside those dates.")
    assert stored() == before
    assert api.patch(f"/api/seasons/{season.pk}/", {"ends_on": LATER.isoformat()}).status_code == 200


def test_an_empty_season_is_deleted_and_one_with_results_or_nights_is_not(api, league, season, alice, played):
    empty = seasons.season_create(
        league=league, name="2031", starts_on=datetime.date(2031, 1, 1), ends_on=datetime.date(2031, 6, 30), user=alice
    )
    before = stored()
    answer = api.login(alice).delete(f"/api/seasons/{season.pk}/")
    assert answer.status_code == 409
    assert answer.json()["detail"] == "The season cannot be deleted: it holds 1 result."
    assert stored() == before
    Night.objects.create(season=empty, date=datetime.date(2031, 2, 1), games=["Go"], opened_by=alice)
    answer = api.delete(f"/api/seasons/{empty.pk}/")
    assert answer.status_code == 409 and answer.json()["detail"] == (
        "The season cannot be deleted: it holds 1 league night."
    )
    Night.objects.filter(season=empty).delete()
    assert api.delete(f"/api/seasons/{empty.pk}/").status_code == 204
    assert list(league.seasons.all()) == [season]


# --- the API: who may ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "address", "body"),
    [
        ("patch", "/api/leagues/{league}/", {"name": "Mine"}),
        ("delete", "/api/leagues/{league}/", None),
        ("patch", "/api/seasons/{season}/", {"name": "Mine", "ends_on": "2031-01-01"}),
        ("delete", "/api/seasons/{season}/", None),
    ],
)
def test_a_member_gets_403_an_outsider_404_and_nothing_changes(api, league, season, carol, dave, method, address, body):
    url = address.format(league=league.pk, season=season.pk)
    before = stored()
    for user, expected in ((carol, 403), (dave, 404)):
        api.login(user)
        answer = api.patch(url, body) if method == "patch" else api.delete(url)
        assert answer.status_code == expected, user
    api.client.logout()
    answer = api.patch(url, body) if method == "patch" else api.delete(url)
    assert answer.status_code in (401, 403)
    assert stored() == before


# --- the pages ----------------------------------------------------------------------------------------------------


def test_the_league_page_offers_edit_and_delete_to_its_managers_only(client, league, season, alice, carol):
    client.force_login(alice)
    page = client.get(league.get_absolute_url()).content.decode()
    for address in (
        f"/leagues/{league.pk}/edit/",
        f"/leagues/{league.pk}/delete/",
        f"/seasons/{season.pk}/edit/",
        f"/seasons/{season.pk}/delete/",
    ):
        assert f'href="{address}"' in page, address
    switched = client.get(f"{league.get_absolute_url()}?season={season.pk}", HTTP_HX_REQUEST="true")
    assert f'href="/seasons/{season.pk}/edit/"' in switched.content.decode()  # the season picked by htmx too
    client.force_login(carol)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "/edit/" not in page and "/delete/" not in page


def test_an_owner_edits_the_league_on_its_page(client, league, alice):
    client.force_login(alice)
    shown = form_as_left(client.get(f"/leagues/{league.pk}/edit/").content.decode(), "league-edit")
    assert (shown["name"], shown["engines"], shown["games"]) == ("Winter league", "shitenno", "Go")
    response = client.post(f"/leagues/{league.pk}/edit/", {"name": "Dinsdagcompetitie", "games": "Go, Chess"})
    assert response.status_code == 302 and response.url == league.get_absolute_url()
    league.refresh_from_db()
    assert league.name == "Dinsdagcompetitie" and league.games == ["Go", "Chess"]


def test_the_league_edit_page_refuses_a_taken_name_and_a_used_game_and_changes_nothing(
    client, club, league, alice, played
):
    seasons.league_create(club=club, name="Summer cup", games=["Go"], user=alice)
    client.force_login(alice)
    before = stored()
    response = client.post(f"/leagues/{league.pk}/edit/", {"name": "summer cup", "games": "Go"})
    assert response.status_code == 400 and "The club has a league called Summer cup already." in (
        response.content.decode()
    )
    response = client.post(f"/leagues/{league.pk}/edit/", {"name": "Winter league", "engines": ["shitenno"]})
    assert response.status_code == 409
    assert "Go cannot leave the league" in response.content.decode()
    assert stored() == before


def test_a_season_holding_results_shows_its_dates_and_points_fixed_and_saves_a_new_name(client, season, alice, counted):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/edit/").content.decode()
    assert "1 result counts in this season already: its dates and points stay as they are." in page
    assert 'name="starts_on"' in page and "disabled" in page[page.index('name="starts_on"') - 200 :][:400]
    data = season_form(season, name="Winter 2026-27", starts_on="2030-01-01", points_scheme="percent")
    response = client.post(f"/seasons/{season.pk}/edit/", data)
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Winter 2026-27"  # the disabled fields kept what they were
    assert season.starts_on == START and season.points_scheme == "3-2-1-0"


def test_an_empty_season_changes_its_dates_and_points_on_its_page(client, season, alice):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/edit/").content.decode()
    assert f'value="{season.starts_on.isoformat()}"' in page and "already" not in page
    response = client.post(
        f"/seasons/{season.pk}/edit/",
        season_form(
            season,
            starts_on="2030-01-01",
            ends_on="2030-03-31",
            points_scheme="custom",
            custom_points="3: 5, 2, 0",
            tie_breaker_1="countback",
            tie_breaker_2="",
            tie_breaker_3="",
            tie_breaker_4="",
            tie_breaker_5="",
        ),
    )
    assert response.status_code == 302 and response.url.endswith(f"?season={season.pk}")
    season.refresh_from_db()
    assert (season.starts_on, season.points_scheme, season.custom_points, season.tie_breakers) == (
        datetime.date(2030, 1, 1),
        "custom",
        {"3": [5, 2, 0]},
        ["points", "countback"],
    )


def test_a_season_form_left_as_it_is_changes_nothing(client, season, alice, played):
    """The page's own values, custom points and tie-breakers as the form shows them, read back as no change."""
    client.force_login(alice)
    before = stored()
    assert client.post(f"/seasons/{season.pk}/edit/", season_form(season)).status_code == 302
    assert stored() == before


def test_the_delete_pages_say_why_a_league_or_season_stays_and_delete_an_empty_one(
    client, league, season, alice, played
):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/delete/").content.decode()
    assert "The season cannot be deleted: it holds 1 result." in page and "delete-confirm" not in page
    before = stored()
    response = client.post(f"/seasons/{season.pk}/delete/")
    assert response.status_code == 409 and "it holds 1 result" in response.content.decode()
    response = client.post(f"/leagues/{league.pk}/delete/")
    assert response.status_code == 409 and "its seasons hold 1 result" in response.content.decode()
    assert stored() == before

    empty = seasons.season_create(
        league=league, name="2031", starts_on=datetime.date(2031, 1, 1), ends_on=datetime.date(2031, 6, 30), user=alice
    )
    assert "Delete the season 2031?" in client.get(f"/seasons/{empty.pk}/delete/").content.decode()
    response = client.post(f"/seasons/{empty.pk}/delete/")
    assert response.status_code == 302 and response.url == league.get_absolute_url()
    assert not Season.objects.filter(pk=empty.pk).exists()


def test_an_empty_league_is_deleted_from_its_page(client, club, league, alice):
    client.force_login(alice)
    response = client.post(f"/leagues/{league.pk}/delete/")
    assert response.status_code == 302 and response.url == club.get_absolute_url()
    assert not League.objects.exists()


@pytest.mark.parametrize(
    "address",
    ["/leagues/{league}/edit/", "/leagues/{league}/delete/", "/seasons/{season}/edit/", "/seasons/{season}/delete/"],
)
def test_the_pages_give_a_member_403_and_an_outsider_404_and_change_nothing(
    client, league, season, carol, dave, address
):
    url = address.format(league=league.pk, season=season.pk)
    before = stored()
    body = {"name": "Mine", "games": "Go"} if "/leagues/" in url else season_form(season, name="Mine")
    for user, expected in ((carol, 403), (dave, 404)):
        client.force_login(user)
        assert client.get(url).status_code == expected
        assert client.post(url, body).status_code == expected
    assert stored() == before


def test_the_edit_pages_and_their_refusals_speak_dutch(client, league, season, alice, counted):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/edit/", **DUTCH).content.decode()
    assert "Seizoen bewerken" in page and "1 uitslag telt al mee in dit seizoen" in page
    page = client.post(f"/leagues/{league.pk}/delete/", **DUTCH).content.decode()
    assert "De competitie kan niet worden verwijderd: haar seizoenen bevatten 1 uitslag." in page
    answer = client.patch(
        f"/api/seasons/{season.pk}/",
        json.dumps({"ends_on": TODAY.isoformat()}),
        content_type="application/json",
        **DUTCH,
    )
    assert answer.status_code == 409 and answer.json()["detail"].startswith("1 uitslag telt al mee in dit seizoen")


def test_the_new_league_form_starts_with_no_game_ticked(client, club, alice):
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/leagues/new/").content.decode()
    boxes = re.findall(r'<input type="checkbox" name="engines"[^>]*>', page)
    assert len(boxes) == len(REGISTRY) and not any("checked" in box for box in boxes)
