"""The player page's charts: the rating line has a value axis with round ticks that frame every value, a game
axis and the last value written; recent results are bars labelled with their places; and a player with no
counted game is told why."""

import re

import pytest

from leagues.people import charts
from leagues.people.players import player_for_user

from .test_league_pages import rated_season


def test_the_rating_line_has_round_ticks_framing_every_value():
    line = charts.rating_line([25.0, 27.31, 26.2, 29.05])
    labels = [t["value"] for t in line["value_ticks"]]
    assert labels[0] <= 25.0 and labels[-1] >= 29.05 and len(labels) >= 3
    steps = {round(b - a, 6) for a, b in zip(labels, labels[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (1, 2, 5)
    assert [t["label"] for t in line["game_ticks"]] == [0, 1, 2, 3]
    assert line["last"]["value"] == 29.05 and line["first_value"] == 25.0 and line["games"] == 3
    ys = [float(p.split(",")[1]) for p in line["points"].split()]
    assert all(line["top"] <= y <= line["bottom"] for y in ys)
    assert ys[3] < ys[0]  # a higher rating is drawn higher


def test_a_flat_rating_still_gets_an_axis():
    line = charts.rating_line([25.0])
    assert len(line["value_ticks"]) >= 2 and line["game_ticks"] == [{"x": charts.LEFT, "label": 0}]


def test_many_games_label_the_first_the_last_and_a_few_between():
    ticks = [t["label"] for t in charts.rating_line([25.0 + i % 3 for i in range(31)])["game_ticks"]]
    assert ticks[0] == 0 and ticks[-1] == 30 and len(ticks) <= 7


def test_a_first_place_fills_the_height_and_last_of_three_a_third():
    bars = charts.places_bars([(1, 3), (3, 3), (2, 4)])
    first, third, second = bars["bars"]
    assert first["first"] and not third["first"]
    # With 4 players at most, 1st is 4/4 of the height, 3rd is 2/4, 2nd is 3/4.
    assert first["height"] == pytest.approx(2 * third["height"])
    assert second["height"] == pytest.approx(1.5 * third["height"])
    assert [level["place"] for level in bars["levels"]] == [1, 2, 3, 4]
    assert bars["places"] == "1, 3, 2"
    assert bars["height"] < 150  # three games no longer make a chart ~300 px tall


@pytest.mark.django_db
def test_the_player_page_draws_both_charts_with_axes_and_labels(client, club, alice, bob, carol):
    rated_season(club, alice, bob, carol)
    page = client.get(bob.player.get_absolute_url()).content.decode()
    assert "Rating over time" in page and "Recent results" in page
    assert 'class="axis-labels value-axis"' in page and 'class="bar-label"' in page
    assert "Place 2 of 3" in page  # bob was 2nd of 3 in the counted game
    assert "Rating in Shitenn" in page and " style=" not in page.split('class="player-stats"')[1]


@pytest.mark.django_db
def test_a_player_without_counted_games_is_told_what_counts(client, dave):
    page = client.get(player_for_user(dave).get_absolute_url()).content.decode()
    assert "No counted games yet." in page and "tables outside a club are kept but not counted" in page


@pytest.mark.django_db
def test_in_dutch_the_charts_write_values_with_a_comma_and_coordinates_with_a_point(client, club, alice, bob, carol):
    rated_season(club, alice, bob, carol)
    client.cookies["django_language"] = "nl"
    page = client.get(bob.player.get_absolute_url()).content.decode()
    charts_html = page[page.index('<figure class="chart">') :]
    assert "Speelsterkte door de tijd" in page and "Plaats 2 van 3" in page
    assert not re.search(r'(?:x|y|x1|x2|y1|y2|cx|cy|width|height)="-?\d+,\d', charts_html)
    assert re.search(r'class="value-label"[^>]*>1\d{3}<', charts_html)  # the last displayed rating: whole
    assert re.search(r"<small>\(\d+,\d ± \d+,\d\)</small>", page)  # mu and sigma, as Dutch writes them
