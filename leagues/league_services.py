"""Writes for leagues, seasons, results, sign-offs, ratings and standings (issue 5).

Each public function is one transaction. Rating and standings jobs are enqueued on commit; the jobs
call `ratings_apply_result`, `ratings_recompute`, `standings_apply_result` and `standings_compute` here,
which are idempotent: ratings are a fold over counted results in (played_on, id) order, so running one
twice, or out of order, ends at the numbers a full recompute gives; standings record which results their
table holds (see the standings section).
"""

from __future__ import annotations

import datetime
import zlib
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import accumulate

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from shitenno_site.errors import Conflict

from . import ratings as rating_maths
from . import standings as standings_maths
from .access import result_players_signed_by, result_signers
from .audit import audit_record
from .bulk import (
    array_literal,
    big_endian,
    binary_rows,
    copy_in_binary,
    copy_out_fixed,
    field_bytes,
    replace_binary,
    replace_rows,
    to_array,
)
from .models import (
    Club,
    League,
    Membership,
    Player,
    Rating,
    RatingEvent,
    RatingScope,
    Result,
    ResultEntry,
    Season,
    SignOff,
    Standing,
)
from .services import membership_of


def _require_manager(club: Club | None, user: AbstractBaseUser) -> None:
    if user.is_superuser:
        return
    membership = membership_of(club, user) if club is not None else None
    if membership is None or not membership.manages:
        raise PermissionDenied(_("Only the club's owners and admins may do this."))


# --- leagues and seasons ---


@transaction.atomic
def league_create(*, club: Club, name: str, games: Sequence[str], user: AbstractBaseUser) -> League:
    """Club managers only. `games` are engine slugs or free-text names of games with no engine."""
    _require_manager(club, user)
    name = name.strip()
    games = [g.strip() for g in games if g.strip()]
    errors = {}
    if not name:
        errors["name"] = _("A league needs a name.")
    if not games:
        errors["games"] = _("Name at least one game.")
    if errors:
        raise ValidationError(errors)
    base = slugify(name)[:90] or "league"
    slug, n = base, 2
    while League.objects.filter(club=club, slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return League.objects.create(club=club, name=name[:100], slug=slug, games=list(dict.fromkeys(games)))


@transaction.atomic
def season_create(
    *, league: League, name: str, starts_on: datetime.date, ends_on: datetime.date, user: AbstractBaseUser,
    points_scheme: str = Season.Scheme.SCORE_3210, custom_points: dict | None = None, min_games: int = 0,
    tie_breakers: Sequence[str] | None = None,
) -> Season:
    """Club managers only. Seasons of one league may not overlap, so a date names one season."""
    _require_manager(league.club, user)
    tie_breakers = list(tie_breakers if tie_breakers is not None else standings_maths.DEFAULT_TIE_BREAKERS)
    custom_points = custom_points or {}
    errors = standings_maths.validate_rules(scheme=points_scheme, custom=custom_points, tie_breakers=tie_breakers)
    if not name.strip():
        errors["name"] = _("A season needs a name.")
    if ends_on < starts_on:
        errors["ends_on"] = _("A season cannot end before it starts.")
    if min_games < 0:
        errors["min_games"] = _("Cannot be negative.")
    if errors:
        raise ValidationError(errors)
    tie_breakers = standings_maths.season_tie_breakers(tie_breakers)  # what is stored is what applies
    League.objects.select_for_update().get(pk=league.pk)
    if league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).exists():
        raise ValidationError({"starts_on": _("This season overlaps another season of the league.")})
    return Season.objects.create(
        league=league, name=name.strip()[:100], starts_on=starts_on, ends_on=ends_on, points_scheme=points_scheme,
        custom_points=custom_points, min_games=min_games, tie_breakers=tie_breakers,
    )


