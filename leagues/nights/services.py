"""League nights (issue 25): opening a night, checking in, proposing a round's tables and adjusting them.

Each service is one transaction and checks access itself (leagues.common.access): managers run the night, a member
checks himself in. The tables come from `leagues.nights.pods.propose`, the same function `manage.py pods` runs.
"""

import datetime
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.engines import REGISTRY, get_engine
from games.models import TableSession
from games.plugins import game_name
from leagues.common.access import club_access, require_club_manager
from leagues.models import Membership, Player, ResultEntry, Season
from leagues.notifications import services as notifications
from shitenno_site.errors import Conflict

from . import pods, seating, selectors, table_games
from .models import Night, NightCheckIn, NightRound, NightTable

TONIGHT_WEIGHT = 3  # a pair who met earlier tonight counts as three meetings from earlier nights
MAX_BOXES = 99


def game_sizes(night: Night) -> dict[str, tuple[int, ...]]:
    """Tonight's sizes for each game: the night's sizes that the game's engine allows (all of them for a game
    without an engine)."""
    sizes = {}
    for game in night.games:
        try:
            engine = get_engine(game)
        except KeyError:
            sizes[game] = tuple(night.table_sizes)
            continue
        sizes[game] = tuple(s for s in night.table_sizes if engine.min_players <= s <= engine.max_players)
    return sizes


def _games_refusal(season: Season, games: list[str]) -> str | None:
    """Why tonight's games cannot be offered: none, not the league's, or a game the site has no tables for (a
    league may count games played off the site; a night seats players at the site's tables, so it refuses them
    here rather than when the tables open)."""
    if not games:
        return _("Offer at least one game.")
    if unknown := [g for g in games if g not in season.league.games]:
        return _("Not a game of this league: %(games)s.") % {"games": ", ".join(unknown)}
    if off_site := [g for g in games if g not in REGISTRY]:
        return _("The site has no tables for %(games)s: a night offers only games played on the site.") % {
            "games": ", ".join(off_site)
        }
    return None


def _boxes_refusal(boxes: dict, games: list[str]) -> str | None:
    if not isinstance(boxes, dict) or any(
        not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_BOXES for n in boxes.values()
    ):
        return _("Boxes are counted in whole numbers from 1 to %(max)d.") % {"max": MAX_BOXES}
    if stray := [g for g in boxes if g not in games]:
        return _("Boxes named for a game not on offer tonight: %(games)s.") % {"games": ", ".join(map(str, stray))}
    return None


