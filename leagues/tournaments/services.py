"""A tournament day's writes (issue 51, docs/tournaments.md): set it up, enter and check in players, pair the next
round (random from the recorded seed in round 1, by the standings after), record each pod's places, drop.

The club's managers set it up and pair the rounds, as nights are; they and the tournament's judges (members of
the club it names) enter a pod's places; a member enters, checks in and drops himself (a manager does it for any
member or guest of the club). The site tables of a round and the places read from them: leagues.tournaments.tables.
Each write is one transaction on the tournament's locked row, and a refusal raises before anything is written. The
standings are read from the pods' places each time
(leagues.tournaments.ranking), so the pairing, the wall and the cut can never disagree.
"""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.plugins import game_name
from games.registry import one_name
from leagues.common.access import club_access, require_club_manager
from leagues.models import Club, Membership, Player, Rating
from leagues.notifications import services as notifications
from leagues.rating import display

from . import cut, ranking, schemes
from .models import Tournament, TournamentEntry, TournamentPod, TournamentRound, default_scheme, default_sizes
from .pairing import Entrant, PairingError, Round, fewest_byes, pair


def tournament_create(
    *,
    club: Club,
    user: AbstractBaseUser,
    name: str,
    date,
    scheme: dict | None = None,
    scheme_preset: str | None = None,
    **settings,
) -> Tournament:
    """Set a tournament up. Its points per place (leagues.tournaments.schemes): `scheme`, the organiser's own for
    each table size it uses, or `scheme_preset`, a named one; neither is the default (4-2-1-0, stored as always).
    A scheme that does not fit the table sizes is refused on its field, and nothing is made."""
    require_club_manager(club, user)
    sizes = settings.get("table_sizes") or default_sizes()
    if scheme is not None and scheme_preset is not None:
        raise ValidationError({"scheme_preset": _("Give either a named scheme or your own points, not both.")})
    if scheme is not None:
        settings["scheme"] = schemes.validated_scheme(scheme, sizes)
    elif scheme_preset is not None:
        named = schemes.preset_scheme(scheme_preset, sizes)
        settings["scheme"] = default_scheme() if scheme_preset == schemes.DEFAULT else named
    else:
        missing = sorted(set(sizes) - {int(size) for size in default_scheme()})
        if missing:
            raise ValidationError(
                {
                    "scheme": _(
                        "The default points, 4-2-1-0, have none for a pod of %(size)d: give the points per place."
                    )
                    % {"size": missing[0]}
                }
            )
        settings["scheme"] = default_scheme()
    tournament = Tournament(club=club, name=name, date=date, created_by=user, **settings)
    tournament.full_clean()
    tournament.save()
    return tournament


def _own_player(tournament: Tournament, user: AbstractBaseUser, player: Player | None) -> tuple[Player, bool]:
    """The player an entry, check-in or drop is about, and whether the user manages the club: his own (a member),
    or anyone's when he manages it."""
    access = club_access(tournament.club, user)
    own = access.membership.player if access.membership else None
    if player is None or (own is not None and player.pk == own.pk):
        if own is None:
            raise PermissionDenied(_("Only members of the club can enter its tournament."))
        return own, access.manages
    if not access.manages:
        raise PermissionDenied(_("Only the club's owners and admins may do this for someone else."))
    return player, True


def _in_club(tournament: Tournament, player: Player) -> bool:
    """A member of the club, or a guest added for it."""
    return player.memberships.filter(club=tournament.club).exists() or (
        player.user_id is None and player.created_in_id == tournament.club_id
    )


def _open_for_changes(tournament: Tournament) -> None:
    if tournament.rounds.exclude(kind=TournamentRound.Kind.SWISS).exists() or (
        tournament.cut == Tournament.Cut.NONE and tournament.rounds.count() >= tournament.swiss_rounds
    ):
        raise ValidationError(_("The Swiss rounds are over: entries, check-ins and drops are closed."))


def tournament_locked(tournament: Tournament) -> Tournament:
    """The tournament's row, locked and read again: every write to a tournament takes this lock first."""
    return Tournament.objects.select_for_update(of=("self",)).select_related("club").get(pk=tournament.pk)