def _season_for(*, club: Club | None, game: str, played_on: datetime.date, players: Sequence[Player]) -> Season | None:
    """The current season of a league of the club counting this game, when every player is a member."""
    if club is None:
        return None
    members = set(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    if not all(p.pk in members for p in players):
        return None
    seasons = Season.objects.filter(
        league__club=club, starts_on__lte=played_on, ends_on__gte=played_on
    ).select_related("league").order_by("league_id")
    return next((s for s in seasons if game in s.league.games), None)


# --- results and sign-offs ---


def _scopes(result: Result) -> list[tuple[str, str]]:
    """A result counts in its league's ratings, and site-wide only when it was not played in a private club
    (a private club's games stay inside the club: see docs/security.md)."""
    scopes = [(RatingScope.GAME, result.game)] if result.club_id is None or result.club.members_public else []
    if result.season_id:
        scopes.append((RatingScope.LEAGUE, str(result.season.league_id)))
    return scopes


def _enqueue_counted(result: Result, *, edited: bool = False) -> None:
    """A result now counts: rate it, and fold it into its season's table (recompute the table if it was edited)."""
    from . import tasks

    tasks.ratings_apply_result.delay_on_commit(result.pk)
    if result.season_id and edited:
        tasks.standings_compute.delay_on_commit(result.season_id)
    elif result.season_id:
        tasks.standings_apply_result.delay_on_commit(result.pk)


def _enqueue_recompute(scopes: set[tuple[str, str]], since: datetime.date, seasons: set[int]) -> None:
    from . import tasks

    for kind, key in sorted(scopes):
        tasks.ratings_recompute.delay_on_commit(kind, key, since.isoformat())
    for season_id in sorted(seasons):
        tasks.standings_compute.delay_on_commit(season_id)


def _settle(result: Result) -> None:
    """Count a pending result once every player is answered for (`result_signers`: each account by itself, each
    guest by its creator or a manager of the league's club); flag it disputed when anyone disagreed first.

    A result that already counts stays counted here: a later dispute flags it for the managers instead
    (`result_sign_off`), so one player cannot pull a signed-off game out of the standings on their own.
    """
    if result.status == Result.Status.COUNTED:
        return
    sign_offs = {s.player_id: s for s in result.sign_offs.all()}
    signers = result_signers(result)
    valid = {player: s for player, s in sign_offs.items() if s.by_id in signers.get(player, ())}
    if any(not s.agreed for s in valid.values()):
        status = Result.Status.DISPUTED
    elif all(player in valid for player in signers):
        status = Result.Status.COUNTED
    else:
        status = Result.Status.PENDING
    if status == result.status:
        return
    result.status = status
    result.save(update_fields=["status", "updated_at"])
    if status == Result.Status.COUNTED:
        _enqueue_counted(result)


def _clean_entries(entries: Sequence[dict]) -> list[dict]:
    errors = []
    if len(entries) < 2:
        raise ValidationError({"entries": _("A game needs at least two players.")})
    players = [e["player"] for e in entries]
    if len({p.pk for p in players}) != len(players):
        raise ValidationError({"entries": _("A player can appear only once.")})
    for e in entries:
        if not 1 <= int(e["rank"]) <= len(entries):
            errors.append(_("Ranks go from 1 to the number of players."))
    if errors:
        raise ValidationError({"entries": errors[0]})
    # one meaning of a rank everywhere: standard competition ranks (a dense 1, 1, 2 is stored as 1, 1, 3)
    ranks = standings_maths.competition_ranks([int(e["rank"]) for e in entries])
    return [{"player": e["player"], "rank": rank, "score": e.get("score")} for e, rank in zip(entries, ranks,
                                                                                              strict=True)]


@transaction.atomic
def result_from_session(*, session) -> Result | None:
    """The games app calls this when a table finishes: a pending result, in a season when one fits.

    Safe to call twice: a session has at most one result.
    """
    from games.models import TableSession

    session = TableSession.objects.select_for_update().get(pk=session.pk)
    if session.status != TableSession.Status.FINISHED or not session.outcome:
        return None
    existing = Result.objects.filter(session=session).first()
    if existing is not None:
        return existing
    seats = {seat.position: seat.player for seat in session.seats.select_related("player")}
    placings = session.outcome.get("placings", [])
    if len(placings) < 2 or any(p["seat"] not in seats for p in placings):
        return None
    played_on = timezone.localdate(session.finished_at) if session.finished_at else timezone.localdate()
    players = [seats[p["seat"]] for p in placings]
    result = Result.objects.create(
        game=session.game, played_on=played_on, club=session.club, session=session,
        season=_season_for(club=session.club, game=session.game, played_on=played_on, players=players),
        created_by=session.created_by,
    )
    ranks = standings_maths.competition_ranks([p["rank"] for p in placings])
    ResultEntry.objects.bulk_create(
        ResultEntry(result=result, player=seats[p["seat"]], rank=rank, score=p.get("score"))
        for p, rank in zip(placings, ranks, strict=True)
    )
    return result


@transaction.atomic
def result_enter(
    *, game: str, played_on: datetime.date, entries: Sequence[dict], user: AbstractBaseUser,
    season: Season | None = None, club: Club | None = None,
) -> Result:
    """A game played without move entry, any game: entries are {player, rank, score}.

    Into a season, the recorder must be a member of its club and every player a member too. The recorder
    signs off at once for themself and for any guests they list.
    """
    game = game.strip()
    if not game:
        raise ValidationError({"game": _("Name the game.")})
    entries = _clean_entries(entries)
    players = [e["player"] for e in entries]
    if season is not None:
        club = season.league.club
        if game not in season.league.games:
            raise ValidationError({"game": _("This league does not count %(game)s.") % {"game": game}})
        if not season.starts_on <= played_on <= season.ends_on:
            raise ValidationError({"played_on": _("The date is outside the season.")})
        members = set(Membership.objects.filter(club=club).values_list("player_id", flat=True))
        if any(p.pk not in members for p in players):
            raise ValidationError({"entries": _("Every player must be a member of the league's club.")})
    if club is not None and not user.is_superuser and membership_of(club, user) is None:
        raise PermissionDenied(_("Only members may record games for this club."))
    if played_on > timezone.localdate():
        raise ValidationError({"played_on": _("The game cannot be in the future.")})
    result = Result.objects.create(game=game[:80], played_on=played_on, season=season, club=club, created_by=user)
    ResultEntry.objects.bulk_create(ResultEntry(result=result, **e) for e in entries)
    for player_id in result_players_signed_by(result, user):
        SignOff.objects.create(result=result, player_id=player_id, by=user, agreed=True)
    _settle(result)
    return result


@transaction.atomic
def result_sign_off(*, result: Result, user: AbstractBaseUser, agreed: bool = True, note: str = "") -> Result:
    """A player (or who answers for a guest) agrees or disputes. Before the result counts, the last agreement
    counts it and a dispute holds it back. Once it counts, a dispute flags it for the club's managers (or, outside
    any club, its recorder) and it keeps counting until one of them corrects or deletes it."""
    result = Result.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=result.pk)
    mine = result_players_signed_by(result, user)
    if not mine:
        raise PermissionDenied(_("Only the players of this game sign it off."))
    if not agreed and not note.strip():
        raise ValidationError({"note": _("Say what is wrong with the result.")})
    names = sorted(Player.objects.filter(pk__in=mine).values_list("name", flat=True))
    if result.status == Result.Status.COUNTED:
        if agreed:
            return result  # it counts already: nothing to add
        result.flagged_by = user
        result.flag_note = note.strip()[:300]
        result.save(update_fields=["flagged_by", "flag_note", "updated_at"])
        _audit_result("result.flag", result, user, {"players": names, "note": note[:300], "status": result.status})
        return result
    for player_id in mine:
        SignOff.objects.update_or_create(
            result=result, player_id=player_id, defaults={"by": user, "agreed": agreed, "note": note[:300]}
        )
    _settle(result)
    _audit_result("result.sign_off" if agreed else "result.dispute", result, user,
                  {"players": names, "note": note[:300], "status": result.status})
    return result


