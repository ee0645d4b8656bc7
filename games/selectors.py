"""Reads for table sessions, with who-may-see and who-may-write decided here only."""

from collections.abc import Iterable
from typing import NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import connection
from django.db.models import Model, Prefetch, Q, QuerySet, prefetch_related_objects
from django.http import Http404
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.engines.base import replay

from . import move_store
from .models import MoveEvent, Seat, TableSession
from .people import SEAT_PLAYER_NAME, Settled, club_member_q, is_club_member, people, seated_q


def _visible_q(viewer: AbstractBaseUser) -> Q:
    if viewer.is_superuser:
        return Q()
    visible = Q(is_public=True)
    if viewer.is_authenticated:
        visible |= Q(created_by=viewer) | seated_q(viewer) | club_member_q(viewer)
    return visible


# One query for seats and players, in seat order within each table: not by Seat's own ordering, whose first key
# (its table's creation) joins every table to sort a page's few seats.
_SEATS = Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("session_id", "position"))


def sessions_visible(viewer: AbstractBaseUser) -> QuerySet[TableSession]:
    """The tables the viewer may see. A visitor's (public tables) and a superuser's (all) are a plain filter; a
    signed-in viewer's visibility joins seats and memberships, which could repeat a table, so it is a subquery of
    ids. The plain filter matters for lists read a page at a time: the subquery made PostgreSQL hash every public
    table of the site to list a player's latest 20 (issue 18)."""
    visible = _visible_q(viewer)
    if viewer.is_superuser or not viewer.is_authenticated:
        tables = TableSession.objects.filter(visible)
    else:
        tables = TableSession.objects.filter(pk__in=TableSession.objects.filter(visible).values("pk"))
    return tables.select_related("club").prefetch_related(_SEATS)


def sessions_visible_q(viewer: AbstractBaseUser, *, through: str) -> Q:
    """The condition that the table a row points at (by the relation `through`, e.g. "session") is one the viewer
    may see, for queries of seats or results: a plain condition on the joined table for a visitor or a superuser,
    a subquery of ids (sessions_visible) for a signed-in viewer. A superuser's is always true (not an empty Q,
    which an OR with another condition would drop)."""
    if viewer.is_superuser:
        return Q(pk__isnull=False)
    if not viewer.is_authenticated:
        return Q(**{f"{through}__is_public": True})
    return Q(**{f"{through}__in": sessions_visible(viewer).values("pk")})


def _may_see(session: TableSession, viewer: AbstractBaseUser) -> bool:
    """Public tables are decided without a query; the visibility joins run only for private ones."""
    return (
        session.is_public
        or viewer.is_superuser
        or TableSession.objects.filter(_visible_q(viewer), pk=session.pk).exists()
    )


def _rated_seats(session: TableSession) -> Prefetch:
    """The seats with each player's rating, as columns of the seats' own query (the owner of ratings adds them,
    games.people, in the scope it chooses for the table: its league's or its game's), so the table page's win
    chances (issue 29) cost no query of their own."""
    return Prefetch(
        "seats",
        queryset=people().seats_rated(
            Seat.objects.select_related("player").order_by("session_id", "position"), session
        ),
    )


def session_for_viewer(*, code: str, viewer: AbstractBaseUser, seats: bool = True, rated: bool = False) -> TableSession:
    """404 for a table the viewer may not see, so its existence is not revealed. Writers, who only need
    the row the service locks (and reads whole) anyway, pass seats=False and get the row's id only; the table's
    page passes rated=True for the seats' ratings (_rated_seats)."""
    rows = TableSession.objects.select_related("club") if seats else TableSession.objects.only("pk", "is_public")
    session = rows.filter(code=code).first()
    if session is None or not _may_see(session, viewer):
        raise Http404(_("No such table, or it is private."))
    if seats:
        prefetch_related_objects([session], _rated_seats(session) if rated else _SEATS)
    return session


