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
    section = page[page.index('id="league-ratings"'):]
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
    assert "Ratings in this league" in page and "No ratings yet." in page[page.index('id="league-ratings"'):]
