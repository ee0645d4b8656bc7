"""League, rankings and player pages: standings with tie-breakers, sign-offs, ratings with uncertainty."""

import datetime

import pytest

from leagues.club import seasons
from leagues.models import Result
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store

from .league_helpers import enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db


def rated_season(club, alice, bob, carol):
    club.members_public = True  # a public club: anyone may read its leagues, and its games count site-wide
    club.save()
    join(club, bob)
    league, season = league_with_season(club, alice)
    counted = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20), (carol, 3, 10)], days_ago=3), bob, carol)
    pending = enter(season, alice, [(alice, 2, 10), (bob, 1, 20)], days_ago=1)
    rating_store.ratings_apply_result(result=counted)
    standings_store.standings_compute(season=season)
    tally_store.tallies_recount(players=[alice.player.pk, bob.player.pk, carol.player.pk])
    return league, season, pending


def test_the_league_page_shows_standings_recent_games_and_sign_offs(client, club, alice, bob, carol):
    league, season, pending = rated_season(club, alice, bob, carol)
    client.force_login(bob)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Standings: 2026" in page and "Separated by" in page and "points" in page
    assert "Waiting for sign-off" in page and f"/results/{pending.pk}/sign-off/" in page
    fragment = client.get(f"/leagues/{league.pk}/?season={season.pk}", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in fragment and "alice" in fragment
    response = client.post(f"/results/{pending.pk}/sign-off/", {"agreed": "yes"})
    assert response.status_code == 302
    assert Result.objects.get(pk=pending.pk).status == "counted"


def test_a_dispute_is_thanked_as_a_dispute_not_as_a_sign_off(client, club, alice, bob, carol):
    league, _season, pending = rated_season(club, alice, bob, carol)
    client.force_login(bob)
    page = client.post(
        f"/results/{pending.pk}/sign-off/", {"agreed": "no", "note": "wrong score"}, follow=True
    ).content.decode()
    assert "Your dispute is recorded: the club&#x27;s managers settle it." in page
    assert "your sign-off is recorded" not in page
    assert Result.objects.get(pk=pending.pk).status == "disputed"


def test_it_refuses_a_sign_off_from_someone_not_at_the_table(client, club, alice, bob, carol, dave):
    _league, _season, pending = rated_season(club, alice, bob, carol)
    client.force_login(dave)
    client.post(f"/results/{pending.pk}/sign-off/", {"agreed": "yes"})
    assert Result.objects.get(pk=pending.pk).status == "pending"
    assert not pending.sign_offs.filter(player__user=dave).exists()


def test_the_rankings_page_filters_by_scope_and_min_games(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    page = client.get(f"/rankings/?scope=league:{league.pk}").content.decode()
    assert "±" in page and "alice" in page
    fragment = client.get("/rankings/?scope=game:shitenno&min_games=2", HTTP_HX_REQUEST="true").content.decode()
    assert "No ratings yet." in fragment
    assert client.get("/rankings/?scope=nonsense").status_code == 200  # an unknown scope shows the first one
    refused = client.get("/rankings/?min_games=x")  # issue 14: a number that is not one is said, not ignored
    assert refused.status_code == 400 and b"min_games" in refused.content


def test_the_player_page_shows_stats_and_charts(client, club, alice, bob, carol):
    rated_season(club, alice, bob, carol)
    page = client.get(bob.player.get_absolute_url()).content.decode()
    assert "Nemesis" in page and "<svg" in page and "polyline" in page


def test_the_nav_and_club_page_link_leagues(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    assert 'href="/leagues/"' in client.get("/").content.decode()
    assert league.get_absolute_url() in client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Winter league" in client.get("/leagues/").content.decode()


def test_every_league_page_links_the_organisers_page_and_shows_its_seasons_tie_breaker_order(
    client, club, alice, bob, carol
):
    league, season, _pending = rated_season(club, alice, bob, carol)
    later = season.ends_on + datetime.timedelta(days=1)
    seasons.season_create(
        league=league,
        name="Short rules",
        starts_on=later,
        ends_on=later,
        user=alice,
        tie_breakers=["head_to_head", "wins"],
    )
    page = client.get(f"/leagues/{league.pk}/?season={season.pk}").content.decode()
    assert 'href="/leagues/rules/"' in page
    # no margin by default: the league is of Shitennō and Go, whose scores are not one unit (issue 50)
    assert "Order: points, wins, count-back of 1st and 2nd places, opponents' points, head-to-head." in page
    other = league.seasons.get(name="Short rules")
    fragment = client.get(f"/leagues/{league.pk}/?season={other.pk}", HTTP_HX_REQUEST="true").content.decode()
    assert "Order: points, head-to-head, wins." in fragment  # points first: the season did not place them
    dutch = client.get(f"/leagues/{league.pk}/?season={other.pk}", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Hoe de stand wordt berekend" in dutch and "Volgorde:" in dutch


def test_the_organisers_page_explains_each_rule_in_english_and_dutch(client):
    page = client.get("/leagues/rules/").content.decode()
    for words in (
        "3, 1.5, 0 with three",
        "at places 1, 1, 3 nobody is second",
        "exactly two players are level",
        "A player with no scored game comes after every player who has one",
        "listed alphabetically by name",
        "stored as 1, 1, 3",
        "166 2/3",
    ):
        assert words in page, words
    dutch = client.get("/leagues/rules/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    for words in (
        "Hoe een competitiestand wordt berekend",
        "bij plaatsen 1, 1, 3 is niemand tweede",
        "precies twee spelers",
        "Hun rijen staan alfabetisch op naam",
    ):
        assert words in dutch, words
    assert "For club organisers" not in dutch


def test_the_standings_say_no_ranking_threshold_of_0_games_and_no_bare_points_under_names(
    client, club, alice, bob, carol
):
    # Three players on 3, 2 and 1 points: each row is separated from the one above by points alone.
    league, season, _pending = rated_season(club, alice, bob, carol)
    client.force_login(bob)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Ranked from" not in page  # every player is ranked: no "Ranked from 0 games"
    under_names = [part.split("</span>", 1)[0] for part in page.split('<span class="phone-only">')[1:]]
    assert len(under_names) == 3 and not any("points" in said for said in under_names)
    season.min_games = 2
    season.save()
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Ranked from 2 games." in page


@pytest.mark.parametrize("path, made", [("/clubs/", "club"), ("/leagues/", "league")])
def test_the_clubs_and_leagues_pages_list_a_page_and_show_more_brings_the_next(client, alice, monkeypatch, path, made):
    """Issue 46 finding 6: a site of thousands of clubs lists one page of them; "Show more" (htmx) the next rows,
    without JavaScript a plain link to the next page."""
    from leagues.club import clubs as club_services
    from leagues.club import seasons as club_seasons
    from leagues.club import views as club_views
    from leagues.result import views as result_views

    monkeypatch.setattr(club_views, "CLUBS_PAGE", 2)
    monkeypatch.setattr(result_views, "LEAGUES_PAGE", 2)
    for n in range(3):
        club = club_services.club_create(name=f"Club {n}", owner=alice, members_public=True)
        club_seasons.league_create(club=club, name=f"League {n}", games=["shitenno"], user=alice)
    first = client.get(path).content.decode()
    assert f"{made.title()} 0" in first and f"{made.title()} 1" in first and f"{made.title()} 2" not in first
    assert 'href="?page=2"' in first
    more = client.get(path + "?page=2", HTTP_HX_REQUEST="true").content.decode()
    assert f"{made.title()} 2" in more and f"{made.title()} 0" not in more and "<html" not in more
    assert 'class="more"' not in more  # the last page: no further link
