"""Writes for results and their sign-offs (issue 5): entering, signing off, correcting and deleting a result.

Each public function is one transaction. Once a result counts, or a counted one changes, the rating and
standings jobs are written to the outbox in the same transaction (`_enqueue_*`, see `outbox`), so a broker outage
delays them but cannot lose them; the jobs live in `rating_store` and `standings_store` and are idempotent, so
running one twice, or out of order, ends where a full recompute does.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.engines import get_engine
from games.models import TableSession
from games.registry import one_name
from leagues import standings as standings_maths
from leagues.club.seasons import season_for, season_refusals
from leagues.common import budgets
from leagues.common.access import (
    membership_of,
    players_signers,
    require_result_editor,
    result_players_signed_by,
    result_signed_publicly,
    result_signers,
    strangers_to,
)
from leagues.common.audit import audit_record
from leagues.jobs import outbox
from leagues.models import Club, Player, Result, ResultEntry, Season, SignOff
from leagues.models.bulk import insert_rows
from leagues.nights import selectors as night_selectors
from leagues.notifications import services as notifications
from leagues.rating.store import result_scopes
from leagues.result.scope import chances_shown
from leagues.tournaments import tables as tournament_tables
from shitenno_site.errors import Conflict

# --- results and sign-offs ---


def _enqueue_counted(result: Result, *, edited: bool = False) -> None:
    """A result now counts: rate it, fold it into its season's table (recompute the table if it was edited), and
    recount its players' tallies."""
    outbox.ask_rate_result(result.pk)
    outbox.ask_tally_players(players_of(result))
    if result.season_id and edited:
        outbox.ask_compute_standings(result.season_id)
    elif result.season_id:
        outbox.ask_fold_result(result.pk)


def players_of(result: Result) -> set[int]:
    return set(result.entries.values_list("player_id", flat=True))


def enqueue_recompute(scopes: set[tuple[str, str]], since: datetime.date, seasons: set[int]) -> None:
    for kind, key in sorted(scopes):
        outbox.ask_rate_scope(kind, key, since)
    for season_id in sorted(seasons):
        outbox.ask_compute_standings(season_id)


def signed_status(result: Result) -> tuple[str, bool]:
    """What the sign-offs alone say of a result: its status and whether it may move the site-wide game ratings.

    Counted once every player is answered for (`result_signers`: each account by itself, each guest by its
    creator or a manager of the league's club); disputed when anyone answering for a player disagreed; pending
    otherwise. Nothing else counts a result: not an edit, not its recorder (issue 24)."""
    sign_offs = {s.player_id: s for s in result.sign_offs.all()}
    status, valid = sign_off_status(result_signers(result), sign_offs)
    if status == Result.Status.COUNTED:
        return status, result_signed_publicly(result, valid)
    return status, False


def sign_off_status(signers: dict[int, set[int]], sign_offs: dict[int, SignOff]) -> tuple[str, dict[int, SignOff]]:
    """`signed_status`'s rule on sign-offs and signers already read: the status, and the valid sign-offs."""
    valid = {player: s for player, s in sign_offs.items() if s.by_id in signers.get(player, ())}
    if any(not s.agreed for s in valid.values()):
        return Result.Status.DISPUTED, valid
    if signers and all(player in valid for player in signers):
        return Result.Status.COUNTED, valid
    return Result.Status.PENDING, valid


def night_tables_touched(season_id: int | None, *dates: datetime.date) -> None:
    """A result entered by hand in a season may settle a night table still playing, or stop settling one when it
    is changed or deleted (`night_selectors.night_results`): those tables' pages then say so, or offer their moves
    again (games.people.Settled), so games gives them a new version for the phones' polls (in this transaction:
    refused, the entry leaves no new version behind)."""
    if season_id is None:
        return
    sessions = night_selectors.sessions_around(season_id, dates)
    if sessions:
        game_services.tables_touched(sessions=sessions)


