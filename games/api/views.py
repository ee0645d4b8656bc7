"""REST endpoints for tables: create, read, post a move, undo, score, and the final-count calculator.

They validate the request's shape, check access with the selectors, and call one service each; the
rules are the engine's business and errors become HTTP answers in shitenno_site.api.
"""

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlencode

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field, extend_schema_view
from rest_framework import exceptions, serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.engines.base import MoveError
from games.models import TableSession
from games.people import club_model
from games.plugins import ADAPTERS, default_final_count_game, default_game, get_game
from shitenno_site import validation
from shitenno_site.api import (
    IdField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
    StrictJSONField,
    StrictSerializer,
    StrictSlugField,
    with_errors,
)
from shitenno_site.paged import PagedListView
from shitenno_site.validation import idempotency_key

from . import examples


class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    colour = serializers.CharField()


class WaitingOutput(serializers.Serializer):
    player = serializers.IntegerField()
    name = serializers.CharField()


class ResultLinksOutput(serializers.Serializer):
    result = serializers.CharField(help_text="GET the whole result (entries, sign-offs, version).")
    sign_off = serializers.CharField(help_text="POST here to agree to or dispute it, by the result's id.")
    table_result = serializers.CharField(
        allow_null=True, help_text="The same result, by the table's code (null for a result entered without a table)."
    )
    table_sign_off = serializers.CharField(allow_null=True, help_text="The same sign-off, by the table's code.")


# A result's statuses as the results' own model names them (leagues' Result.Status; games does not import leagues,
# so tests/site/test_schema_names.py keeps the two equal): with the same values and labels the schema has one enum,
# ResultStatusEnum, for a table's result and a result alike (issue 48 finding 3).
RESULT_STATUSES = [
    ("pending", gettext_lazy("waiting for sign-off")),
    ("counted", gettext_lazy("counted")),
    ("disputed", gettext_lazy("disputed")),
]


@extend_schema_field({"type": "object", "additionalProperties": True})
class GameObjectField(serializers.JSONField):
    """A JSON object whose keys are the game's own (its engine's set-up, state, move or outcome): an object in the
    schema, so a client's model is a mapping rather than "any value" (issue 48 finding 3: 11 fields untyped)."""