def _result_summary(result: Result) -> dict:
    """What an audit line keeps of a result: enough to see what a correction changed."""
    return {"game": result.game, "played_on": result.played_on.isoformat(), "status": result.status,
            "entries": [[e.player.name, e.rank, e.score] for e in result.entries.select_related("player")]}


def _audit_result(action: str, result: Result, user: AbstractBaseUser, details: dict) -> None:
    club_id = result.season.league.club_id if result.season_id else result.club_id
    audit_record(action=action, obj=result, user=user, club=club_id, details=details)


def _result_for_edit(result: Result, version: int, user: AbstractBaseUser) -> Result:
    result = Result.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=result.pk)
    club = result.season.league.club if result.season_id else result.club
    if club is None and not user.is_superuser:
        if result.created_by_id != user.pk:
            raise PermissionDenied(_("Only whoever recorded this game may change it."))
    else:
        _require_manager(club, user)
    if result.version != version:
        raise Conflict(_("Someone changed this result meanwhile: reload it and try again."),
                       payload={"version": result.version})
    return result


@transaction.atomic
def result_update(
    *, result: Result, version: int, user: AbstractBaseUser, played_on: datetime.date | None = None,
    entries: Sequence[dict] | None = None,
) -> Result:
    """An admin corrects a result (this also settles a dispute: it counts). Re-rates from the earlier date."""
    result = _result_for_edit(result, version, user)
    old_date, old_status = result.played_on, result.status
    before = _result_summary(result)
    if played_on is not None:
        if played_on > timezone.localdate():
            raise ValidationError({"played_on": _("The game cannot be in the future.")})
        if result.season_id and not result.season.starts_on <= played_on <= result.season.ends_on:
            raise ValidationError({"played_on": _("The date is outside the season.")})
        result.played_on = played_on
    if entries is not None:
        entries = _clean_entries(entries)
        if result.season_id:
            members = set(Membership.objects.filter(club=result.season.league.club).values_list("player_id", flat=True))
            if any(e["player"].pk not in members for e in entries):
                raise ValidationError({"entries": _("Every player must be a member of the league's club.")})
        result.entries.all().delete()
        ResultEntry.objects.bulk_create(ResultEntry(result=result, **e) for e in entries)
        result.sign_offs.exclude(player__in=[e["player"] for e in entries]).delete()
    result.version += 1
    result.status = Result.Status.COUNTED
    result.flagged_by, result.flag_note = None, ""  # a manager acted on the flag
    result.save()
    _audit_result("result.edit", result, user, {"before": before, "after": _result_summary(result),
                                               "version": result.version})
    if old_status == Result.Status.COUNTED:
        _enqueue_recompute(set(_scopes(result)), min(old_date, result.played_on),
                           {result.season_id} if result.season_id else set())
    else:
        _enqueue_counted(result, edited=True)
    return result


