"""Cheap pieces for the rows of long lists (rankings, standings, club members), which pages show 50 at a time: each
row's cost is what makes a page of 50 cost more than a page of 10 (issue 18), so what a row repeats is done here
in plain Python instead of by the template machinery:

- `player_url`: a player's page, from his id, without a `reverse()` per row (its pattern is worked out once);
- `tenths`: a number with one decimal, exactly as `floatformat:1` writes it in the reader's language;
- `separated_by`: what separates a standings row from the row above (partials/separated_by.html, in one call);
- `rating_rows`, `standing_rows`, `member_rows`, `session_rows`, `head_to_head_rows`: a whole page of rankings,
  standings, members, tables or opponents, written as the templates wrote them.
"""

from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache

from django import template
from django.template.defaultfilters import date
from django.urls import get_script_prefix, reverse
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import gettext

register = template.Library()


@register.filter
def points_here(text: str) -> str:
    """Exact points ("12.5", "66 2/3") with the reader's decimal separator: "12,5" on a Dutch page, beside the
    ratings' "28,2" (the API keeps the point: it is read by programs)."""
    return str(text).replace(".", get_format("DECIMAL_SEPARATOR"))


# An id no pattern could mistake: the player's (or table's) page for it, cut around it, gives the URL's two halves
# once. It holds up bench/README.md's row "Issue 18: each page 1,000 / 10 <= 1.5" (bench/pages.py: rankings 1.31,
# the largest, on the merged main): a reverse() costs ~64 us on this machine when busy, the halves ~6 us, and a page
# at 1,000 has 50 rows where the page at 10 has 10: ~2.3 ms more on a ~12 ms page would take rankings to ~1.5.
_SENTINEL = 918273645
_TENTH = Decimal("0.1")


@lru_cache(maxsize=8)
def _player_url_parts(script_prefix: str) -> tuple[str, str]:
    head, _sep, tail = reverse("player_detail", args=[_SENTINEL]).partition(str(_SENTINEL))
    return head, tail


@register.filter
def player_url(player_id) -> str:
    """The player's page, as `Player.get_absolute_url` gives it."""
    head, tail = _player_url_parts(get_script_prefix())
    return f"{head}{int(player_id)}{tail}"


@register.filter
def tenths(value) -> str:
    """`floatformat:1` of a number: rounded half up on its shortest repr, no "-0.0", the language's decimal mark."""
    if value is None or value == "":
        return ""
    rounded = Decimal(repr(float(value))).quantize(_TENTH, rounding=ROUND_HALF_UP)
    if not rounded:
        rounded = abs(rounded)
    return f"{rounded:f}".replace(".", get_format("DECIMAL_SEPARATOR"))


_TIE_BREAKER_NAMES = {
    "points": "points",
    "wins": "wins",
    "countback": "count-back of 1st and 2nd places",
    "opponents_points": "opponents' points",
    "head_to_head": "head-to-head",
    "margin": "average score margin",
}  # as partials/tie_breaker.html names them


def tie_breaker_name(name: str) -> str:
    """A tie-breaker's name in the reader's language, as partials/tie_breaker.html writes it."""
    return gettext(_TIE_BREAKER_NAMES[name]) if name in _TIE_BREAKER_NAMES else name


def _separation(row, first: bool) -> str:
    if row.separated_by:
        return f"<small>{escape(tie_breaker_name(row.separated_by))}</small>"
    if not first and row.ranked:
        return f"<small>{escape(gettext('tied'))}</small>"
    if not row.ranked:
        return f"<small>{escape(gettext('not enough games'))}</small>"
    return ""


@register.simple_tag
def separated_by(row, first: bool) -> str:
    """What separates a standings row from the row above, as partials/separated_by.html writes it."""
    return mark_safe(_separation(row, first))  # noqa: S308 (escaped above)


@register.simple_tag
def rating_rows(page) -> str:
    """The rows of a page of rankings (partials/ranking_body.html): place, player, the displayed rating ("1540?"
    while provisional, leagues/rating/display.py) with μ ± σ (σ after rust) under it, and games, from rows of
    `player_id`, `player__name`, `mu`, `sigma`, `games` and `last_played`."""
    from django.utils import timezone

    from leagues.rating.display import shown

    head, tail = _player_url_parts(get_script_prefix())
    today = timezone.localdate()
    provisional = escape(gettext("provisional"))
    rows = []
    for place, rating in enumerate(page, start=page.start_index()):
        number = shown(rating["mu"], rating["sigma"], rating["games"], rating.get("last_played"), today)
        mark = f'<abbr title="{provisional}">?</abbr>' if number.provisional else ""
        rows.append(
            f'\n    <tr><td>{place}</td><td><a href="{head}{rating["player_id"]}{tail}">'
            f"{escape(rating['player__name'])}</a></td>"
            f"\n      <td><strong>{number.rating}</strong>{mark} <small>({tenths(rating['mu'])} ± "
            f"{tenths(number.sigma)})</small></td>"
            f"\n      <td>{rating['games']}</td></tr>"
        )
    return mark_safe("".join(rows))  # noqa: S308 (names escaped, the rest numbers)


