"""The player page's charts: `{% rating_line values as line %}`, `{% places_bars places as bars %}` (leagues/charts.py
does the geometry) and `game_name`, which names a game by its slug in the reader's language."""

from django import template

from games.engines import UnknownGame
from games.plugins import get_game
from leagues import charts

register = template.Library()


@register.simple_tag
def rating_line(values):
    return charts.rating_line(list(values or []))


@register.simple_tag
def places_bars(places):
    return charts.places_bars(list(places or []))


@register.filter
def game_name(slug: str) -> str:
    try:
        return get_game(slug).name
    except (UnknownGame, KeyError):
        return slug
