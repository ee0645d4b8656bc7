"""What an import would do, decided before anything is written: no database, no models (refusals through gettext).

The plan is what the preview shows and what the commit writes: which plays become results of which of the
site's games, which imported name becomes which club member or new guest, what is skipped and why, and which
plays the club already has (same source and external id).
"""

from __future__ import annotations

import datetime
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from .formats import ImportRefused, Source, SourcePlay, SourcePlayer, numeric_score, ranks_of

SKIP_OTHER_GAME = "other game"
SKIP_INCOMPLETE = "incomplete"
SKIP_TOO_FEW = "fewer than two players"
SKIP_SAME_PLAYER_TWICE = "a player twice at one table"
SKIP_PLAYER_COUNT = "a player count the game does not allow"


def fold(name: str) -> str:
    """Names compare without case or accents: "Tokaido" is "Tōkaidō"."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class SiteGame:
    slug: str
    names: tuple[str, ...]
    bgg_ids: tuple[int, ...] = ()
    # the seats its engine allows (issue 50): a play with more players than the game seats is no result of it: skipped
    # with its reason rather than rated; None is no limit beyond two players
    min_players: int | None = None
    max_players: int | None = None


@dataclass(frozen=True)
class Member:
    player_id: int
    name: str
    username: str = ""


@dataclass(frozen=True)
class PlannedEntry:
    person: str  # a planned person's key
    rank: int
    score: float | None
    score_text: str
    seat: int | None


@dataclass(frozen=True)
class PlannedResult:
    external_id: str
    game: str  # site game slug
    played_on: datetime.date
    entries: tuple[PlannedEntry, ...]


@dataclass
class Person:
    """One player of the import: a club member (`player_id`) or a new guest, with the imported names it covers."""

    key: str
    name: str
    player_id: int | None = None
    names: list[str] = field(default_factory=list)
    how: str = ""  # "username", "name", "merge" or "" (new guest)


@dataclass
class Plan:
    source: str
    results: list[PlannedResult] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)
    skipped_plays: list[tuple[str, str, str]] = field(default_factory=list)  # (external id, game name, reason)
    other_games: Counter = field(default_factory=Counter)
    game_matches: dict[str, str] = field(default_factory=dict)  # imported game name -> slug
    people: dict[str, Person] = field(default_factory=dict)

    @property
    def plays(self) -> int:
        return len(self.results) + len(self.duplicates) + sum(self.skipped.values())

    def summary(self, imported: int | None = None) -> dict:
        """The command's JSON object. `imported` is what was written (None for a dry run: what would be)."""
        used = {e.person for r in self.results for e in r.entries}
        people = [self.people[key] for key in used]
        return {
            "plays": self.plays,
            "imported": len(self.results) if imported is None else imported,
            "duplicates": len(self.duplicates),
            "skipped": dict(sorted(self.skipped.items())),
            "games": dict(sorted(Counter(r.game for r in self.results).items())),
            "players": {
                "matched": sum(p.player_id is not None for p in people),
                "new_guests": sum(p.player_id is None for p in people),
            },
        }


def parse_merges(merges: Iterable[str]) -> list[tuple[str, str]]:
    pairs = []
    for merge in merges:
        left, sep, right = merge.partition("=")
        if not sep or not left.strip() or not right.strip():
            raise ImportRefused(_("Merge %(merge)r: write it as “Imported name=Other name”.") % {"merge": merge})
        pairs.append((left.strip(), right.strip()))
    return pairs


def match_game(game_name: str, bgg_id: int | None, games: Sequence[SiteGame]) -> str | None:
    for game in games:
        if bgg_id is not None and bgg_id in game.bgg_ids:
            return game.slug
    wanted = fold(game_name)
    return next((g.slug for g in games if wanted in {fold(n) for n in g.names}), None)


def _root(parent: dict[str, str], key: str) -> str:
    """The imported key standing for `key`'s group of merged players (union-find, halving the path)."""
    while parent[key] != key:
        parent[key] = parent[parent[key]]
        key = parent[key]
    return key


def _merged(
    source: Source, merges: Sequence[tuple[str, str]], by_name: Mapping[str, Member]
) -> tuple[dict[str, str], dict[str, Member]]:
    """The merges applied, in order: union-find parents over the imported keys (a merge whose right side is an
    imported name joins the two groups) and the member each group a merge sends to a member (a right side that
    is only a member's name) becomes."""
    imported_by_name: dict[str, list[str]] = {}
    for key, player in source.players.items():
        imported_by_name.setdefault(fold(player.name), []).append(key)
    parent = {key: key for key in source.players}
    member_of: dict[str, Member] = {}
    for left, right in merges:
        lefts = imported_by_name.get(fold(left))
        if not lefts:
            raise ImportRefused(
                _("Merge %(left)s=%(right)s: no player called %(left)r in the file.") % {"left": left, "right": right}
            )
        rights = imported_by_name.get(fold(right))
        if rights:
            for key in [*lefts, *rights[1:]]:
                parent[_root(parent, key)] = _root(parent, rights[0])
        elif fold(right) in by_name:
            for key in lefts:
                member_of[_root(parent, key)] = by_name[fold(right)]
        else:
            raise ImportRefused(
                _("Merge %(left)s=%(right)s: %(right)r is neither a player in the file nor a member of the club.")
                % {"left": left, "right": right}
            )
    return parent, member_of