def session_locked_for_viewer(*, code: str, viewer: AbstractBaseUser) -> TableSession:
    """The table's row locked for a write (inside the writer's transaction), found by its code: the API's move
    post finds and locks it in one round trip (games/move_store.py). Who may see and write is asked as elsewhere
    (no query for a public table and its creator): folding those questions into the locking query as EXISTS
    columns saved a round trip but cost PostgreSQL 0.5 ms of planning on every post (measured with EXPLAIN
    ANALYZE, 2026-11-26), more than the round trip. 404 as session_for_viewer."""
    session = move_store.locked_by_code(code)
    if session is None or not _may_see(session, viewer):
        raise Http404(_("No such table, or it is private."))
    return session


def session_reload(session: TableSession) -> None:
    """The row again after a write, with its seats and players (a refresh drops what was prefetched)."""
    session.refresh_from_db()
    prefetch_related_objects([session], _SEATS)


def session_written(session: TableSession, written: TableSession) -> None:
    """The row as a write left it (`written`: the service's locked copy, updated in memory) copied onto the page's
    `session`, which keeps its club and seats (a move or an undo changes neither). The answer to a move is then
    rendered from what the page read and what the write locked, without reading the table a third time."""
    for field in TableSession._meta.concrete_fields:
        if field.attname in written.__dict__:  # a field the locked copy left out is not loaded for this
            setattr(session, field.attname, getattr(written, field.attname))


class Head(NamedTuple):
    """What a poll needs of a table before deciding whether to answer at all."""

    pk: int
    game: str
    head_seq: int
    rebuilds: int  # a rebuild from the log is a new version of the table too
    is_public: bool
    created_by_id: int | None
    club_id: int | None


_HEAD_SQL = (
    "SELECT id, game, head_seq, rebuilds, is_public, created_by_id, club_id"
    f" FROM {TableSession._meta.db_table} WHERE code = %s"
)


def _head_row(code: str) -> Head | None:
    """One indexed read of the table's head, in plain SQL: every phone asks this every 1.5 s, and the ORM's
    own work to build the query costs about what the query does."""
    with connection.cursor() as cursor:
        cursor.execute(_HEAD_SQL, [code])
        row = cursor.fetchone()
    return Head(*row) if row else None


def session_head(*, code: str, viewer: AbstractBaseUser) -> Head | None:
    """A table's head, or None when the viewer may not see it (as for no table at all). A public table is
    answered without reading the viewer, so the poll of an unchanged public table costs one indexed query."""
    head = _head_row(code)
    if head is None or head.is_public or viewer.is_superuser:
        return head
    return head if TableSession.objects.filter(_visible_q(viewer), pk=head.pk).exists() else None


def head_can_write(head: Head, user: AbstractBaseUser) -> bool:
    """session_can_write for a poll, from the head alone: the seats and the club's admins in one query."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or head.created_by_id == user.pk:
        return True
    writer = seated_q(user)
    if head.club_id is not None:
        writer |= club_member_q(user, roles=people().writer_roles)
    return TableSession.objects.filter(writer, pk=head.pk).exists()


def session_can_write(session: TableSession, user: AbstractBaseUser) -> bool:
    """The creator, the seated players' users (a withdrawn seat aside) and the club's admins may enter moves."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or session.created_by_id == user.pk:
        return True
    seated = getattr(session, "_prefetched_objects_cache", {}).get("seats")  # the pages have them loaded
    if seated is not None:
        if any(seat.player.user_id == user.pk and seat.withdrawn_at is None for seat in seated):
            return True
    elif session.seats.filter(seated_q(user, through="")).exists():
        return True
    return session.club_id is not None and is_club_member(session.club_id, user, roles=people().writer_roles)


def session_settled(session: TableSession) -> Settled | None:
    """Whether a table still playing was settled without its moves (people.Settled: a league night's table whose
    game was entered by hand), so that its page offers no move and its writes are refused. Asked of the owner of
    results only for a club's table played by moves: a table outside any club (most of the site's) costs nothing."""
    if (
        session.club_id is None
        or session.status != TableSession.Status.PLAYING
        or session.entry != TableSession.Entry.MOVES
    ):
        return None
    return people().table_settled(session)