def _settle(result: Result, *, enqueue: bool = True) -> None:
    """Count a pending result once every player is answered for; flag it disputed when anyone disagreed first.

    A result that already counts stays counted here: a later dispute flags it for the managers instead
    (`result_sign_off`), so one player cannot pull a signed-off game out of the standings on their own.
    """
    if result.status == Result.Status.COUNTED:
        return
    status, public = signed_status(result)
    if status == result.status:
        return
    result.status, result.ranked_publicly = status, public
    if status == Result.Status.COUNTED:  # a disputed import signed again by its manager: the flag is answered
        result.flagged_by, result.flag_note = None, ""
    result.save(update_fields=["status", "ranked_publicly", "flagged_by", "flag_note", "updated_at"])
    if result.session_id is None:  # a hand entry counted or disputed may settle a night table or reopen it
        night_tables_touched(result.season_id, result.played_on)
    if status == Result.Status.COUNTED and result.session_id is not None:  # a tournament pod's table: its places
        tournament_tables.pod_places_from_table(result=result)
    if status == Result.Status.COUNTED and enqueue:
        _enqueue_counted(result)
    notifications.result_settled(result)


def _clean_entries(entries: Sequence[dict], game: str) -> list[dict]:
    errors = []
    if len(entries) < 2:
        raise ValidationError({"entries": _("A game needs at least two players.")})
    _refuse_player_count(game, len(entries))
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
    return [
        {"player": e["player"], "rank": rank, "score": e.get("score")} for e, rank in zip(entries, ranks, strict=True)
    ]


def player_count_problem(game: str, count: int) -> str:
    """What is wrong with `count` players at `game` ("" when nothing): a registered game's engine says how many may
    play it (issue 50: five at a Shitennō table were accepted and rated, a game its rulebook has no five-player
    set-up for); a game the site does not know has no limit but two. Said by the result forms, the API and a club
    restore alike."""
    try:
        engine = get_engine(game)
    except KeyError:
        return ""
    if engine.min_players <= count <= engine.max_players:
        return ""
    return _("%(game)s is played by %(min)d to %(max)d players.") % {
        "game": engine.name,
        "min": engine.min_players,
        "max": engine.max_players,
    }


def _refuse_player_count(game: str, count: int) -> None:
    problem = player_count_problem(game, count)
    if problem:
        raise ValidationError({"entries": problem})


@transaction.atomic
def result_from_session(*, session) -> Result | None:
    """A table finished (games.signals.table_finished, received in for_games): a pending result, in a season
    when one fits.

    Safe to call twice: a session has at most one result.
    """
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
        game=session.game,
        played_on=played_on,
        club=session.club,
        session=session,
        season=season_for(
            club=session.club, game=session.game, played_on=played_on, players=players, session_id=session.pk
        ),
        created_by=session.created_by,
    )
    ranks = standings_maths.competition_ranks([p["rank"] for p in placings])
    shown = chances_shown(session, [seats[position] for position in sorted(seats)])
    ResultEntry.objects.bulk_create(
        ResultEntry(
            result=result,
            player=seats[p["seat"]],
            rank=rank,
            score=p.get("score"),
            seat=p["seat"] + 1,  # the table's seat, 1 first: the exports' start order (issue 48 finding 6)
            win_before=(kept := shown.get(seats[p["seat"]].pk, (None, None)))[0],
            place_before=kept[1],
        )
        for p, rank in zip(placings, ranks, strict=True)
    )
    notifications.result_recorded(result)
    return result