@transaction.atomic
def result_delete(*, result: Result, version: int, user: AbstractBaseUser) -> None:
    """An admin removes a result; everything after it is re-rated."""
    result = _result_for_edit(result, version, user)
    counted = result.status == Result.Status.COUNTED
    scopes, since, season = set(_scopes(result)), result.played_on, result.season_id
    _audit_result("result.delete", result, user, {"before": _result_summary(result)})
    result.delete()
    if counted:
        _enqueue_recompute(scopes, since, {season} if season else set())


# --- ratings ---


def _lock_scope(kind: str, key: str) -> None:
    """Serialise rating writes per scope (PostgreSQL advisory lock, released at commit)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [5, zlib.crc32(f"{kind}:{key}".encode()) - 2**31])


def _counted_in_scope(kind: str, key: str, since: datetime.date | None = None):
    """The entries of the scope's counted results played on or after `since`, in rating order."""
    entries = ResultEntry.objects.filter(result__status=Result.Status.COUNTED)
    if kind == RatingScope.GAME:
        entries = entries.filter(Q(result__club__isnull=True) | Q(result__club__members_public=True), result__game=key)
    else:
        entries = entries.filter(result__season__league_id=int(key))
    if since is not None:
        entries = entries.filter(result__played_on__gte=since)
    return entries


class _Placings:
    """Results' finishing orders as columns, one row per entry in (played_on, result id, entry id) order:
    players and ranks (native arrays), `bounds` (result n is entries bounds[n]:bounds[n + 1]; only results
    with two or more entries, the others change nothing) and `counted` (every result read, for the job's
    count). On PostgreSQL `rows`/`width`/`offsets` keep COPY's own bytes, whose result id and date fields
    are copied into the history rows as they are; elsewhere `days` holds the dates."""

    _SIZES = (8, 4, 8, 2)  # result_id bigint, played_on date, player_id bigint, rank smallint

    def __init__(self, entries) -> None:
        entries = entries.order_by("result__played_on", "result_id", "id").values_list(
            "result_id", "result__played_on", "player_id", "rank")
        self.rows: bytes | None = None
        if connection.vendor == "postgresql":
            sql, params = entries.query.sql_with_params()
            self.rows, self.width, self.offsets = copy_out_fixed(sql, params, self._SIZES)
            self.result_ids = to_array(self._field(0), "q")
            self.players = to_array(self._field(2), "q")
            self.ranks = to_array(self._field(3), "h")
            self.days = None
        else:
            self.result_ids, self.days, self.players, self.ranks = array("q"), [], array("q"), array("h")
            for result_id, played_on, player_id, rank in entries.iterator(chunk_size=20_000):
                self.result_ids.append(result_id)
                self.days.append(played_on)
                self.players.append(player_id)
                self.ranks.append(rank)
        sizes = list(Counter(self.result_ids).values())  # each result's entries are contiguous, in order
        self.counted = len(sizes)
        if sizes and min(sizes) < 2:
            self._drop_single(sizes)
        self.bounds = array("q", accumulate(sizes, initial=0))

    def _field(self, n: int, start: int = 0, stop: int | None = None) -> bytes:
        return field_bytes(self.rows, self.width, self.offsets[n], self._SIZES[n], start, stop)

    def _drop_single(self, sizes: list[int]) -> None:
        """Leave out results with a single entry (rare): they change no rating and leave no history."""
        keep = []
        start = 0
        for size in sizes:
            if size >= 2:
                keep.append((start, start + size))
            start += size
        self.result_ids = array("q", (r for a, b in keep for r in self.result_ids[a:b]))
        self.players = array("q", (p for a, b in keep for p in self.players[a:b]))
        self.ranks = array("h", (r for a, b in keep for r in self.ranks[a:b]))
        if self.rows is not None:
            self.rows = b"".join(self.rows[a * self.width: b * self.width] for a, b in keep)
        else:
            self.days = [d for a, b in keep for d in self.days[a:b]]
        sizes[:] = [b - a for a, b in keep]


_EVENT_COLUMNS = ["kind", "key", "result_id", "player_id", "played_on", "mu_before", "sigma_before", "mu_after",
                  "sigma_after"]
_CHUNK = 20_000  # results folded between two writes of the history


def _history_chunks(kind: str, key: str, placings: _Placings, state: dict) -> Iterator[bytes]:
    """Fold the placings over `state` a chunk of results at a time, yielding each chunk's history rows as
    binary COPY data (PostgreSQL): the server stores a chunk while the next one is folded."""
    constant = [(len(text.encode()), text.encode(), False) for text in (kind, key)]
    bounds = placings.bounds
    for first in range(0, len(bounds) - 1, _CHUNK):
        last = min(first + _CHUNK, len(bounds) - 1)
        out = (array("d"), array("d"), array("d"), array("d"))
        rating_maths.fold_columns(placings.players, placings.ranks, bounds[first: last + 1], state, out)
        start, stop = bounds[first], bounds[last]
        yield binary_rows(stop - start, [
            *constant,
            (8, placings._field(0, start, stop), True),
            (8, placings._field(2, start, stop), True),
            (4, placings._field(1, start, stop), True),
            *((8, big_endian(column), True) for column in out),
        ])


