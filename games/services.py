"""Writes for table sessions: create a table, record a move, undo, rebuild the projection.

Every write locks the session row (`select_for_update`) before reading `head_seq`, so two phones
posting at once are serialised: one move lands, the other is told the table moved on (409).
"""

import random
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import get_engine, shitenno
from games.engines.base import InvalidMove, Outcome, replay
from leagues import league_services
from leagues import services as league_player_services
from leagues.audit import audit_record
from leagues.models import Club, Membership, Player
from shitenno_site.errors import Conflict

from . import selectors
from .models import MoveEvent, Seat, TableSession


@dataclass(frozen=True)
class Recorded:
    event: MoveEvent
    replayed: bool  # True when an idempotency key matched an earlier submission
    state: dict  # the table's state right after this entry


def _earlier(session: TableSession, event: MoveEvent) -> Recorded:
    """The first answer again, for a repeated idempotency key: the state as it was after that entry."""
    return Recorded(event, replayed=True, state=selectors.session_state_replayed(session, upto_seq=event.seq))


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
    players: list[Player],
    setup: dict,
    colours: list[str] | None = None,
    club: Club | None = None,
    is_public: bool = True,
) -> TableSession:
    """Seat `players` in order (seat i plays setup's i-th part) and validate the set-up with the engine."""
    engine = _engine_or_400(game)
    if len({player.pk for player in players}) != len(players):
        raise ValidationError({"players": _("A player can take only one seat.")})
    if not engine.min_players <= len(players) <= engine.max_players:
        raise ValidationError({"players": _("%(game)s is played by %(min)d to %(max)d players.") % {
            "game": engine.name, "min": engine.min_players, "max": engine.max_players}})
    if club is not None and not Membership.objects.filter(club=club, player__user=created_by).exists():
        raise PermissionDenied(_("Only members may start a table for this club."))
    state = engine.initial_state(setup)  # raises InvalidMove/IllegalMove with the reason
    session = TableSession.objects.create(
        game=game, rules_version=engine.rules_version, setup=setup, created_by=created_by,
        club=club, is_public=is_public, state=state,
    )
    colours = colours or []
    Seat.objects.bulk_create(
        Seat(session=session, position=i, player=player, colour=colours[i] if i < len(colours) else "")
        for i, player in enumerate(players)
    )
    return session


def _lock(session: TableSession) -> TableSession:
    return TableSession.objects.select_for_update().get(pk=session.pk)


def _replayed(session: TableSession, idempotency_key: str | None) -> MoveEvent | None:
    if not idempotency_key:
        return None
    return session.events.filter(idempotency_key=idempotency_key).first()


def _check_writable(session: TableSession, user: AbstractBaseUser, seq: int) -> None:
    if not selectors.session_can_write(session, user):
        raise PermissionDenied(_("Only the table's creator, its seated players and its club's admins may do this."))
    if seq != session.head_seq:  # checked first: a phone that missed the last move is told so
        raise Conflict(
            _("Someone else moved: the table is at move %(head)d, you saw move %(seq)d.")
            % {"head": session.head_seq, "seq": seq},
            payload={"head_seq": session.head_seq},
        )
    if session.status != TableSession.Status.PLAYING:
        raise InvalidMove(_("This game is over; no more moves can be entered."))


def _advance(session: TableSession, state: dict) -> None:
    """Store the new projection; a game that just ended hands its result to the leagues."""
    engine = get_engine(session.game)
    session.state = state
    outcome = engine.outcome(state)
    session.outcome = outcome.to_json() if outcome else None
    session.status = TableSession.Status.FINISHED if outcome else TableSession.Status.PLAYING
    session.finished_at = timezone.now() if outcome else None
    session.head_seq += 1
    session.save(update_fields=["state", "outcome", "status", "finished_at", "head_seq", "updated_at"])
    if outcome:
        league_services.result_from_session(session=session)


@transaction.atomic
def move_record(
    *, session: TableSession, seq: int, move: dict, user: AbstractBaseUser, idempotency_key: str | None = None
) -> Recorded:
    """Append `move` if it is legal on the state the writer saw (`seq`); nothing is written otherwise."""
    session = _lock(session)
    if (earlier := _replayed(session, idempotency_key)) is not None:
        return _earlier(session, earlier)
    _check_writable(session, user, seq)
    if not isinstance(move, dict):
        raise InvalidMove(_("A move is a JSON object with a 'type'."))
    engine = get_engine(session.game)
    new_state = engine.apply(session.state, move)
    event = MoveEvent.objects.create(
        session=session, seq=session.head_seq + 1, kind=MoveEvent.Kind.MOVE, payload=move,
        description=engine.describe(session.state, move, checked=True)[:300], entered_by=user,
        idempotency_key=idempotency_key,
    )
    _advance(session, new_state)
    return Recorded(event, replayed=False, state=session.state)


