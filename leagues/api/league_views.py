"""REST endpoints for leagues, seasons, ratings, standings and player stats (issue 5); results and sign-offs are
result_views'."""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import exceptions, serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from games.registry import one_name
from leagues.club import league_edits, seasons
from leagues.common import selectors
from leagues.common.access import club_sees_inside
from leagues.models import Club, League, Player, Rating, RatingEvent, Season, Standing
from leagues.people import player_record
from leagues.rating import display as rating_display
from leagues.standings import TIE_BREAKERS
from shitenno_site.api import (
    NameField,
    StrictDateField,
    StrictFloatField,
    StrictIntegerField,
    StrictSerializer,
    id_parameter,
    with_errors,
)
from shitenno_site.paged import PagedListView
from shitenno_site.validation import MAX_MIN_GAMES, query_int, query_text

from .views import PlayerOutput


class LeagueOutput(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    games = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="Game slugs (or free-text names) this league counts."
    )

    class Meta:
        model = League
        fields = ["id", "club", "name", "slug", "games", "created_at"]


@extend_schema_field({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "number"}}})
class PointsByCountField(serializers.JSONField):
    """Points by place for each player count, as stored (4 stays 4, 2.5 stays 2.5): typed in the schema (issue 48)."""


class SeasonOutput(serializers.ModelSerializer):
    custom_points = PointsByCountField(
        read_only=True,
        help_text=(
            'Points by place for each player count, e.g. {"4": [4, 2, 1, 0]} (empty unless the scheme is custom).'
        ),
    )
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(choices=TIE_BREAKERS),
        read_only=True,
        help_text="Ordered tie-breaker names, exactly as the table applies them (points first unless placed); see "
        "leagues.standings.",
    )

    class Meta:
        model = Season
        fields = [
            "id",
            "league",
            "name",
            "starts_on",
            "ends_on",
            "points_scheme",
            "custom_points",
            "min_games",
            "tie_breakers",
        ]


class StandingOutput(serializers.ModelSerializer):
    player = PlayerOutput()
    position = serializers.IntegerField(allow_null=True, help_text="Shared by tied players; empty if unranked.")
    separated_by = serializers.CharField(help_text="Tie-breaker that put this row below the last; empty if tied.")
    points = serializers.CharField(
        source="points_text",
        help_text='Exact season points, as the page shows them: "1725", "12.5", or a whole part and a fraction '
        'such as "66 2/3" (the percent scheme gives thirds).',
    )
    opponents_points = serializers.CharField(source="opponents_points_text", help_text="Exact, written like points.")

    class Meta:
        model = Standing
        fields = [
            "player",
            "position",
            "ranked",
            "points",
            "games",
            "wins",
            "seconds",
            "opponents_points",
            "margin",
            "separated_by",
        ]


class RatingOutput(serializers.ModelSerializer):
    """mu and sigma as stored, and the displayed rating beside them (leagues/rating/display.py, docs/ratings.md):
    the number, its band (mu +- 2 sigma on the same scale), whether it is provisional, and sigma after rust."""

    player = PlayerOutput()
    ordinal = serializers.FloatField()
    last_played = serializers.DateField(allow_null=True)
    rating = serializers.SerializerMethodField()
    rating_low = serializers.SerializerMethodField()
    rating_high = serializers.SerializerMethodField()
    provisional = serializers.SerializerMethodField()
    rusted_sigma = serializers.SerializerMethodField()

    class Meta:
        model = Rating
        fields = [
            "kind",
            "key",
            "player",
            "mu",
            "sigma",
            "ordinal",
            "games",
            "last_played",
            "rating",
            "rating_low",
            "rating_high",
            "provisional",
            "rusted_sigma",
        ]

    def _shown(self, rating: Rating) -> rating_display.ShownRating:
        return rating_display.shown(rating.mu, rating.sigma, rating.games, rating.last_played, timezone.localdate())

    def get_rating(self, rating: Rating) -> int:
        return self._shown(rating).rating

    def get_rating_low(self, rating: Rating) -> int:
        return self._shown(rating).low

    def get_rating_high(self, rating: Rating) -> int:
        return self._shown(rating).high

    def get_provisional(self, rating: Rating) -> bool:
        return self._shown(rating).provisional

    def get_rusted_sigma(self, rating: Rating) -> float:
        return self._shown(rating).sigma


class RatingEventOutput(serializers.ModelSerializer):
    class Meta:
        model = RatingEvent
        fields = ["result", "played_on", "mu_before", "sigma_before", "mu_after", "sigma_after"]


class HeadToHeadOutput(serializers.Serializer):
    player = PlayerOutput()
    won = serializers.IntegerField()
    lost = serializers.IntegerField()


class ByCountOutput(serializers.Serializer):
    players = serializers.IntegerField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()


class ByGameOutput(serializers.Serializer):
    game = serializers.CharField()
    unit = serializers.CharField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_score = serializers.FloatField(allow_null=True)
    best_score = serializers.FloatField(allow_null=True)