@transaction.atomic
def result_enter(
    *,
    game: str,
    played_on: datetime.date,
    entries: Sequence[dict],
    user: AbstractBaseUser,
    season: Season | None = None,
    club: Club | None = None,
) -> Result:
    """A game played without move entry, any game: entries are {player, rank, score}.

    Into a season, the recorder must be a member of its club and every player a member too; outside any club,
    every player must be one he already plays with (`access.strangers_to`: no stranger's waiting list shows a
    game he never agreed to). The recorder signs off at once for themself and for any guests they list. A
    registered game named by its name (any case, any accents) is stored as its slug, so its results share one
    rating scope (games.registry.one_name).
    """
    game = one_name(game)
    if not game:
        raise ValidationError({"game": _("Name the game.")})
    entries = _clean_entries(entries, game)
    players = [e["player"] for e in entries]
    if season is not None:
        # the night tables this game may settle, first: their rows' locks before the season's, in the order of the
        # last move of a night table (its row, then the season's in for_games): a move there waits for this entry
        # and is then refused, and neither ever waits for the other while holding what the other needs
        night_tables_touched(season.pk, played_on)
        # the season as it is now, held until this result is written: a manager changing its dates meanwhile
        # (league_edits.season_update) waits for this result, or this waits for the new dates (issue 34)
        season = (
            Season.objects.select_for_update(no_key=True, of=("self",)).select_related("league__club").get(pk=season.pk)
        )
        club = season.league.club
        refusals = season_refusals(season, game=game, played_on=played_on, players=players)
        if refusals:  # one reason at a time, the first field first, as before
            field = next(iter(refusals))
            raise ValidationError({field: refusals[field]})
    if club is not None and not user.is_superuser and membership_of(club, user) is None:
        raise PermissionDenied(_("Only members may record games for this club."))
    if club is None:
        strangers = strangers_to(user, players)
        if strangers:
            raise ValidationError(
                {
                    "entries": _(
                        "Outside a club you may name only yourself, guests you added and people you share a club or a "
                        "table with: not %(names)s."
                    )
                    % {"names": ", ".join(sorted(p.name for p in strangers))}
                }
            )
    if played_on > timezone.localdate():
        raise ValidationError({"played_on": _("The game cannot be in the future.")})
    budgets.hold_account(user)  # last of this entry's locks: no other path holds an account's row and waits for more
    budgets.results_budget(Result.objects.filter(created_by=user, source=""))
    result = Result.objects.create(game=game[:80], played_on=played_on, season=season, club=club, created_by=user)
    ResultEntry.objects.bulk_create(ResultEntry(result=result, **e) for e in entries)
    for player_id in result_players_signed_by(result, user):
        SignOff.objects.create(result=result, player_id=player_id, by=user, agreed=True)
    _settle(result)
    notifications.result_recorded(result)
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
        if _vouched_for_player(result, mine, user):
            return _dispute_vouched_import(result, user, mine, note, names)
        result.flagged_by = user
        result.flag_note = note.strip()[:300]
        result.save(update_fields=["flagged_by", "flag_note", "updated_at"])
        _audit_result("result.flag", result, user, {"players": names, "note": note[:300], "status": result.status})
        notifications.result_disputed(result, by=user, note=note)
        return result
    for player_id in mine:
        SignOff.objects.update_or_create(
            result=result, player_id=player_id, defaults={"by": user, "agreed": agreed, "note": note[:300]}
        )
    _settle(result)
    _audit_result(
        "result.sign_off" if agreed else "result.dispute",
        result,
        user,
        {"players": names, "note": note[:300], "status": result.status},
    )
    if not agreed:
        notifications.result_disputed(result, by=user, note=note)
    return result


def _vouched_for_player(result: Result, mine: list[int], user: AbstractBaseUser) -> bool:
    """An imported play counts on its importing manager's word (`vouched_by`, issue 34): a player who never
    signed it himself may take it out of the standings by disputing it."""
    if not (result.source and result.vouched_by_id) or user.pk == result.vouched_by_id:
        return False
    own = set(result.sign_offs.filter(player_id__in=mine, by=user).values_list("player_id", flat=True))
    return any(player not in own for player in mine)


