"""REST endpoints for a tournament day (issue 51, docs/api.md): a club's tournaments, entering, checking in and
dropping, naming the judges, pairing the next round, opening its site tables, settling a pod from its table or
entering its places by hand, reading its rounds, pods and standings; thin over
leagues.tournaments.services (writes) and selectors (reads). The standings are computed on each read (never
stored)."""

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.common.access import club_sees_inside
from leagues.models import Club, Player
from shitenno_site.api import (
    IdField,
    NameField,
    StrictBooleanField,
    StrictDateField,
    StrictIntegerField,
    StrictSerializer,
    with_errors,
)
from shitenno_site.paged import PagedListView

from . import schemes, selectors, services, tables
from .models import Tournament, TournamentPod, TournamentRound

SCHEME_EXAMPLE = {"4": [5, 3, 1, 0], "3": [5, 2, 0]}


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {
            "type": "array",
            "maxItems": 6,
            "items": {"type": "integer", "minimum": 0, "maximum": schemes.MAX_POINTS},
        },
        "example": SCHEME_EXAMPLE,
    }
)
class SchemeField(serializers.DictField):
    """Points per place by pod size: {"<size>": [first place's points, ..., last place's]}."""

    def __init__(self, **kwargs) -> None:
        super().__init__(
            child=serializers.ListField(
                child=StrictIntegerField(min_value=0, max_value=schemes.MAX_POINTS), max_length=6
            ),
            **kwargs,
        )


class TournamentPodOutput(serializers.Serializer):
    position = serializers.IntegerField(help_text="0 for the leaders' pod.")
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids, seat 0 (first) first.")
    places = serializers.DictField(child=serializers.IntegerField(), help_text="Player id -> place, once played.")
    places_from = serializers.CharField(
        help_text='Where the places came from: "table" (its result counted by its '
        'players), "judge" (settled from the table by a judge or the '
        'organiser), "hand" (entered by hand), "" (not yet).'
    )
    table = serializers.CharField(
        allow_null=True, help_text="The code of the site table opened for the pod (/api/tables/<code>/), if any."
    )


class TournamentRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    kind = serializers.CharField(help_text="swiss, semi (the semi-final pods) or cut (the final table).")
    repeats = serializers.IntegerField(
        help_text="Meetings repeated in this round's pods (the fewest possible when equal to bound)."
    )
    bound = serializers.IntegerField(help_text="A proven lower bound on repeats.")
    ratings = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="Round 1 seeded by ratings: player id -> the rating it was seeded by.",
    )
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


class TournamentEntryOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()
    checked_in = serializers.BooleanField()
    entered_round = serializers.IntegerField(help_text="1, or the round a late entry joins (with 0 points).")
    dropped_after = serializers.IntegerField(allow_null=True, help_text="The last round he was paired in.")


class TournamentSummaryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    games = serializers.ListField(child=serializers.CharField())
    swiss_rounds = serializers.IntegerField()
    cut = serializers.CharField()
    cut_size = serializers.IntegerField()


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
    scheme = SchemeField(
        help_text="Points per place by pod size (text keys), first place first: what the "
        "standings, the pairing by points and the wall count."
    )
    bye_points = serializers.IntegerField(help_text="What a bye scores.")
    seed = serializers.CharField(help_text="Recorded: round 1's draw and the lots come from it.")
    first_round = serializers.CharField(help_text="random (the seed's draw) or ratings (seeded by the club's ratings).")
    judges = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The judges' player ids: they settle pods' places, as the organiser.",
    )
    may_judge = serializers.BooleanField(
        help_text="Whether you may settle its pods' places (a manager of the club or one of its judges)."
    )
    games = serializers.ListField(child=serializers.CharField())
    clock_ends_at = serializers.DateTimeField(allow_null=True, help_text="The latest round's clock runs out then.")
    over = serializers.BooleanField(help_text="The last round is played: the standings are final.")
    winner = serializers.IntegerField(allow_null=True, help_text="The final table's first (or the leader) once over.")
    entries = TournamentEntryOutput(many=True)
    rounds = TournamentRoundOutput(many=True)
    standings = TournamentStandingOutput(many=True)