def _history_dicts(kind: str, key: str, placings: _Placings, state: dict) -> list[dict]:
    """The same history as dicts for `replace_rows` (the ORM path, for SQLite)."""
    out = (array("d"), array("d"), array("d"), array("d"))
    rating_maths.fold_columns(placings.players, placings.ranks, placings.bounds, state, out)
    return [{"kind": kind, "key": key, "result": placings.result_ids[j], "player": placings.players[j],
             "played_on": placings.days[j], "mu_before": out[0][j], "sigma_before": out[1][j],
             "mu_after": out[2][j], "sigma_after": out[3][j]} for j in range(len(placings.players))]


def _write_events(kind: str, key: str, placings: _Placings, state: dict, scope, where: str, params: list, *,
                  fresh: bool) -> set[int]:
    """Rate `placings` over `state` (updated in place) and make the history rows of `scope` (the part of
    the scope being re-rated; `where` and `params` select the same rows in SQL, the table aliased `t`)
    exactly the changes. Returns the players of the rows deleted (their stored rating may have to go).

    On PostgreSQL the rows are streamed as binary COPY while the fold goes on: straight into the table when
    `fresh` (no stored row can share a key with them), else through `replace_binary`, which updates kept
    rows in place (with the free room RatingEvent's pages keep, without touching its indexes) and leaves
    unchanged ones alone."""
    if connection.vendor != "postgresql":
        gone = set(scope.values_list("player_id", flat=True).distinct())
        replace_rows(scope, _history_dicts(kind, key, placings, state), unique=["kind", "key", "result", "player"],
                     update=["played_on", "mu_before", "sigma_before", "mu_after", "sigma_after"])
        return gone
    chunks = _history_chunks(kind, key, placings, state)
    if fresh:
        copy_in_binary(RatingEvent._meta.db_table, _EVENT_COLUMNS, chunks)
        return set()
    return replace_binary(RatingEvent._meta.db_table, _EVENT_COLUMNS, chunks, unique=_EVENT_COLUMNS[:4],
                          where=where, params=params, returning="player_id")


def _write_ratings(kind: str, key: str, final: dict, players: set[int]) -> None:
    """The stored ratings of `players` from `final` ([mu, sigma, games] by player); a player left without
    rated games loses the row."""
    if not players:  # a scope with nothing counted and nobody rated (e.g. its only result stopped counting)
        return
    replace_rows(
        Rating.objects.filter(kind=kind, key=key, player_id__in=players),
        [{"kind": kind, "key": key, "player": pid, "mu": state[0], "sigma": state[1], "games": state[2]}
         for pid in players if (state := final.get(pid)) is not None and state[2] > 0],
        unique=["kind", "key", "player"], update=["mu", "sigma", "games"],
    )


def _start_state(earlier) -> dict[int, list]:
    """Each player's rating after the last of the `earlier` history rows, and how many rows they have, in
    one set-based query: results are ordered by (played_on, result id), so ties on the day go by the id."""
    latest = earlier.annotate(
        games=Window(Count("pk"), partition_by=[F("player_id")]),
        place=Window(RowNumber(), partition_by=[F("player_id")],
                     order_by=[F("played_on").desc(), F("result_id").desc()]),
    ).filter(place=1).values_list("player_id", "mu_after", "sigma_after", "games")
    return {player_id: [mu, sigma, games] for player_id, mu, sigma, games in latest}


def _synchronous_commit_off() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # derived rows, rebuilt by the nightly job: no need to wait for fsync
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
            cursor.execute("SET LOCAL jit TO OFF")  # compiling the big read's plan cost more than it saved


@transaction.atomic
def ratings_recompute(*, kind: str, key: str, since: datetime.date | None = None) -> int:
    """Re-rate every counted result in the scope played on or after `since` (all of them when None).

    Returns how many results were rated. Takes the scope's advisory lock; reads and writes are set-based.
    """
    _lock_scope(kind, key)
    _synchronous_commit_off()
    events = RatingEvent.objects.filter(kind=kind, key=key)
    where, params = "t.kind = %s AND t.key = %s", [kind, key]
    if since is None:
        stale, state = events, {}
        players = set(Rating.objects.filter(kind=kind, key=key).values_list("player_id", flat=True))
    else:
        stale, state = events.filter(played_on__gte=since), _start_state(events.filter(played_on__lt=since))
        where, params = f"{where} AND t.played_on >= %s", [*params, since]
        players = set()
    placings = _Placings(_counted_in_scope(kind, key, since))
    # A result whose date moved later may still have rows before `since`: the re-rate meets them on the
    # unique key and updates them, so the straight COPY is only for a scope that holds no rows at all.
    players |= _write_events(kind, key, placings, state, stale, where, params, fresh=not events.exists())
    _write_ratings(kind, key, state, players | set(placings.players))
    return placings.counted


