"""Small filters for the table pages: what a phone entered before an illegal move, read back by name."""

from django import template
from django.template.defaultfilters import date
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext

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


@register.simple_tag
def history_rows(rows: list[dict], game) -> str:
    """A part of a table's log (games/partials/history_rows.html) as the template wrote it, row by row, in plain
    Python: the template's per-row work (a filter, a translated sentence with a date) was what made a part of 30
    entries cost half as much again as a part of 10 (issue 18)."""
    undone_note = escape(gettext("(undone)"))
    entered = gettext("entered by %(who)s, %(when)s")
    out = []
    for row in rows:
        event = row["event"]
        words = conditional_escape(in_words(event, game))
        if row["undone"]:
            words = f'<del>{words}</del> <span class="visually-hidden">{undone_note}</span>'
        elif row["is_undo"]:
            words = f"<em>{words}</em>"
        who = (event.entered_by.username if event.entered_by_id else "") or "?"
        by = entered % {"who": escape(who), "when": escape(date(template_localtime(event.created_at), "j M H:i"))}
        css = ("undone" if row["undone"] else "") + (" undo" if row["is_undo"] else "")
        out.append(f'\n  <li class="{css}">\n    <span class="seq">#{event.seq}</span>\n    {words}'
                   f"\n    <small>{by}</small>\n  </li>")
    return mark_safe("".join(out))  # noqa: S308 (the words and names escaped, the rest numbers)
