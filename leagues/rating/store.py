"""The rating store: each scope's stored ratings and rating history, written from its counted results.

`ratings_recompute` and `ratings_apply_result` are what the rating jobs run; they are idempotent: ratings are a
fold over counted results in (played_on, id) order, so running one twice, or out of order, ends at the numbers
a full recompute gives. How rows reach the tables (binary COPY on PostgreSQL, the ORM elsewhere) stays here.
"""

from __future__ import annotations

import datetime
import zlib
from array import array
from collections import Counter
from collections.abc import Iterator
from itertools import accumulate

from django.db import connection, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery, Window
from django.db.models.functions import RowNumber

from leagues.models import League, Rating, RatingEvent, RatingFit, RatingScope, Result, ResultEntry
from leagues.models.bulk import (
    big_endian,
    binary_rows,
    copy_in_binary,
    copy_out_fixed,
    field_bytes,
    replace_binary,
    replace_rows,
    to_array,
)
from leagues.rating import display as rating_display
from leagues.rating import maths as rating_maths
from leagues.rating import partitions as rating_partitions
from leagues.rating import posterior


def result_scopes(result: Result) -> list[tuple[str, str]]:
    """A result counts in its league's ratings, and site-wide only when two different accounts signed it
    (`ranked_publicly`: no single account moves a public ranking) and it was not played in a private club
    (a private club's games stay inside the club): see docs/security.md."""
    public = result.ranked_publicly and (result.club_id is None or result.club.members_public)
    scopes = [(RatingScope.GAME, result.game)] if public else []
    if result.season_id:
        scopes.append((RatingScope.LEAGUE, str(result.season.league_id)))
    return scopes


def _lock_scope(kind: str, key: str) -> None:
    """Serialise rating writes per scope (PostgreSQL advisory lock, released at commit)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [5, zlib.crc32(f"{kind}:{key}".encode()) - 2**31])


def _counted_in_scope(kind: str, key: str, since: datetime.date | None = None):
    """The entries of the scope's counted results played on or after `since`, in rating order."""
    entries = ResultEntry.objects.filter(result__status=Result.Status.COUNTED)
    if kind == RatingScope.GAME:
        entries = entries.filter(
            Q(result__club__isnull=True) | Q(result__club__members_public=True),
            result__game=key,
            result__ranked_publicly=True,
        )
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
            "result_id", "result__played_on", "player_id", "rank"
        )
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
            self.rows = b"".join(self.rows[a * self.width : b * self.width] for a, b in keep)
        else:
            self.days = [d for a, b in keep for d in self.days[a:b]]
        sizes[:] = [b - a for a, b in keep]


_EVENT_COLUMNS = [
    "kind",
    "key",
    "result_id",
    "player_id",
    "played_on",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
]
_CHUNK = 20_000  # results folded between two writes of the history


def _history_chunks(kind: str, key: str, placings: _Placings, state: dict) -> Iterator[bytes]:
    """Fold the placings over `state` a chunk of results at a time, yielding each chunk's history rows as
    binary COPY data (PostgreSQL): the server stores a chunk while the next one is folded."""
    constant = [(len(text.encode()), text.encode(), False) for text in (kind, key)]
    bounds = placings.bounds
    for first in range(0, len(bounds) - 1, _CHUNK):
        last = min(first + _CHUNK, len(bounds) - 1)
        out = (array("d"), array("d"), array("d"), array("d"))
        rating_maths.fold_columns(placings.players, placings.ranks, bounds[first : last + 1], state, out)
        start, stop = bounds[first], bounds[last]
        yield binary_rows(
            stop - start,
            [
                *constant,
                (8, placings._field(0, start, stop), True),
                (8, placings._field(2, start, stop), True),
                (4, placings._field(1, start, stop), True),
                *((8, big_endian(column), True) for column in out),
            ],
        )


