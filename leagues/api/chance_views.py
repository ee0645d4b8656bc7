"""REST endpoint of the win chances (issue 29; each table size and scope, issue 40): kept apart from the leagues,
seasons and results of league_views."""

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.engines import UnknownGame
from games.plugins import get_game
from games.registry import registered_slug
from leagues.common import selectors
from leagues.models import Player
from leagues.rating import chances
from shitenno_site.api import id_parameter, with_errors
from shitenno_site.validation import MAX_INT, InputError, query_int, query_text, whole_number


class SeatChanceOutput(serializers.Serializer):
    id = serializers.IntegerField(source="player_id")
    win = serializers.FloatField(help_text="The chance to finish first; the seats' add up to 1.")
    expected_place = serializers.FloatField(help_text="1 is first.")
    rating = serializers.IntegerField(help_text="The displayed rating (1500 for a player without one).")
    provisional = serializers.BooleanField()


class ChancesOutput(serializers.Serializer):
    players = SeatChanceOutput(many=True)


# What _player_ids reads: 2 to 5 whole numbers, comma-separated (which of them name players is its 400).
PLAYER_IDS_PATTERN = r"^[0-9]{1,10}(,[0-9]{1,10}){1,4}$"


def _player_ids(request) -> list[int]:
    """The `players` parameter: 2 to 5 distinct ids of existing players, in seat order; else a 400 naming which."""
    raw = query_text(request.query_params, "players", max_length=200)
    parts = [part.strip() for part in raw.split(",")] if raw else []
    ids = []
    for part in parts:
        value = whole_number(part)
        if value is None:
            raise InputError("players", _("%(value)r is not a player id.") % {"value": part})
        ids.append(value)
    if not chances.MIN_PLAYERS <= len(ids) <= chances.MAX_PLAYERS:
        raise InputError(
            "players",
            _("Give %(min)d to %(max)d players, not %(n)d.")
            % {"min": chances.MIN_PLAYERS, "max": chances.MAX_PLAYERS, "n": len(ids)},
        )
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise InputError(
            "players", _("Each player sits once: repeated %(ids)s.") % {"ids": ", ".join(map(str, repeated))}
        )
    known = set(Player.objects.filter(pk__in=[i for i in ids if i <= MAX_INT]).values_list("pk", flat=True))
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise InputError("players", _("No such player: %(ids)s.") % {"ids": ", ".join(map(str, unknown))})
    return ids


class GameChances(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "players",
                {"type": "string", "maxLength": 200, "pattern": PLAYER_IDS_PATTERN},
                required=True,
                description="2 to 5 player ids, comma-separated, in seat order",
            ),
            id_parameter("league", "Use the league's ratings instead"),
        ],
        responses=with_errors({200: ChancesOutput}, 400, 404),
        summary="Each seat's chance to win and expected place, from the ratings (docs/ratings.md)",
    )
    def get(self, request, slug: str) -> Response:
        try:
            game = get_game(registered_slug(slug) or slug)  # its slug or its name, as everywhere (issue 40)
        except (UnknownGame, KeyError):
            raise Http404("No such game.") from None
        ids = _player_ids(request)
        engine = game.engine
        if not engine.min_players <= len(ids) <= engine.max_players:
            raise InputError(
                "players",
                _("%(game)s is played by %(min)d to %(max)d players, not %(n)d.")
                % {"game": engine.name, "min": engine.min_players, "max": engine.max_players, "n": len(ids)},
            )
        league = query_int(request.query_params, "league", default=0, min_value=1)
        if league:
            selectors.league_for_viewer(pk=league, viewer=request.user)
        seats = chances.table_chances(game=game.slug, player_ids=ids, league_id=league or None)
        return Response(ChancesOutput({"players": seats}).data)
