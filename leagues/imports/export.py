"""A club's results as a BG Stats-shaped JSON backup and as BGG-shaped plays XML: what `import_plays` reads
back into the same results, ranks, seats and scores (a read; nothing is written)."""

from __future__ import annotations

import json
import uuid
from typing import TextIO
from xml.etree.ElementTree import Element, SubElement, tostring

from django.db.models import Q

from games.engines import REGISTRY
from shitenno_site.spreadsheets import csv_writer

from ..models import Club, Player, Result, ResultEntry

BGG_PAGE = 100  # the XML API's page size; the export writes one file holding every page's plays


def _results(club: Club):
    return (Result.objects.filter(Q(club=club) | Q(season__league__club=club)).distinct()
            .order_by("played_on", "id").prefetch_related("entries__player__user"))


def _score_text(entry) -> str:
    if entry.score_text:
        return entry.score_text
    if entry.score is None:
        return ""
    return str(int(entry.score)) if float(entry.score).is_integer() else repr(entry.score)


def _external_id(result: Result) -> str:
    """A result imported keeps its id (so exporting and importing back finds the same plays); others get one."""
    return result.external_id or f"shitenno-{result.pk}"


def _game_name(slug: str) -> str:
    return REGISTRY[slug].name if slug in REGISTRY else slug


def export_bgstats(club: Club) -> bytes:
    players: dict[int, dict] = {}
    games: dict[str, dict] = {}
    plays = []
    for result in _results(club):
        game = games.setdefault(result.game, {"id": len(games) + 1, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL,
                                                                                           f"game:{result.game}")),
                                              "name": _game_name(result.game), "bggId": 0, "highestWins": True,
                                              "noPoints": False, "cooperative": False})
        scores = []
        for entry in result.entries.all():
            player: Player = entry.player
            ref = players.setdefault(player.pk, {
                "id": len(players) + 1, "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"player:{player.pk}")),
                "name": player.name, "bggUsername": player.user.username if player.user_id else "",
                "isAnonymous": False})
            scores.append({"playerRefId": ref["id"], "score": _score_text(entry), "winner": entry.rank == 1,
                           "rank": entry.rank, "startPlayer": entry.seat == 1, "seatOrder": entry.seat or 0,
                           "newPlayer": False, "team": ""})
        plays.append({"uuid": _external_id(result), "playDate": f"{result.played_on.isoformat()} 00:00:00",
                      "durationMin": 0, "gameRefId": game["id"], "playerScores": scores})
    return json.dumps({"players": list(players.values()), "games": list(games.values()), "plays": plays,
                       "locations": []}, ensure_ascii=False, indent=1).encode()


def export_bgg(club: Club) -> bytes:
    """BGG plays carry no rank: the winners are the players ranked first; the rest keep their order through
    the scores and seats (a round trip gives back the ranks when the scores decided them)."""
    root = Element("plays", {"username": club.slug, "page": "1", "termsofuse":
                             "https://boardgamegeek.com/xmlapi/termsofuse"})
    count = 0
    for result in _results(club):
        external = _external_id(result)
        play_id = external if external.isdigit() else str(result.pk)
        play = SubElement(root, "play", {"id": play_id, "date": result.played_on.isoformat(), "quantity": "1",
                                         "length": "0", "incomplete": "0", "nowinstats": "0", "location": ""})
        SubElement(play, "item", {"name": _game_name(result.game), "objecttype": "thing", "objectid": "0"})
        people = SubElement(play, "players")
        for entry in result.entries.all():
            player = entry.player
            SubElement(people, "player", {
                "username": player.user.username if player.user_id else "", "userid": "0", "name": player.name,
                "startposition": str(entry.seat or ""), "color": "", "score": _score_text(entry), "new": "0",
                "rating": "0", "win": "1" if entry.rank == 1 else "0"})
        count += 1
    root.set("total", str(count))
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + tostring(root, encoding="utf-8")


RESULTS_CSV_HEADER = ["date", "game", "league", "season", "result id", "status", "player", "rank", "score"]


def export_results_csv(club: Club, out: TextIO) -> None:
    """The club's results for spreadsheets, one row per player per result, written to `out` (the club's export page
    and `manage.py export_results_csv` alike)."""
    entries = (
        ResultEntry.objects.filter(Q(result__club=club) | Q(result__season__league__club=club))
        .select_related("result__season__league", "player")
        .order_by("result__played_on", "result_id", "rank", "player__name")
    )
    writer = csv_writer(out)  # text cells that start like a formula are quoted (OWASP)
    writer.writerow(RESULTS_CSV_HEADER)
    for e in entries.iterator(chunk_size=2000):
        season = e.result.season
        writer.writerow([
            e.result.played_on.isoformat(), e.result.game, season.league.name if season else "",
            season.name if season else "", e.result.pk, e.result.status, e.player.name, e.rank,
            "" if e.score is None else e.score,  # a number: the spreadsheet-safe writer leaves it alone
        ])