def _history_dicts(kind: str, key: str, placings: _Placings, state: dict) -> list[dict]:
    """The same history as dicts for `replace_rows` (the ORM path, for SQLite)."""
    out = (array("d"), array("d"), array("d"), array("d"))
    rating_maths.fold_columns(placings.players, placings.ranks, placings.bounds, state, out)
    return [
        {
            "kind": kind,
            "key": key,
            "result": placings.result_ids[j],
            "player": placings.players[j],
            "played_on": placings.days[j],
            "mu_before": out[0][j],
            "sigma_before": out[1][j],
            "mu_after": out[2][j],
            "sigma_after": out[3][j],
        }
        for j in range(len(placings.players))
    ]


def _write_events(
    kind: str, key: str, placings: _Placings, state: dict, scope, where: str, params: list, *, fresh: bool
) -> set[int]:
    """Rate `placings` over `state` (updated in place) and make the history rows of `scope` (the part of
    the scope being re-rated; `where` and `params` select the same rows in SQL, the table aliased `t`)
    exactly the changes. Returns the players of the rows deleted (their stored rating may have to go).

    On PostgreSQL the rows are streamed as binary COPY while the fold goes on: straight into the table when
    `fresh` (no stored row can share a key with them), else through `replace_binary`, which updates kept
    rows in place (with the free room RatingEvent's pages keep, without touching its indexes) and leaves
    unchanged ones alone."""
    if connection.vendor != "postgresql":
        gone = set(scope.values_list("player_id", flat=True).distinct())
        replace_rows(
            scope,
            _history_dicts(kind, key, placings, state),
            unique=["kind", "key", "result", "player"],
            update=["played_on", "mu_before", "sigma_before", "mu_after", "sigma_after"],
        )
        return gone
    chunks = _history_chunks(kind, key, placings, state)
    if fresh:
        copy_in_binary(RatingEvent._meta.db_table, _EVENT_COLUMNS, chunks)
        return set()
    return replace_binary(
        RatingEvent._meta.db_table,
        _EVENT_COLUMNS,
        chunks,
        unique=_EVENT_COLUMNS[:4],
        where=where,
        params=params,
        returning="player_id",
        analyze=rating_partitions.partition_name(key),
    )


def _write_ratings(kind: str, key: str, final: dict, players: set[int]) -> None:
    """The stored ratings of `players` from `final` ([mu, sigma, games] by player); a player left without
    rated games loses the row."""
    if not players:  # a scope with nothing counted and nobody rated (e.g. its only result stopped counting)
        return
    replace_rows(
        Rating.objects.filter(kind=kind, key=key, player_id__in=players),
        [
            {"kind": kind, "key": key, "player": pid, "mu": state[0], "sigma": state[1], "games": state[2]}
            for pid in players
            if (state := final.get(pid)) is not None and state[2] > 0
        ],
        unique=["kind", "key", "player"],
        update=["mu", "sigma", "games"],
    )


def _write_fit(kind: str, key: str) -> None:
    """The scope's own performance spread for its win chances (issue 40, leagues.rating.display
    .fitted_performance_sd), from the history just written: the ratings before each of its latest games and their
    ranks (the fit rates the window again itself); and its posterior skills (leagues.rating.posterior) over the
    same window, with each player's rating at its start as his prior. Two reads bounded by the fit's window
    whatever the scope's size (its last FIT_MAX_GAMES results by the history's index, and their rows), and three
    writes; a scope left without history loses its row."""
    events = RatingEvent.objects.filter(kind=kind, key=key)
    newest = events.order_by("-played_on", "-result_id").values_list("played_on", "result_id").distinct()
    window = [result_id for _day, result_id in newest[: rating_display.FIT_MAX_GAMES]]
    if not window:
        RatingFit.objects.filter(kind=kind, key=key).delete()
        return
    rank = ResultEntry.objects.filter(result_id=OuterRef("result_id"), player_id=OuterRef("player_id"))
    games: dict[int, list] = {result_id: [] for result_id in reversed(window)}  # in the order they were rated
    # a history row whose player has no entry in the result any more (an entry removed before the re-rate reaches
    # it, a row written by hand) has no place: it is left out of the fit, and so is a game left with one seat
    for result_id, player_id, mu, sigma, place in (
        events.filter(result_id__in=window)
        .annotate(place=Subquery(rank.values("rank")[:1]))
        .filter(place__isnull=False)
        .values_list("result_id", "player_id", "mu_before", "sigma_before", "place")
    ):
        games[result_id].append((player_id, mu, sigma, place))
    played = [seats for seats in games.values() if len(seats) > 1]
    # the posterior of the window, the rating each player had at its start as his prior (issue 50: read at any
    # size, no step where the window starts dropping games: leagues.rating.posterior.fit)
    before: dict[int, float] = {}
    first: set[int] = set()
    for seats in played:
        for player_id, mu, sigma, _place in seats:
            if player_id not in first:
                first.add(player_id)
                if sigma < rating_maths.DEFAULT_SIGMA:  # rated before the window: not new to the scope
                    before[player_id] = mu - rating_maths.DEFAULT_MU
    skills = posterior.fit(
        [[(player_id, place) for player_id, _mu, _sigma, place in seats] for seats in played],
        before,
        window=rating_display.FIT_MAX_GAMES,
    )
    RatingFit.objects.update_or_create(
        kind=kind,
        key=key,
        defaults={
            "performance_sd": rating_display.fitted_performance_sd(played),
            "skill_sd": skills.spread if skills is not None else None,
        },
    )
    _write_skills(kind, key, skills)


