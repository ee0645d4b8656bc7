"""Small filters for the table pages: what a phone entered before an illegal move, read back by name."""

from django import template

register = template.Library()


@register.filter
def got(entered: dict, key: str) -> list[str]:
    """Every value entered under `key` (a checkbox group, a multi-select)."""
    return entered.get(key, []) if isinstance(entered, dict) else []


@register.filter
def got1(entered: dict, key: str) -> str:
    """The first value entered under `key`, or ""."""
    values = got(entered, key)
    return values[0] if values else ""


@register.filter
def percent(value: int, total: int) -> int:
    return round(100 * value / total) if total else 0


@register.filter
def in_words(event, game) -> str:
    """A log entry (a MoveEvent) in the reader's language, through its game's catalogue (games/phrases.py)."""
    return game.say(getattr(event, "phrase", None), event.description) if game else event.description
