"""How each kind of message is worded: from the parameters stored with it, in the recipient's language at the time
it is sent (so a message written in one request reads right on a phone set to the other language)."""

from __future__ import annotations

import datetime

from django.utils.formats import date_format
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, override, pgettext

from .models import Kind


def _names(names: list[str]) -> str:
    return get_text_list(list(names), pgettext("the last of a list of names", "and"))


def _your_table(p: dict) -> tuple[str, str]:
    title = _("Round %(round)d: table %(table)d") % {"round": p["round"], "table": p["table"]}
    if p.get("with"):
        body = _("%(game)s, with %(names)s") % {"game": p["game"], "names": _names(p["with"])}
    else:
        body = p["game"]
    return title, body


def _sign_off(p: dict) -> tuple[str, str]:
    if p.get("count"):  # an import: one message for all its plays
        title = ngettext("%(count)d play imported waits for your sign-off",
                         "%(count)d plays imported wait for your sign-off", p["count"]) % {"count": p["count"]}
        return title, _("See them")
    day = _day(p["played_on"])
    if p.get("reminder"):
        title = _("Still waiting for your sign-off: %(game)s of %(day)s") % {"game": p["game"], "day": day}
    else:
        title = _("%(game)s of %(day)s waits for your sign-off") % {"game": p["game"], "day": day}
    if p.get("for"):  # the guests he signs for (a guest has no account: who added it or an organiser signs)
        guests = _names(p["for"])
        if p.get("with"):
            return title, _("for %(guests)s, with %(names)s") % {"guests": guests, "names": _names(p["with"])}
        return title, _("for %(guests)s") % {"guests": guests}
    body = _("with %(names)s") % {"names": _names(p["with"])} if p.get("with") else ""
    return title, body


def _day(iso: str) -> str:
    return date_format(datetime.date.fromisoformat(iso), "j F")


def _where(p: dict) -> str:
    """"Thursday, round 2, table 3", "Thursday" or the club's name: where the result was played."""
    place = p.get("league") or p.get("club") or ""
    if place and p.get("table"):
        return _("%(league)s, round %(round)d, table %(table)d") % {
            "league": place, "round": p["round"], "table": p["table"]}
    return place


def _dispute(p: dict) -> tuple[str, str]:
    if not p.get("played_on"):  # a message written before it named the result: worded as it was
        return _("%(who)s disputes %(game)s") % {"who": p["by"], "game": p["game"]}, p.get("note", "")
    title = _("%(who)s disputes %(game)s of %(day)s") % {"who": p["by"], "game": p["game"],
                                                          "day": _day(p["played_on"])}
    where, note = _where(p), p.get("note", "")
    if where and note:
        return title, _("%(where)s: “%(note)s”") % {"where": where, "note": note}
    return title, where or note


def _standings(p: dict) -> tuple[str, str]:
    title = _("Tonight's standings: %(league)s") % {"league": p["league"]}
    lines = [f"{row['place']}. {row['name']} ({row['points']})" for row in p.get("top", [])]
    return title, "; ".join(lines)


WORDING = {Kind.YOUR_TABLE: _your_table, Kind.SIGN_OFF: _sign_off, Kind.DISPUTE: _dispute,
           Kind.STANDINGS: _standings}


def worded(kind: str, payload: dict, language: str) -> dict:
    """{title, body, url} of one message in `language`."""
    with override(language):
        title, body = WORDING[kind](payload)
    return {"title": title, "body": body, "url": payload.get("url", "/")}