def tournament_enter(
    *, tournament: Tournament, user: AbstractBaseUser, player: Player | None = None, checked_in: bool = False
) -> TournamentEntry:
    """A member enters himself, a manager any member or guest of the club; entered after round 1 was paired, he is
    a late entry (0 points, paired from the next round). Entering twice is refused."""
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        player, _manages = _own_player(tournament, user, player)
        if not _in_club(tournament, player):
            raise ValidationError({"player": _("Only the club's members and guests can enter its tournament.")})
        _open_for_changes(tournament)
        if tournament.entries.filter(player=player).exists():
            raise ValidationError({"player": _("%(player)s has already entered.") % {"player": player.name}})
        return TournamentEntry.objects.create(
            tournament=tournament,
            player=player,
            entered_round=tournament.rounds.count() + 1,
            checked_in_at=timezone.now() if checked_in else None,
        )


def _entry(tournament: Tournament, player: Player) -> TournamentEntry:
    entry = (
        TournamentEntry.objects.select_for_update(of=("self",))
        .filter(tournament=tournament, player=player)
        .order_by("pk")
        .first()
    )
    if entry is None:
        raise ValidationError({"player": _("%(player)s has not entered this tournament.") % {"player": player.name}})
    return entry


def tournament_check_in(
    *, tournament: Tournament, user: AbstractBaseUser, player: Player | None = None, enter: bool = False
) -> TournamentEntry:
    """On the day, by phone or the QR: himself, or a manager for anyone entered. With `enter` a member not yet
    entered enters and checks in at once (the QR's one tap). A dropped player cannot check in again."""
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        player, _manages = _own_player(tournament, user, player)
        _open_for_changes(tournament)
        if enter and not tournament.entries.filter(player=player).exists():
            if not _in_club(tournament, player):
                raise ValidationError({"player": _("Only the club's members and guests can enter its tournament.")})
            return TournamentEntry.objects.create(
                tournament=tournament,
                player=player,
                checked_in_at=timezone.now(),
                entered_round=tournament.rounds.count() + 1,
            )
        entry = _entry(tournament, player)
        if entry.dropped_after is not None:
            raise ValidationError({"player": _("%(player)s has dropped out.") % {"player": player.name}})
        if entry.checked_in_at is None:
            entry.checked_in_at = timezone.now()
            entry.save(update_fields=["checked_in_at"])
        return entry


def tournament_drop(*, tournament: Tournament, user: AbstractBaseUser, player: Player | None = None) -> TournamentEntry:
    """He leaves the next pairing and keeps his results: himself, or a manager for anyone entered."""
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        player, _manages = _own_player(tournament, user, player)
        _open_for_changes(tournament)
        entry = _entry(tournament, player)
        if entry.dropped_after is not None:
            raise ValidationError({"player": _("%(player)s has already dropped out.") % {"player": player.name}})
        entry.dropped_after = tournament.rounds.count()
        entry.save(update_fields=["dropped_after"])
        return entry


def tournament_judges_set(*, tournament: Tournament, user: AbstractBaseUser, judges: list[Player]) -> Tournament:
    """The club's managers name the tournament's judges (members of the club, replacing those named before): a
    judge settles a pod's places as the organiser does (`pod_places`, tables.pod_settle)."""
    require_club_manager(tournament.club, user)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        members = set(
            Membership.objects.filter(club=tournament.club, player__in=judges).values_list("player_id", flat=True)
        )
        if strangers := sorted(p.name for p in judges if p.pk not in members):
            raise ValidationError(
                {"judges": _("Only members of the club can judge: not %(names)s.") % {"names": ", ".join(strangers)}}
            )
        tournament.judges.set(judges)
        return tournament


def may_judge(tournament: Tournament, user: AbstractBaseUser) -> bool:
    """The club's managers and the tournament's judges settle a pod's places."""
    if not user.is_authenticated:
        return False
    return club_access(tournament.club, user).manages or tournament.judges.filter(user_id=user.pk).exists()


def require_judge(tournament: Tournament, user: AbstractBaseUser) -> None:
    if not may_judge(tournament, user):
        raise PermissionDenied(_("Only the tournament's organisers and judges may settle a pod's places."))


def latest_pod(pod: TournamentPod) -> TournamentPod:
    """The pod locked and read again, refused unless its round is the latest (an earlier round's places have
    paired the rounds after them). Call it with the tournament's row locked."""
    pod = TournamentPod.objects.select_for_update(of=("self",)).select_related("round").get(pk=pod.pk)
    latest = pod.round.tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    if pod.round.number != latest:
        raise ValidationError(
            _("Only the latest round's places can be entered: round %(number)d is over.") % {"number": pod.round.number}
        )
    return pod