def _write_skills(kind: str, key: str, skills: posterior.Skills | None) -> None:
    """Each rating's chance_mean and chance_sd from the scope's posterior: a player of its window his own; one
    whose games all went before the window, slope × (mu − 25) and the residual sd (his rating carries those games:
    leagues.rating.posterior.Skills); all null when there is none. One statement for those outside the window,
    one for those in it. On PostgreSQL the values go in as three arrays (unnest): Django's bulk_update writes a
    CASE per row and took 2.8 s for the 2,000 players of bench/ratings.py's scope."""
    known = skills.players if skills is not None else {}
    ids = list(known)
    ratings = Rating.objects.filter(kind=kind, key=key)
    outside = ratings.exclude(player_id__in=ids)
    if skills is None:
        outside.filter(chance_mean__isnull=False).update(chance_mean=None, chance_sd=None)
    else:
        outside.update(
            chance_mean=skills.slope * (F("mu") - rating_maths.DEFAULT_MU),
            chance_sd=skills.residual if skills.residual is not None else skills.spread,
        )
    if connection.vendor != "postgresql":
        changed = [
            Rating(pk=pk, chance_mean=known[player_id][0], chance_sd=known[player_id][1])
            for pk, player_id in ratings.filter(player_id__in=ids).values_list("pk", "player_id")
        ]
        Rating.objects.bulk_update(changed, ["chance_mean", "chance_sd"], batch_size=1000)
        return
    if ids:
        table = connection.ops.quote_name(Rating._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS r SET chance_mean = v.mean, chance_sd = v.sd"
                " FROM unnest(%s::bigint[], %s::double precision[], %s::double precision[]) AS v(player_id, mean, sd)"
                " WHERE r.kind = %s AND r.key = %s AND r.player_id = v.player_id",
                [ids, [known[p][0] for p in ids], [known[p][1] for p in ids], kind, key],
            )


def _start_state(earlier) -> dict[int, list]:
    """Each player's rating after the last of the `earlier` history rows, and how many rows they have, in
    one set-based query: results are ordered by (played_on, result id), so ties on the day go by the id."""
    latest = (
        earlier.annotate(
            games=Window(Count("pk"), partition_by=[F("player_id")]),
            place=Window(
                RowNumber(), partition_by=[F("player_id")], order_by=[F("played_on").desc(), F("result_id").desc()]
            ),
        )
        .filter(place=1)
        .values_list("player_id", "mu_after", "sigma_after", "games")
    )
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
    if connection.vendor == "postgresql":
        rating_partitions.check_key(kind, key)
        if since is None and not rating_partitions.holds_rows(key):
            return _recompute_into_fresh_partition(kind, key)
        rating_partitions.ensure_partition(key)
    events = RatingEvent.objects.filter(kind=kind, key=key)
    where, params = "t.kind = %s AND t.key = %s", [kind, key]
    if since is None:
        stale, state = events, {}
    else:
        stale, state = events.filter(played_on__gte=since), _start_state(events.filter(played_on__lt=since))
        where, params = f"{where} AND t.played_on >= %s", [*params, since]
    # Every stored rating of the scope is rewritten from the fold (unchanged ones are left alone), not only those of
    # the players seated since: a deleted result takes its history rows with it before this job runs (Django's
    # cascade), so a player whose games were all in it is found only here, and loses the rating it leaves behind.
    players = set(Rating.objects.filter(kind=kind, key=key).values_list("player_id", flat=True))
    placings = _Placings(_counted_in_scope(kind, key, since))
    # A result whose date moved later may still have rows before `since`: the re-rate meets them on the
    # unique key and updates them, so the straight COPY is only for a scope that holds no rows at all.
    players |= _write_events(kind, key, placings, state, stale, where, params, fresh=not events.exists())
    _write_ratings(kind, key, state, players | set(placings.players))
    _write_fit(kind, key)
    return placings.counted