@transaction.atomic
def ratings_apply_result(*, result: Result) -> None:
    """Rate one newly counted result in each of its scopes: incrementally when it is the latest, else
    by re-rating from its date. Does nothing for a result already rated or no longer counted."""
    result = Result.objects.select_related("season", "club").get(pk=result.pk)
    if result.status != Result.Status.COUNTED:
        return
    for kind, key in _scopes(result):
        _lock_scope(kind, key)
        events = RatingEvent.objects.filter(kind=kind, key=key)
        if events.filter(result=result).exists():
            continue
        later = events.filter(played_on__gt=result.played_on).exists() or events.filter(
            played_on=result.played_on, result_id__gt=result.pk).exists()
        if later:
            ratings_recompute(kind=kind, key=key, since=result.played_on)
            continue
        _synchronous_commit_off()
        placings = _Placings(ResultEntry.objects.filter(result=result))
        seated = set(placings.players)
        state = {r.player_id: [r.mu, r.sigma, r.games]
                 for r in Rating.objects.filter(kind=kind, key=key, player_id__in=seated)}
        _write_events(kind, key, placings, state, events.filter(result=result),
                      "t.kind = %s AND t.key = %s AND t.result_id = %s", [kind, key, result.pk], fresh=True)
        _write_ratings(kind, key, state, seated)


def rating_scopes() -> set[tuple[str, str]]:
    """Every scope with counted results or stored ratings."""
    scopes = {(RatingScope.GAME, g) for g in Result.objects.filter(status=Result.Status.COUNTED)
              .values_list("game", flat=True).distinct()}
    scopes |= {(RatingScope.LEAGUE, str(pk)) for pk in League.objects.values_list("pk", flat=True)}
    scopes |= set(Rating.objects.values_list("kind", "key").distinct())
    return scopes


# --- standings ---
# The stored table of a season is the table of its results flagged `in_standings`, and
# `Season.standings_results` counts them (empty: unknown, so the next update recomputes in full). Both
# change only under the season's row lock, with the table: a full recompute flags exactly the counted
# results; `standings_apply_result` flags one more and folds it in, so running it twice folds it once.

_STANDING_COLUMNS = ("sort_key", "ranked", "points", "games", "wins", "seconds", "opponents_points", "margin",
                     "margin_sum", "margin_games")
_PG_TYPES = {"player_id": "bigint", "sort_key": "bytea", "ranked": "bool", "points": "text", "games": "int",
             "wins": "int", "seconds": "int", "opponents_points": "text", "margin": "float8", "margin_sum": "float8",
             "margin_games": "int"}
_ANALYZE_FROM = 1000  # results whose in_standings flag a recompute changed


def _fetch_all(cursor, sql: str, params: Sequence) -> list[tuple]:
    if connection.vendor == "postgresql":  # binary rows load a third faster than text
        import psycopg  # Django's cursors bind on the client, which cannot ask for binary rows

        with psycopg.Cursor(connection.connection) as raw:
            raw.execute(sql, params, binary=True)
            return raw.fetchall()
    cursor.execute(sql, params)
    return cursor.fetchall()


def _stored_standings(cursor, season_id: int, where: str = "", params: Sequence = ()) -> dict[int, tuple]:
    """player id -> the stored values of _STANDING_COLUMNS, for the season's rows (those matching `where`)."""
    rows = _fetch_all(cursor, f"SELECT player_id, {', '.join(_STANDING_COLUMNS)} FROM leagues_standing "
                      f"WHERE season_id = %s {where}", [season_id, *params])
    return {row[0]: (bytes(row[1]), *row[2:]) for row in rows}


def _values(row: standings_maths.Row) -> tuple:
    """The stored values of a row; points and opponents' points are exact, stored as text ("200/3")."""
    return (row.sort_key, row.ranked, str(row.points), row.games, row.wins, row.seconds, str(row.opponents_points),
            row.margin, row.margin_sum, row.margin_games)