def places_record(pod: TournamentPod, places: dict[int, int], source: str) -> TournamentPod:
    """Write a locked pod's places (checked: every player of the pod, a place from 1 to its size) and where they
    came from (TournamentPod.PlacesFrom)."""
    if sorted(places) != sorted(pod.players) or not all(1 <= p <= len(pod.players) for p in places.values()):
        raise ValidationError({"places": _("Give every player of the pod a place from 1 to its size.")})
    pod.places = {str(p): place for p, place in places.items()}
    pod.places_from = source
    pod.save(update_fields=["places", "places_from"])
    return pod


def pod_places(*, pod: TournamentPod, user: AbstractBaseUser, places: dict[int, int]) -> TournamentPod:
    """Each seated player's place, 1 for first (shared places allowed), entered by hand by the organiser or a
    judge (a physical table not scored on the site, or a correction); only in the latest round."""
    require_judge(pod.round.tournament, user)
    with transaction.atomic():
        tournament_locked(pod.round.tournament)
        return places_record(latest_pod(pod), places, TournamentPod.PlacesFrom.HAND)


def played_pods(tournament: Tournament, *, swiss: bool = False) -> list[dict]:
    """Every played pod's places ({player: place}); with `swiss` only the Swiss rounds'."""
    pods = TournamentPod.objects.filter(round__tournament=tournament).exclude(places={})
    if swiss:
        pods = pods.filter(round__kind=TournamentRound.Kind.SWISS)
    return [{int(p): place for p, place in pod.places.items()} for pod in pods]


def tournament_standings(tournament: Tournament) -> tuple[list[ranking.Standing], set]:
    """The Swiss standings: the Swiss rounds' pods only. The cut is seeded by them and the cut's own places order
    the final standings over them (cut.final_order), so a semi-final or a final never adds points."""
    entries = list(tournament.entries.values_list("player_id", flat=True))
    byes = [p for r in tournament.rounds.all() for p in r.pairing.get("byes", [])]
    return ranking.standings(
        entries,
        played_pods(tournament, swiss=True),
        tournament.scheme_by_size(),
        tournament.seed,
        byes=byes,
        bye_points=tournament.bye_points,
    )


def pod_game(tournament: Tournament, position: int) -> str:
    """The game the pod at `position` plays (the tournament's games in turn, from the leaders' pod): a registered
    game's slug (the tournament may list it by its name), else the name as listed; "" for a tournament that names
    none."""
    games = tournament.games or []
    return one_name(str(games[position % len(games)])) if games else ""


def round_pair(*, tournament: Tournament, user: AbstractBaseUser) -> TournamentRound:
    """The next round's pods; refused (nothing written) while a pod of the last round has no places, when no
    split exists even with byes, or when the semi-finals' players for the final cannot sit at one table."""
    require_club_manager(tournament.club, user)
    with transaction.atomic():
        tournament = tournament_locked(tournament)
        last = tournament.rounds.order_by("-number").first()
        if is_over(tournament, last):
            raise ValidationError(_("The tournament is over: its last round was %(number)d.") % {"number": last.number})
        if last is not None and last.pods.filter(places={}).exists():
            raise ValidationError(_("Every pod of round %(number)d needs its places first.") % {"number": last.number})
        number = (last.number if last else 0) + 1
        playing = [
            e.player_id
            for e in tournament.entries.order_by("pk")
            if e.checked_in_at is not None
            and e.entered_round <= number
            and (e.dropped_after is None or e.dropped_after >= number)
        ]
        if not playing:
            raise ValidationError(_("Nobody is checked in for round %(number)d.") % {"number": number})
        kind = cut.next_kind(tournament, number, tournament.rounds.values_list("kind", flat=True))
        seeded = None
        if number == 1:
            order = sorted(playing)
            random.Random(tournament.seed).shuffle(order)
            if tournament.first_round == Tournament.FirstRound.RATINGS:
                order, seeded = by_rating(tournament, order)
        else:
            rows, _lots = tournament_standings(tournament)
            order = [r.player for r in rows if r.player in set(playing)]
            if kind == TournamentRound.Kind.CUT and last.kind == TournamentRound.Kind.SEMI:
                semi_finals = [
                    {int(p): place for p, place in pod.places.items()} for pod in last.pods.order_by("position")
                ]
                order = cut.finalists(semi_finals, order, tournament.table_sizes)
            elif kind != TournamentRound.Kind.SWISS:
                order = order[: tournament.cut_size]
        byes = _byes(tournament, order, kind)
        pairing = _pairing(tournament, [p for p in order if p not in byes], kind, first=number == 1)
        paired = TournamentRound.objects.create(
            tournament=tournament,
            number=number,
            kind=kind,
            pairing={
                **pairing.as_json(),
                "exact": pairing.exact,
                "byes": byes,
                **({"ratings": seeded} if seeded is not None else {}),
            },
            clock_started_at=timezone.now(),
        )
        TournamentPod.objects.bulk_create(
            TournamentPod(round=paired, position=n, players=list(pod)) for n, pod in enumerate(pairing.pods)
        )
        notifications.pods_paired(
            paired,
            {
                n: game_name(game) if (game := pod_game(tournament, n)) else tournament.name
                for n in range(len(pairing.pods))
            },
        )
    return paired


