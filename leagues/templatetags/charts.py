"""The player page's charts: `{% rating_line values as line %}`, `{% places_bars places as bars %}`
(leagues/people/charts.py does the geometry) and `game_name`, which names a game by its slug in the reader's
language."""

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from games import plugins
from leagues.people import charts

register = template.Library()


@register.simple_tag
def rating_line(values, band=None) -> dict | None:
    return charts.rating_line(list(values or []), list(band) if band else None)


@register.simple_tag
def places_bars(places) -> dict | None:
    return charts.places_bars(list(places or []))


@register.filter
def game_name(slug: str) -> str:
    return plugins.game_name(slug)


@register.simple_tag
def place_bar_marks(chart) -> str:
    """The bars of `places_bars` as SVG (partials/places_chart.html): each a rectangle with its place as a tooltip
    and written above it. Written here, not by a template loop: 30 bars through the template cost a player page
    with many games a millisecond and more than one with a few (issue 18)."""
    place_of = gettext("Place %(place)s of %(players)s")
    size = chart["label_size"]
    return mark_safe(
        "".join(  # noqa: S308 (numbers and the site's own translated sentence)
            f'<rect class="place-bar{" won" if bar["first"] else ""}" x="{bar["x"]}" y="{bar["y"]}" '
            f'width="{bar["width"]}" height="{bar["height"]}"><title>'
            f"{place_of % {'place': bar['place'], 'players': bar['players']}}</title></rect>"
            f'\n    <text class="bar-label" x="{bar["mid"]}" y="{bar["y"]}" dy="-0.3em" font-size="{size}">'
            f"{bar['place']}</text>"
            for bar in chart["bars"]
        )
    )