def _dispute_vouched_import(
    result: Result, user: AbstractBaseUser, mine: list[int], note: str, names: list[str]
) -> Result:
    """The player's dispute replaces the manager's word for him: the result is disputed, leaves the standings and
    ratings it was in, and waits for a manager (flagged), who corrects it, deletes it or signs it again."""
    scopes, season = set(result_scopes(result)), result.season_id
    for player_id in mine:
        SignOff.objects.update_or_create(
            result=result, player_id=player_id, defaults={"by": user, "agreed": False, "note": note[:300]}
        )
    result.status, result.ranked_publicly = signed_status(result)
    result.flagged_by, result.flag_note = user, note.strip()[:300]
    result.save(update_fields=["status", "ranked_publicly", "flagged_by", "flag_note", "updated_at"])
    enqueue_recompute(scopes, result.played_on, {season} if season else set())
    outbox.ask_tally_players(players_of(result))
    _audit_result("result.dispute", result, user, {"players": names, "note": note[:300], "status": result.status})
    notifications.result_disputed(result, by=user, note=note)
    return result


def result_summary(result: Result) -> dict:
    """What an audit line keeps of a result: enough to see what a correction changed."""
    return {
        "game": result.game,
        "played_on": result.played_on.isoformat(),
        "status": result.status,
        "entries": [[e.player.name, e.rank, e.score] for e in result.entries.select_related("player")],
    }


def _audit_result(action: str, result: Result, user: AbstractBaseUser, details: dict) -> None:
    club_id = result.season.league.club_id if result.season_id else result.club_id
    audit_record(action=action, obj=result, user=user, club=club_id, details=details)


def _result_for_edit(result: Result, version: int, user: AbstractBaseUser) -> Result:
    result = Result.objects.select_for_update(of=("self",)).select_related("season__league").get(pk=result.pk)
    require_result_editor(result, user)
    if result.version != version:
        raise Conflict(
            _("Someone changed this result meanwhile: reload it and try again."), payload={"version": result.version}
        )
    return result


@transaction.atomic
def result_update(
    *,
    result: Result,
    version: int,
    user: AbstractBaseUser,
    played_on: datetime.date | None = None,
    entries: Sequence[dict] | None = None,
) -> Result:
    """A club manager (or, outside any club, its recorder) corrects a result. Re-rates from the earlier date.

    An edit never signs for anyone (issue 24): the result counts only as its sign-offs say (`signed_status`).
    When who played or how they placed changes, the others' sign-offs were given to another result, so only the
    editor's own stay and the rest sign again; an unchanged save keeps them, so a manager's unchanged save of a
    counted result that a player flagged clears the flag and it keeps counting, and the same save of a result
    nobody signed leaves it uncounted."""
    result = _result_for_edit(result, version, user)
    old_date, old_status = result.played_on, result.status
    old_players = players_of(result)
    old_scopes = set(result_scopes(result)) if old_status == Result.Status.COUNTED else set()
    before = result_summary(result)
    if played_on is not None:
        if played_on > timezone.localdate():
            raise ValidationError({"played_on": _("The game cannot be in the future.")})
        result.played_on = played_on
    if entries is not None:
        entries = _clean_entries(entries, result.game)
    if result.season_id:  # the corrected result must still belong to its season
        players = [e["player"] for e in entries] if entries is not None else None
        refusals = season_refusals(result.season, game=result.game, played_on=result.played_on, players=players)
        if refusals:
            field = next(iter(refusals))
            raise ValidationError({field: refusals[field]})
    changed = entries is not None and _placings(entries) != _placings(result.entries.values("player", "rank", "score"))
    if changed:
        result.entries.all().delete()
        ResultEntry.objects.bulk_create(ResultEntry(result=result, **e) for e in entries)
        result.sign_offs.exclude(by=user, player__in=[e["player"] for e in entries]).delete()
    result.version += 1
    result.status, result.ranked_publicly = signed_status(result)
    result.flagged_by, result.flag_note = None, ""  # a manager acted on the flag
    result.save()
    _audit_result(
        "result.edit", result, user, {"before": before, "after": result_summary(result), "version": result.version}
    )
    if old_status == Result.Status.COUNTED:
        new_scopes = set(result_scopes(result)) if result.status == Result.Status.COUNTED else set()
        enqueue_recompute(
            old_scopes | new_scopes, min(old_date, result.played_on), {result.season_id} if result.season_id else set()
        )
        if changed or result.status != old_status:  # who played and how they placed may have changed
            outbox.ask_tally_players(old_players | players_of(result))
    elif result.status == Result.Status.COUNTED:
        _enqueue_counted(result, edited=True)
    night_tables_touched(result.season_id, old_date, result.played_on)  # who played or when may have changed
    return result


