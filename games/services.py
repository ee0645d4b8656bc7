"""Writes for table sessions: create a table, record a move, undo, rebuild the projection.

Every write locks the session row (`select_for_update`) before reading `head_seq`, so two phones
posting at once are serialised: one move lands, the other is told the table moved on (409).
"""

import random
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F, Model
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine
from games.engines.base import IllegalMove, InvalidMove, MoveError, Outcome, Phrase, replay
from games.plugins import GameAdapter, get_game
from shitenno_site.errors import Conflict, KeyReused

from . import heads, move_store, selectors, signals, stats_store
from .models import MoveEvent, Seat, TableSession
from .people import is_club_member, people, player_model


@dataclass(frozen=True)
class Recorded:
    event: MoveEvent
    replayed: bool  # True when an idempotency key matched an earlier submission
    state: dict  # the table's state right after this entry
    session: TableSession | None = None  # the row as the write left it (locked, updated in memory): the page
    # renders its answer from it; the services always set it


def _earlier(session: TableSession, event: MoveEvent) -> Recorded:
    """The first answer again, for a repeated idempotency key: the state as it was after that entry."""
    return Recorded(
        event, replayed=True, state=selectors.session_state_replayed(session, upto_seq=event.seq), session=session
    )


def _engine_or_400(game: str):
    try:
        return get_engine(game)
    except KeyError as exc:
        raise ValidationError({"game": _("Unknown game %(game)s.") % {"game": game}}) from exc


@transaction.atomic
def session_create(
    *,
    game: str,
    created_by: AbstractBaseUser,
    players: list[Model],
    setup: dict,
    colours: list[str] | None = None,
    club: Model | None = None,
    is_public: bool = True,
) -> TableSession:
    """Seat `players` in order (seat i plays setup's i-th part) and validate the set-up with the engine."""
    engine = _engine_or_400(game)
    if len({player.pk for player in players}) != len(players):
        raise ValidationError({"players": _("A player can take only one seat.")})
    if not engine.min_players <= len(players) <= engine.max_players:
        raise ValidationError(
            {
                "players": _("%(game)s is played by %(min)d to %(max)d players.")
                % {"game": engine.name, "min": engine.min_players, "max": engine.max_players}
            }
        )
    if club is not None and not is_club_member(club, created_by):
        raise PermissionDenied(_("Only members may start a table for this club."))
    state = engine.initial_state(setup)  # raises InvalidMove/IllegalMove with the reason
    if len(engine.score(state)) != len(players):  # one score per seat the set-up describes
        raise ValidationError(
            {
                "players": _("The set-up is for %(setup)d players, but %(seated)d are seated.")
                % {"setup": len(engine.score(state)), "seated": len(players)}
            }
        )
    session = TableSession.objects.create(
        game=game,
        rules_version=engine.rules_version,
        setup=setup,
        created_by=created_by,
        club=club,
        is_public=is_public,
        state=state,
    )
    colours = colours or []
    Seat.objects.bulk_create(
        Seat(session=session, position=i, player=player, colour=colours[i] if i < len(colours) else "")
        for i, player in enumerate(players)
    )
    heads.head_created(session)
    return session


def _lock(session: TableSession) -> TableSession:
    """The row of a table already read (the page showed it) again, locked: what the writer saw may be stale."""
    return TableSession.objects.select_for_update().get(pk=session.pk)


def _replayed(
    session: TableSession,
    idempotency_key: str | None,
    *,
    user: AbstractBaseUser,
    seq: int,
    kind: str,
    payload: dict | None,
) -> MoveEvent | None:
    """The entry an earlier submission with this key made, if the same writer sends the same request again.

    Who may write is checked first, so a key never hands anyone an answer they could not have had. A key that
    comes back from another writer, or with another request, is refused (422), not answered with the first
    request's result: the client would take that answer for its own request's.
    """
    if not idempotency_key:
        return None
    earlier = session.events.filter(idempotency_key=idempotency_key).first()
    if earlier is None:
        return None
    if not selectors.session_can_write(session, user):
        raise PermissionDenied(_("Only the table's creator, its seated players and its club's admins may do this."))
    same = (
        earlier.entered_by_id == user.pk
        and earlier.kind == kind
        and earlier.seq == seq + 1
        and (payload is None or earlier.payload == payload)
    )
    if not same:
        raise KeyReused(
            _(
                "This Idempotency-Key was already used for a different request at this table; send a new "
                "key with each new request."
            )
        )
    return earlier