@register.simple_tag
def standing_rows(page) -> str:
    """The rows of a page of a season's table (partials/standing_rows.html)."""
    head, tail = _player_url_parts(get_script_prefix())
    rows = []
    for row in page:
        separation = _separation(row, row.first_in_table)
        # on a phone the column has no heading: a bare "points" (the main order) said nothing; a tie-breaker stays
        on_phone = "" if row.separated_by == "points" else separation
        unranked = "" if row.ranked else ' class="unranked"'
        place = row.position if row.ranked else "–"
        rows.append(
            f"\n    <tr{unranked}>"
            f"\n      <td>{place}</td>"
            f'\n      <td><a href="{head}{row.player_id}{tail}">{escape(row.player.name)}</a>'
            f'\n        <span class="phone-only">{on_phone}</span></td>'
            f"\n      <td>{escape(points_here(row.points_text))}</td><td>{row.games}</td><td>{row.wins}</td>"
            f'\n      <td class="wide-only">{separation}</td>'
            "\n    </tr>"
        )
    return mark_safe("".join(rows))  # noqa: S308 (names and texts escaped, the rest numbers)


@register.simple_tag
def member_rows(page, own_player_id=None, leave_url="") -> str:
    """A page of a club's members as a visitor or a member sees them (partials/member_rows.html without the
    managers' forms): the player, his role and "guest" for a guest, as the managers' rows show them, from rows of
    `player_id`, `player__name`, `player__user_id` and `role`. The viewer's own row (`own_player_id`) carries
    "Leave the club" (`leave_url`, the confirmation page): the only way out."""
    from leagues.models import Membership

    head, tail = _player_url_parts(get_script_prefix())
    # each role's name translated once, not once a row (get_role_display looks the choice up and translates it)
    roles = {value: escape(label) for value, label in Membership.Role.choices}
    leave = (
        f'\n      <a class="button" href="{escape(leave_url)}">{escape(gettext("Leave the club"))}</a>'
        if leave_url
        else ""
    )
    guest = f' <span class="tag">{escape(gettext("guest"))}</span>'

    return mark_safe(
        "".join(  # noqa: S308 (names, roles and the link escaped, the ids numbers)
            f'\n    <li>\n      <a href="{head}{m["player_id"]}{tail}">{escape(m["player__name"])}</a> '
            f'<span class="tag">{roles.get(m["role"], escape(m["role"]))}</span>'
            f"{guest if m.get('player__user_id', 0) is None else ''}"
            f"{leave if own_player_id is not None and m['player_id'] == own_player_id else ''}\n    </li>"
            for m in page
        )
    )


@lru_cache(maxsize=8)
def _table_url_parts(script_prefix: str) -> tuple[str, str]:
    head, _sep, tail = reverse("table_detail", args=[str(_SENTINEL)]).partition(str(_SENTINEL))
    return head, tail


@register.simple_tag
def session_rows(sessions) -> str:
    """A list of tables (games/partials/session_list.html: the player's, the club's, the home page's latest 20 or
    10): each the names at its seats, its status and its day; "No tables yet." for none. The names come as each
    table's `seat_names`, or else from its seats, prefetched with their players; a table marked `settled` (its
    result entered by hand: games.selectors.sessions_settled) is listed as finished."""
    from games.models import TableSession

    head, tail = _table_url_parts(get_script_prefix())
    finished = escape(TableSession.Status.FINISHED.label)
    rows = []
    for session in sessions:
        seated = getattr(session, "seat_names", None)  # leagues.common.selectors.listed_sessions reads the names alone
        if seated is None:
            seated = [seat.player.name for seat in session.seats.all()]
        names = ", ".join(escape(name) for name in seated)
        day = date(template_localtime(session.created_at), "j M Y")
        status = finished if getattr(session, "settled", False) else escape(session.get_status_display())
        rows.append(
            f'\n  <li><a href="{head}{escape(session.code)}{tail}">{names}</a>'
            f"\n    <small>{status} · {escape(day)}</small></li>"
        )
    if not rows:
        rows.append(f"\n<li>{escape(gettext('No tables yet.'))}</li>")
    return mark_safe("".join(rows))  # noqa: S308 (names, codes and labels escaped)


@register.simple_tag
def head_to_head_rows(rows) -> str:
    """A page of the player's opponents (leagues/partials/head_to_head_rows.html): each opponent and the games won
    and lost against him, from rows of {player, won, lost}."""
    head, tail = _player_url_parts(get_script_prefix())
    record = gettext("won %(won)s, lost %(lost)s")
    return mark_safe(
        "".join(  # noqa: S308 (names escaped, the rest numbers)
            f'<li><a href="{head}{row["player"].pk}{tail}">{escape(row["player"].name)}</a>'
            f"\n    <small>{record % {'won': row['won'], 'lost': row['lost']}}</small></li>"
            for row in rows
        )
    )


@register.simple_tag
def player_list_rows(page) -> str:
    """A page of the players list (leagues/partials/player_rows.html): each player's name, "guest" for a guest;
    "No player found." for none."""
    head, tail = _player_url_parts(get_script_prefix())
    guest = f' <span class="tag">{escape(gettext("guest"))}</span>'
    rows = [
        f'\n  <li><a href="{head}{player.pk}{tail}">{escape(player.name)}</a>{guest if player.is_guest else ""}</li>'
        for player in page
    ]
    return mark_safe("".join(rows) or f"\n<li>{escape(gettext('No player found.'))}</li>")  # noqa: S308 (escaped)