def tournament_data(tournament: Tournament, viewer=None) -> dict:
    """The whole tournament as the API answers it; `may_judge` says whether `viewer` settles pods' places."""
    day = selectors.tournament_day(tournament, viewer)
    rounds = [
        {
            "number": r.number,
            "kind": r.kind,
            "repeats": r.pairing.get("repeats", 0),
            "bound": r.pairing.get("bound", 0),
            "spread": r.pairing.get("spread", 0),
            "byes": r.pairing.get("byes", []),
            **({"ratings": r.pairing["ratings"]} if "ratings" in r.pairing else {}),
            "pods": [
                {
                    "position": p.position,
                    "players": p.players,
                    "places": p.places,
                    "places_from": p.places_from,
                    "table": p.session.code if p.session else None,
                }
                for p in r.pods.all()
            ],
        }
        for r in tournament.rounds.order_by("number").prefetch_related(
            Prefetch("pods", queryset=TournamentPod.objects.select_related("session"))
        )
    ]
    return TournamentOutput(
        {
            "id": tournament.pk,
            "club": tournament.club.slug,
            "name": tournament.name,
            "date": tournament.date,
            "table_sizes": tournament.table_sizes,
            "swiss_rounds": tournament.swiss_rounds,
            "cut": tournament.cut,
            "cut_size": tournament.cut_size,
            "round_minutes": tournament.round_minutes,
            "scheme": tournament.scheme,
            "bye_points": tournament.bye_points,
            "seed": tournament.seed,
            "first_round": tournament.first_round,
            "judges": [j["id"] for j in day.judges],
            "may_judge": day.may_judge,
            "games": tournament.games,
            "clock_ends_at": day.latest.clock_ends_at if day.latest else None,
            "over": day.over,
            "winner": day.winner["id"] if day.winner else None,
            "entries": [
                {
                    "player": e.player_id,
                    "name": e.player.name,
                    "checked_in": e.checked_in_at is not None,
                    "entered_round": e.entered_round,
                    "dropped_after": e.dropped_after,
                }
                for e in day.entries
            ],
            "rounds": rounds,
            "standings": [
                {
                    "place": r["place"],
                    "player": r["player"],
                    "points": float(r["points"]),
                    "opponents_average": float(r["opponents_average"]),
                    "average_place": None if r["average_place"] is None else float(r["average_place"]),
                    "head_to_head": r["head_to_head"],
                    "lot": r["lot"],
                }
                for r in day.standings
            ],
        }
    ).data


def tournament_for_viewer(pk: int, viewer) -> Tournament:
    tournament = Tournament.objects.select_related("club").filter(pk=pk).first()
    if tournament is None or not club_sees_inside(tournament.club, viewer):
        raise Http404("No such tournament, or its club is private.")
    return tournament


class TournamentDetail(APIView):
    @extend_schema(
        responses=with_errors({200: TournamentOutput}, 404),
        summary="A tournament: its rounds, pods and standings with the tie-breakers",
    )
    def get(self, request, pk: int) -> Response:
        return Response(tournament_data(tournament_for_viewer(pk, request.user), request.user))


