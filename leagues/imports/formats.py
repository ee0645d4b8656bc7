"""BG Stats export JSON and BoardGameGeek plays XML, read into one shape: no database, no models.

Every refusal is an `ImportRefused` naming the file and the place in it, raised before anything is written, in the
reader's language (Django's gettext: the place itself, "plays[3].playerScores[1].score", is the file's own words).
"""

from __future__ import annotations

import bisect
import datetime
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException
from django.utils import timezone
from django.utils.translation import gettext as _

from shitenno_site.validation import name_problem, text_problem

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element  # the parsed tree's type; parsing itself goes through defusedxml

MAX_BYTES = 20 * 1024 * 1024  # a BG Stats backup of a decade of plays is a few MB; a 100 MB file is refused
EARLIEST = datetime.date(1900, 1, 1)
MAX_PLAYERS = 100  # players at one play: no board game seats more; a wide play made the preview slow (issue 36)
MAX_RESULTS = 100_000  # results an import writes; the job must end within its time limit (docs/import.md)
MAX_SEATS = 600_000  # players' places over all its results (100,000 plays of 6): the job's time follows them
SOURCE_BGSTATS = "bgstats"
SOURCE_BGG = "bgg"


class ImportRefused(ValueError):
    """The file cannot be imported; the message says what and where."""


@dataclass(frozen=True)
class SourcePlayer:
    key: str  # the file's own reference to the person
    name: str
    bgg_username: str = ""


@dataclass(frozen=True)
class SourceEntry:
    player: str  # SourcePlayer.key
    score_text: str = ""
    rank: int | None = None
    winner: bool = False
    seat: int | None = None
    team: str = ""


@dataclass(frozen=True)
class SourceGame:
    name: str
    bgg_id: int | None = None
    highest_wins: bool = True


@dataclass(frozen=True)
class SourcePlay:
    external_id: str
    played_on: datetime.date
    game: SourceGame
    entries: tuple[SourceEntry, ...]
    quantity: int = 1
    incomplete: bool = False


@dataclass
class Source:
    """What the files hold, in file order."""

    kind: str
    players: dict[str, SourcePlayer] = field(default_factory=dict)
    plays: list[SourcePlay] = field(default_factory=list)