def _write_standings(cursor, season_id: int, rows: Sequence[standings_maths.Row], stored: dict[int, tuple], *,
                     complete: bool) -> int:
    """Store `rows`, writing only those that differ from `stored`; returns how many rows were written. With
    `complete`, `rows` is the whole table and stored rows of other players go."""
    added, changed = [], []
    for row in rows:
        values = _values(row)
        old = stored.get(row.player)
        if old is None:
            added.append((row.player, *values))
        elif old != values:
            changed.append((row.player, *values))
    gone = list(stored.keys() - {row.player for row in rows}) if complete else []
    if gone:
        Standing.objects.filter(season_id=season_id, player_id__in=gone).delete()
    if connection.vendor != "postgresql":
        if added or changed:
            Standing.objects.bulk_create(
                [Standing(season_id=season_id, player_id=player, **dict(zip(_STANDING_COLUMNS, values, strict=True)))
                 for player, *values in added + changed],
                update_conflicts=True, unique_fields=["season", "player"], update_fields=list(_STANDING_COLUMNS),
            )
        return len(added) + len(changed) + len(gone)
    # PostgreSQL: new rows by COPY (nobody else writes the season's rows: we hold its lock), the changed ones
    # in one statement, each column as one array parameter
    if added:
        columns = f"season_id, player_id, {', '.join(_STANDING_COLUMNS)}"
        with cursor.cursor.copy(f"COPY leagues_standing ({columns}) FROM STDIN") as copy:
            for values in added:
                copy.write_row((season_id, *values))
    if changed:
        columns = ("player_id", *_STANDING_COLUMNS)
        cursor.execute(
            f"UPDATE leagues_standing s SET {', '.join(f'{c} = v.{c}' for c in _STANDING_COLUMNS)} "
            f"FROM unnest({', '.join(f'%s::{_PG_TYPES[c]}[]' for c in columns)}) AS v({', '.join(columns)}) "
            "WHERE s.season_id = %s AND s.player_id = v.player_id",
            [*(array_literal(values, _PG_TYPES[c]) for c, values in zip(columns, zip(*changed, strict=True),
                                                                         strict=True)), season_id],
        )
    return len(added) + len(changed) + len(gone)


def _rows_of(stored: dict[int, tuple]) -> dict[int, standings_maths.Row]:
    Row = standings_maths.Row
    return {  # positional arguments: cheaper than by keyword
        player: Row(player, Fraction(points), games, wins, seconds, Fraction(opponents), margin, ranked, None, "",
                    margin_sum, margin_games, key)
        for player, (key, ranked, points, games, wins, seconds, opponents, margin, margin_sum, margin_games)
        in stored.items()
    }


def _in(column: str, values, pg_type: str, *, hashed: bool = False) -> tuple[str, list]:
    """`column IN values` as SQL and its parameters: on PostgreSQL one array parameter spelled as a literal
    (parsed faster than hundreds of placeholders, built faster than psycopg adapts a list), `hashed` for a
    column no index serves (the list is hashed, not compared element by element with each row); a placeholder
    each elsewhere."""
    if connection.vendor != "postgresql":
        return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)
    if hashed:
        return f"{column} IN (SELECT unnest(%s::{pg_type}[]))", [array_literal(values, pg_type)]
    return f"{column} = ANY(%s::{pg_type}[])", [array_literal(values, pg_type)]


def _rules(season: Season) -> dict:
    return {"scheme": season.points_scheme, "custom": season.custom_points, "min_games": season.min_games,
            "tie_breakers": season.tie_breakers}


