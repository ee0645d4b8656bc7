"""REST endpoints for results: enter, read, correct, delete and sign off (issue 5), and the loop an app closes with
them (issue 48): the results waiting for the caller, and a table's result and sign-off by the table's code."""

import re

from django.db.models import QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.views import ResultLinksOutput, WaitingOutput
from leagues.common import selectors
from leagues.models import Player, Result, Season
from leagues.result import of_table, results
from shitenno_site.api import (
    IdField,
    NameField,
    StrictBooleanField,
    StrictCharField,
    StrictDateField,
    StrictFloatField,
    StrictIntegerField,
    StrictSerializer,
    id_parameter,
    with_errors,
)
from shitenno_site.validation import MAX_INT, InputError, query_int

from .views import PlayerOutput


class EntryOutput(serializers.Serializer):
    player = PlayerOutput()
    rank = serializers.IntegerField()
    score = serializers.FloatField(allow_null=True)
    score_text = serializers.CharField(help_text='A score that is not a plain number, as imported ("3+20+5").')
    seat = serializers.IntegerField(allow_null=True, help_text="Seat or start order, 1 first; null when not known.")


class SignOffOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    agreed = serializers.BooleanField()
    note = serializers.CharField()


class ResultOutput(serializers.ModelSerializer):
    """A result whole. Tables are addressed by their code, so `table` names the table a result came from (issue
    48); `session`, the table's internal id, stays for the clients that read it and is deprecated."""

    table = serializers.CharField(
        source="session.code",
        allow_null=True,
        default=None,
        help_text="The code of the table it came from (/api/tables/<code>/); null for a "
        "result entered without move entry.",
    )
    session = serializers.IntegerField(
        source="session_id",
        allow_null=True,
        help_text="Deprecated: the table's internal id, which no address takes; read `table`.",
    )
    entries = EntryOutput(many=True)
    sign_offs = SignOffOutput(many=True)
    waiting_for = serializers.SerializerMethodField(
        help_text="The players nobody has agreed for yet; empty once counted."
    )
    links = serializers.SerializerMethodField()

    class Meta:
        model = Result
        fields = [
            "id",
            "game",
            "played_on",
            "season",
            "table",
            "session",
            "status",
            "version",
            "entries",
            "sign_offs",
            "waiting_for",
            "links",
        ]

    @extend_schema_field(WaitingOutput(many=True))
    def get_waiting_for(self, result: Result) -> list[dict]:
        return of_table.players_to_sign(result)

    @extend_schema_field(ResultLinksOutput)
    def get_links(self, result: Result) -> dict:
        return of_table.result_links(result, result.session.code if result.session_id else None)


class EntryInput(StrictSerializer):
    player = IdField()
    rank = StrictIntegerField(min_value=1, max_value=1000)
    score = StrictFloatField(required=False, allow_null=True, default=None, min_value=-1e9, max_value=1e9)


def _entries(rows: list[dict]) -> list[dict]:
    players = Player.objects.in_bulk([row["player"] for row in rows])
    missing = sorted({row["player"] for row in rows} - set(players))
    if missing:
        raise serializers.ValidationError({"entries": [f"Unknown player {pk}." for pk in missing]})
    return [{**row, "player": players[row["player"]]} for row in rows]


TABLE_CODE = "[A-Za-z0-9_-]{1,20}"  # games.models.new_code's alphabet, within the column's 20 characters
RESULT_FILTERS = [
    OpenApiParameter(
        "waiting",
        {"type": "string", "enum": ["me"]},
        description="me: only the results waiting for your sign-off (for you, or a guest you sign for).",
    ),
    id_parameter("season", "Only the results of this season."),
    OpenApiParameter(
        "table",
        {"type": "string", "pattern": f"^{TABLE_CODE}$"},
        description="Only the result of this table (its code).",
    ),
]


def _filters(params) -> dict:
    """The list's filters as sent; one given but unreadable (blank included: the schema says what each takes) is a
    400 naming it, never silently the whole list."""
    for name in ("waiting", "table"):
        if name in params and not re.fullmatch("me" if name == "waiting" else TABLE_CODE, params[name]):
            raise InputError(name, _("%(name)s is not a value this list takes (see the schema).") % {"name": name})
    season = query_int(params, "season", default=-1 if "season" in params else 0, min_value=1)
    if season < 0:  # given blank, which query_int reads as its default
        raise InputError(
            "season",
            _("%(name)s is a whole number from %(min)d to %(max)d.") % {"name": "season", "min": 1, "max": MAX_INT},
        )
    return {"waiting": "waiting" in params, "season": season or None, "table": params.get("table", "")}