def rating_scope(tournament: Tournament) -> tuple[str, str] | None:
    """The ratings round 1 is seeded by: the league of the season it counts in, else its first game's."""
    if tournament.season_id is not None:
        return "league", str(tournament.season.league_id)
    if tournament.games:
        return "game", str(tournament.games[0])
    return None


def by_rating(tournament: Tournament, drawn: list[int]) -> tuple[list[int], dict[str, int]]:
    """Round 1 seeded by the club's ratings: the rated players by their cautious rating (mu - 3 sigma, the
    rankings' order), the highest first, then the unrated in the seed's draw; and each rated player's number."""
    scope = rating_scope(tournament)
    rows = Rating.objects.filter(kind=scope[0], key=scope[1], player_id__in=drawn) if scope else Rating.objects.none()
    cautious = {r.player_id: display.shown(r.mu, r.sigma, r.games).cautious for r in rows}
    place = {p: n for n, p in enumerate(drawn)}
    rated = sorted(cautious, key=lambda p: (-cautious[p], place[p]))
    return rated + [p for p in drawn if p not in cautious], {str(p): cautious[p] for p in rated}


def is_over(tournament: Tournament, last: TournamentRound | None) -> bool:
    """No round follows `last` (the latest round): it was the final table (kind "cut": after the Swiss rounds of a
    "final" cut, or after the semi-finals of a "semi" one; the semi-finals are followed by it), or the last Swiss
    round of a tournament with no cut."""
    if last is None:
        return False
    return last.kind == TournamentRound.Kind.CUT or (
        tournament.cut == Tournament.Cut.NONE and last.number >= tournament.swiss_rounds
    )


def _byes(tournament: Tournament, order: list, kind: str) -> list:
    """The fewest byes that let the rest be split, to the lowest-placed who have had none (the cut has none)."""
    count = fewest_byes(len(order), tournament.table_sizes)
    if count is None or (count and kind != TournamentRound.Kind.SWISS):
        raise ValidationError(
            _("%(count)d players cannot be split into pods of %(sizes)s.")
            % {"count": len(order), "sizes": sorted(set(tournament.table_sizes))}
        )
    had = {p for r in tournament.rounds.all() for p in r.pairing.get("byes", [])}
    fresh = [p for p in reversed(order) if p not in had] + [p for p in reversed(order) if p in had]
    return fresh[:count]


def _pairing(tournament: Tournament, order: list, kind: str, *, first: bool):
    met = {p: [] for p in order}
    for pod in played_pods(tournament):
        for p in pod:
            if p in met:
                met[p] += [o for o in pod if o != p]
    if first:  # the draw is the order: no points, no meetings, so the pairing keeps runs of it
        players = [Entrant(p) for p in order]
    else:
        points = {r.player: r.points for r in tournament_standings(tournament)[0]}
        players = [Entrant(p, points[p], tuple(met[p])) for p in order]
    try:
        return pair(
            Round(
                players,
                tuple(tournament.table_sizes),
                seat_rule="swiss" if kind == TournamentRound.Kind.SWISS else "cut",
            )
        )
    except PairingError:
        raise ValidationError(_("This round cannot be paired with the tournament's table sizes.")) from None