def game_over(session: TableSession) -> IllegalMove:
    """A move on a finished table breaks the same rule as the engines' own "the game is over": one category
    (IllegalMove) and one rule code (`<game>.game_over`) whichever path refuses it."""
    return IllegalMove(_("This game is over; no more moves can be entered."), code=f"{session.game}.game_over")


def _check_writable(session: TableSession, user: AbstractBaseUser, seq: int) -> None:
    """Who may write, then (before the stale `seq`: a phone whose moves wait is told why they no longer count) a
    table settled without its moves (selectors.session_settled), then the phone's `seq`, then a finished game."""
    if not selectors.session_can_write(session, user):
        raise PermissionDenied(_("Only the table's creator, its seated players and its club's admins may do this."))
    settled = selectors.session_settled(session)
    if settled is not None:
        raise Conflict(settled.says, payload={"settled": settled.url})
    if seq != session.head_seq:  # checked first: a phone that missed the last move is told so
        raise Conflict(
            _("Someone else moved: the table is at move %(head)d, you saw move %(seq)d.")
            % {"head": session.head_seq, "seq": seq},
            payload={"head_seq": session.head_seq},
        )
    if session.status != TableSession.Status.PLAYING:
        raise game_over(session)


def _append(
    session: TableSession,
    *,
    user: AbstractBaseUser,
    kind: str,
    payload: dict,
    description: str,
    phrase: dict,
    idempotency_key: str | None,
    state: dict,
) -> tuple[MoveEvent, bool]:
    """Append one log entry and store the projection it leads to (games/move_store.py; an idempotency key used
    before raises KeyTaken and writes nothing); the entry, and whether the table had an outcome before it. The
    in-memory session is updated to match. What follows from the entry (the head, the statistics, the leagues'
    result) is `_appended`'s, called after this by the writer, outside its handling of refusals: a refusal raised
    there is the leagues' (a receiver refuses by raising), not the writer's, and rolls the whole move back."""
    outcome = get_engine(session.game).outcome(state)
    had_outcome = session.outcome is not None
    now = timezone.now()
    session.state = state
    session.outcome = outcome.to_json() if outcome else None
    session.status = TableSession.Status.FINISHED if outcome else TableSession.Status.PLAYING
    session.finished_at = now if outcome else None
    event = move_store.append(
        session,
        user=user,
        kind=kind,
        payload=payload,
        description=description,
        phrase=phrase,
        idempotency_key=idempotency_key,
        now=now,
    )
    return event, had_outcome


def _appended(session: TableSession, had_outcome: bool) -> None:
    """After an entry is appended, in its transaction: the poll's head, the game's statistics of a table that just
    finished or was reopened, and the leagues told of a finished table (its result is written in this transaction,
    games/signals.py; a receiver that refuses raises, and the caller's transaction takes the move back)."""
    heads.head_store(session)  # under the row's lock, before the commit: never older than the table
    if session.outcome is not None or had_outcome:  # finished, or reopened by an undo
        stats_store.table_changed(session)
    if session.outcome is not None:
        signals.table_finished.send(sender=TableSession, session=session)