class ResultList(ListAPIView):
    permission_classes = [IsAuthenticated]
    serializer_class = ResultOutput

    def get_queryset(self) -> QuerySet[Result]:
        return selectors.results_listed(viewer=self.request.user, **_filters(self.request.query_params))

    @extend_schema(
        parameters=RESULT_FILTERS,
        responses=with_errors({200: ResultOutput(many=True)}, 400, 401),
        summary="Results you may see, latest first: those waiting for your sign-off (waiting=me), of a "
        "season, of a table",
    )
    def get(self, request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)

    class ResultInput(StrictSerializer):
        game = NameField(max_length=80)
        played_on = StrictDateField()
        season = IdField(required=False, allow_null=True, default=None)
        entries = EntryInput(many=True)

    @extend_schema(
        request=ResultInput,
        responses=with_errors({201: ResultOutput}, 400, 403, 415, 429),
        summary="Enter a game played without move entry (any game); you sign it off for you and guests",
    )
    def post(self, request) -> Response:
        data = self.ResultInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        season = values.pop("season")
        if season is not None:
            season = Season.objects.select_related("league__club").filter(pk=season).first()
            if season is None:
                raise serializers.ValidationError({"season": ["Unknown season."]})
        result = results.result_enter(
            user=request.user,
            season=season,
            game=values["game"],
            played_on=values["played_on"],
            entries=_entries(values["entries"]),
        )
        return Response(ResultOutput(result).data, status=status.HTTP_201_CREATED)


class ResultDetail(APIView):
    class ResultEditInput(StrictSerializer):
        version = StrictIntegerField()
        played_on = StrictDateField(required=False)
        entries = EntryInput(many=True, required=False)

    class ResultDeleteInput(StrictSerializer):
        version = StrictIntegerField()

    @extend_schema(
        responses=with_errors({200: ResultOutput}, 404),
        summary="A result you may see: its places, scores, status and who has signed it",
    )
    def get(self, request, pk: int) -> Response:
        return Response(ResultOutput(get_object_or_404(selectors.results_visible(request.user), pk=pk)).data)

    @extend_schema(
        request=ResultEditInput,
        responses=with_errors({200: ResultOutput}, 400, 403, 404, 409, 415),
        summary="Correct a result (managers; send the version you saw); re-rates from its date",
    )
    def patch(self, request, pk: int) -> Response:
        result = get_object_or_404(selectors.results_visible(request.user), pk=pk)
        data = self.ResultEditInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "entries" in values:
            values["entries"] = _entries(values["entries"])
        result = results.result_update(result=result, user=request.user, **values)
        return Response(ResultOutput(result).data)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "version",
                {"type": "integer", "minimum": 0, "maximum": MAX_INT},
                required=True,
                description='The version you saw (or a body {"version": n}).',
            )
        ],
        responses=with_errors({204: None}, 400, 403, 404, 409, 415),
        summary="Delete a result (managers; send the version you saw); re-rates from its date",
    )
    def delete(self, request, pk: int) -> Response:
        result = get_object_or_404(selectors.results_visible(request.user), pk=pk)
        # OpenAPI gives a DELETE no body, so the documented way to send the version is the query string.
        if request.data:
            data = self.ResultDeleteInput(data=request.data)
            data.is_valid(raise_exception=True)
            version = data.validated_data["version"]
        else:
            if set(request.query_params) - {"version"}:
                raise serializers.ValidationError({"detail": ["Send only the version you saw."]})
            version = query_int(request.query_params, "version", default=-1)
            if version < 0:
                raise serializers.ValidationError({"version": ["This field is required."]})
        results.result_delete(result=result, user=request.user, version=version)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SignOffInput(StrictSerializer):
    agreed = StrictBooleanField(default=True)
    note = StrictCharField(max_length=300, required=False, allow_blank=True, default="", multiline=True)


class ResultSignOff(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SignOffInput,
        responses=with_errors({200: ResultOutput}, 400, 403, 404, 415),
        summary="Agree to or dispute a result you played",
    )
    def post(self, request, pk: int) -> Response:
        result = get_object_or_404(selectors.results_visible(request.user), pk=pk)
        data = SignOffInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = results.result_sign_off(result=result, user=request.user, **data.validated_data)
        return Response(ResultOutput(result).data)


def _result_of_table(request, code: str) -> Result:
    """The table's result, or 404 (no such table, a private one, or no result yet: the same answer)."""
    result = of_table.result_of_table(viewer=request.user, code=code)
    if result is None:
        raise Http404(_("This table has no result."))
    return result


class TableResult(APIView):
    @extend_schema(
        responses=with_errors({200: ResultOutput}, 404), summary="A finished table's result, by the table's code"
    )
    def get(self, request, code: str) -> Response:
        return Response(ResultOutput(_result_of_table(request, code)).data)


class TableSignOff(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=SignOffInput,
        responses=with_errors({200: ResultOutput}, 400, 401, 403, 404, 415),
        summary="Agree to or dispute a finished table's result you played, by the table's code",
    )
    def post(self, request, code: str) -> Response:
        result = _result_of_table(request, code)
        data = SignOffInput(data=request.data)
        data.is_valid(raise_exception=True)
        result = results.result_sign_off(result=result, user=request.user, **data.validated_data)
        return Response(ResultOutput(result).data)