def sessions_settled(sessions: Iterable[TableSession]) -> set[int]:
    """The ids of those of `sessions` settled without their moves (`session_settled`, for a list of tables: the
    lists say "finished" for them). One question to the owner of results for the whole list, asked only about a
    club's tables still played by moves: a list without any costs nothing."""
    asked = [
        s.pk
        for s in sessions
        if s.club_id is not None and s.status == TableSession.Status.PLAYING and s.entry == TableSession.Entry.MOVES
    ]
    return people().tables_settled(asked) if asked else set()


def effective_moves(events: Iterable[MoveEvent]) -> list[MoveEvent]:
    """The moves still standing: each undo takes back the last move not yet taken back."""
    standing: list[MoveEvent] = []
    for event in events:
        if event.kind == MoveEvent.Kind.UNDO:
            standing.pop()
        else:
            standing.append(event)
    return standing


def undone_seqs(events: Iterable[MoveEvent]) -> set[int]:
    undone: set[int] = set()
    standing: list[MoveEvent] = []
    for event in events:
        if event.kind == MoveEvent.Kind.UNDO:
            undone.add(standing.pop().seq)
        else:
            standing.append(event)
    return undone


def undone_among(session: TableSession, events: list[MoveEvent]) -> set[int]:
    """undone_seqs for a page of the log: an undo entry names the move it took back, so the undos that take back
    these entries are found by that name, without reading the whole log."""
    if not events:
        return set()
    first, last = events[0].seq, events[-1].seq
    undos = session.events.filter(
        kind=MoveEvent.Kind.UNDO, seq__gt=first, payload__undoes__gte=first, payload__undoes__lte=last
    )
    return {payload["undoes"] for payload in undos.values_list("payload", flat=True)}


def session_recent(session: TableSession, *, count: int = 3) -> tuple[list[MoveEvent], MoveEvent | None]:
    """The last `count` log entries, newest first, and the last move still standing.

    The log is read backwards only as far as needed (each undo takes back the next older standing move),
    so a table with 150 entries costs what a table with 1 costs; only a long run of undos reads further.
    """
    recent: list[MoveEvent] = []
    last: MoveEvent | None = None
    undos = 0
    window = max(count, 16)
    log = session.events.only("session", "seq", "kind", "description", "phrase")  # what the page shows of them
    batch = list(log.order_by("-seq")[:window])
    while batch:
        for event in batch:
            if len(recent) < count:
                recent.append(event)
            if last is not None:
                continue
            if event.kind == MoveEvent.Kind.UNDO:
                undos += 1
            elif undos:
                undos -= 1
            else:
                last = event
        if last is not None or len(batch) < window:
            break
        batch = list(log.filter(seq__lt=batch[-1].seq).order_by("-seq"))  # a run of undos: read the rest
        window = len(batch) + 1
    return recent, last


def session_state_replayed(session: TableSession, *, upto_seq: int | None = None) -> dict:
    """The state rebuilt from the log alone (the cached projection is not trusted here)."""
    events = session.events.order_by("seq")
    if upto_seq is not None:
        events = events.filter(seq__lte=upto_seq)
    moves = [event.payload for event in effective_moves(events)]
    return replay(get_engine(session.game), session.setup, moves)


def seat_names(session_ids: list[int]) -> dict[int, list[str]]:
    """The names of the players at each of these tables, in seat order: one query of names, for lists of tables."""
    names: dict[int, list[str]] = {}
    for session_id, name in (
        Seat.objects.filter(session_id__in=session_ids)
        .order_by("session_id", "position")
        .values_list("session_id", SEAT_PLAYER_NAME)
    ):
        names.setdefault(session_id, []).append(name)
    return names


def sessions_for_player(*, player: Model, viewer: AbstractBaseUser) -> QuerySet[TableSession]:
    return sessions_visible(viewer).filter(seats__player=player).order_by("-created_at")


def sessions_for_club(*, club: Model, viewer: AbstractBaseUser) -> QuerySet[TableSession]:
    return sessions_visible(viewer).filter(club=club).order_by("-created_at")


def sessions_for_home(*, viewer: AbstractBaseUser) -> QuerySet[TableSession]:
    if not viewer.is_authenticated:
        return sessions_visible(viewer).filter(status=TableSession.Status.FINISHED).order_by("-finished_at")[:10]
    mine = Q(created_by=viewer) | seated_q(viewer)
    ids = TableSession.objects.filter(mine).values("pk")
    return sessions_visible(viewer).filter(pk__in=ids).order_by("-updated_at")[:10]


