"""A club's results as a BG Stats-shaped JSON backup, as BGG-shaped plays XML and as CSV for spreadsheets: what
`import_plays` reads back into the same results, ranks, seats and scores (a read; nothing is written).

Each export is written as it is read, in pieces of about `PIECE` bytes, from two or three queries whatever the
club's size (issue 46, finding 6: a club of 100,000 entries built its whole file in the request and answered 500
after gunicorn's 30 s): the results and their entries come from two ordered cursors (`.iterator(chunk_size=...)`)
walked side by side, never a prefetch per chunk. People appear under their display names only; the BG Stats
`bggUsername` and the BGG `username` stay empty, since a member's log-in username is not shown to other members
(issue 47, finding 7; docs/api.md), and an import matches a club's members by name just as well.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator
from typing import TextIO
from xml.etree.ElementTree import Element, SubElement, tostring

from django.conf import settings
from django.db.models import F, Q

from games.engines import REGISTRY
from shitenno_site.spreadsheets import csv_writer

from ..models import Club, Result, ResultEntry

BGG_PAGE = 100  # the XML API's page size; the export writes one file holding every page's plays
CHUNK = 2000  # rows fetched from a cursor at a time
PIECE = 64 * 1024  # characters handed to the response at a time: big enough to compress well, small to hold


def _results(club: Club):
    """The club's results, oldest first (a season's league's club or the club itself: forward keys only, so no
    result is met twice)."""
    return Result.objects.filter(Q(club=club) | Q(season__league__club=club)).order_by("played_on", "id")


def _results_with_entries(club: Club) -> Iterator[tuple[Result, list[ResultEntry]]]:
    """Each result with its entries in rank order (the model's order), from two cursors in the same order: two
    queries for any number of results. An entry whose result the first cursor did not see (written between the
    two queries) is passed over."""
    entries = (
        ResultEntry.objects.filter(Q(result__club=club) | Q(result__season__league__club=club))
        .select_related("player")
        .annotate(result_played_on=F("result__played_on"))
        .order_by("result__played_on", "result_id", "rank", "player__name", "id")
        .iterator(chunk_size=CHUNK)
    )
    pending = next(entries, None)
    for result in _results(club).iterator(chunk_size=CHUNK):
        mine = []
        while pending is not None and (pending.result_played_on, pending.result_id) <= (result.played_on, result.pk):
            if pending.result_id == result.pk:
                mine.append(pending)
            pending = next(entries, None)
        yield result, mine


def _pieces(texts: Iterable[str]) -> Iterator[bytes]:
    """`texts` joined into UTF-8 pieces of about PIECE characters (one response write, one gzip flush each)."""
    batch: list[str] = []
    size = 0
    for text in texts:
        batch.append(text)
        size += len(text)
        if size >= PIECE:
            yield "".join(batch).encode()
            batch, size = [], 0
    if batch:
        yield "".join(batch).encode()


def _score_text(entry) -> str:
    if entry.score_text:
        return entry.score_text
    if entry.score is None:
        return ""
    return str(int(entry.score)) if float(entry.score).is_integer() else repr(entry.score)


def _score_number(score: float | None) -> int | float | str:
    """A score as a spreadsheet cell: a whole score as an integer (7, not 7.0), empty when there is none."""
    if score is None:
        return ""
    return int(score) if float(score).is_integer() else score


def _play_uuid(result: Result) -> str:
    """A BG Stats play's `uuid`: an imported play keeps the id it came with (a round trip finds the same plays);
    another gets a real UUID, the same on every export (issue 48 finding 6: it was "shitenno-5", no UUID), made as
    the players' and games' are."""
    return result.external_id or str(uuid.uuid5(uuid.NAMESPACE_URL, f"result:{result.pk}"))


def _external_id(result: Result) -> str:
    """A result imported keeps its id (so exporting and importing back finds the same plays); others get one."""
    return result.external_id or f"shitenno-{result.pk}"


def _bgg_id(slug: str) -> int:
    """The game's BoardGameGeek id where the site has one (settings.GAME_BGG_IDS), else 0: both formats' "none"."""
    return settings.GAME_BGG_IDS.get(slug, 0)


def _game_name(slug: str) -> str:
    return REGISTRY[slug].name if slug in REGISTRY else slug


def _json_at(value, depth: int) -> str:
    """`value` as `json.dumps(..., indent=1)` writes it `depth` levels down in a document."""
    return json.dumps(value, ensure_ascii=False, indent=1).replace("\n", "\n" + " " * depth)


def _bgstats_texts(club: Club) -> Iterator[str]:
    """The plays first, as they are read; the players and games they named after them (a JSON reader does not
    mind the order of the keys, and the two lists are as long as the club's people and games, not its plays)."""
    players: dict[int, dict] = {}
    games: dict[str, dict] = {}
    yield '{\n "plays": ['
    for count, (result, entries) in enumerate(_results_with_entries(club)):
        game = games.setdefault(
            result.game,
            {
                "id": len(games) + 1,
                "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"game:{result.game}")),
                "name": _game_name(result.game),
                "bggId": _bgg_id(result.game),
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
            },
        )
        scores = []
        for entry in entries:
            player = entry.player
            ref = players.setdefault(
                player.pk,
                {
                    "id": len(players) + 1,
                    "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"player:{player.pk}")),
                    "name": player.name,
                    "bggUsername": "",
                    "isAnonymous": False,
                },
            )
            scores.append(
                {
                    "playerRefId": ref["id"],
                    "score": _score_text(entry),
                    "winner": entry.rank == 1,
                    "rank": entry.rank,
                    "startPlayer": entry.seat == 1,
                    "seatOrder": entry.seat or 0,
                    "newPlayer": False,
                    "team": "",
                }
            )
        play = {
            "uuid": _play_uuid(result),
            "playDate": f"{result.played_on.isoformat()} 00:00:00",
            "durationMin": 0,
            "gameRefId": game["id"],
            "playerScores": scores,
        }
        yield ("," if count else "") + "\n  " + _json_at(play, 2)
    yield ("\n ]" if games else "]") + ',\n "players": ' + _json_at(list(players.values()), 1)
    yield ',\n "games": ' + _json_at(list(games.values()), 1) + ',\n "locations": []\n}'


def bgstats_pieces(club: Club) -> Iterator[bytes]:
    """The BG Stats backup (JSON), in pieces for a streamed download."""
    return _pieces(_bgstats_texts(club))


def export_bgstats(club: Club) -> bytes:
    return b"".join(bgstats_pieces(club))


def _bgg_texts(club: Club) -> Iterator[str]:
    """BGG plays carry no rank: the winners are the players ranked first; the rest keep their order through
    the scores and seats (a round trip gives back the ranks when the scores decided them). The root's `total`
    comes first in the file, so the results are counted first (one more query)."""
    root = Element(
        "plays",
        {
            "username": club.slug,
            "page": "1",
            "termsofuse": "https://boardgamegeek.com/xmlapi/termsofuse",
            "total": str(_results(club).count()),
        },
    )
    empty = tostring(root, encoding="unicode")  # <plays ... />: its start tag, escaped as ElementTree does
    yield '<?xml version="1.0" encoding="utf-8"?>\n' + empty.removesuffix(" />") + ">"
    for result, entries in _results_with_entries(club):
        external = _external_id(result)
        play_id = external if external.isdigit() else str(result.pk)
        play = Element(
            "play",
            {
                "id": play_id,
                "date": result.played_on.isoformat(),
                "quantity": "1",
                "length": "0",
                "incomplete": "0",
                "nowinstats": "0",
                "location": "",
            },
        )
        SubElement(
            play,
            "item",
            {"name": _game_name(result.game), "objecttype": "thing", "objectid": str(_bgg_id(result.game))},
        )
        people = SubElement(play, "players")
        for entry in entries:
            SubElement(
                people,
                "player",
                {
                    "username": "",
                    "userid": "0",
                    "name": entry.player.name,
                    "startposition": str(entry.seat or ""),
                    "color": "",
                    "score": _score_text(entry),
                    "new": "0",
                    "rating": "0",
                    "win": "1" if entry.rank == 1 else "0",
                },
            )
        yield tostring(play, encoding="unicode")
    yield "</plays>"


def bgg_pieces(club: Club) -> Iterator[bytes]:
    """The BGG plays (XML), in pieces for a streamed download."""
    return _pieces(_bgg_texts(club))


def export_bgg(club: Club) -> bytes:
    return b"".join(bgg_pieces(club))


RESULTS_CSV_HEADER = ["date", "game", "league", "season", "result id", "status", "player", "rank", "score"]
CSV_BOM = "\ufeff"  # so that Excel reads the download as UTF-8 (Shitennō, not ShitennÅ)


class _Line:
    """A file whose write hands the line back: csv's writer then gives each row's text to the caller."""

    def write(self, text: str) -> str:
        return text


def _results_csv_texts(club: Club) -> Iterator[str]:
    entries = (
        ResultEntry.objects.filter(Q(result__club=club) | Q(result__season__league__club=club))
        .select_related("result__season__league", "player")
        .order_by("result__played_on", "result_id", "rank", "player__name")
    )
    writer = csv_writer(_Line())  # text cells that start like a formula are quoted (OWASP)
    yield writer.writerow(RESULTS_CSV_HEADER)
    for e in entries.iterator(chunk_size=CHUNK):
        season = e.result.season
        yield writer.writerow(
            [
                e.result.played_on.isoformat(),
                e.result.game,
                season.league.name if season else "",
                season.name if season else "",
                e.result.pk,
                e.result.status,
                e.player.name,
                e.rank,
                _score_number(e.score),  # a number: the spreadsheet-safe writer leaves it alone
            ]
        )


def results_csv_pieces(club: Club) -> Iterator[bytes]:
    """The results CSV as the club's page downloads it: with a byte-order mark, in pieces for a streamed download."""
    return _pieces(_with_bom(club))


def _with_bom(club: Club) -> Iterator[str]:
    yield CSV_BOM
    yield from _results_csv_texts(club)


def export_results_csv(club: Club, out: TextIO) -> None:
    """The club's results for spreadsheets, one row per player per result, written to `out` (`manage.py
    export_results_csv`; no byte-order mark, as for a file any program reads)."""
    for text in _results_csv_texts(club):
        out.write(text)
