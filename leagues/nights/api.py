"""REST endpoints for league nights (issue 25): thin over leagues.nights.services and selectors."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.common import selectors as league_selectors
from leagues.models import Player
from shitenno_site.api import (
    IdField,
    StrictBooleanField,
    StrictCharField,
    StrictDateField,
    StrictIntegerField,
    StrictJSONField,
    StrictSerializer,
    with_errors,
)
from shitenno_site.errors import Conflict, Unavailable

from . import proposals, selectors, services
from .models import Night, NightRound, NightTable


class NightTableOutput(serializers.Serializer):
    position = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Player ids, seat 0 (first) first.")
    locked = serializers.BooleanField()
    session = serializers.CharField(allow_null=True, help_text="The table session's code once opened.")
    finished = serializers.BooleanField(help_text="Whether the opened table's game has ended (false before it opens).")


class NightRoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    opened_at = serializers.DateTimeField(allow_null=True)
    tables = NightTableOutput(many=True)


class NightOutput(serializers.Serializer):
    id = serializers.IntegerField()
    season = serializers.IntegerField(source="season_id")
    date = serializers.DateField()
    games = serializers.ListField(child=serializers.CharField())
    table_sizes = serializers.ListField(child=serializers.IntegerField())
    boxes = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Boxes of a game tonight (slug -> number); a game not named has no limit.",
    )
    mix = serializers.CharField(help_text="fill: the fewest, fullest tables first; free: the fewest repeats first.")
    present = serializers.ListField(child=serializers.IntegerField(), help_text="Checked in and not left.")
    rounds = NightRoundOutput(many=True)


def night_data(night: Night) -> dict:
    return NightOutput(
        {
            "id": night.pk,
            "season_id": night.season_id,
            "date": night.date,
            "games": night.games,
            "table_sizes": night.table_sizes,
            "boxes": night.boxes,
            "mix": night.mix,
            "present": selectors.night_present(night),
            "rounds": [
                {"number": r.number, "opened_at": r.opened_at, "tables": selectors.round_tables(r)}
                for r in night.rounds.order_by("number")
            ],
        }
    ).data


def night_for_viewer(pk: int, viewer) -> Night:
    night = Night.objects.filter(pk=pk).first()
    if night is None:
        raise Http404("No such night.")
    league_selectors.season_for_viewer(pk=night.season_id, viewer=viewer)  # 404 when its club is private
    return night


def _player(data) -> Player | None:
    pk = data.get("player")
    return None if pk is None else get_object_or_404(Player, pk=pk)


class SeasonNights(APIView):
    class NightInput(StrictSerializer):
        date = StrictDateField()
        games = serializers.ListField(child=StrictCharField(max_length=100), max_length=20)
        table_sizes = serializers.ListField(
            child=StrictIntegerField(min_value=2, max_value=6), required=False, max_length=5, default=lambda: [3, 4]
        )
        forbidden = serializers.ListField(
            child=serializers.ListField(child=IdField()), required=False, max_length=200, default=list
        )
        mix = serializers.ChoiceField(choices=["fill", "free"], required=False, default="fill")

        boxes = serializers.DictField(
            child=StrictIntegerField(min_value=1, max_value=services.MAX_BOXES),
            required=False,
            default=dict,
            help_text="How many boxes of each game the club has tonight (slug -> number, games on offer only): "
            "never more tables of a game than its boxes. Optional; a game not named has no limit.",
        )

        def validate_boxes(self, value: dict) -> dict:
            if len(value) > 20:
                raise serializers.ValidationError("At most 20 games.")
            return value

    @extend_schema(
        request=NightInput,
        responses=with_errors({201: NightOutput}, 400, 403, 404, 415),
        summary="Open a league night (managers)",
    )
    def post(self, request, pk: int) -> Response:
        season = league_selectors.season_for_viewer(pk=pk, viewer=request.user)
        data = self.NightInput(data=request.data)
        data.is_valid(raise_exception=True)
        night = services.night_open(season=season, user=request.user, **data.validated_data)
        return Response(night_data(night), status=status.HTTP_201_CREATED)


class NightDetail(APIView):
    @extend_schema(responses=with_errors({200: NightOutput}, 404), summary="A night: who is here, its rounds")
    def get(self, request, pk: int) -> Response:
        return Response(night_data(night_for_viewer(pk, request.user)))


class NightCheckInView(APIView):
    class CheckInInput(StrictSerializer):
        player = IdField(required=False, help_text="A manager ticks a member's name; else yourself.")
        only_game = StrictCharField(max_length=100, required=False, default="", allow_blank=True)

    @extend_schema(
        request=CheckInInput,
        responses=with_errors({200: NightOutput}, 400, 403, 404, 415),
        summary="Check in (yourself, or a member when you manage the club)",
    )
    def post(self, request, pk: int) -> Response:
        night = night_for_viewer(pk, request.user)
        data = self.CheckInInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.night_check_in(
            night=night,
            user=request.user,
            player=_player(data.validated_data),
            only_game=data.validated_data["only_game"],
        )
        return Response(night_data(night))


class NightLeave(APIView):
    class LeaveInput(StrictSerializer):
        player = IdField(required=False)

    @extend_schema(
        request=LeaveInput,
        responses=with_errors({200: NightOutput}, 400, 403, 404, 415),
        summary="Leave early: not seated in later rounds",
    )
    def post(self, request, pk: int) -> Response:
        night = night_for_viewer(pk, request.user)
        data = self.LeaveInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.night_leave(night=night, user=request.user, player=_player(data.validated_data))
        return Response(night_data(night))


class ProposalOutput(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["queued", "running", "done", "refused", "failed"],
        allow_null=True,
        help_text="queued or running: poll again; done: `round` is the proposed round; refused or failed: `error` "
        "says why (nothing was written). null: no round was ever proposed.",
    )
    attempt = serializers.IntegerField(help_text="Counts the night's proposals; each ask starts the next one.")
    round = NightRoundOutput(allow_null=True, help_text="Once done: the round as it is now.")
    error = serializers.CharField(help_text="The reason of a refusal or a failure, in the organiser's language.")
    code = serializers.CharField(help_text='"changed": the night changed while proposing (propose again).')
    poll = serializers.CharField(help_text="Where to ask how it goes (this answer's address).")


def round_data(night_round: NightRound) -> dict:
    return NightRoundOutput(
        {
            "number": night_round.number,
            "opened_at": night_round.opened_at,
            "tables": selectors.round_tables(night_round),
        }
    ).data


def proposal_data(request, night: Night, attempt: int | None = None) -> dict:
    state = proposals.proposal_state(night, attempt)
    number = state.pop("round")
    night_round = NightRound.objects.filter(night=night, number=number).first() if number else None
    poll = request.build_absolute_uri(reverse("api-night-proposal", args=[night.pk]))
    return ProposalOutput({**state, "round": round_data(night_round) if night_round else None, "poll": poll}).data


class NightRounds(APIView):
    @extend_schema(
        request=None,
        responses=with_errors({201: NightRoundOutput, 202: ProposalOutput}, 400, 403, 404, 409, 503),
        summary="Propose the tables of the round not yet opened (locked tables kept) (managers)",
        description="A night of at most 12 free players (checked in, not at a locked table) is proposed at once: "
        "201 with the round. A larger one runs as a job: 202 with `poll` (also in `Location`), "
        "to GET until its state is done (with the round), refused or failed. A proposal of the night "
        "already queued or running is answered with that one (202), never waited for. 400: the night "
        "cannot be split (the reason); 409: the night changed while proposing; 503: the job failed or "
        "could not be queued.",
        parameters=[
            OpenApiParameter(
                "Location",
                str,
                OpenApiParameter.HEADER,
                response=[202],
                description="The proposal's address to poll (the body's `poll`).",
            )
        ],
    )
    def post(self, request, pk: int) -> Response:
        night = night_for_viewer(pk, request.user)
        row, _started = proposals.proposal_ask(night=night, user=request.user)
        body = proposal_data(request, night, row.attempt)
        state = body["state"]
        if state == "done":
            return Response(body["round"], status=status.HTTP_201_CREATED)
        if state == "refused":
            if body["code"] == "changed":
                raise Conflict(body["error"])
            raise serializers.ValidationError({"tables": [body["error"]]})
        if state == "failed":
            raise Unavailable(body["error"])
        return Response(body, status=status.HTTP_202_ACCEPTED, headers={"Location": body["poll"]})


class NightProposalView(APIView):
    @extend_schema(
        responses=with_errors({200: ProposalOutput}, 404),
        summary="How the night's latest proposal goes (poll after a 202)",
    )
    def get(self, request, pk: int) -> Response:
        night = night_for_viewer(pk, request.user)
        return Response(proposal_data(request, night))


class RoundSwap(APIView):
    class SwapInput(StrictSerializer):
        a = IdField(help_text="A player id.")
        b = IdField(help_text="A player id.")

    @extend_schema(
        request=SwapInput,
        responses=with_errors({200: NightRoundOutput}, 400, 403, 404, 415),
        summary="Swap two players' places in a proposed round (managers)",
    )
    def post(self, request, pk: int, number: int) -> Response:
        night = night_for_viewer(pk, request.user)
        night_round = get_object_or_404(NightRound, night=night, number=number)
        data = self.SwapInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.tables_swap(night_round=night_round, user=request.user, **data.validated_data)
        return Response(
            NightRoundOutput(
                {
                    "number": night_round.number,
                    "opened_at": night_round.opened_at,
                    "tables": selectors.round_tables(night_round),
                }
            ).data
        )


def _proposed_table(request, pk: int, number: int, position: int) -> NightTable:
    """The table at `position` of round `number` of a night the viewer may see (404 otherwise)."""
    night = night_for_viewer(pk, request.user)
    return get_object_or_404(NightTable, round__night=night, round__number=number, position=position)


def _table_answer(table: NightTable) -> Response:
    """The table as the round now shows it, after a change to it."""
    return Response(
        NightTableOutput(next(t for t in selectors.round_tables(table.round) if t["position"] == table.position)).data
    )


class TableLock(APIView):
    class LockInput(StrictSerializer):
        locked = StrictBooleanField()

    @extend_schema(
        request=LockInput,
        responses=with_errors({200: NightTableOutput}, 400, 403, 404, 415),
        summary="Lock or unlock a proposed table (managers)",
    )
    def post(self, request, pk: int, number: int, position: int) -> Response:
        table = _proposed_table(request, pk, number, position)
        data = self.LockInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.table_lock(table=table, user=request.user, locked=data.validated_data["locked"])
        return _table_answer(table)


class TableGame(APIView):
    class GameInput(StrictSerializer):
        game = StrictCharField(max_length=100, help_text="A game on offer tonight (its slug).")

    @extend_schema(
        request=GameInput,
        responses=with_errors({200: NightTableOutput}, 400, 403, 404, 415),
        summary="Set a proposed table's game; the table is locked with it (managers)",
    )
    def post(self, request, pk: int, number: int, position: int) -> Response:
        table = _proposed_table(request, pk, number, position)
        data = self.GameInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.table_game_set(table=table, user=request.user, game=data.validated_data["game"])
        return _table_answer(table)


class RoundOpen(APIView):
    class OpenInput(StrictSerializer):
        setups = serializers.DictField(
            child=StrictJSONField(),
            required=False,
            default=dict,
            help_text="A table's position -> its set-up; the site deals the others.",
        )

    @extend_schema(
        request=OpenInput,
        responses=with_errors({200: NightRoundOutput}, 400, 403, 404, 415),
        summary="Open the round's tables as table sessions with their seats filled (managers)",
    )
    def post(self, request, pk: int, number: int) -> Response:
        night = night_for_viewer(pk, request.user)
        night_round = get_object_or_404(NightRound, night=night, number=number)
        data = self.OpenInput(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            setups = {int(k): v for k, v in data.validated_data["setups"].items()}
        except ValueError:
            raise serializers.ValidationError({"setups": ["Keys are table positions (0, 1, ...)."]}) from None
        services.tables_open(night_round=night_round, user=request.user, setups=setups)
        night_round.refresh_from_db()
        return Response(
            NightRoundOutput(
                {
                    "number": night_round.number,
                    "opened_at": night_round.opened_at,
                    "tables": selectors.round_tables(night_round),
                }
            ).data
        )