def session_playing_now() -> TableSession | None:
    """The public table in play most recently moved on: the logged-out home page shows it, so a newcomer sees a
    real game being scored before signing up."""
    return (
        TableSession.objects.filter(is_public=True, status=TableSession.Status.PLAYING)
        .select_related("club")
        .prefetch_related(_SEATS)
        .order_by("-updated_at")
        .first()
    )


def session_hint(session: TableSession) -> dict | None:
    """What can be played now; None for a table that entered only its final count."""
    if session.entry == TableSession.Entry.FINAL_COUNT:
        return None
    return get_engine(session.game).hint(session.state)


def session_score(session: TableSession) -> list[int]:
    """Each seat's score so far in the game's own unit; for a table that entered only its final count, the
    count's."""
    if session.entry == TableSession.Entry.FINAL_COUNT:
        by_seat = {p["seat"]: p["score"] for p in session.outcome["placings"]}
        return [by_seat[seat] for seat in sorted(by_seat)]
    return get_engine(session.game).score(session.state)


# --- a game's statistics from the move logs (issue 5) ---


def game_stats(*, game: str, viewer: AbstractBaseUser) -> dict:
    """A game's statistics (GameAdapter.stats) over the finished move-by-move tables the viewer may see."""
    from games.plugins import get_game

    return get_game(game).stats_present(game_stats_tally(game=game, viewer=viewer))


def game_stats_tally(*, game: str, viewer: AbstractBaseUser) -> dict:
    """The tally (games.plugins.tally) of the finished move-by-move tables the viewer may see: what `game_stats`
    presents, and what the page's seat and faction balance is counted from (games/balance_stats.py).

    The public tables' tally is stored and kept up to date as tables finish or are reopened (games/stats_store.py),
    so it is one row however many tables there are; the private tables the viewer may see (their own, their
    clubs') are counted live and added to it. One query for a visitor, two for a signed-in reader."""
    from games import stats_store
    from games.plugins import TableRow, get_game

    adapter = get_game(game)
    tally = stats_store.public_tally(adapter)
    if viewer.is_authenticated:
        private = TableSession.objects.filter(
            game=game,
            entry=TableSession.Entry.MOVES,
            status=TableSession.Status.FINISHED,
            is_public=False,
        ).order_by()  # the private finished tables' partial index: public tables, however many, are not read
        if not viewer.is_superuser:
            # The private part of _visible_q, from the viewer's side: the tables they made, sat at or whose club
            # they belong to, each found by its own index. Asked of every private table instead, the read grew
            # with the site's private tables, not with the reader's.
            private = private.filter(
                pk__in=private.filter(created_by=viewer)
                .values("pk")
                .union(
                    private.filter(seated_q(viewer)).values("pk"), private.filter(club_member_q(viewer)).values("pk")
                )
            )
        private = private.values_list("setup", "outcome")
        tally = adapter.stats_merge(
            tally, adapter.stats_tally(TableRow(setup, outcome) for setup, outcome in private.iterator(chunk_size=2000))
        )
    return tally


def player_seats_finished(*, player: Model, game: str | list[str], viewer: AbstractBaseUser) -> QuerySet[Seat]:
    """The player's seats at finished move-by-move tables of `game` (or of any of a list of games) the viewer may
    see (for the game's part of the player's page, GameAdapter.player_stats)."""
    games = {"session__game__in": game} if isinstance(game, list) else {"session__game": game}
    return (
        Seat.objects.filter(
            player=player,
            **games,
            session__entry=TableSession.Entry.MOVES,
            session__status=TableSession.Status.FINISHED,
        )
        .filter(sessions_visible_q(viewer, through="session"))
        .order_by()
    )


def session_result(session: TableSession, viewer: AbstractBaseUser) -> dict | None:
    """A finished table's result as its API answer carries it (games.api.views.TableResultOutput), asked of the
    owner of results (games keep none): None for a table still playing, without asking anybody."""
    if session.status != TableSession.Status.FINISHED:
        return None
    ask = people().table_result
    return ask(session, viewer) if ask is not None else None