@transaction.atomic
def standings_compute(*, season: Season) -> int:
    """Rewrite the season's stored table from its counted results; unchanged rows are left alone."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    counted = Result.Status.COUNTED
    with connection.cursor() as cursor:
        entries = _fetch_all(
            cursor,
            "SELECT e.result_id, e.player_id, e.rank, e.score FROM leagues_resultentry e "
            "JOIN leagues_result r ON r.id = e.result_id WHERE r.season_id = %s AND r.status = %s "
            "ORDER BY e.result_id, e.id", [season.pk, counted],
        )
        games: list[list[tuple]] = []
        last = None
        for result_id, player, rank, score in entries:
            if result_id != last:
                last = result_id
                game: list[tuple] = []
                games.append(game)
            game.append((player, rank, score))
        table = standings_maths.table_of(games, **_rules(season))
        _write_standings(cursor, season.pk, table, _stored_standings(cursor, season.pk), complete=True)
        cursor.execute(
            "UPDATE leagues_result SET in_standings = (status = %s) "
            "WHERE season_id = %s AND in_standings <> (status = %s)", [counted, season.pk, counted],
        )
        if cursor.rowcount > _ANALYZE_FROM and connection.vendor == "postgresql":
            cursor.execute("ANALYZE leagues_result")  # the first recompute of a big season: plans need to know
    Season.objects.filter(pk=season.pk).update(standings_results=len(games))
    return len(table)


def _head_to_head_in_season(cursor, season_id: int):
    def head_to_head(a: int, b: int) -> int:
        cursor.execute(
            "SELECT x.rank, y.rank FROM leagues_resultentry x "
            "JOIN leagues_resultentry y ON y.result_id = x.result_id "
            "JOIN leagues_result r ON r.id = x.result_id "
            "WHERE x.player_id = %s AND y.player_id = %s AND r.season_id = %s AND r.in_standings = %s",
            [a, b, season_id, True],
        )
        return sum((x < y) - (y < x) for x, y in cursor.fetchall())

    return head_to_head


@transaction.atomic
def standings_apply_result(*, result: Result) -> bool:
    """Fold a newly counted result into its season's stored table without reading the season's other games:
    only its players' rows and the opponents' points of those who shared a game with them change (then the
    order). Returns whether it was folded in now; a result already folded in, not counted or of no season
    is left alone, so a retried job cannot count it twice. A season whose table is not known to match its
    folded-in results (`standings_results` empty) is recomputed in full instead."""
    season = Season.objects.select_for_update(of=("self",)).only(
        "points_scheme", "custom_points", "min_games", "tie_breakers", "standings_results").filter(
        results__pk=result.pk).first()
    if season is None:
        return False
    season_id = season.pk
    if season.standings_results is None:
        if not Result.objects.filter(pk=result.pk, status=Result.Status.COUNTED, in_standings=False).exists():
            return False
        standings_compute(season=season)
        return True
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE leagues_result SET in_standings = %s "
            "WHERE id = %s AND season_id = %s AND status = %s AND in_standings = %s",
            [True, result.pk, season_id, Result.Status.COUNTED, False],
        )
        if cursor.rowcount != 1:
            return False
        # The game, and every entry of every game its players played, each marked whether it is folded into
        # this season's table: who shared a folded-in game with them, and how often. The query is driven by
        # ids (the game's entries, its players' entries, their games), so no plan can scan the season whatever
        # the statistics say of in_standings (a full recompute may just have set it on thousands of results).
        cursor.execute(
            "SELECT e.result_id, e.player_id, e.rank, e.score, r.season_id = %s AND r.in_standings "
            "FROM leagues_resultentry e JOIN leagues_result r ON r.id = e.result_id "
            "WHERE e.result_id IN (SELECT m.result_id FROM leagues_resultentry m WHERE m.player_id IN "
            "(SELECT g.player_id FROM leagues_resultentry g WHERE g.result_id = %s)) ORDER BY e.result_id, e.id",
            [season_id, result.pk])
        game, shared_games = [], {}
        for result_id, player, rank, score, folded in cursor.fetchall():
            if result_id == result.pk:
                game.append((player, rank, score))
            elif folded:
                shared_games.setdefault(result_id, []).append(player)
        players = [entry[0] for entry in game]
        co_play: dict[int, dict[int, int]] = {}
        for seated in shared_games.values():
            for player in players:
                if player in seated:
                    shared = co_play.setdefault(player, {})
                    for other in seated:
                        if other != player:
                            shared[other] = shared.get(other, 0) + 1
        # Only the rows the game changes are read: its players' and their past opponents'.
        concerned = set(players).union(*co_play.values())
        in_concerned, params = _in("player_id", concerned, "bigint")
        stored = _stored_standings(cursor, season_id, f"AND {in_concerned}", params)
        rows = _rows_of(stored)
        rules = _rules(season)
        try:
            changed, levels = standings_maths.apply_game(rows, game, co_play, **rules)
        except ValueError:  # the stored table lacks a player of the folded-in games: it is not to be trusted
            standings_compute(season=season)
            return True
        if levels:  # and the rows that shared a level with a changed row, before or after, for head_to_head
            width = len(next(iter(levels)))
            at_levels, params = _in(f"substr(sort_key, 1, {width})", levels, "bytea", hashed=True)
            mates = {player: values for player, values in _stored_standings(
                cursor, season_id, f"AND {at_levels}", params).items() if player not in rows}
            stored.update(mates)
            rows.update(_rows_of(mates))
            changed.extend(standings_maths.settle(rows.values(), levels, tie_breakers=rules["tie_breakers"],
                                                  head_to_head=_head_to_head_in_season(cursor, season_id)))
        _write_standings(cursor, season_id, list({row.player: row for row in changed}.values()), stored,
                         complete=False)
        cursor.execute("UPDATE leagues_season SET standings_results = standings_results + 1 WHERE id = %s",
                       [season_id])
    return True


@transaction.atomic
def result_withdraw_for_session(*, session) -> None:
    """An undo reopened a finished table: its result goes, unless it already counts for ratings."""
    result = Result.objects.select_for_update().filter(session=session).first()
    if result is None:
        return
    if result.status == Result.Status.COUNTED:
        raise Conflict(_("This game's result is signed off and counts in the ratings; ask a club admin to edit it."))
    result.delete()


def club_privacy_changed(*, club: Club) -> None:
    """A club turned private (or public): its results leave (or join) the site-wide ratings of their games."""
    games = Result.objects.filter(club=club, status=Result.Status.COUNTED).values_list("game", flat=True).distinct()
    from . import tasks

    for game in sorted(set(games)):
        tasks.ratings_recompute.delay_on_commit(RatingScope.GAME, game)