def _recompute_into_fresh_partition(kind: str, key: str) -> int:
    """The full recompute on PostgreSQL of a scope whose partition holds no rows (its first, or after its rows
    were dropped): the history goes into a fresh table, indexed once the rows are in, which replaces the scope's
    partition at the end (see rating_partitions). Nothing here reads or writes the partitioned table before that
    swap, so no other scope's work waits for this one.

    A scope that holds rows is re-rated in place instead (`_write_events`): ids kept, and a rerun that changes
    nothing (the nightly repair on a healthy site) writes nothing and takes no exclusive lock."""
    players = set(Rating.objects.filter(kind=kind, key=key).values_list("player_id", flat=True))
    placings = _Placings(_counted_in_scope(kind, key))
    state: dict = {}
    table = rating_partitions.fill_partition(
        key, lambda table: copy_in_binary(table, _EVENT_COLUMNS, _history_chunks(kind, key, placings, state))
    )
    _write_ratings(kind, key, state, players | set(placings.players))
    rating_partitions.swap_partition(key, table)  # it locks the history until the commit
    _write_fit(kind, key)
    return placings.counted


@transaction.atomic
def ratings_apply_result(*, result: Result) -> None:
    """Rate one newly counted result in each of its scopes: incrementally when it is the latest, else
    by re-rating from its date. Does nothing for a result already rated or no longer counted."""
    result = Result.objects.select_related("season", "club").get(pk=result.pk)
    if result.status != Result.Status.COUNTED:
        return
    for kind, key in result_scopes(result):
        _lock_scope(kind, key)
        if connection.vendor == "postgresql":
            rating_partitions.check_key(kind, key)
            rating_partitions.ensure_partition(key)
        events = RatingEvent.objects.filter(kind=kind, key=key)
        if events.filter(result=result).exists():
            continue
        later = (
            events.filter(played_on__gt=result.played_on).exists()
            or events.filter(played_on=result.played_on, result_id__gt=result.pk).exists()
        )
        if later:
            ratings_recompute(kind=kind, key=key, since=result.played_on)
            continue
        _synchronous_commit_off()
        placings = _Placings(ResultEntry.objects.filter(result=result))
        seated = set(placings.players)
        state = {
            r.player_id: [r.mu, r.sigma, r.games]
            for r in Rating.objects.filter(kind=kind, key=key, player_id__in=seated)
        }
        _write_events(
            kind,
            key,
            placings,
            state,
            events.filter(result=result),
            "t.kind = %s AND t.key = %s AND t.result_id = %s",
            [kind, key, result.pk],
            fresh=True,
        )
        _write_ratings(kind, key, state, seated)
        _write_fit(kind, key)


def rating_scopes() -> set[tuple[str, str]]:
    """Every scope with counted results or stored ratings."""
    scopes = {
        (RatingScope.GAME, g)
        for g in Result.objects.filter(status=Result.Status.COUNTED).values_list("game", flat=True).distinct()
    }
    scopes |= {(RatingScope.LEAGUE, str(pk)) for pk in League.objects.values_list("pk", flat=True)}
    scopes |= set(Rating.objects.values_list("kind", "key").distinct())
    return scopes