def _member_for(
    key: str,
    top: str,
    player: SourcePlayer,
    member_of: Mapping[str, Member],
    by_username: Mapping[str, Member],
    by_name: Mapping[str, Member],
) -> tuple[Member | None, str]:
    """The club member an imported player is, and how it was found: the member a merge sent its group (`top`)
    or itself to, else the member with its BGG username, else the member with its name; (None, "") if none."""
    if top in member_of or key in member_of:
        return member_of.get(top) or member_of[key], "merge"
    if player.bgg_username and fold(player.bgg_username) in by_username:
        return by_username[fold(player.bgg_username)], "username"
    if fold(player.name) in by_name:
        return by_name[fold(player.name)], "name"
    return None, ""


def _one_person_per_member(result: dict[str, Person]) -> None:
    """Two people may have been matched to one member: they are one person then (the first, with the other's
    names added)."""
    by_member: dict[int, Person] = {}
    for key, person in list(result.items()):
        if person.player_id is not None:
            first = by_member.setdefault(person.player_id, person)
            if first is not person:
                first.names.extend(n for n in person.names if n not in first.names)
                result[key] = first


def _people(source: Source, members: Sequence[Member], merges: Sequence[tuple[str, str]]) -> dict[str, Person]:
    """Imported player key -> the person it becomes: by BGG username (a member's account name), then by name;
    merges first join imported names, or send one to a member by the member's name."""
    by_username = {fold(m.username): m for m in members if m.username}
    by_name: dict[str, Member] = {}
    for member in members:
        by_name.setdefault(fold(member.name), member)
    # union-find over imported keys; a merge's right side may be an imported name or a member's name
    parent, member_of = _merged(source, merges, by_name)
    people: dict[str, Person] = {}
    result: dict[str, Person] = {}
    for key, player in source.players.items():
        top = _root(parent, key)
        person = people.get(top)
        if person is None:
            person = people[top] = Person(key=top, name=source.players[top].name)
        person.names.append(player.name)
        if person.player_id is None:
            member, how = _member_for(key, top, player, member_of, by_username, by_name)
            if member is not None:
                person.player_id, person.name, person.how = member.player_id, member.name, how
        result[key] = person
    _one_person_per_member(result)
    return result


def _skip_reason(
    play: SourcePlay, slug: str | None, people: Mapping[str, Person], counts: Mapping[str, tuple[int, int | None]]
) -> str | None:
    """Why a play is no result of a site game, or None: the first reason, in this order."""
    low, high = counts.get(slug or "", (2, None))
    if slug is None:
        return SKIP_OTHER_GAME
    if play.incomplete:
        return SKIP_INCOMPLETE
    if len(play.entries) < 2:
        return SKIP_TOO_FEW
    if len({people[e.player].key for e in play.entries}) < len(play.entries):
        return SKIP_SAME_PLAYER_TWICE
    if not low <= len(play.entries) <= (high or len(play.entries)):
        return SKIP_PLAYER_COUNT
    return None


def make_plan(
    source: Source,
    *,
    games: Sequence[SiteGame],
    members: Sequence[Member],
    merges: Sequence[tuple[str, str]] = (),
    existing: set[str] | frozenset = frozenset(),
    game_overrides: Mapping[str, str | None] | None = None,
) -> Plan:
    """`existing`: the external ids the club already holds from this source. `game_overrides`: the organiser's
    own matching of an imported game name to a site game slug (or None: skip it)."""
    plan = Plan(source=source.kind)
    people = _people(source, members, merges)
    plan.people = {p.key: p for p in people.values()}
    for person in plan.people.values():
        person.names = list(dict.fromkeys(person.names))
    overrides = {fold(k): v for k, v in (game_overrides or {}).items()}
    seen: set[str] = set()
    counts = {g.slug: (g.min_players or 2, g.max_players) for g in games}
    for play in source.plays:
        wanted = fold(play.game.name)
        slug = overrides[wanted] if wanted in overrides else match_game(play.game.name, play.game.bgg_id, games)
        ids = (
            [play.external_id]
            if play.quantity == 1
            else [f"{play.external_id}#{n}" for n in range(1, play.quantity + 1)]
        )
        reason = _skip_reason(play, slug, people, counts)
        if slug is None:
            plan.other_games[play.game.name] += len(ids)
        if reason is not None:
            plan.skipped[reason] += len(ids)
            plan.skipped_plays.extend((external_id, play.game.name, reason) for external_id in ids)
            continue
        plan.game_matches[play.game.name] = slug
        ranks = ranks_of(play.entries, play.game.highest_wins)
        entries = tuple(
            PlannedEntry(
                person=people[e.player].key,
                rank=rank,
                score=numeric_score(e.score_text),
                score_text="" if numeric_score(e.score_text) is not None else e.score_text,
                seat=e.seat,
            )
            for e, rank in zip(play.entries, ranks, strict=True)
        )
        for external_id in ids:
            if external_id in existing or external_id in seen:
                plan.duplicates.append(external_id)
                continue
            seen.add(external_id)
            plan.results.append(
                PlannedResult(external_id=external_id, game=slug, played_on=play.played_on, entries=entries)
            )
    return plan
