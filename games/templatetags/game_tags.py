"""Filters for pages that name games, e.g. the league pages' results: a registered game by its name."""

from django import template

from games import plugins

register = template.Library()


@register.filter
def game_name(slug: str) -> str:
    """ "dice_race" -> "Dice race" (the engine's name); a game the site does not know (a league may count Go) as
    it was entered."""
    return plugins.game_name(slug)


@register.filter
def game_names(slugs: list[str]) -> str:
    """A league's games, by name: "Shitennō, Go"."""
    return ", ".join(game_name(slug) for slug in slugs or [])
