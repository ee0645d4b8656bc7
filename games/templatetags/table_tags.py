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


def _shown_name(user) -> str:
    """The name others see a user by: his player's (issue 34), else his username (an account with no player yet;
    the missing reverse relation is an AttributeError, so getattr's default answers it)."""
    player = getattr(user, "player", None)
    return (player.name if player is not None else "") or user.get_username() or "?"


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
        who = _shown_name(event.entered_by) if event.entered_by_id else "?"
        by = entered % {"who": escape(who), "when": escape(date(template_localtime(event.created_at), "j M H:i"))}
        css = ("undone" if row["undone"] else "") + (" undo" if row["is_undo"] else "")
        out.append(
            f'\n  <li class="{css}">\n    <span class="seq">#{event.seq}</span>\n    {words}'
            f"\n    <small>{by}</small>\n  </li>"
        )
    return mark_safe("".join(out))  # noqa: S308 (the words and names escaped, the rest numbers)


class MoveFormNode(template.Node):
    def __init__(
        self,
        move: template.base.FilterExpression,
        kind: template.base.FilterExpression | None,
        nodelist: template.NodeList,
    ) -> None:
        self.move, self.kind, self.nodelist = move, kind, nodelist

    def render(self, context: template.Context) -> str:
        move = self.move.resolve(context)
        kind = move if self.kind is None else self.kind.resolve(context)
        url = conditional_escape(context.get("move_url", ""))
        with context.push(kind=kind):
            head = context.template.engine.get_template("games/partials/move_head.html").render(context)
            body = self.nodelist.render(context)
        return mark_safe(  # noqa: S308 (the URL and the move escaped, the rest rendered by the template engine)
            f'<form method="post" action="{url}" data-hx-post="{url}" data-hx-target="#table-body" '
            f'data-hx-swap="outerHTML" class="stack" data-move="{conditional_escape(move)}">\n  {head}{body}</form>'
        )


@register.tag
def move_form(parser: template.base.Parser, token: template.base.Token) -> MoveFormNode:
    """`{% move_form "place" %}…{% endmove_form %}`: one move's form on a game's panel, posted to the table's move
    address (`move_url`) by htmx, which swaps the table body; it starts with the hidden fields every move sends
    (games/partials/move_head.html: the CSRF token, the table's version, the idempotency key and the move type,
    or `kind=""` for a form whose buttons name it). Each panel's forms used to repeat all of that."""
    bits = token.split_contents()
    kind = None
    if len(bits) == 3 and bits[2].startswith("kind="):
        kind = parser.compile_filter(bits[2][len("kind=") :])
    elif len(bits) != 2:
        raise template.TemplateSyntaxError('{% move_form %} takes the move type: {% move_form "place" %}')
    nodelist = parser.parse(("endmove_form",))
    parser.delete_first_token()
    return MoveFormNode(parser.compile_filter(bits[1]), kind, nodelist)