def _forbidden_pairs(club, forbidden: Sequence[Sequence[int]]) -> list[list[int]] | None:
    """The pairs sorted, or None when one does not name two different members of the club."""
    members = set(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    pairs = []
    for pair in forbidden:
        if len(pair) != 2 or pair[0] == pair[1] or not set(pair) <= members:
            return None
        pairs.append(sorted(pair))
    return pairs


@transaction.atomic
def night_open(
    *,
    season: Season,
    user: AbstractBaseUser,
    date: datetime.date,
    games: Sequence[str],
    table_sizes: Sequence[int] = (3, 4),
    forbidden: Sequence[Sequence[int]] = (),
    boxes: dict | None = None,
    mix: str = "fill",
) -> Night:
    """Managers only. The games must be the league's and played on the site; every game needs at least one table
    size it allows; `boxes` (optional) says how many boxes of a game the club has tonight: never more tables of it.
    `mix`: "fill" (the fewest, fullest tables first) or "free" (the fewest repeats first: leagues.nights.pods)."""
    club = season.league.club
    require_club_manager(club, user)
    errors = {}
    games, boxes = list(dict.fromkeys(games)), boxes or {}
    if refusal := _games_refusal(season, games):
        errors["games"] = refusal
    if (
        not table_sizes
        or not all(isinstance(s, int) and not isinstance(s, bool) for s in table_sizes)
        or not all(2 <= s <= pods.MAX_TABLE_SIZE for s in table_sizes)
    ):
        errors["table_sizes"] = _("Table sizes are whole numbers from 2 to %(max)d.") % {"max": pods.MAX_TABLE_SIZE}
    if mix not in pods.MIXES:
        errors["mix"] = _("Choose full tables first or fewest repeats first.")
    if not season.starts_on <= date <= season.ends_on:
        errors["date"] = _("The night must fall within the season.")
    if refusal := _boxes_refusal(boxes, games):
        errors["boxes"] = refusal
    pairs = _forbidden_pairs(club, forbidden)
    if pairs is None:
        errors["forbidden"] = _("Each forbidden pair names two different members of the club.")
    if errors:
        raise ValidationError(errors)
    night = Night(
        season=season,
        date=date,
        games=games,
        table_sizes=sorted(set(table_sizes)),
        forbidden=pairs,
        boxes=dict(boxes),
        mix=mix,
        opened_by=user,
    )
    if no_size := [g for g, sizes in game_sizes(night).items() if not sizes]:
        raise ValidationError(
            {"table_sizes": _("No size allowed tonight suits %(games)s.") % {"games": ", ".join(no_size)}}
        )
    night.save()
    return night


def _club_player(night: Night, user: AbstractBaseUser, player: Player | None) -> Player:
    """The player a check-in is about: the user's own, or any member's when a manager ticks the name."""
    access = club_access(night.season.league.club, user)
    own = access.membership.player if access.membership else None
    if player is None or (own is not None and player.pk == own.pk):
        if own is None:
            raise PermissionDenied(_("Only members of the club can check in."))
        return own
    if not access.manages:
        raise PermissionDenied(_("Only the club's owners and admins may check in someone else."))
    if not Membership.objects.filter(club=night.season.league.club, player=player).exists():
        raise ValidationError({"player": _("%(player)s is not a member of the club.") % {"player": player.name}})
    return player


@transaction.atomic
def night_check_in(
    *, night: Night, user: AbstractBaseUser, player: Player | None = None, only_game: str = ""
) -> NightCheckIn:
    """A member checks in (again, after leaving); a latecomer simply checks in and is seated from the next
    proposal on. `only_game` must be one of tonight's games."""
    player = _club_player(night, user, player)
    if only_game and only_game not in night.games:
        raise ValidationError({"only_game": _("%(game)s is not on offer tonight.") % {"game": only_game}})
    check_in, _created = NightCheckIn.objects.update_or_create(
        night=night, player=player, defaults={"only_game": only_game, "left_at": None}
    )
    return check_in


@transaction.atomic
def night_leave(*, night: Night, user: AbstractBaseUser, player: Player | None = None) -> NightCheckIn:
    """Leaving early: kept in the night's record, not seated again."""
    player = _club_player(night, user, player)
    # Only the check-in's row: the model's ordering ("night", ...) would join and lock the night, season, league
    # and club rows too, and deadlock an import that holds the club's row.
    check_in = (
        NightCheckIn.objects.select_for_update(of=("self",)).filter(night=night, player=player).order_by("pk").first()
    )
    if check_in is None:
        raise ValidationError({"player": _("%(player)s has not checked in tonight.") % {"player": player.name}})
    check_in.left_at = timezone.now()
    check_in.save(update_fields=["left_at"])
    return check_in


def member_gone(*, club, player: Player) -> None:
    """A player left the club or was removed (clubs.membership_remove, in its transaction): he is no longer
    checked in to the club's nights still running (from yesterday on: a night goes past midnight; older nights
    keep their record), he leaves the tables not opened yet (each such table is unlocked, so the next proposal
    seats it again), and his seats at the club's night tables still being played no longer let him read or move
    there (games.services.seats_withdraw: the organiser seated him as a member; the club's admins finish his game).
    His finished tables and their results stay his."""
    nights = Night.objects.filter(season__league__club=club).order_by()
    since = timezone.localdate() - datetime.timedelta(days=1)
    NightCheckIn.objects.filter(night__in=nights.filter(date__gte=since), player=player, left_at__isnull=True).update(
        left_at=timezone.now()
    )
    proposed = NightTable.objects.filter(round__night__in=nights, round__opened_at__isnull=True)
    seated_in = sorted({t.round.night_id for t in proposed.select_related("round") if player.pk in t.players})
    for night_id in seated_in:  # a change to a night's round, like the others: under the night's lock
        _night_locked(Night(pk=night_id))
        for table in proposed.filter(round__night_id=night_id).order_by("pk"):  # read again inside the lock
            if player.pk in table.players:
                table.players = [p for p in table.players if p != player.pk]
                table.locked = False
                table.save(update_fields=["players", "locked"])
    playing = NightTable.objects.filter(round__night__in=nights, session__status=TableSession.Status.PLAYING)
    game_services.seats_withdraw(sessions=playing.values("session_id"), player=player)


def met_in_season(season_id: int, players: Sequence[int]) -> Counter:
    """How many of the season's results each pair of `players` shared (one meeting per shared result, whatever
    its status: a pending or disputed result's players still sat together): one aggregate query, the season's
    entries joined to themselves on the result and restricted on both sides to these players, grouped by the pair.

    Why not read the season and pair them in Python: a season of 1,000 imported plays of 100 players made every
    proposal read and pair every entry (9.4 s in the request, issue 46 finding 1); the optimiser only ever asks
    about tonight's players. This reads only their entries (the player index) and their partners' (the one entry
    per result and player index), so it costs what tonight's players played, not what the season holds."""
    ids = sorted(set(players))
    if len(ids) < 2:
        return Counter()
    pairs = (
        ResultEntry.objects.order_by()
        .filter(
            result__season_id=season_id,
            player_id__in=ids,
            result__entries__player_id__in=ids,
            result__entries__player_id__gt=F("player_id"),
        )
        .values_list("player_id", "result__entries__player_id")
        .annotate(times=Count("*"))
    )
    return Counter({frozenset((a, b)): times for a, b, times in pairs})


def _history(night: Night, players: Sequence[int]) -> tuple[dict, dict]:
    """(met, seats) for the optimiser about tonight's `players`: the pairs among them who shared the season's
    results (`met_in_season`) or a table of tonight's opened rounds (weighted TONIGHT_WEIGHT), and the seats taken
    at this season's night tables, per game. Pairs with anyone else are left out: the optimiser never asks."""
    met = met_in_season(night.season_id, players)
    here = set(players)
    seats: dict = {}
    for table in NightTable.objects.filter(
        round__night__season=night.season, round__opened_at__isnull=False
    ).select_related("round"):
        if table.round.night_id == night.pk:
            for a, b in combinations([p for p in table.players if p in here], 2):
                met[frozenset((a, b))] += TONIGHT_WEIGHT
        for seat, player_id in enumerate(table.players):
            counts = list(seats.get((player_id, table.game), ()))
            counts += [0] * (seat + 1 - len(counts))
            counts[seat] += 1
            seats[(player_id, table.game)] = tuple(counts)
    return dict(met), seats


def _night_locked(night: Night) -> Night:
    """The night's row, locked and read again: every change to a night's rounds (propose, swap, lock, set a game,
    open) takes this one lock first and then re-reads the round, so two taps at once follow one another (an
    "open" and a "propose again" never both work on the same tables). Only this row: `of=("self",)`, and `get`
    orders nothing, so the season, league and club rows stay free (an import may hold the club's)."""
    return Night.objects.select_for_update(of=("self",)).get(pk=night.pk)


def _proposed_round(night_round: NightRound) -> tuple[Night, NightRound]:
    """(night, round) read again under the night's lock; refused once the round's tables are open."""
    night = _night_locked(night_round.night)
    night_round = NightRound.objects.get(pk=night_round.pk)
    _open_round_or_400(night_round)
    return night, night_round


class NightChanged(Conflict):
    """The night's inputs changed twice while its tables were being proposed (HTTP 409): nothing was written."""


@dataclass
class Snapshot:
    """What a proposal reads of a night, without its lock: the night, its latest round (`last`), the round not
    opened yet (`current`, None when the proposal makes a new one), who is here and the locked tables. `key` is
    what must still be the same when the tables are written (the night's settings, its rounds and whether they are
    open, the check-ins, the locked tables); the season's results are not in it (tonight's pairs are counted
    from the opened tables, and a result entered meanwhile only moves the soft objective)."""

    night: Night
    last: NightRound | None
    current: NightRound | None
    present: dict
    locked: list
    key: tuple

    @property
    def free(self) -> int:
        """The players the optimiser seats (here, not at a locked table)."""
        return len(set(self.present) - {p for table in self.locked for p in table.players})


def snapshot(night_pk: int) -> Snapshot:
    night = Night.objects.select_related("season").get(pk=night_pk)
    rounds = list(NightRound.objects.filter(night_id=night_pk).order_by("number"))
    last = rounds[-1] if rounds else None
    current = last if last is not None and last.opened_at is None else None
    check_ins = list(NightCheckIn.objects.filter(night_id=night_pk, left_at__isnull=True).order_by("player_id"))
    locked = list(current.tables.filter(locked=True).order_by("position", "pk")) if current else []
    key = (
        (night.games, night.table_sizes, night.forbidden, night.boxes, night.mix),
        [(r.pk, r.opened_at) for r in rounds],
        [(c.player_id, c.only_game) for c in check_ins],
        [(t.pk, t.position, t.game, t.players) for t in locked],
    )
    return Snapshot(night, last, current, {c.player_id: c for c in check_ins}, locked, key)


def round_propose(*, night: Night, user: AbstractBaseUser) -> NightRound:
    """Managers only. Propose the tables of the round not opened yet (a new round after an opened one);
    asking again keeps the locked tables and re-seats everyone else who is checked in and has not left. The
    optimiser splits the players (`pods`); each new table's game is chosen by `table_games` (the boxes, the games
    shared out).

    The optimiser runs outside the night's row lock (issues 36 and 37: it takes up to 1-2 s on a large night, and
    every other change to the night's round waited on it): the inputs are read without the lock, the tables
    computed, and the lock taken only to write them, if the inputs are still what was read (`Snapshot.key`).
    Else they are read and computed once more; a night changed again meanwhile is refused (NightChanged, 409)
    and nothing is written. Asked inside a transaction, the lock is held until that one ends."""
    require_club_manager(night.season.league.club, user)
    for _try in range(2):
        read = snapshot(night.pk)
        tables = _optimise(read)
        with transaction.atomic():
            _night_locked(night)  # one change to the night's rounds at a time
            if snapshot(night.pk).key == read.key:
                return _write_round(read, tables)
    raise NightChanged(
        _(
            "The night changed while its tables were being proposed (a check-in, a locked table, "
            "an opened round); nothing was written. Propose again."
        )
    )


def _optimise(read: Snapshot) -> list:
    present, night = read.present, read.night
    if any(p not in present for table in read.locked for p in table.players):
        raise ValidationError({"tables": _("A locked table seats a player who is not here; unlock it first.")})
    met, seats = _history(night, sorted(present))
    request = pods.Night(
        players=sorted(present),
        met=met,
        seats=seats,
        games=game_sizes(night),
        mix=night.mix,
        forbidden={frozenset(pair) for pair in night.forbidden},
        accepts={p: {c.only_game} for p, c in present.items() if c.only_game},
        locked=[pods.Table(tuple(t.players), t.game, locked=True) for t in read.locked],
    )
    try:
        return table_games.propose(request, offered=night.games, boxes=night.boxes)
    except pods.PodsError as error:
        raise ValidationError({"tables": pods_message(error)}) from None


def _write_round(read: Snapshot, tables: list) -> NightRound:
    """The proposal's tables, under the night's lock, the inputs unchanged since `read`."""
    current = read.current
    if current is None:
        current = NightRound.objects.create(night=read.night, number=(read.last.number + 1) if read.last else 1)
    current.tables.filter(locked=False).delete()
    _number_tables(current, read.locked, [t for t in tables if not t.locked], len(tables))
    return current


def _number_tables(night_round: NightRound, locked: list[NightTable], new: list, count: int) -> None:
    """A locked table keeps its number (its players have been told "table 3"); the new tables take the numbers
    left, in the optimiser's order. A locked table whose number no longer exists (fewer tables now) takes the
    first number free. (A round's tables are numbered 0, 1, ... when made, so locked ones never share one.)"""
    free = iter(sorted(set(range(count)) - {row.position for row in locked if row.position < count}))
    for row in locked:
        if row.position >= count:
            row.position = next(free)
            row.save(update_fields=["position"])
    for table in new:
        NightTable.objects.create(round=night_round, position=next(free), game=table.game, players=list(table.players))


def _open_round_or_400(night_round: NightRound) -> None:
    if night_round.opened_at is not None:
        raise ValidationError({"round": _("This round's tables are open already; propose the next round.")})


@transaction.atomic
def tables_swap(*, night_round: NightRound, user: AbstractBaseUser, a: int, b: int) -> NightRound:
    """Managers only. Swap two players' places (two tables, or two seats at one); refused when a table would
    then break a hard rule (a forbidden pair, a game a player does not play)."""
    require_club_manager(night_round.night.season.league.club, user)
    night, night_round = _proposed_round(night_round)
    tables = list(night_round.tables.all())
    where = {p: (t, i) for t in tables for i, p in enumerate(t.players)}
    if a not in where or b not in where or a == b:
        raise ValidationError({"players": _("Name two different players seated in this round.")})
    (ta, ia), (tb, ib) = where[a], where[b]
    ta.players[ia] = b
    if tb.pk == ta.pk:
        ta.players[ib] = a
    else:
        tb.players[ib] = a
    forbidden = {frozenset(pair) for pair in night.forbidden}
    accepts = selectors.night_accepts(night)
    for table in {ta.pk: ta, tb.pk: tb}.values():
        if any(frozenset(pair) in forbidden for pair in combinations(table.players, 2)):
            raise ValidationError({"players": _("That swap would seat a forbidden pair together.")})
        if any(table.game not in accepts.get(p, {table.game}) for p in table.players):
            raise ValidationError({"players": _("That swap would seat a player at a game he does not play.")})
    for table in {ta.pk: ta, tb.pk: tb}.values():
        table.save(update_fields=["players"])
    return night_round


@transaction.atomic
def table_lock(*, table: NightTable, user: AbstractBaseUser, locked: bool = True) -> NightTable:
    """Managers only. A locked table is kept as it is when the round is proposed again."""
    require_club_manager(table.round.night.season.league.club, user)
    _proposed_round(table.round)
    table = NightTable.objects.get(pk=table.pk)
    table.locked = locked
    table.save(update_fields=["locked"])
    return table


@transaction.atomic
def table_game_set(*, table: NightTable, user: AbstractBaseUser, game: str) -> NightTable:
    """Managers only. The organiser says which game a proposed table plays (the players asked for it, or its box
    is the one on that table): the table is locked with it, so proposing again keeps it, players and game. Refused
    when the game is not on offer tonight, does not seat the table's size, a player at it plays another game only,
    or every box of it is at another table of the round."""
    require_club_manager(table.round.night.season.league.club, user)
    night, night_round = _proposed_round(table.round)
    table = NightTable.objects.get(pk=table.pk)
    n, name = table.position + 1, game_name(game)
    if game not in night.games:
        raise ValidationError({"game": _("%(game)s is not on offer tonight.") % {"game": name}})
    if len(table.players) not in game_sizes(night)[game]:
        raise ValidationError(
            {
                "game": _("%(game)s does not seat the %(count)d players of table %(n)d tonight.")
                % {"game": name, "count": len(table.players), "n": n}
            }
        )
    accepts = selectors.night_accepts(night)
    if any(game not in accepts.get(p, {game}) for p in table.players):
        raise ValidationError({"game": _("A player at table %(n)d plays another game only.") % {"n": n}})
    others = night_round.tables.exclude(pk=table.pk).filter(game=game).count()
    if others >= night.boxes.get(game, table_games.UNLIMITED):
        raise ValidationError({"game": _("Every box of %(game)s is at another table of this round.") % {"game": name}})
    table.game, table.locked = game, True
    table.save(update_fields=["game", "locked"])
    return table


def pods_message(error: pods.PodsError) -> str:
    """The optimiser's refusal in the reader's language: pods stays free of Django and says English, with a
    code and parameters the site translates here (an unknown code keeps the English)."""
    params = error.params
    sizes = ", ".join(str(s) for s in params.get("sizes", ()))
    messages = {
        "duplicate_player": lambda: _("A player is listed twice."),
        "no_game": lambda: _("No game is on offer tonight."),
        "bad_sizes": lambda: _("Table sizes are whole numbers from 2 to %(max)d.") % {"max": pods.MAX_TABLE_SIZE},
        "locked_absent": lambda: _("A locked table seats a player who is not here; unlock it first."),
        "locked_twice": lambda: _("A player sits at two locked tables; unlock one of them."),
        "unsplittable": lambda: (
            _("%(count)d players cannot be split into tables of %(sizes)s.")
            % {"count": params.get("count", 0), "sizes": sizes}
        ),
        "infeasible": lambda: {
            "forbidden": _("No split keeps every rule: the pairs kept apart leave no way to seat everyone."),
            "games": _(
                "No split keeps every rule: the games each player plays and the table sizes each game "
                "allows leave no way to seat everyone."
            ),
        }.get(
            params.get("rule"),
            _("No split keeps every rule (pairs kept apart, the games each player plays, table sizes)."),
        ),
        "too_many_players": lambda: (
            _("A night proposes tables for at most %(max)d players.") % {"max": params.get("max", pods.MAX_PLAYERS)}
        ),
        "locked_size": lambda: _("A locked table's size is not one its game allows tonight; unlock it first."),
        "locked_pair": lambda: _("A locked table seats a pair kept apart; unlock it first."),
        "locked_game": lambda: _("A locked table seats a player at a game he does not play; unlock it first."),
        "undecided": lambda: (
            _(
                "The optimiser's complete search neither found a split nor proved that none "
                "exists in %(seconds)d seconds: the pairs kept apart are too many to decide."
            )
            % {"seconds": params.get("seconds", 0)}
        ),
        "boxes": lambda: (
            _("Tonight's boxes cannot seat everyone: the split needs %(tables)d tables.")
            % {"tables": params.get("tables", 0)}
        ),
    }
    say = messages.get(error.code)
    return say() if say else str(error)


@transaction.atomic
def tables_open(
    *, night_round: NightRound, user: AbstractBaseUser, setups: dict | None = None, counts: dict | None = None
) -> NightRound:
    """Managers only. Each proposed table becomes a table session of the club with its seats filled in seat
    order; `setups` maps a table's position to its set-up, else the site deals one (`counts`: the number its game
    asks the organiser to count at the table, by position). All or nothing."""
    club = night_round.night.season.league.club
    require_club_manager(club, user)
    _night, night_round = _proposed_round(night_round)  # its tables as they are now, under the night's lock
    setups, counts = setups or {}, counts or {}
    by_id = Player.objects.in_bulk([p for t in night_round.tables.all() for p in t.players])
    for table in night_round.tables.order_by("position"):
        session = seating.seated_table_open(
            game=table.game,
            number=table.position + 1,
            players=[by_id[p] for p in table.players],
            club=club,
            user=user,
            setup=setups.get(table.position),
            count=counts.get(table.position),
        )
        table.session = session
        table.save(update_fields=["session"])
    night_round.opened_at = timezone.now()
    night_round.save(update_fields=["opened_at"])
    notifications.round_opened(night_round)
    return night_round