@transaction.atomic
def move_undo(
    *, session: TableSession, seq: int, user: AbstractBaseUser, idempotency_key: str | None = None
) -> Recorded:
    """Take back the last standing move by appending an undo entry; the undone row stays in the log."""
    session = _lock(session)
    if (earlier := _replayed(session, idempotency_key)) is not None:
        return _earlier(session, earlier)
    if session.status == TableSession.Status.FINISHED and selectors.session_can_write(session, user):
        league_services.result_withdraw_for_session(session=session)  # 409 once the result counts
        session.status = TableSession.Status.PLAYING  # undoing the last move of a game reopens it
    _check_writable(session, user, seq)
    events = list(session.events.order_by("seq"))
    standing = selectors.effective_moves(events)
    if not standing:
        raise InvalidMove(_("There is no move to undo."))
    undone = standing.pop()
    event = MoveEvent.objects.create(
        session=session, seq=session.head_seq + 1, kind=MoveEvent.Kind.UNDO, payload={"undoes": undone.seq},
        description=_("Undo: %(move)s") % {"move": undone.description}, entered_by=user,
        idempotency_key=idempotency_key,
    )
    _advance(session, replay(get_engine(session.game), session.setup, [e.payload for e in standing]))
    audit_record(action="move.undo", obj=session, user=user, club=session.club_id,
                 details={"table": session.code, "seq": event.seq, "undoes": undone.seq, "move": undone.description})
    return Recorded(event, replayed=False, state=session.state)


@transaction.atomic
def session_rebuild(*, session: TableSession) -> TableSession:
    """Throw the cached projection away and rebuild it from the log."""
    session = _lock(session)
    session.state = selectors.session_state_replayed(session)
    outcome = get_engine(session.game).outcome(session.state)
    session.outcome = outcome.to_json() if outcome else None
    session.save(update_fields=["state", "outcome", "updated_at"])
    return session


def players_in_order(ids: list[int]) -> list[Player]:
    """The players named by `ids`, in that order; a 400 naming any id that does not exist."""
    by_id = Player.objects.in_bulk(ids)
    missing = [pk for pk in ids if pk not in by_id]
    if missing:
        raise ValidationError({"players": [_("No player with id %(id)s.") % {"id": pk} for pk in missing]})
    return [by_id[pk] for pk in ids]


def setup_with_dealt_titles(*, game: str, setup: dict, rng) -> dict:
    """The set-up with the starting titles dealt by the site, for tables that ask it to deal."""
    if game != shitenno.ShitennoEngine.slug:
        raise ValidationError({"deal_titles": _("The site deals titles for Shitennō only.")})
    players = setup.get("players") if isinstance(setup, dict) else None
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise InvalidMove(_('The set-up needs "players": a list such as [{"general": "honda"}, ...].'))
    generals = [p.get("general") for p in players]
    if not all(isinstance(g, str) for g in generals):  # dealt titles are keyed by general: names only
        raise InvalidMove(_('Each player of the set-up names a general, e.g. {"general": "honda"}.'))
    return {**setup, "titles": shitenno.deal_titles(generals, rng)}


def final_count(*, end: dict) -> Outcome:
    return shitenno.final_count(end)


@transaction.atomic
def final_count_record(
    *, end: dict, players: list[Player], created_by: AbstractBaseUser, club: Club | None = None
) -> TableSession:
    """Save a table that entered only its end state as a finished session with its outcome."""
    outcome = shitenno.final_count(end)
    if len(players) != len(outcome.placings):
        raise ValidationError({"save_with_players": _("Name one player per seat: %(n)d.") % {
            "n": len(outcome.placings)}})
    if len({player.pk for player in players}) != len(players):
        raise ValidationError({"save_with_players": _("A player can take only one seat.")})
    if club is not None and not Membership.objects.filter(club=club, player__user=created_by).exists():
        raise PermissionDenied(_("Only members may save a table for this club."))
    engine = get_engine(shitenno.ShitennoEngine.slug)
    session = TableSession.objects.create(
        game=engine.slug, rules_version=engine.rules_version, entry=TableSession.Entry.FINAL_COUNT,
        setup={"final_count": end}, created_by=created_by, club=club, state={"final_count": end},
        outcome=outcome.to_json(), status=TableSession.Status.FINISHED, finished_at=timezone.now(),
    )
    Seat.objects.bulk_create(Seat(session=session, position=i, player=p) for i, p in enumerate(players))
    league_services.result_from_session(session=session)
    return session


@transaction.atomic
def table_open(
    *,
    created_by: AbstractBaseUser,
    seats: list[dict],
    gates: dict[str, str],
    deal_titles: bool = False,
    rng=None,
    club: Club | None = None,
    is_public: bool = True,
) -> TableSession:
    """Open a Shitennō table from the new-table page: guests named there are created with the session,
    in one transaction, so a refused set-up leaves no stray guest behind.

    Each seat is {"player": Player | None, "guest_name": str, "general": slug, "colour": str,
    "title": slug | ""}; a seat names a player or a guest.
    """
    players: list[Player] = []
    for seat in seats:
        player = seat.get("player")
        if player is None:
            player = league_player_services.player_guest_create(name=seat.get("guest_name", ""), created_by=created_by)
        players.append(player)
    setup: dict = {
        "players": [{"general": seat["general"]} for seat in seats],
        "titles": {seat["general"]: seat.get("title") for seat in seats},
        "gates": dict(gates),
    }
    if deal_titles:
        setup = setup_with_dealt_titles(
            game=shitenno.ShitennoEngine.slug, setup=setup, rng=rng or random.SystemRandom()
        )
    return session_create(
        game=shitenno.ShitennoEngine.slug, created_by=created_by, players=players, setup=setup,
        colours=[seat.get("colour", "") for seat in seats], club=club, is_public=is_public,
    )
