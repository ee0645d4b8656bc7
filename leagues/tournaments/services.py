"""A tournament day's writes (issue 51, docs/tournaments.md): set it up, enter and check in players, pair the next
round (random from the recorded seed in round 1, by the standings after), record each pod's places, drop.

Managers of the club only, as nights are. The standings are read from the pods' places each time
(leagues.tournaments.ranking), so the pairing, the wall and the cut can never disagree.
"""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from leagues.common.access import require_club_manager
from leagues.models import Club, Player

from . import ranking
from .models import Tournament, TournamentEntry, TournamentPod, TournamentRound
from .pairing import Entrant, PairingError, Round, fewest_byes, pair


def tournament_create(*, club: Club, user: AbstractBaseUser, name: str, date, **settings) -> Tournament:
    require_club_manager(club, user)
    tournament = Tournament(club=club, name=name, date=date, created_by=user, **settings)
    tournament.full_clean()
    tournament.save()
    return tournament


def tournament_enter(*, tournament: Tournament, user: AbstractBaseUser, player: Player,
                     checked_in: bool = False) -> TournamentEntry:
    """A member or a guest of the club; entered after round 1 was paired, he is a late entry (0 points)."""
    require_club_manager(tournament.club, user)
    if not player.memberships.filter(club=tournament.club).exists() and player.user_id is not None:
        raise ValidationError({"player": _("Only the club's members and guests can enter its tournament.")})
    entered_round = tournament.rounds.count() + 1
    entry, _created = TournamentEntry.objects.get_or_create(
        tournament=tournament, player=player, defaults={"entered_round": entered_round})
    if checked_in and entry.checked_in_at is None:
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["checked_in_at"])
    return entry


def tournament_drop(*, tournament: Tournament, user: AbstractBaseUser, player: Player) -> TournamentEntry:
    """He leaves the next pairing and keeps his results."""
    require_club_manager(tournament.club, user)
    entry = TournamentEntry.objects.get(tournament=tournament, player=player)
    entry.dropped_after = tournament.rounds.count()
    entry.save(update_fields=["dropped_after"])
    return entry


def pod_places(*, pod: TournamentPod, user: AbstractBaseUser, places: dict[int, int]) -> TournamentPod:
    """Each seated player's place, 1 for first (shared places allowed)."""
    require_club_manager(pod.round.tournament.club, user)
    if sorted(places) != sorted(pod.players) or not all(1 <= p <= len(pod.players) for p in places.values()):
        raise ValidationError({"places": _("Give every player of the pod a place from 1 to its size.")})
    pod.places = {str(p): place for p, place in places.items()}
    pod.save(update_fields=["places"])
    return pod


def played_pods(tournament: Tournament) -> list[dict]:
    return [{int(p): place for p, place in pod.places.items()}
            for pod in TournamentPod.objects.filter(round__tournament=tournament).exclude(places={})]


def tournament_standings(tournament: Tournament) -> tuple[list[ranking.Standing], set]:
    entries = list(tournament.entries.values_list("player_id", flat=True))
    byes = [p for r in tournament.rounds.all() for p in r.pairing.get("byes", [])]
    return ranking.standings(entries, played_pods(tournament), tournament.scheme_by_size(), tournament.seed,
                             byes=byes, bye_points=tournament.bye_points)


def round_pair(*, tournament: Tournament, user: AbstractBaseUser) -> TournamentRound:
    """The next round's pods; refused (nothing written) while a pod of the last round has no places, or when no
    split exists even with byes."""
    require_club_manager(tournament.club, user)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.pods.filter(places={}).exists():
            raise ValidationError(_("Every pod of round %(number)d needs its places first.") % {"number": last.number})
        number = (last.number if last else 0) + 1
        playing = [e.player_id for e in tournament.entries.order_by("pk")
                   if e.checked_in_at is not None and e.entered_round <= number
                   and (e.dropped_after is None or e.dropped_after >= number)]
        kind = TournamentRound.Kind.SWISS if number <= tournament.swiss_rounds else TournamentRound.Kind.CUT
        if number == 1:
            order = sorted(playing)
            random.Random(tournament.seed).shuffle(order)
        else:
            rows, _lots = tournament_standings(tournament)
            order = [r.player for r in rows if r.player in set(playing)]
            if kind == TournamentRound.Kind.CUT:
                order = order[:tournament.cut_size]
        byes = _byes(tournament, order, kind)
        pairing = _pairing(tournament, [p for p in order if p not in byes], kind, first=number == 1)
        paired = TournamentRound.objects.create(tournament=tournament, number=number, kind=kind,
                                                pairing={**pairing.as_json(), "exact": pairing.exact, "byes": byes})
        TournamentPod.objects.bulk_create(TournamentPod(round=paired, position=n, players=list(pod))
                                          for n, pod in enumerate(pairing.pods))
    return paired


def _byes(tournament: Tournament, order: list, kind: str) -> list:
    """The fewest byes that let the rest be split, to the lowest-placed who have had none (the cut has none)."""
    count = fewest_byes(len(order), tournament.table_sizes)
    if count is None or (count and kind == TournamentRound.Kind.CUT):
        raise ValidationError(_("%(count)d players cannot be split into pods of %(sizes)s.")
                              % {"count": len(order), "sizes": sorted(set(tournament.table_sizes))})
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
        return pair(Round(players, tuple(tournament.table_sizes),
                          seat_rule="cut" if kind == TournamentRound.Kind.CUT else "swiss"))
    except PairingError:
        raise ValidationError(_("This round cannot be paired with the tournament's table sizes.")) from None
