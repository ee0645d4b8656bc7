"""A tournament round's site tables (issue 51, docs/tournaments.md): the organiser opens one table per pod of the
tournament's game, the pod's players seated in the pod's seat order, the same way a league night opens its tables
(leagues.nights.seating); the pod's places then come from its table. Once the table's result counts (its players
signed it off, leagues.result.results), the places are the result's ranks (`pod_places_from_table`); a judge or
the organiser may settle them from the finished table at once, without waiting for the sign-offs (`pod_settle`).
Places entered by hand (services.pod_places) stay the fallback for a table not scored on the site, and places
already recorded are never overwritten by a table's result counted later.

Each write is one transaction on the tournament's locked row (services.tournament_locked), refused before anything
is written.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from games.engines import REGISTRY
from games.plugins import game_name
from leagues.common.access import require_club_manager
from leagues.models import Player, Result
from leagues.nights import seating

from . import services
from .models import TournamentPod, TournamentRound


def round_tables_open(
    *, tournament_round: TournamentRound, user: AbstractBaseUser, counts: dict[int, int] | None = None
) -> TournamentRound:
    """The club's managers open a site table for every pod of the latest round that has neither a table nor its
    places, its players seated in the pod's order (seat 0, the first player, first); `counts` is what a game asks
    the organiser to count at a table (by the pod's position), as on a league night. All or nothing: refused when a
    pod's game has no tables on the site (enter its places by hand), or when a game cannot open a table by
    itself."""
    tournament = tournament_round.tournament
    require_club_manager(tournament.club, user)
    counts = counts or {}
    with transaction.atomic():
        tournament = services.tournament_locked(tournament)
        tournament_round = TournamentRound.objects.get(pk=tournament_round.pk)
        latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        if tournament_round.number != latest:
            raise ValidationError(
                _("Only the latest round's tables can be opened: round %(number)d is over.")
                % {"number": tournament_round.number}
            )
        pods = list(tournament_round.pods.filter(session__isnull=True, places={}).order_by("position"))
        if not pods:
            raise ValidationError(
                _("Every pod of round %(number)d has its table or its places already.")
                % {"number": tournament_round.number}
            )
        if off_site := sorted({services.pod_game(tournament, p.position) for p in pods} - set(REGISTRY)):
            raise ValidationError(
                _("The site has no tables for %(games)s: enter those pods' places by hand.")
                % {"games": ", ".join(game_name(g) if g else _("an unnamed game") for g in off_site)}
            )
        by_id = Player.objects.in_bulk([p for pod in pods for p in pod.players])
        for pod in pods:
            pod.session = seating.seated_table_open(
                game=services.pod_game(tournament, pod.position),
                number=pod.position + 1,
                players=[by_id[p] for p in pod.players],
                club=tournament.club,
                user=user,
                count=counts.get(pod.position),
            )
            pod.save(update_fields=["session"])
    return tournament_round


def _ranks(result: Result) -> dict[int, int]:
    return dict(result.entries.values_list("player_id", "rank"))


def pod_places_from_table(*, result: Result) -> TournamentPod | None:
    """A table's result now counts (leagues.result.results, in its transaction): when it is a tournament pod's
    table and the pod has no places yet, its places are the result's ranks. Nothing when the pod's places are in
    already (entered by hand or settled by a judge: they stand), when the result's players are not the pod's, or
    when the table is no pod's."""
    pod = TournamentPod.objects.filter(session_id=result.session_id).select_related("round__tournament").first()
    if result.session_id is None or pod is None:
        return None
    with transaction.atomic():
        services.tournament_locked(pod.round.tournament)
        pod = TournamentPod.objects.select_for_update(of=("self",)).select_related("round").get(pk=pod.pk)
        latest = pod.round.tournament.rounds.order_by("-number").values_list("number", flat=True).first()
        ranks = _ranks(result)
        if (
            pod.places
            or pod.round.number != latest
            or sorted(ranks) != sorted(pod.players)
            or not all(1 <= rank <= len(ranks) for rank in ranks.values())
        ):
            return None
        return services.places_record(pod, ranks, TournamentPod.PlacesFrom.TABLE)


def pod_settle(*, pod: TournamentPod, user: AbstractBaseUser) -> TournamentPod:
    """A judge (or the organiser) settles the pod's places from its finished table at once: the table's result's
    ranks, whether or not its players have signed it off (their sign-offs still decide whether it counts in the
    club's seasons and ratings). Refused while the pod has no site table or its table is still being played; only
    in the latest round. Settled places replace any entered before."""
    services.require_judge(pod.round.tournament, user)
    with transaction.atomic():
        services.tournament_locked(pod.round.tournament)
        pod = services.latest_pod(pod)
        table = Result.objects.filter(session_id=pod.session_id).first() if pod.session_id else None
        if pod.session_id is None:
            raise ValidationError(
                _("Table %(n)d has no site table: enter its places by hand.") % {"n": pod.position + 1}
            )
        if table is None:
            raise ValidationError(
                _("Table %(n)d is still being played: its result can be settled once it has finished.")
                % {"n": pod.position + 1}
            )
        return services.places_record(pod, _ranks(table), TournamentPod.PlacesFrom.JUDGE)
