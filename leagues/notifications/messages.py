"""How each kind of message is worded: from the parameters stored with it, in the recipient's language at the time
it is sent (so a message written in one request reads right on a phone set to the other language).

Every message says where and when (issue 47 finding 7): its club, league, the night and the date, so two nights of
one club never read the same and a table says its game, not only "Round 1". A message stored before it kept those
parameters is worded as it was, with what it has."""

from __future__ import annotations

import datetime

from django.utils.formats import date_format
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override, pgettext

from .models import Kind


def _names(names: list[str]) -> str:
    return get_text_list(list(names), pgettext("the last of a list of names", "and"))


def _day(iso: str) -> str:
    return date_format(datetime.date.fromisoformat(iso), "j F")


def place(p: dict) -> str:
    """ "Edo Gamers, Thursday, the night of 26 November, round 2, table 3": the club, the league, the night and
    its table, as far as the message knows them (a result outside any club: "")."""
    parts = [name for name in (p.get("club"), p.get("league")) if name]
    if p.get("night"):
        parts.append(_("the night of %(day)s") % {"day": _day(p["night"])})
    elif p.get("day"):  # a tournament's day ("Edo Gamers, Winter cup, 4 December")
        parts.append(_day(p["day"]))
    if p.get("round") and p.get("table"):
        parts.append(_("round %(round)d, table %(table)d") % {"round": p["round"], "table": p["table"]})
    return ", ".join(parts)


def short_place(p: dict) -> str:
    """ "Edo Gamers, 26 November": the club and the day, for an e-mail's subject."""
    day = p.get("night") or p.get("played_on") or p.get("day")
    return ", ".join(part for part in (p.get("club") or p.get("league"), _day(day) if day else "") if part)


def _your_table(p: dict) -> tuple[str, str]:
    if not p.get("club"):  # a message written before it named its club and night: worded as it was
        title = _("Round %(round)d: table %(table)d") % {"round": p["round"], "table": p["table"]}
        if p.get("with"):
            return title, _("%(game)s, with %(names)s") % {"game": p["game"], "names": _names(p["with"])}
        return title, p["game"]
    if p.get("seat") and p.get("stage") == "final":  # a tournament's final table
        title = _("%(game)s, final, table %(table)d, seat %(seat)d") % {
            "game": p["game"],
            "table": p["table"],
            "seat": p["seat"],
        }
    elif p.get("seat") and p.get("stage") == "semi":  # its semi-final pods
        title = _("%(game)s, semi-final, table %(table)d, seat %(seat)d") % {
            "game": p["game"],
            "table": p["table"],
            "seat": p["seat"],
        }
    elif p.get("seat"):  # a tournament's pod: the seat too (the pod's order is the seating)
        title = _("%(game)s, round %(round)d, table %(table)d, seat %(seat)d") % {
            "game": p["game"],
            "round": p["round"],
            "table": p["table"],
            "seat": p["seat"],
        }
    else:
        title = _("%(game)s, round %(round)d, table %(table)d") % {
            "game": p["game"],
            "round": p["round"],
            "table": p["table"],
        }
    where = place({key: p.get(key) for key in ("club", "league", "night", "day")})
    if p.get("with"):
        return title, _("%(where)s; with %(names)s") % {"where": where, "names": _names(p["with"])}
    return title, where


def _sign_off(p: dict) -> tuple[str, str]:
    if p.get("count"):  # an import: one message for all its plays
        if p.get("club"):
            title = ngettext(
                "%(count)d play imported into %(club)s waits for your sign-off",
                "%(count)d plays imported into %(club)s wait for your sign-off",
                p["count"],
            ) % {"count": p["count"], "club": p["club"]}
        else:
            title = ngettext(
                "%(count)d play imported waits for your sign-off",
                "%(count)d plays imported wait for your sign-off",
                p["count"],
            ) % {"count": p["count"]}
        if p.get("first") and p.get("last") and p["first"] != p["last"]:
            return title, _("Played from %(first)s to %(last)s: see them") % {
                "first": date_format(datetime.date.fromisoformat(p["first"]), "j F Y"),
                "last": date_format(datetime.date.fromisoformat(p["last"]), "j F Y"),
            }
        if p.get("first"):
            return title, _("Played on %(day)s: see them") % {
                "day": date_format(datetime.date.fromisoformat(p["first"]), "j F Y")
            }
        return title, _("See them")
    day = _day(p["played_on"])
    if p.get("reminder"):
        title = _("Still waiting for your sign-off: %(game)s of %(day)s") % {"game": p["game"], "day": day}
    else:
        title = _("%(game)s of %(day)s waits for your sign-off") % {"game": p["game"], "day": day}
    if p.get("for"):  # the guests he signs for (a guest has no account: who added it or an organiser signs)
        guests = _names(p["for"])
        if p.get("with"):
            people = _("for %(guests)s, with %(names)s") % {"guests": guests, "names": _names(p["with"])}
        else:
            people = _("for %(guests)s") % {"guests": guests}
    else:
        people = _("with %(names)s") % {"names": _names(p["with"])} if p.get("with") else ""
    return title, "; ".join(part for part in (place(p), people) if part)


def _dispute(p: dict) -> tuple[str, str]:
    if not p.get("played_on"):  # a message written before it named the result: worded as it was
        return _("%(who)s disputes %(game)s") % {"who": p["by"], "game": p["game"]}, p.get("note", "")
    title = _("%(who)s disputes %(game)s of %(day)s") % {"who": p["by"], "game": p["game"], "day": _day(p["played_on"])}
    where, note = place(p), p.get("note", "")
    if where and note:
        return title, _("%(where)s: “%(note)s”") % {"where": where, "note": note}
    return title, where or note


def _standings(p: dict) -> tuple[str, str]:
    lines = "; ".join(f"{row['place']}. {row['name']} ({row['points']})" for row in p.get("top", []))
    if not p.get("night"):  # written before it named its night
        return _("Tonight's standings: %(league)s") % {"league": p["league"]}, lines
    title = _("Standings of the night of %(day)s: %(league)s") % {"day": _day(p["night"]), "league": p["league"]}
    if p.get("club"):
        return title, _("%(club)s: %(top)s") % {"club": p["club"], "top": lines} if lines else p["club"]
    return title, lines


WORDING = {Kind.YOUR_TABLE: _your_table, Kind.SIGN_OFF: _sign_off, Kind.DISPUTE: _dispute, Kind.STANDINGS: _standings}


def worded(kind: str, payload: dict, language: str) -> dict:
    """{title, body, url} of one message in `language`."""
    with override(language):
        title, body = WORDING[kind](payload)
    return {"title": title, "body": body, "url": payload.get("url", "/")}


def subject_place(payload: dict, language: str) -> str:
    """The club and day an e-mail's subject names ("Edo Gamers, 26 November"), in `language`; "" when the message
    knows neither."""
    with override(language):
        return short_place(payload)