class PlayerStatsOutput(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    by_player_count = ByCountOutput(many=True)
    by_game = ByGameOutput(many=True)
    # only when every scored game was of one game (by_game has each game's): units of two games do not add up
    average_score = serializers.FloatField(allow_null=True)
    best_score = serializers.FloatField(allow_null=True)
    head_to_head = HeadToHeadOutput(many=True)
    nemesis = HeadToHeadOutput(allow_null=True)


class ClubLeagues(PagedListView):
    serializer_class = LeagueOutput

    class LeagueInput(StrictSerializer):
        name = NameField(max_length=100)
        games = serializers.ListField(child=NameField(max_length=80), min_length=1, max_length=20)

    @extend_schema(
        responses=with_errors({200: LeagueOutput(many=True)}, 400, 403, 404), summary="A club's leagues, by name, paged"
    )
    def get(self, request, slug: str) -> Response:
        """Paged as every list (`limit`, `offset`), by name: a club's leagues grow with its years, and one shape
        for every list spares a client a second way to read one (issue 46 finding 6; before, a plain array)."""
        club = get_object_or_404(Club, slug=slug)
        if not club_sees_inside(club, request.user):
            raise exceptions.PermissionDenied(_("Only members see a private club's leagues."))
        return self.paged(selectors.leagues_list(viewer=request.user, club=club).order_by("name", "pk"))

    @extend_schema(
        request=LeagueInput,
        responses=with_errors({201: LeagueOutput}, 400, 403, 404, 415, 429),
        summary="Start a league (club owners and admins)",
    )
    def post(self, request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        data = self.LeagueInput(data=request.data)
        data.is_valid(raise_exception=True)
        league = seasons.league_create(club=club, user=request.user, **data.validated_data)
        return Response(LeagueOutput(league).data, status=status.HTTP_201_CREATED)


class LeagueList(ListAPIView):
    """Paged as every list (`limit`, `offset`): a site of thousands of clubs answers one page, not all of them
    (issue 46 finding 6)."""

    serializer_class = LeagueOutput

    def get_queryset(self) -> QuerySet[League]:
        return selectors.leagues_list(viewer=self.request.user).order_by("club__name", "name", "pk")

    @extend_schema(
        responses=with_errors({200: LeagueOutput(many=True)}, 400), summary="Every league you may see, by club and name"
    )
    def get(self, request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


class LeagueDetail(APIView):
    class LeagueEditInput(StrictSerializer):
        name = NameField(max_length=100, required=False)
        games = serializers.ListField(child=NameField(max_length=80), min_length=1, max_length=20, required=False)

    @extend_schema(
        responses=with_errors({200: LeagueOutput}, 404), summary="A league you may see: its club, name and games"
    )
    def get(self, request, pk: int) -> Response:
        return Response(LeagueOutput(selectors.league_for_viewer(pk=pk, viewer=request.user)).data)

    @extend_schema(
        request=LeagueEditInput,
        responses=with_errors({200: LeagueOutput}, 400, 403, 404, 409, 415),
        summary="Rename a league or change its games (club owners and admins); a game its results or "
        "nights are of stays (409)",
    )
    def patch(self, request, pk: int) -> Response:
        league = selectors.league_for_viewer(pk=pk, viewer=request.user)
        data = self.LeagueEditInput(data=request.data)
        data.is_valid(raise_exception=True)
        league = league_edits.league_update(league=league, user=request.user, **data.validated_data)
        return Response(LeagueOutput(league).data)

    @extend_schema(
        responses=with_errors({204: None}, 403, 404, 409),
        summary="Delete a league whose seasons hold no result and no night (club owners and admins)",
    )
    def delete(self, request, pk: int) -> Response:
        league = selectors.league_for_viewer(pk=pk, viewer=request.user)
        league_edits.league_delete(league=league, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeagueSeasons(PagedListView):
    serializer_class = SeasonOutput

    class SeasonInput(StrictSerializer):
        name = NameField(max_length=100)
        starts_on = StrictDateField()
        ends_on = StrictDateField()
        points_scheme = serializers.ChoiceField(choices=Season.Scheme.choices, default="3-2-1-0")
        custom_points = serializers.DictField(
            child=serializers.ListField(child=StrictFloatField(), max_length=100), required=False, default=dict
        )
        min_games = StrictIntegerField(min_value=0, max_value=MAX_MIN_GAMES, default=0)
        tie_breakers = serializers.ListField(child=serializers.ChoiceField(choices=TIE_BREAKERS), required=False)

    @extend_schema(
        responses=with_errors({200: SeasonOutput(many=True)}, 400, 404),
        summary="A league's seasons, the latest first, paged",
    )
    def get(self, request, pk: int) -> Response:
        """Paged as every list (`limit`, `offset`), the latest first (then the newest made, so pages never
        overlap): one shape for every list (issue 46 finding 6; before, a plain array)."""
        league = selectors.league_for_viewer(pk=pk, viewer=request.user)
        return self.paged(league.seasons.order_by("-starts_on", "-pk"))

    @extend_schema(
        request=SeasonInput,
        responses=with_errors({201: SeasonOutput}, 400, 403, 404, 415),
        summary="Add a season with its rules (managers)",
    )
    def post(self, request, pk: int) -> Response:
        league = selectors.league_for_viewer(pk=pk, viewer=request.user)
        data = self.SeasonInput(data=request.data)
        data.is_valid(raise_exception=True)
        season = seasons.season_create(league=league, user=request.user, **data.validated_data)
        return Response(SeasonOutput(season).data, status=status.HTTP_201_CREATED)


class SeasonDetail(APIView):
    class SeasonEditInput(StrictSerializer):
        name = NameField(max_length=100, required=False)
        starts_on = StrictDateField(required=False)
        ends_on = StrictDateField(required=False)
        points_scheme = serializers.ChoiceField(choices=Season.Scheme.choices, required=False)
        custom_points = serializers.DictField(
            child=serializers.ListField(child=StrictFloatField(), max_length=100), required=False
        )
        min_games = StrictIntegerField(min_value=0, max_value=MAX_MIN_GAMES, required=False)
        tie_breakers = serializers.ListField(child=serializers.ChoiceField(choices=TIE_BREAKERS), required=False)
        # a later end or new points while results only wait for sign-off: they will count under them (issue 50)
        confirm = serializers.BooleanField(required=False, default=False)

    @extend_schema(responses=with_errors({200: SeasonOutput}, 404), summary="A season and its rules")
    def get(self, request, pk: int) -> Response:
        return Response(SeasonOutput(selectors.season_for_viewer(pk=pk, viewer=request.user)).data)

    @extend_schema(
        request=SeasonEditInput,
        responses=with_errors({200: SeasonOutput}, 400, 403, 404, 409, 415),
        summary="Change a season (managers): its name always; a later end and its points while no "
        "result counts, confirmed (`confirm`) when results wait for sign-off; 409 says why",
    )
    def patch(self, request, pk: int) -> Response:
        season = selectors.season_for_viewer(pk=pk, viewer=request.user)
        data = self.SeasonEditInput(data=request.data)
        data.is_valid(raise_exception=True)
        season = league_edits.season_update(season=season, user=request.user, **data.validated_data)
        return Response(SeasonOutput(season).data)

    @extend_schema(
        responses=with_errors({204: None}, 403, 404, 409),
        summary="Delete a season with no result and no night (managers)",
    )
    def delete(self, request, pk: int) -> Response:
        season = selectors.season_for_viewer(pk=pk, viewer=request.user)
        league_edits.season_delete(season=season, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonStandings(PagedListView):
    serializer_class = StandingOutput

    @extend_schema(
        responses=with_errors({200: StandingOutput(many=True)}, 400, 404),
        summary="A season's table, as last computed, paged (each row's position is its place in the whole table)",
    )
    def get(self, request, pk: int) -> Response:
        season = selectors.season_for_viewer(pk=pk, viewer=request.user)
        return self.paged(selectors.standings_of(season))


SCOPE_PARAMETERS = [
    OpenApiParameter("game", {"type": "string", "maxLength": 80}, description="A game slug or name (this or league)"),
    id_parameter("league", "A league id (this or game)"),
]


def _scope(request) -> tuple[str, str]:
    """The rating scope asked for; a league's ratings are its club's business when the club is private (404)."""
    game = query_text(request.query_params, "game", max_length=80)
    league = query_int(request.query_params, "league", default=0, min_value=1)
    if bool(game) == bool(league):
        raise serializers.ValidationError({"game": ["Give either game or league."]})
    if league:
        selectors.league_for_viewer(pk=league, viewer=request.user)
    return ("game", one_name(game)) if game else ("league", str(league))


class RatingList(ListAPIView):
    """Paged as every list (`limit`, `offset`): a game's leaderboard of the whole site answers one page."""

    serializer_class = RatingOutput

    def get_queryset(self) -> QuerySet[Rating]:
        kind, key = _scope(self.request)
        min_games = query_int(self.request.query_params, "min_games", default=0, max_value=MAX_MIN_GAMES)
        return selectors.ratings_list(kind=kind, key=key, min_games=min_games)

    @extend_schema(
        parameters=[
            *SCOPE_PARAMETERS,
            OpenApiParameter("min_games", {"type": "integer", "minimum": 0, "maximum": MAX_MIN_GAMES}),
        ],
        responses=with_errors({200: RatingOutput(many=True)}, 400, 404),
        summary="Ratings in a game or league, best first (mu - 3 sigma)",
    )
    def get(self, request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


class PlayerRatingHistory(PagedListView):
    serializer_class = RatingEventOutput

    @extend_schema(
        parameters=SCOPE_PARAMETERS,
        responses=with_errors({200: RatingEventOutput(many=True)}, 400, 404),
        summary="A player's rating after each game, in order, paged",
    )
    def get(self, request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        kind, key = _scope(request)
        return self.paged(selectors.rating_history(player=player, kind=kind, key=key))


class PlayerStats(APIView):
    @extend_schema(
        responses=with_errors({200: PlayerStatsOutput}, 404),
        summary="A player's counted games: wins, scores, head-to-head",
    )
    def get(self, request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        return Response(PlayerStatsOutput(player_record.player_stats(player=player, viewer=request.user)).data)