def _check_bytes(data: bytes, name: str) -> None:
    if len(data) > MAX_BYTES:
        raise ImportRefused(
            _("%(name)s: the file is %(mb).0f MB; at most %(max)d MB a file.")
            % {"name": name, "mb": len(data) / 1024 / 1024, "max": MAX_BYTES // 1024 // 1024}
        )
    if not data.strip():
        raise ImportRefused(_("%(name)s: the file is empty.") % {"name": name})
    nul = data.find(b"\0")
    if nul >= 0:
        raise ImportRefused(
            _("%(name)s: a NUL byte at byte %(at)d; this is not a text export.") % {"name": name, "at": nul}
        )


def _check_players(count: int, where: str) -> None:
    if count > MAX_PLAYERS:
        raise ImportRefused(
            _("%(where)s: %(count)d players at one play; at most %(max)d.")
            % {"where": where, "count": count, "max": MAX_PLAYERS}
        )


def seats_of(source: Source) -> int:
    """The players' places an import would write (a play of quantity n counted n times): its job's size."""
    return sum(play.quantity * len(play.entries) for play in source.plays)


def check_results(source: Source) -> None:
    """An import writes at most MAX_RESULTS results (a play of quantity n is n) and MAX_SEATS players' places,
    so its job ends within its time limit (docs/import.md): counted before any plan."""
    total = sum(play.quantity for play in source.plays)
    if total > MAX_RESULTS:
        raise ImportRefused(
            _(
                "The files hold %(total)d plays (a play of quantity n counted n times); at most "
                "%(max)d an import: import them in parts."
            )
            % {"total": total, "max": MAX_RESULTS}
        )
    seats = seats_of(source)
    if seats > MAX_SEATS:
        raise ImportRefused(
            _(
                "The files hold %(seats)d players' places over all their plays; at most %(max)d an "
                "import: import them in parts."
            )
            % {"seats": seats, "max": MAX_SEATS}
        )


def _date(text: object, where: str, today: datetime.date) -> datetime.date:
    if not isinstance(text, str):
        raise ImportRefused(_("%(where)s: the date is missing.") % {"where": where})
    try:
        played_on = datetime.date.fromisoformat(text.strip()[:10])
    except ValueError:
        raise ImportRefused(
            _("%(where)s: %(text)r is not a date (YYYY-MM-DD).") % {"where": where, "text": text[:40]}
        ) from None
    if not EARLIEST <= played_on <= today:
        raise ImportRefused(
            _("%(where)s: the date %(date)s is out of range (%(first)s to today).")
            % {"where": where, "date": played_on.isoformat(), "first": EARLIEST.isoformat()}
        )
    return played_on


def _int(value: object, where: str, *, positive: bool = False) -> int | None:
    """An optional whole number; 0 or empty is "not given" where the formats use it so."""
    if value in (None, ""):
        return None
    if isinstance(value, bool):
        raise ImportRefused(_("%(where)s: %(value)r is not a whole number.") % {"where": where, "value": value})
    try:
        number = int(str(value).strip())
    except ValueError:
        raise ImportRefused(
            _("%(where)s: %(value)r is not a whole number.") % {"where": where, "value": str(value)[:40]}
        ) from None
    if number < 0 or number > 10**6:
        raise ImportRefused(_("%(where)s: %(number)d is out of range.") % {"where": where, "number": number})
    return (number or None) if positive else number


def _text(value: object, where: str, limit: int = 200, *, name: bool = False) -> str:
    """A text of the file, refused with its place when the site's one rule for text (or, for a `name` shown to
    others, for names) refuses it: a NUL, a lone surrogate (also JSON-escaped, "\\ud800"), a direction or other
    control character (shitenno_site.validation)."""
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ImportRefused(
            _("%(where)s: expected text, found %(type)s.") % {"where": where, "type": type(value).__name__}
        )
    text = str(value).strip()
    problem = text_problem(text) or (name_problem(text) if name and text else None)
    if problem:
        raise ImportRefused(f"{where}: {problem}")
    return text[:limit]


def _loose_id(value: object) -> int | None:
    """An id of the file the site only matches on (a game's `bggId`, an item's `objectid`): a whole number of
    any size, or nothing; never a reason to refuse the file."""
    text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
    return int(text) if text.isdigit() and len(text) <= 18 and int(text) > 0 else None


def numeric_score(text: str) -> float | None:
    """A score that is a plain number decides ranks; anything else ("3+20+5", "won on time") keeps its text."""
    try:
        number = float(text)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


# --- BG Stats ---


def _list(data: dict, key: str, where: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ImportRefused(
            _("%(where)s: '%(key)s' should be a list, found %(type)s.")
            % {"where": where, "key": key, "type": type(value).__name__}
        )
    return value


def _object(value: object, where: str) -> dict:
    if not isinstance(value, dict):
        raise ImportRefused(
            _("%(where)s: expected an object, found %(type)s.") % {"where": where, "type": type(value).__name__}
        )
    return value


def _bgstats_root(data: bytes, name: str) -> dict:
    """The backup's top object, once the bytes are UTF-8 JSON holding a `plays` list."""
    _check_bytes(data, name)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportRefused(_("%(name)s: not UTF-8 text (byte %(at)d).") % {"name": name, "at": error.start}) from None
    if text.lstrip().startswith("<"):
        raise ImportRefused(
            _("%(name)s: this looks like XML; a BG Stats export is JSON (try the BGG format).") % {"name": name}
        )
    try:
        root = json.loads(text)
    except RecursionError:
        raise ImportRefused(
            _("%(name)s: the JSON is nested too deeply to be a BG Stats export.") % {"name": name}
        ) from None
    except json.JSONDecodeError as error:
        early = error.pos >= len(text.rstrip()) or error.msg.startswith("Unterminated")
        ending = _(" (the file ends early: truncated?)") if early else ""
        raise ImportRefused(
            _("%(name)s: not valid JSON at line %(line)d, column %(column)d: %(error)s%(ending)s.")
            % {"name": name, "line": error.lineno, "column": error.colno, "error": error.msg, "ending": ending}
        ) from None
    if not isinstance(root, dict) or "plays" not in root:
        raise ImportRefused(_("%(name)s: not a BG Stats export (no 'plays' list at the top).") % {"name": name})
    return root


def _bgstats_players(root: dict, name: str) -> dict[str, SourcePlayer]:
    """The file's players by their `id` (a play's `playerRefId`); keyed for the import by their uuid."""
    players: dict[str, SourcePlayer] = {}
    for i, raw in enumerate(_list(root, "players", name)):
        where = f"{name}: players[{i}]"
        raw = _object(raw, where)
        ref = _text(raw.get("id"), f"{where}.id")
        if not ref:
            raise ImportRefused(_("%(where)s: the player has no id.") % {"where": where})
        player_name = _text(raw.get("name"), f"{where}.name", 80, name=True) or f"Player {ref}"
        players[ref] = SourcePlayer(
            key=f"bgstats:{_text(raw.get('uuid'), f'{where}.uuid') or ref}",
            name=player_name,
            bgg_username=_text(raw.get("bggUsername"), f"{where}.bggUsername", 80),
        )
    return players


def _bgstats_games(root: dict, name: str) -> dict[str, SourceGame]:
    """The file's games by their `id` (a play's `gameRefId`)."""
    games: dict[str, SourceGame] = {}
    for i, raw in enumerate(_list(root, "games", name)):
        where = f"{name}: games[{i}]"
        raw = _object(raw, where)
        ref = _text(raw.get("id"), f"{where}.id")
        if not ref:
            raise ImportRefused(_("%(where)s: the game has no id.") % {"where": where})
        games[ref] = SourceGame(
            name=_text(raw.get("name"), f"{where}.name", 120),
            bgg_id=_loose_id(raw.get("bggId")),
            highest_wins=raw.get("highestWins", True) is not False,
        )
    return games


def _bgstats_entries(raw: dict, where: str, players: dict[str, SourcePlayer], source: Source) -> list[SourceEntry]:
    """A play's `playerScores`; each player who took part joins `source.players` (the file's other players,
    who played nothing, are not imported)."""
    entries = []
    scores = _list(raw, "playerScores", where)
    _check_players(len(scores), where)
    for j, score in enumerate(scores):
        at = f"{where}.playerScores[{j}]"
        score = _object(score, at)
        ref = _text(score.get("playerRefId"), f"{at}.playerRefId")
        if ref not in players:
            raise ImportRefused(
                _("%(where)s: playerRefId %(ref)s is not in the file's players.") % {"where": at, "ref": ref}
            )
        source.players[players[ref].key] = players[ref]
        entries.append(
            SourceEntry(
                player=players[ref].key,
                score_text=_text(score.get("score"), f"{at}.score", 60),
                rank=_int(score.get("rank"), f"{at}.rank", positive=True),
                winner=score.get("winner") is True,
                seat=_int(score.get("seatOrder"), f"{at}.seatOrder", positive=True),
                team=_text(score.get("team"), f"{at}.team", 60),
            )
        )
    return entries


def parse_bgstats(data: bytes, name: str = "file", today: datetime.date | None = None) -> Source:
    """A BG Stats backup: `players`, `games`, `plays` (and `locations`, not used). Plays refer to games and
    players by their `id`."""
    today = today or timezone.localdate()
    root = _bgstats_root(data, name)
    source = Source(kind=SOURCE_BGSTATS)
    players = _bgstats_players(root, name)
    games = _bgstats_games(root, name)
    for i, raw in enumerate(_list(root, "plays", name)):
        where = f"{name}: plays[{i}]"
        raw = _object(raw, where)
        uuid = _text(raw.get("uuid"), f"{where}.uuid", 100)
        if not uuid:
            raise ImportRefused(_("%(where)s: the play has no uuid.") % {"where": where})
        where = f"{where} ({uuid})"
        game = games.get(_text(raw.get("gameRefId"), f"{where}.gameRefId"))
        if game is None:
            raise ImportRefused(
                _("%(where)s: gameRefId %(ref)s is not in the file's games.")
                % {"where": where, "ref": _text(raw.get("gameRefId"), f"{where}.gameRefId")}
            )
        entries = _bgstats_entries(raw, where, players, source)
        source.plays.append(
            SourcePlay(
                external_id=uuid,
                played_on=_date(raw.get("playDate"), where, today),
                game=game,
                entries=tuple(entries),
                incomplete=raw.get("ignored") is True,
            )
        )
    return source


# --- BoardGameGeek plays XML ---


def _bgg_root(name: str, data: bytes) -> Element:
    """One page's `<plays>` element, once the bytes are XML without a DTD."""
    _check_bytes(data, name)
    if data.lstrip().startswith((b"{", b"[")):
        raise ImportRefused(
            _("%(name)s: this looks like JSON; BGG plays are XML (try the BG Stats format).") % {"name": name}
        )
    try:
        root = ElementTree.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as error:
        raise ImportRefused(
            _("%(name)s: the XML declares %(what)s; refused for safety.") % {"name": name, "what": type(error).__name__}
        ) from None
    except ElementTree.ParseError as error:
        line, column = error.position
        raise ImportRefused(
            _("%(name)s: not valid XML at line %(line)d, column %(column)d (truncated or not a BGG plays file).")
            % {"name": name, "line": line, "column": column}
        ) from None
    if root.tag != "plays":
        raise ImportRefused(
            _("%(name)s: not BGG plays XML (the top element is <%(tag)s>, not <plays>).")
            % {"name": name, "tag": root.tag[:40]}
        )
    return root


def _bgg_entries(play: Element, where: str, source: Source) -> list[SourceEntry]:
    """A play's `<players>`; each joins `source.players`, keyed by BGG username, else by name."""
    entries = []
    players = play.findall("players/player")
    _check_players(len(players), where)
    for j, player in enumerate(players):
        at = f"{where} player {j + 1}"
        username = _text(player.get("username"), f"{at} username", 80)
        player_name = _text(player.get("name"), f"{at} name", 80, name=True) or username or f"Player {j + 1}"
        key = f"bgg:user:{username.casefold()}" if username else f"bgg:name:{player_name.casefold()}"
        source.players.setdefault(key, SourcePlayer(key=key, name=player_name, bgg_username=username))
        entries.append(
            SourceEntry(
                player=key,
                score_text=_text(player.get("score"), f"{at} score", 60),
                winner=player.get("win") == "1",
                seat=_int(player.get("startposition"), f"{at} startposition", positive=True),
            )
        )
    return entries


def parse_bgg(files: Sequence[tuple[str, bytes]], today: datetime.date | None = None) -> Source:
    """One or several pages of the XML API's plays of a user (`<plays><play ...><item/><players>...`). A play
    seen on two pages (an export taken while plays were logged) is read once."""
    today = today or timezone.localdate()
    source = Source(kind=SOURCE_BGG)
    seen: set[str] = set()
    for name, data in files:
        root = _bgg_root(name, data)
        for i, play in enumerate(root.findall("play")):
            external_id = _text(play.get("id"), f"{name}: play {i + 1}", 40)
            where = f"{name}: play {i + 1} (id {external_id or '?'})"
            if not external_id.isdigit():
                raise ImportRefused(_("%(where)s: the play id should be a number.") % {"where": where})
            item = play.find("item")
            if item is None:
                raise ImportRefused(_("%(where)s: the play has no <item> (game).") % {"where": where})
            game = SourceGame(
                name=_text(item.get("name"), f"{where} item name", 120), bgg_id=_loose_id(item.get("objectid"))
            )
            entries = _bgg_entries(play, where, source)
            quantity = _int(play.get("quantity"), f"{where} quantity") or 1
            if quantity > 100:
                raise ImportRefused(
                    _("%(where)s: quantity %(quantity)d is more than 100.") % {"where": where, "quantity": quantity}
                )
            if external_id in seen:
                continue
            seen.add(external_id)
            source.plays.append(
                SourcePlay(
                    external_id=external_id,
                    played_on=_date(play.get("date"), where, today),
                    game=game,
                    entries=tuple(entries),
                    quantity=quantity,
                    incomplete=play.get("incomplete") == "1",
                )
            )
    return source


# --- ranks ---


def _competition(keys: Sequence) -> list[int]:
    """Competition ranks: one more than the number of keys below each (sorted once: linear in players but for
    the sort, where counting for each player was quadratic, issue 36)."""
    ordered = sorted(keys)
    return [1 + bisect.bisect_left(ordered, key) for key in keys]


def ranks_of(entries: Sequence[SourceEntry], highest_wins: bool = True) -> list[int]:
    """Ranks from the file's `rank` when every player has one; else winners (all sharing first) and then numeric scores
    (`highest_wins`); else everyone ties. A score that is not a number decides nothing."""
    if entries and all(e.rank for e in entries):
        return _competition([e.rank for e in entries])
    scores = [numeric_score(e.score_text) for e in entries]
    by_score = all(s is not None for s in scores)
    any_winner = any(e.winner for e in entries)
    keys = []
    for entry, score in zip(entries, scores, strict=True):
        if entry.winner:  # every winner is first (a team, a shared win), whatever the scores say
            keys.append((0, 0))
        else:
            keys.append((1 if any_winner else 0, (-score if highest_wins else score) if by_score else 0))
    return _competition(keys)