class TableResultOutput(serializers.Serializer):
    """A finished table's result, in short: what a client needs to get it counted (docs/api.md, "Quick start")."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=RESULT_STATUSES)
    season = serializers.IntegerField(allow_null=True, help_text="The season it counts in, if any.")
    waiting_for = WaitingOutput(many=True, help_text="The players nobody has agreed for yet; empty once counted.")
    links = ResultLinksOutput()


class TableOutput(serializers.Serializer):
    code = serializers.CharField()
    game = serializers.CharField()
    rules_version = serializers.CharField()
    status = serializers.CharField()
    is_public = serializers.BooleanField()
    club = serializers.CharField(source="club.slug", allow_null=True, default=None)
    head_seq = serializers.IntegerField()
    seats = SeatOutput(many=True)
    setup = GameObjectField()
    state = GameObjectField()
    hint = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField(help_text="Each seat's score so far, in the game's own unit.")
    outcome = GameObjectField(allow_null=True, help_text="The final count once the game is over; null before.")
    created_at = serializers.DateTimeField()
    result = serializers.SerializerMethodField(
        help_text="A finished table's result (null while playing, and in the list of tables: read the table)."
    )

    def get_fields(self) -> dict:
        fields = super().get_fields()  # a game's deprecated name for the score (its adapter's), after `score`
        return _after(fields, "score", examples.score_alias_fields())

    def get_hint(self, session: TableSession) -> dict | None:
        return selectors.session_hint(session)

    def get_score(self, session: TableSession) -> list[int]:
        return selectors.session_score(session)

    @extend_schema_field(TableResultOutput(allow_null=True))
    def get_result(self, session: TableSession) -> dict | None:
        request = self.context.get("request")
        if request is None or isinstance(self.parent, serializers.ListSerializer):  # a list: a query a table
            return None
        return selectors.session_result(session, request.user)


def _after(fields: dict, name: str, extra: dict) -> dict:
    """`fields` with `extra` put just after `name`, so the answers keep their order."""
    out = {}
    for key, field in fields.items():
        out[key] = field
        if key == name:
            out.update(extra)
    return out


class EventOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    kind = serializers.CharField()
    payload = GameObjectField()
    description = serializers.CharField()
    phrase = GameObjectField(
        help_text="The description as a code with parameters ({} for an entry logged "
        "before the site kept them), for a client that says it in its own language."
    )
    entered_by = serializers.CharField(source="entered_by.username", default=None)
    created_at = serializers.DateTimeField()


class RecordedOutput(serializers.Serializer):
    event = EventOutput()
    state = GameObjectField(help_text="The table's state right after this entry.")
    result = TableResultOutput(
        allow_null=True, help_text="Once this entry finished the game: its result, to sign off (null before)."
    )


@extend_schema_view(get=extend_schema(summary="The tables you may see, latest first, paged"))
class TableList(ListAPIView):
    serializer_class = TableOutput

    class TableCreateInput(StrictSerializer):
        game = StrictCharField(
            default=lambda: default_game().slug, max_length=40, help_text="A game's slug (GET /api/games/)."
        )
        players = serializers.ListField(
            child=IdField(), min_length=1, max_length=8, help_text="Player ids, in seat order."
        )
        setup = StrictJSONField(help_text="The engine's set-up; see docs/api.md.")
        deal_titles = StrictBooleanField(
            default=False,
            help_text=(
                "Let the site deal the game's random start (what each game deals: see its section in docs/api.md); "
                "true for a game that deals nothing is a 400 saying so."
            ),
        )
        colours = serializers.ListField(
            child=StrictCharField(max_length=20), required=False, default=list, max_length=8
        )
        club = StrictSlugField(required=False, allow_null=True, default=None)
        is_public = StrictBooleanField(default=True)

    def get_queryset(self) -> QuerySet:
        return selectors.sessions_visible(self.request.user).order_by("-created_at", "-id")  # a stable page order

    @extend_schema(
        request=TableCreateInput,
        responses=with_errors({201: TableOutput}, 400, 401, 403, 404, 415),
        summary="Start a table and seat its players",
        examples=examples.setup_examples(),
    )
    def post(self, request) -> Response:
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated(_("Log in to start a table."))
        data = self.TableCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        players = services.players_in_order(values["players"])
        club = get_object_or_404(club_model(), slug=values["club"]) if values["club"] else None
        colours = values["colours"]
        seats = [{"player": p, "colour": colours[i] if i < len(colours) else ""} for i, p in enumerate(players)]
        with refusals_said(lambda: (values["game"], None)):
            session = services.table_open(
                game=values["game"],
                created_by=request.user,
                seats=seats,
                setup=values["setup"],
                deal=values["deal_titles"],
                rng=random.SystemRandom(),
                club=club,
                is_public=values["is_public"],
            )
        return Response(TableOutput(session).data, status=status.HTTP_201_CREATED)


def _table(request, code: str, *, seats: bool = True) -> TableSession:
    return selectors.session_for_viewer(code=code, viewer=request.user, seats=seats)


@contextmanager
def refusals_said(game_of: Callable[[], tuple[str, dict | None] | None]) -> Iterator[None]:
    """A refused move's `detail` in the reader's language, as the table page says it (the game's catalogue; the
    engine's English where a code is not catalogued); `rule` and `params` stay as they are. `game_of` names the
    game (and the table's state) only when a move was refused: the move's path reads nothing more for it."""
    try:
        yield
    except MoveError as exc:
        found = game_of()
        if found is not None and found[0] in ADAPTERS:
            exc.message = get_game(found[0]).say_error(exc, found[1])
        raise


def _table_game(code: str) -> Callable[[], tuple[str, dict | None] | None]:
    def game_of() -> tuple[str, dict | None] | None:
        table = TableSession.objects.filter(code=code).only("game", "state").first()
        return (table.game, table.state) if table is not None else None

    return game_of


class TableDetail(APIView):
    @extend_schema(
        responses=with_errors({200: TableOutput}, 404),
        summary="A table's state, whose turn it is and what can be played",
    )
    def get(self, request, code: str) -> Response:
        return Response(TableOutput(_table(request, code), context={"request": request}).data)


class ScoreOutput(serializers.Serializer):
    score = serializers.ListField(child=serializers.IntegerField(), help_text="In the game's own unit.")
    outcome = GameObjectField(allow_null=True)

    def get_fields(self) -> dict:
        return _after(super().get_fields(), "score", examples.score_alias_fields())


class TableScore(APIView):
    @extend_schema(
        responses=with_errors({200: ScoreOutput}, 404),
        summary="Each seat's score so far, and the outcome once the game is over",
    )
    def get(self, request, code: str) -> Response:
        session = _table(request, code)
        score = selectors.session_score(session)
        aliases = {alias: examples.score_alias(session, alias, score) for alias in examples.score_aliases()}
        return Response({"score": score, **aliases, "outcome": session.outcome})


IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Send the same key again (after a lost answer) to get the first answer back; nothing new is written.",
)


_CREATED_AT = serializers.DateTimeField()  # EventOutput's, unbound: its output format and time zone


def recorded_json(recorded: services.Recorded, viewer=None) -> dict:
    """RecordedOutput's body, built directly: a move post's answer is the hottest serialisation of the API, and
    building the serializers (their fields are copied for each instance) cost more than the rest of the answer.
    RecordedOutput stays its schema; a test holds the two equal."""
    event = recorded.event
    return {
        "event": {
            "seq": event.seq,
            "kind": str(event.kind),
            "payload": event.payload,
            "description": str(event.description),
            "phrase": event.phrase,
            "entered_by": event.entered_by.username if event.entered_by_id else None,
            "created_at": _CREATED_AT.to_representation(event.created_at),
        },
        "state": recorded.state,
        "result": selectors.session_result(recorded.session, viewer) if recorded.session and viewer else None,
    }


def _recorded(recorded: services.Recorded, request) -> Response:
    return Response(
        recorded_json(recorded, request.user),
        status=status.HTTP_200_OK if recorded.replayed else status.HTTP_201_CREATED,
    )


class MoveList(APIView):
    class MoveCreateInput(StrictSerializer):
        seq = StrictIntegerField(min_value=0, help_text="The head_seq you saw; a stale one gets 409.")
        move = StrictJSONField(help_text="The move; see the examples and docs/api.md.")

    MAX_LIMIT = 500  # entries an answer holds at most: a 300-move log was 143 KB in one answer (issue 48)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since",
                {"type": "integer", "minimum": 0, "maximum": validation.MAX_INT},
                description="Only the entries after this seq (the head_seq you have): a poll asks for "
                "what is new. 0 or none: from the first.",
            ),
            OpenApiParameter(
                "limit",
                {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                description=f"At most this many entries (default and most {MAX_LIMIT}); when more "
                'follow, the Link header names the next page (rel="next").',
            ),
            OpenApiParameter(
                "Link",
                str,
                OpenApiParameter.HEADER,
                response=[200],
                description='<...?since=N&limit=L>; rel="next" while more entries follow.',
            ),
        ],
        responses=with_errors({200: EventOutput(many=True)}, 400, 404),
        summary="The move log, undo entries included, in pages by seq",
    )
    def get(self, request, code: str) -> Response:
        since = validation.query_int(request.query_params, "since", default=0)
        limit = validation.query_int(
            request.query_params, "limit", default=self.MAX_LIMIT, min_value=1, max_value=self.MAX_LIMIT
        )
        session = _table(request, code)
        entries = list(session.events.select_related("entered_by").filter(seq__gt=since).order_by("seq")[: limit + 1])
        response = Response(EventOutput(entries[:limit], many=True).data)
        if len(entries) > limit:
            following = request.build_absolute_uri(
                f"{request.path}?{urlencode({'since': entries[limit - 1].seq, 'limit': limit})}"
            )
            response["Link"] = f'<{following}>; rel="next"'
        return response

    @extend_schema(
        request=MoveCreateInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses=with_errors({201: RecordedOutput, 200: RecordedOutput}, 400, 401, 403, 404, 409, 415, 422),
        summary="Enter a move",
        examples=examples.move_examples(),
    )
    def post(self, request, code: str) -> Response:
        data = self.MoveCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        with refusals_said(_table_game(code)):
            recorded = services.move_record(  # finds and locks the table by its code (one query; 404 as elsewhere)
                code=code,
                seq=data.validated_data["seq"],
                move=data.validated_data["move"],
                user=request.user,
                idempotency_key=idempotency_key(request.headers.get("Idempotency-Key")),
            )
        return _recorded(recorded, request)


class Undo(APIView):
    permission_classes = [IsAuthenticated]

    class UndoInput(StrictSerializer):
        seq = StrictIntegerField(min_value=0, help_text="The head_seq you saw.")

    @extend_schema(
        request=UndoInput,
        parameters=[IDEMPOTENCY_HEADER],
        responses=with_errors({201: RecordedOutput, 200: RecordedOutput}, 400, 401, 403, 404, 409, 415, 422),
        summary="Take back the last move (an undo entry is appended; nothing is deleted)",
    )
    def post(self, request, code: str) -> Response:
        session = _table(request, code, seats=False)
        data = self.UndoInput(data=request.data)
        data.is_valid(raise_exception=True)
        with refusals_said(lambda: (session.game, session.state)):
            recorded = services.move_undo(
                session=session,
                seq=data.validated_data["seq"],
                user=request.user,
                idempotency_key=idempotency_key(request.headers.get("Idempotency-Key")),
            )
        return _recorded(recorded, request)


class FinalCount(APIView):
    permission_classes = [AllowAny]  # anyone may count; saving the result needs a login (checked below)

    class FinalCountInput(StrictSerializer):
        game = StrictCharField(
            default=lambda: default_final_count_game().slug,
            max_length=40,
            help_text=f"A game with a final-count calculator ({examples.final_count_game_names()}).",
        )
        end = StrictJSONField(help_text="The end state of the table; see docs/api.md.")
        save_with_players = serializers.ListField(
            child=IdField(),
            required=False,
            allow_null=True,
            default=None,
            max_length=8,
            help_text="Player ids in seat order: save the result as a finished table.",
        )
        club = StrictSlugField(required=False, allow_null=True, default=None)

    class FinalCountOutput(serializers.Serializer):
        outcome = GameObjectField()
        table = serializers.CharField(allow_null=True, help_text="The saved table's code, if saved.")

    @extend_schema(
        request=FinalCountInput,
        responses=with_errors({200: FinalCountOutput, 201: FinalCountOutput}, 400, 401, 403, 404, 415),
        summary=f"Final count of a table from its end state ({examples.final_count_game_names()})",
        examples=examples.final_count_examples(),
    )
    def post(self, request) -> Response:
        data = self.FinalCountInput(data=request.data)
        data.is_valid(raise_exception=True)
        values = data.validated_data
        if values["save_with_players"] is None:
            with refusals_said(lambda: (values["game"], None)):
                outcome = services.final_count(game=values["game"], end=values["end"])
            return Response({"outcome": outcome.to_json(), "table": None})
        if not request.user.is_authenticated:
            raise exceptions.NotAuthenticated(_("Log in to save a result."))
        players = services.players_in_order(values["save_with_players"])
        club = get_object_or_404(club_model(), slug=values["club"]) if values["club"] else None
        with refusals_said(lambda: (values["game"], None)):
            session = services.final_count_record(
                game=values["game"], end=values["end"], players=players, created_by=request.user, club=club
            )
        return Response({"outcome": session.outcome, "table": session.code}, status=status.HTTP_201_CREATED)


class GameOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    rules_version = serializers.CharField()
    score_unit = serializers.CharField()


class Games(PagedListView):
    """Paged as every list (`limit`, `offset`), in the registry's order, though the games are few: one shape for
    every list, and a site with more games answers the same way (issue 46 finding 6; before, a plain array)."""

    serializer_class = GameOutput

    @extend_schema(
        responses=with_errors({200: GameOutput(many=True)}, 400),
        summary="The games the site has a rules engine for, paged",
    )
    def get(self, request) -> Response:
        from games.engines import REGISTRY

        return self.paged(list(REGISTRY.values()))  # the registry's order is fixed: pages never overlap
