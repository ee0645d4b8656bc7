"""REST endpoints for a tournament day (issue 51): its rounds, pods and standings, and pairing the next round;
thin over leagues.tournaments.services. The standings are computed on each read (never stored)."""

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.common.access import club_sees_inside
from shitenno_site.api import StrictSerializer, with_errors

from . import services
from .models import Tournament


class TournamentPodOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="0 for the leaders' pod.")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids, seat 0 (first) first.")
    places = serializers.DictField(child=serializers.IntegerField(), help_text="Player id -> place, once played.")


class TournamentRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField(help_text="swiss or cut.")
    repeats = serializers.IntegerField(help_text="Meetings repeated in this round's pods (the fewest possible "
                                                 "when equal to bound).")
    bound = serializers.IntegerField(help_text="A proven lower bound on repeats.")
    spread = serializers.FloatField(help_text="Sum over pods of sum over pairs of their points' difference.")
    byes = serializers.ListField(child=serializers.IntegerField())
    pods = TournamentPodOutput(many=True)


class TournamentStandingOutput(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.IntegerField()
    points = serializers.FloatField()
    opponents_average = serializers.FloatField(help_text="Tie-breaker 1: opponents' average points.")
    average_place = serializers.FloatField(allow_null=True, help_text="Tie-breaker 2: lower first.")
    head_to_head = serializers.IntegerField(help_text="Tie-breaker 3, inside the group still tied.")
    lot = serializers.FloatField(allow_null=True, help_text="Tie-breaker 4: the drawn lot, where it decided.")


class TournamentOutput(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(help_text="The club's slug.")
    name = serializers.CharField()
    date = serializers.DateField()
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    swiss_rounds = serializers.IntegerField()
    cut = serializers.CharField()
    cut_size = serializers.IntegerField()
    round_minutes = serializers.IntegerField()
    seed = serializers.CharField(help_text="Recorded: round 1's draw and the lots come from it.")
    rounds = TournamentRoundOutput(many=True)
    standings = TournamentStandingOutput(many=True)


def tournament_data(tournament: Tournament) -> dict:
    rows, _lots = services.tournament_standings(tournament)
    rounds = [{"number": r.number, "kind": r.kind, "repeats": r.pairing.get("repeats", 0),
               "bound": r.pairing.get("bound", 0), "spread": r.pairing.get("spread", 0),
               "byes": r.pairing.get("byes", []),
               "pods": [{"position": p.position, "players": p.players, "places": p.places} for p in r.pods.all()]}
              for r in tournament.rounds.order_by("number").prefetch_related("pods")]
    return TournamentOutput({
        "id": tournament.pk, "club": tournament.club.slug, "name": tournament.name, "date": tournament.date,
        "table_sizes": tournament.table_sizes, "swiss_rounds": tournament.swiss_rounds, "cut": tournament.cut,
        "cut_size": tournament.cut_size, "round_minutes": tournament.round_minutes, "seed": tournament.seed,
        "rounds": rounds,
        "standings": [{"place": r.place, "player": r.player, "points": float(r.points),
                       "opponents_average": float(r.opponents_average),
                       "average_place": None if r.average_place is None else float(r.average_place),
                       "head_to_head": r.head_to_head, "lot": r.lot} for r in rows],
    }).data


def tournament_for_viewer(pk: int, viewer) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is None or not club_sees_inside(tournament.club, viewer):
        raise Http404("No such tournament, or its club is private.")
    return tournament


class TournamentDetail(APIView):
    @extend_schema(responses=with_errors({200: TournamentOutput}, 404),
                   summary="A tournament: its rounds, pods and standings with the tie-breakers")
    def get(self, request, pk: int) -> Response:
        return Response(tournament_data(tournament_for_viewer(pk, request.user)))


class TournamentRounds(APIView):
    class PairInput(StrictSerializer):
        """Nothing to send: the pairing reads the tournament (an unknown field is refused)."""

    @extend_schema(request=PairInput, responses=with_errors({201: TournamentOutput}, 400, 403, 404, 415),
                   summary="Pair the next round (the club's managers): by the standings after round 1")
    def post(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        self.PairInput(data=request.data).is_valid(raise_exception=True)
        services.round_pair(tournament=tournament, user=request.user)
        return Response(tournament_data(tournament), status=status.HTTP_201_CREATED)