@transaction.atomic
def move_record(
    *,
    session: TableSession | None = None,
    code: str | None = None,
    seq: int,
    move: dict,
    user: AbstractBaseUser,
    idempotency_key: str | None = None,
    same_move_on_replay: bool = True,
) -> Recorded:
    """Append `move` if it is legal on the state the writer saw (`seq`); nothing is written otherwise.

    The table is either `session`, a row the caller read already (the page), locked again here, or `code`, a
    table not read yet (the API's move post): found, locked and checked for whether the writer may see it in one
    query (404 as elsewhere). Exactly one of the two.

    A repeated idempotency key must come with the same move (the API's body), unless the caller builds the move
    from what the table shows now (the page's form: its seat is read from the table, which moved on after the
    first submission), when the writer and `seq` must match. The key's earlier entry is looked for only when
    the post would not be written otherwise (a stale `seq`, a refusal, or the key's unique index meeting it on
    insert), so a new key costs no query of its own, and a key seen before gets the answer it got before."""
    if (session is None) == (code is None):
        raise TypeError("move_record needs the table as a session or as a code, one of the two.")
    session = _lock(session) if code is None else selectors.session_locked_for_viewer(code=code, viewer=user)
    try:
        _check_writable(session, user, seq)
        if not isinstance(move, dict):
            raise InvalidMove(_("A move is a JSON object with a 'type'."))
        engine = get_engine(session.game)
        new_state = engine.apply(session.state, move)
        described = getattr(engine, "describe_phrase", None)  # a game without one is logged in its English only
        phrase = (
            described(session.state, move, checked=True)
            if described
            else engine.describe(session.state, move, checked=True)
        )
        event, had_outcome = _append(
            session,
            user=user,
            kind=MoveEvent.Kind.MOVE,
            payload=move,
            description=str(phrase)[:300],
            phrase=phrase.to_json() if isinstance(phrase, Phrase) else {},
            idempotency_key=idempotency_key,
            state=new_state,
        )
    except (PermissionDenied, Conflict, MoveError, move_store.KeyTaken):  # the checks, the engine and the key only
        earlier = _replayed(
            session,
            idempotency_key,
            user=user,
            seq=seq,
            kind=MoveEvent.Kind.MOVE,
            payload=move if same_move_on_replay else None,
        )
        if earlier is None:
            raise
        return _earlier(session, earlier)
    _appended(session, had_outcome)  # a refusal from here on (a receiver's) is not a replay: it takes the move back
    return Recorded(event, replayed=False, state=session.state, session=session)


@transaction.atomic
def move_undo(
    *, session: TableSession, seq: int, user: AbstractBaseUser, idempotency_key: str | None = None
) -> Recorded:
    """Take back the last standing move by appending an undo entry; the undone row stays in the log."""
    session = _lock(session)
    earlier = _replayed(session, idempotency_key, user=user, seq=seq, kind=MoveEvent.Kind.UNDO, payload=None)
    if earlier is not None:
        return _earlier(session, earlier)
    if session.status == TableSession.Status.FINISHED and selectors.session_can_write(session, user):
        signals.table_reopening.send(sender=TableSession, session=session, user=user)  # 409 once it counts
        session.status = TableSession.Status.PLAYING  # undoing the last move of a game reopens it
    _check_writable(session, user, seq)
    events = list(session.events.order_by("seq"))
    standing = selectors.effective_moves(events)
    if not standing:
        raise InvalidMove(_("There is no move to undo."))
    undone = standing.pop()
    event, had_outcome = _append(
        session,
        user=user,
        kind=MoveEvent.Kind.UNDO,
        payload={"undoes": undone.seq},
        description=_("Undo: %(move)s") % {"move": undone.description},
        phrase={"code": "site.undo", "params": {"move": undone.phrase or undone.description}},
        idempotency_key=idempotency_key,
        state=replay(get_engine(session.game), session.setup, [e.payload for e in standing]),
    )
    _appended(session, had_outcome)
    signals.move_undone.send(sender=TableSession, session=session, user=user, event=event, undone=undone)
    return Recorded(event, replayed=False, state=session.state, session=session)


@transaction.atomic
def session_rebuild(*, session: TableSession) -> TableSession:
    """Throw the cached projection away and rebuild it from the log. The log's head does not move, so the
    rebuild counts itself: a new table version, so no phone keeps a body cached from the old state."""
    session = _lock(session)
    session.state = selectors.session_state_replayed(session)
    outcome = get_engine(session.game).outcome(session.state)
    session.outcome = outcome.to_json() if outcome else None
    session.rebuilds += 1
    session.save(update_fields=["state", "outcome", "rebuilds", "updated_at"])
    stats_store.table_changed(session)  # a rules fix may change a finished table's outcome
    heads.head_forget(session.code)  # a new version: the poll asks the database until the next move stores one
    return session


@transaction.atomic
def tables_touched(*, sessions: Iterable[int]) -> int:
    """What these tables' pages show changed outside their logs (the owner of results settled one without its
    moves, or took that back: people.Settled): each one still playing gets a new version, as a rebuild does, so
    every phone's poll renders it again instead of answering 204 from the version it holds. Returns how many.

    The rows are locked in the order of their ids (two such writers never wait for each other crosswise) and held
    to the caller's commit: a move being written at one of them is waited for, and a move after this waits for
    the caller, then counts this version (`_append` stores what it locked)."""
    codes = list(
        TableSession.objects.select_for_update()
        .filter(pk__in=list(sessions), status=TableSession.Status.PLAYING)
        .order_by("pk")
        .values_list("code", flat=True)
    )
    if not codes:
        return 0
    touched = TableSession.objects.filter(code__in=codes).update(rebuilds=F("rebuilds") + 1)
    for code in codes:
        heads.head_forget(code)
    return touched


