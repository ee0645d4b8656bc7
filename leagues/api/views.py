"""REST endpoints for the current user, players and clubs: validate, check access, call one service."""

from django.core.validators import RegexValidator
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import exceptions, serializers, status
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from leagues.club import clubs
from leagues.common import selectors
from leagues.common.access import club_sees_inside
from leagues.models import Club, ClubInvite, Membership, Player
from leagues.models.accounts import address_verified
from leagues.people import account_deletion, my_data, players
from shitenno_site.api import (
    IdField,
    NameField,
    StrictBooleanField,
    StrictCharField,
    StrictSerializer,
    StrictSlugField,
    with_errors,
)
from shitenno_site.paged import PagedListView
from shitenno_site.validation import query_text


class PlayerOutput(serializers.ModelSerializer):
    is_guest = serializers.BooleanField(read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "is_guest", "created_at"]


class MeOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField(allow_null=True, help_text="null when the account has no address")
    email_verified = serializers.BooleanField(
        help_text="The address was confirmed through the link the site mailed "
        "there; until then no notification is mailed to it."
    )
    player = PlayerOutput()


class MeView(APIView):
    permission_classes = [IsAuthenticated]

    class MeInput(StrictSerializer):
        name = NameField(max_length=80, help_text="The name others see you by (your player's); the username stays.")

    @staticmethod
    def _me(user, player: Player) -> Response:
        return Response(
            MeOutput(
                {
                    "id": user.pk,
                    "username": user.get_username(),
                    "email": user.email or None,  # "" is no address
                    "email_verified": address_verified(user),
                    "player": player,
                }
            ).data
        )

    @extend_schema(responses=with_errors({200: MeOutput}, 403), summary="The logged-in user and their player")
    def get(self, request) -> Response:
        return self._me(request.user, players.player_for_user(request.user))

    @extend_schema(
        request=MeInput,
        responses=with_errors({200: MeOutput}, 400, 401, 403, 415),
        summary="Change the name others see you by",
    )
    def patch(self, request) -> Response:
        data = self.MeInput(data=request.data)
        data.is_valid(raise_exception=True)
        return self._me(request.user, players.player_rename(user=request.user, **data.validated_data))