class TournamentRounds(APIView):
    class PairInput(StrictSerializer):
        """Nothing to send: the pairing reads the tournament (an unknown field is refused)."""

    @extend_schema(
        request=PairInput,
        responses=with_errors({201: TournamentOutput}, 400, 403, 404, 415),
        summary="Pair the next round (the club's managers): by the standings after round 1",
    )
    def post(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        self.PairInput(data=request.data).is_valid(raise_exception=True)
        services.round_pair(tournament=tournament, user=request.user)
        return Response(tournament_data(tournament, request.user), status=status.HTTP_201_CREATED)


class ClubTournaments(PagedListView):
    serializer_class = TournamentSummaryOutput

    class TournamentInput(StrictSerializer):
        name = NameField(max_length=100)
        date = StrictDateField()
        games = serializers.ListField(child=NameField(max_length=80), max_length=10, required=False, default=list)
        table_sizes = serializers.ListField(
            child=StrictIntegerField(min_value=2, max_value=6),
            min_length=1,
            max_length=5,
            required=False,
            default=lambda: [3, 4],
        )
        swiss_rounds = StrictIntegerField(min_value=1, max_value=10, required=False, default=4)
        cut = serializers.ChoiceField(choices=[c.value for c in Tournament.Cut], required=False, default="final")
        cut_size = StrictIntegerField(min_value=2, max_value=16, required=False, default=4)
        bye_points = StrictIntegerField(min_value=0, max_value=100, required=False, default=0)
        round_minutes = StrictIntegerField(min_value=5, max_value=600, required=False, default=60)
        first_round = serializers.ChoiceField(
            choices=[c.value for c in Tournament.FirstRound],
            required=False,
            default="random",
            help_text="random, or ratings: round 1 seeded by the club's ratings.",
        )
        scheme = SchemeField(
            required=False,
            help_text=(
                "Your own points per place, for every table size the tournament uses and no other: one whole number "
                "from 0 to 100 per place, first place first, never increasing, first place more than last. Not with "
                "scheme_preset; with neither, the default 4-2-1-0 (a pod of three 4-2-0)."
            ),
        )
        scheme_preset = serializers.ChoiceField(
            choices=list(schemes.PRESETS),
            required=False,
            help_text=(
                "A named scheme instead of your own: 4-2-1-0 (the default; a pod of three 4-2-0), or a league "
                "season's 3-2-1-0 (pods of two and four only) or 7-5-3-1 (pods of two to four: 7-1, 7-4-1, "
                "7-5-3-1)."
            ),
        )

    @extend_schema(
        responses=with_errors({200: TournamentSummaryOutput(many=True)}, 400, 403, 404),
        summary="A club's tournaments, the latest first, paged",
    )
    def get(self, request, slug: str) -> Response:
        """Paged as every list (`limit`, `offset`), the latest first (by date, then the newest set up): a club
        that holds a tournament each month has hundreds in a few years (issue 46 finding 6; before, a plain
        array)."""
        club = get_object_or_404(Club, slug=slug)
        if not club_sees_inside(club, request.user):
            raise PermissionDenied(_("Only members see a private club's tournaments."))
        return self.paged(selectors.club_tournaments(club))

    @extend_schema(
        request=TournamentInput,
        responses=with_errors({201: TournamentOutput}, 400, 403, 404, 415),
        summary="Set up a tournament (club owners and admins)",
    )
    def post(self, request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        data = self.TournamentInput(data=request.data)
        data.is_valid(raise_exception=True)
        tournament = services.tournament_create(club=club, user=request.user, **data.validated_data)
        return Response(tournament_data(tournament, request.user), status=status.HTTP_201_CREATED)


def _player(data: dict) -> Player | None:
    pk = data.get("player")
    if pk is None:
        return None
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise serializers.ValidationError({"player": [_("No such player.")]})
    return player


class PlayerInput(StrictSerializer):
    player = IdField(required=False, help_text="A manager names a member or guest of the club; else yourself.")


class TournamentEntries(APIView):
    class TournamentEntryInput(PlayerInput):
        checked_in = StrictBooleanField(required=False, default=False, help_text="Checked in at once (on the day).")

    @extend_schema(
        request=TournamentEntryInput,
        responses=with_errors({201: TournamentOutput}, 400, 403, 404, 415),
        summary="Enter (yourself, or a member or guest when you manage the club); after round 1 a late "
        "entry, at 0 points",
    )
    def post(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        data = self.TournamentEntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tournament_enter(
            tournament=tournament,
            user=request.user,
            player=_player(data.validated_data),
            checked_in=data.validated_data["checked_in"],
        )
        return Response(tournament_data(tournament, request.user), status=status.HTTP_201_CREATED)


class TournamentCheckIn(APIView):
    @extend_schema(
        request=PlayerInput,
        responses=with_errors({200: TournamentOutput}, 400, 403, 404, 415),
        summary="Check in on the day (yourself, or anyone entered when you manage the club)",
    )
    def post(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        data = PlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tournament_check_in(tournament=tournament, user=request.user, player=_player(data.validated_data))
        return Response(tournament_data(tournament, request.user))


class TournamentDrop(APIView):
    @extend_schema(
        request=PlayerInput,
        responses=with_errors({200: TournamentOutput}, 400, 403, 404, 415),
        summary="Drop: left out of the next pairing, the results kept",
    )
    def post(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        data = PlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tournament_drop(tournament=tournament, user=request.user, player=_player(data.validated_data))
        return Response(tournament_data(tournament, request.user))


class PlaceInput(StrictSerializer):
    player = IdField()
    place = StrictIntegerField(min_value=1, max_value=6)


class PodPlaces(APIView):
    class PlacesInput(StrictSerializer):
        places = PlaceInput(many=True, max_length=6, help_text="Every seated player's place, 1 for first.")

    @extend_schema(
        request=PlacesInput,
        responses=with_errors({200: TournamentOutput}, 400, 403, 404, 415),
        summary="Enter a pod's places by hand (the club's managers and the tournament's judges; the latest round only)",
    )
    def post(self, request, pk: int, number: int, position: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        pod = selectors.tournament_pod(tournament, number, position)
        data = self.PlacesInput(data=request.data)
        data.is_valid(raise_exception=True)
        places = {row["player"]: row["place"] for row in data.validated_data["places"]}
        if len(places) != len(data.validated_data["places"]):
            raise serializers.ValidationError({"places": [_("Each player of the pod once.")]})
        services.pod_places(pod=pod, user=request.user, places=places)
        return Response(tournament_data(tournament, request.user))


class PodSettle(APIView):
    class SettleInput(StrictSerializer):
        """Nothing to send: the places are the finished table's result (an unknown field is refused)."""

    @extend_schema(
        request=SettleInput,
        responses=with_errors({200: TournamentOutput}, 400, 403, 404, 415),
        summary="Settle a pod's places from its finished table at once, without the players' sign-offs "
        "(the tournament's judges and the club's managers; the latest round only)",
    )
    def post(self, request, pk: int, number: int, position: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        pod = selectors.tournament_pod(tournament, number, position)
        self.SettleInput(data=request.data).is_valid(raise_exception=True)
        tables.pod_settle(pod=pod, user=request.user)
        return Response(tournament_data(tournament, request.user))


class RoundTables(APIView):
    class TablesInput(StrictSerializer):
        counts = serializers.DictField(
            child=StrictIntegerField(min_value=1, max_value=999),
            required=False,
            default=dict,
            help_text="Pod position -> the number its game asks the "
            "organiser to count at the table (a game's "
            "night_count_label), as on a league night.",
        )

    @extend_schema(
        request=TablesInput,
        responses=with_errors({201: TournamentOutput}, 400, 403, 404, 415),
        summary="Open a site table for each pod of the latest round, its players seated in the pod's "
        "order (the club's managers)",
    )
    def post(self, request, pk: int, number: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        tournament_round = get_object_or_404(TournamentRound, tournament=tournament, number=number)
        data = self.TablesInput(data=request.data)
        data.is_valid(raise_exception=True)
        counts = {}
        for key, count in data.validated_data["counts"].items():
            if not str(key).isdigit():
                raise serializers.ValidationError({"counts": [_("Name each pod by its position: 0, 1, ...")]})
            counts[int(key)] = count
        tables.round_tables_open(tournament_round=tournament_round, user=request.user, counts=counts)
        return Response(tournament_data(tournament, request.user), status=status.HTTP_201_CREATED)


class TournamentJudges(APIView):
    class JudgesInput(StrictSerializer):
        judges = serializers.ListField(
            child=IdField(),
            max_length=20,
            help_text="The judges' player ids (members of the club), replacing those "
            "named before; an empty list names none.",
        )

    @extend_schema(
        request=JudgesInput,
        responses=with_errors({200: TournamentOutput}, 400, 403, 404, 415),
        summary="Name the tournament's judges (the club's managers)",
    )
    def put(self, request, pk: int) -> Response:
        tournament = tournament_for_viewer(pk, request.user)
        data = self.JudgesInput(data=request.data)
        data.is_valid(raise_exception=True)
        ids = list(dict.fromkeys(data.validated_data["judges"]))
        players = list(Player.objects.filter(pk__in=ids))
        if len(players) != len(ids):
            raise serializers.ValidationError({"judges": [_("No such player.")]})
        services.tournament_judges_set(tournament=tournament, user=request.user, judges=players)
        return Response(tournament_data(tournament, request.user))