def _placings(entries) -> list[tuple]:
    """Entries (dicts of player, rank, score; the player as an id or a Player) in one comparable form."""
    rows = [
        (getattr(e["player"], "pk", e["player"]), int(e["rank"]), None if e.get("score") is None else float(e["score"]))
        for e in entries
    ]
    return sorted(rows)


@transaction.atomic
def result_delete(*, result: Result, version: int, user: AbstractBaseUser) -> None:
    """An admin removes a result; everything after it is re-rated."""
    result = _result_for_edit(result, version, user)
    counted = result.status == Result.Status.COUNTED
    scopes, since, season = set(result_scopes(result)), result.played_on, result.season_id
    players = players_of(result)
    _audit_result("result.delete", result, user, {"before": result_summary(result)})
    result.delete()
    if counted:
        enqueue_recompute(scopes, since, {season} if season else set())
        outbox.ask_tally_players(players)
    night_tables_touched(season, since)


def results_settle_imported(
    results: Sequence[Result], players: dict[int, list[Player]], user: AbstractBaseUser, managers: set[int]
) -> list[Result]:
    """An import's results (their `season` and `club` set, their players in `players` by result id), signed by
    the importer for whom he answers (`players_signers`, the rule of `result_signers`: himself, the guests he
    answers for, and everyone of a play he vouched for) and settled by `sign_off_status`, the rule of any
    result, without a query per result. Their jobs are asked per scope and season (a re-rate from the earliest
    date), not per result: one fold of thousands of results, ending where a full recompute does. Runs inside the
    import's transaction; returns the results that now count."""
    sign_offs, counted = [], []
    for result in results:
        signers = players_signers(result, players[result.pk], managers=managers if result.season_id else set())
        mine = {
            player: SignOff(result_id=result.pk, player_id=player, by_id=user.pk, agreed=True)
            for player, users in signers.items()
            if user.pk in users
        }
        sign_offs.extend((result.pk, player) for player in mine)
        status, valid = sign_off_status(signers, mine)
        if status == Result.Status.COUNTED:
            result.status = status
            counted.append(result)
    insert_rows(SignOff(result_id=0, player_id=0, by_id=user.pk, agreed=True), ("result_id", "player_id"), sign_offs)
    for start in range(0, len(counted), 5000):  # an import never ranks publicly (`result_signed_publicly`)
        Result.objects.filter(pk__in=[r.pk for r in counted[start : start + 5000]]).update(
            status=Result.Status.COUNTED, ranked_publicly=False, updated_at=timezone.now()
        )
    notifications.imported_to_sign(results)
    if counted:
        scopes, seasons = set(), set()
        for result in counted:
            scopes.update(result_scopes(result))
            if result.season_id:
                seasons.add(result.season_id)
        enqueue_recompute(scopes, min(r.played_on for r in counted), seasons)
        outbox.ask_tally_players({p.pk for r in counted for p in players[r.pk]})
    return counted


@transaction.atomic
def result_withdraw_for_session(*, session) -> None:
    """An undo reopened a finished table: its result goes, unless it already counts for ratings."""
    result = Result.objects.select_for_update().filter(session=session).first()
    if result is None:
        return
    if result.status == Result.Status.COUNTED:
        raise Conflict(_("This game's result is signed off and counts in the ratings; ask a club admin to edit it."))
    result.delete()