class MyDataView(APIView):
    """GET /api/me/data/: the same file as the account page's "Download my data" (issue 47 finding 8)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses=with_errors({200: OpenApiTypes.OBJECT}, 401, 403),
        summary="Everything the site holds about you, as one JSON file",
    )
    def get(self, request) -> Response:
        response = Response(my_data.personal_data(request.user))
        response["Content-Disposition"] = 'attachment; filename="shitenno-my-data.json"'
        response["Cache-Control"] = "no-store"
        return response


class MeDelete(APIView):
    """POST /api/me/delete/ {"password"}: the account page's "Delete my account" (issue 47 finding 8); a POST
    with a body rather than DELETE /api/me/, which some clients send without one."""

    permission_classes = [IsAuthenticated]

    class DeleteInput(StrictSerializer):
        password = serializers.CharField(max_length=4096, trim_whitespace=False, help_text="Your password, to confirm.")

    @extend_schema(
        request=DeleteInput,
        responses=with_errors({204: None}, 400, 401, 403, 409, 415, 429),
        summary="Delete your account (your results stay, under an anonymous name)",
    )
    def post(self, request) -> Response:
        data = self.DeleteInput(data=request.data)
        data.is_valid(raise_exception=True)
        account_deletion.account_delete(user=request.user, password=data.validated_data["password"])
        if request.session.session_key:
            request.session.flush()
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema_view(get=extend_schema(summary="Players by name, paged; `search` keeps those whose name holds it"))
class PlayerList(ListAPIView):
    serializer_class = PlayerOutput

    class GuestInput(StrictSerializer):
        name = NameField(max_length=80)
        club = StrictSlugField(
            max_length=100,
            required=False,
            allow_null=True,
            default=None,
            help_text="A club you own or run: the guest joins it at once.",
        )

    def get_queryset(self) -> QuerySet:
        return selectors.players_list(search=query_text(self.request.query_params, "search"))

    @extend_schema(
        request=GuestInput,
        responses=with_errors({201: PlayerOutput}, 400, 403, 404, 415, 429),
        summary="Add a guest player",
    )
    def post(self, request) -> Response:
        data = self.GuestInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = data.validated_data["club"]
        club = get_object_or_404(Club, slug=club) if club else None
        player = players.player_guest_create(name=data.validated_data["name"], created_by=request.user, club=club)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetail(APIView):
    @extend_schema(responses=with_errors({200: PlayerOutput}, 404), summary="A player, by id")
    def get(self, request, pk: int) -> Response:
        return Response(PlayerOutput(get_object_or_404(selectors.players_list(), pk=pk)).data)


class InviteOutput(serializers.Serializer):
    token = serializers.CharField()
    url = serializers.URLField()


class PlayerInvite(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses=with_errors({201: InviteOutput}, 403, 404, 409),
        summary="A one-time link to claim a guest",
    )
    def post(self, request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        token = players.player_claim_link_create(player=player, user=request.user)
        url = request.build_absolute_uri(f"/players/claim/{token}/")
        return Response({"token": token, "url": url}, status=status.HTTP_201_CREATED)


class TokenInput(StrictSerializer):
    # Invite and claim tokens are secrets.token_urlsafe (leagues.models.new_token): the schema says so, and a
    # token of other characters (a NUL, say) is refused as the schema lets a client know beforehand.
    token = StrictCharField(
        max_length=64,
        validators=[RegexValidator(r"^[A-Za-z0-9_-]+$", _("A token holds letters, digits, - and _ only."))],
    )


class PlayerClaim(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TokenInput,
        responses=with_errors({200: PlayerOutput}, 400, 403, 409, 415),
        summary="Claim a guest with its invite token",
    )
    def post(self, request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(PlayerOutput(players.player_claim(token=data.validated_data["token"], user=request.user)).data)


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "description", "members_public", "created_at"]


class MembershipOutput(serializers.ModelSerializer):
    player = PlayerOutput()

    class Meta:
        model = Membership
        fields = ["id", "player", "role", "joined_at"]


@extend_schema_view(get=extend_schema(summary="Clubs by name, paged"))
class ClubList(ListAPIView):
    serializer_class = ClubOutput
    queryset = Club.objects.order_by("name", "pk")  # a stable page order

    class ClubInput(StrictSerializer):
        name = NameField(max_length=100)
        description = StrictCharField(required=False, allow_blank=True, default="", max_length=2000, multiline=True)
        members_public = StrictBooleanField(required=False, default=False)

    @extend_schema(
        request=ClubInput,
        responses=with_errors({201: ClubOutput}, 400, 403, 415, 429),
        summary="Start a club (you become its owner)",
    )
    def post(self, request) -> Response:
        data = self.ClubInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = clubs.club_create(owner=request.user, **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetail(APIView):
    @extend_schema(responses=with_errors({200: ClubOutput}, 404), summary="A club, by its slug")
    def get(self, request, slug: str) -> Response:
        return Response(ClubOutput(get_object_or_404(Club, slug=slug)).data)


class InviteAsked(serializers.ModelSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    player = PlayerOutput()
    detail = serializers.SerializerMethodField()

    class Meta:
        model = ClubInvite
        fields = ["id", "club", "player", "created_at", "detail"]

    def get_detail(self, invite) -> str:
        return "The player joins when they (or, for a guest, whoever added it) accept the invite."


class ClubMembers(PagedListView):
    serializer_class = MembershipOutput

    class AddInput(StrictSerializer):
        player = IdField()

    @extend_schema(
        responses=with_errors({200: MembershipOutput(many=True)}, 400, 403, 404),
        summary="Members (hidden from outsiders of private clubs), paged",
    )
    def get(self, request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        if not club_sees_inside(club, request.user):
            raise exceptions.PermissionDenied(_("Only members see who is in this club."))
        return self.paged(selectors.club_members(club))

    @extend_schema(
        request=AddInput,
        responses=with_errors({201: MembershipOutput, 202: InviteAsked}, 400, 403, 404, 415),
        summary="Ask a player in (owners and admins): 201 when you answer for the player (your own guest), "
        "else 202 and the player, or the guest's creator, accepts the invite",
    )
    def post(self, request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        data = self.AddInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = get_object_or_404(Player, pk=data.validated_data["player"])
        added = clubs.club_member_add(club=club, player=player, user=request.user)
        if isinstance(added, Membership):
            return Response(MembershipOutput(added).data, status=status.HTTP_201_CREATED)
        return Response(InviteAsked(added).data, status=status.HTTP_202_ACCEPTED)


class MembershipDetail(APIView):
    permission_classes = [IsAuthenticated]

    class RoleInput(StrictSerializer):
        role = serializers.ChoiceField(choices=Membership.Role.choices)

    @extend_schema(
        request=RoleInput,
        responses=with_errors({200: MembershipOutput}, 400, 403, 404, 409, 415),
        summary="Change a member's role",
    )
    def patch(self, request, slug: str, pk: int) -> Response:
        membership = get_object_or_404(Membership.objects.select_related("club", "player"), pk=pk, club__slug=slug)
        data = self.RoleInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = clubs.membership_set_role(
            membership=membership, role=data.validated_data["role"], user=request.user
        )
        return Response(MembershipOutput(membership).data)

    @extend_schema(responses=with_errors({204: None}, 403, 404, 409), summary="Remove a member, or leave the club")
    def delete(self, request, slug: str, pk: int) -> Response:
        membership = get_object_or_404(Membership.objects.select_related("club", "player"), pk=pk, club__slug=slug)
        clubs.membership_remove(membership=membership, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubJoin(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=TokenInput,
        responses=with_errors({200: ClubOutput}, 400, 403, 409, 415),
        summary="Join a club with its invite token",
    )
    def post(self, request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(ClubOutput(clubs.club_join(token=data.validated_data["token"], user=request.user)).data)


class InviteList(ListAPIView):
    """Paged as every list (`limit`, `offset`), the latest first: one shape for every list, whoever is asked into
    many clubs at once (issue 46 finding 6; before, a plain array)."""

    permission_classes = [IsAuthenticated]
    serializer_class = InviteAsked

    def get_queryset(self) -> QuerySet[ClubInvite]:
        return clubs.club_invites_for(self.request.user)  # by -created_at, -id: pages never overlap

    @extend_schema(
        responses=with_errors({200: InviteAsked(many=True)}, 400, 401),
        summary="Club invites waiting for your answer (for you, and for the guests you added), paged",
    )
    def get(self, request, *args, **kwargs) -> Response:
        return super().get(request, *args, **kwargs)


class InviteAnswer(APIView):
    permission_classes = [IsAuthenticated]

    class AnswerInput(StrictSerializer):
        accept = serializers.BooleanField()

    @extend_schema(
        request=AnswerInput,
        responses=with_errors({200: MembershipOutput, 204: None}, 400, 401, 404, 415),
        summary="Accept (200, the membership) or decline (204) a club invite",
    )
    def post(self, request, pk: int) -> Response:
        invite = get_object_or_404(clubs.club_invites_for(request.user), pk=pk)
        data = self.AnswerInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = clubs.club_invite_answer(invite=invite, user=request.user, accept=data.validated_data["accept"])
        if membership is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(MembershipOutput(membership).data)
