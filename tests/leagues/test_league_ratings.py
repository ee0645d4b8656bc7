"""The league page's ratings (issue 29): the league's best, with the displayed number and its "?", as the rankings
show them, and a link to all of them."""

import pytest

from leagues.club import seasons
from leagues.models import Rating

from .test_league_pages import rated_season

pytestmark = pytest.mark.django_db


def test_the_league_page_shows_its_ratings_with_the_displayed_number(client, club, alice, bob, carol):
    league, _season, _pending = rated_season(club, alice, bob, carol)
    client.force_login(alice)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    section = page[page.index('id="league-ratings"') :]
    best = Rating.objects.filter(kind="league", key=str(league.pk)).order_by("-mu").first()
    number = round(1500 + 24 * (best.mu - 25))
    assert f"<strong>{number}</strong><abbr" in section  # one game: provisional
    assert section.index(best.player.name) < section.index("</table>")
    assert f"/rankings/?scope=league:{league.pk}" in section
    dutch = client.get(f"/leagues/{league.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Speelsterktes in deze competitie" in dutch


def test_a_league_without_ratings_says_so(client, club, alice):
    league = seasons.league_create(club=club, name="New league", games=["shitenno"], user=alice)
    client.force_login(alice)
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Ratings in this league" in page and "No ratings yet." in page[page.index('id="league-ratings"') :]


def test_the_ratings_list_says_it_is_ordered_by_the_cautious_estimate_not_the_number(client, club, alice, carol):
    """Issue 50: a higher number with a wide σ stands below a lower, surer one, and the list says why."""
    from leagues.people.players import player_for_user

    league = seasons.league_create(club=club, name="New league", games=["shitenno"], user=alice)
    for user, mu, sigma in ((alice, 30.0, 4.0), (carol, 27.0, 1.0)):  # cautious: 18 for alice, 24 for carol
        Rating.objects.create(
            kind="league", key=str(league.pk), player=player_for_user(user), mu=mu, sigma=sigma, games=20
        )
    client.force_login(alice)
    section = client.get(f"/leagues/{league.pk}/").content.decode()
    section = section[section.index('id="league-ratings"') :]
    assert section.index(">carol<") < section.index(">alice<")
    assert "Ordered, as the rankings are, by the cautious estimate μ − 3σ" in section
    dutch = client.get(f"/leagues/{league.pk}/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Gerangschikt, net als de ranglijst, op de voorzichtige schatting μ − 3σ" in dutch