def players_in_order(ids: list[int]) -> list[Model]:
    """The players named by `ids`, in that order; a 400 naming any id that does not exist."""
    by_id = player_model().objects.in_bulk(ids)
    missing = [pk for pk in ids if pk not in by_id]
    if missing:
        raise ValidationError({"players": [_("No player with id %(id)s.") % {"id": pk} for pk in missing]})
    return [by_id[pk] for pk in ids]


def _game_or_400(game: str) -> GameAdapter:
    try:
        return get_game(game)
    except KeyError as exc:
        raise ValidationError({"game": _("Unknown game %(game)s.") % {"game": game}}) from exc


def setup_dealt(*, game: str, setup: dict, rng) -> dict:
    """The set-up with what the site deals at random filled in by the game (GameAdapter.deal: each game says what
    its random start is)."""
    return _game_or_400(game).deal(setup, rng)


def final_count(*, game: str, end: dict) -> Outcome:
    """The outcome of a game's end state entered by hand; a 400 for a game without a final count."""
    adapter = _game_or_400(game)
    if adapter.final_count_form_class is None:
        raise ValidationError({"game": _("%(game)s has no final-count calculator.") % {"game": adapter.name}})
    return adapter.final_count(end)


@transaction.atomic
def final_count_record(
    *, game: str, end: dict, players: list[Model], created_by: AbstractBaseUser, club: Model | None = None
) -> TableSession:
    """Save a table that entered only its end state as a finished session with its outcome."""
    outcome = final_count(game=game, end=end)
    if len(players) != len(outcome.placings):
        raise ValidationError(
            {"save_with_players": _("Name one player per seat: %(n)d.") % {"n": len(outcome.placings)}}
        )
    if len({player.pk for player in players}) != len(players):
        raise ValidationError({"save_with_players": _("A player can take only one seat.")})
    if club is not None and not is_club_member(club, created_by):
        raise PermissionDenied(_("Only members may save a table for this club."))
    engine = get_engine(game)
    session = TableSession.objects.create(
        game=engine.slug,
        rules_version=engine.rules_version,
        entry=TableSession.Entry.FINAL_COUNT,
        setup={"final_count": end},
        created_by=created_by,
        club=club,
        state={"final_count": end},
        outcome=outcome.to_json(),
        status=TableSession.Status.FINISHED,
        finished_at=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(session=session, position=i, player=p) for i, p in enumerate(players))
    signals.table_finished.send(sender=TableSession, session=session)
    return session


@transaction.atomic
def table_open(
    *,
    game: str,
    created_by: AbstractBaseUser,
    seats: list[dict],
    setup: dict,
    deal: bool = False,
    rng=None,
    club: Model | None = None,
    is_public: bool = True,
) -> TableSession:
    """Open a table of any game, for the new-table page and the API alike: guests named there are created
    with the session, in one transaction, so a refused set-up leaves no stray guest behind.

    Each seat is {"player": Player | None, "guest_name": str, "colour": str}, in seat order; a seat names a
    player or a guest. With `deal`, the game deals the set-up's random parts first (GameAdapter.deal).
    """
    adapter = _game_or_400(game)
    if deal:
        setup = adapter.deal(setup, rng or random.SystemRandom())
    seated: list[Model] = []
    for seat in seats:
        player = seat.get("player")
        if player is None:
            player = people().guest_create(name=seat.get("guest_name", ""), created_by=created_by)
        seated.append(player)
    return session_create(
        game=adapter.slug,
        created_by=created_by,
        players=seated,
        setup=setup,
        colours=[seat.get("colour", "") for seat in seats],
        club=club,
        is_public=is_public,
    )


@transaction.atomic
def seats_withdraw(*, sessions: Iterable[int], player: Model) -> int:
    """The player's seats at these tables, while they are still being played, no longer let him read or move there
    (the club that seated him has removed him: the owner of clubs says which tables, games.people). The game goes
    on: its creator and the club's admins enter his moves or end it. Returns how many seats were withdrawn."""
    return Seat.objects.filter(
        session_id__in=sessions, player=player, withdrawn_at__isnull=True, session__status=TableSession.Status.PLAYING
    ).update(withdrawn_at=timezone.now())
