"""GET/POST /api/tokens/ and DELETE /api/tokens/<id>/: a person's tokens by the API (the account page's too).

A token is made only by a signed-in session, never by another token: a leaked key must not be able to mint
keys that outlive its own revocation. Listing and revoking work with a session or a token."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from shitenno_site import rate_limits
from shitenno_site.api import NameField, StrictSerializer, with_errors
from shitenno_site.paged import PagedListView

from . import services
from .models import AccessToken


class AccessTokenOutput(serializers.ModelSerializer):
    prefix = serializers.SerializerMethodField(help_text="The key's start, to tell your tokens apart.")

    class Meta:
        model = AccessToken
        fields = ["id", "name", "scope", "prefix", "created_at", "expires_at", "last_used_at"]

    def get_prefix(self, token: AccessToken) -> str:
        return f"{services.KEY_START}{token.prefix}_"


class AccessTokenMade(AccessTokenOutput):
    key = serializers.CharField(help_text="The key, shown this once: send it as `Authorization: Bearer <key>`.")

    class Meta(AccessTokenOutput.Meta):
        fields = [*AccessTokenOutput.Meta.fields, "key"]


class AccessTokenInput(StrictSerializer):
    name = NameField(max_length=services.NAME_LENGTH, help_text="Which app it is for.")
    scope = serializers.ChoiceField(
        choices=AccessToken.SCOPES,
        default=AccessToken.READ,
        help_text="read: GET only; write: everything you may do yourself.",
    )
    expires_in_days = serializers.ChoiceField(
        choices=list(services.EXPIRY_DAYS), allow_null=True, default=90, help_text="30, 90 or 365; null: never."
    )
    password = serializers.CharField(
        write_only=True,
        trim_whitespace=False,
        max_length=4096,
        help_text=(
            "Your password, asked again: a borrowed, signed-in phone makes no token (five wrong ones hold this for 15 "
            "minutes, 429)."
        ),
    )


class AccessTokenList(PagedListView):
    permission_classes = [IsAuthenticated]
    serializer_class = AccessTokenOutput

    @extend_schema(
        responses=with_errors({200: AccessTokenOutput(many=True)}, 400, 401),
        summary="Your access tokens, the newest first, paged",
    )
    def get(self, request) -> Response:
        """Paged as every list (`limit`, `offset`), the newest first, though a person has at most 20 tokens
        (services.MAX_TOKENS): one shape for every list, so a client reads them all one way (issue 46 finding 6;
        before, a plain array)."""
        return self.paged(services.tokens_of(request.user).order_by("-created_at", "-pk"))

    @extend_schema(
        request=AccessTokenInput,
        responses=with_errors({201: AccessTokenMade}, 400, 401, 403, 415, 429),
        summary="Make an access token (signed in on the site, not with a token)",
    )
    def post(self, request) -> Response:
        if request.auth is not None:
            raise exceptions.PermissionDenied(
                _("A token is made signed in on the site (your account's tokens page), not with another token.")
            )
        data = AccessTokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        wanted = dict(data.validated_data)
        if not rate_limits.password_confirmed(request.user, wanted.pop("password"), purpose="token-make"):
            raise serializers.ValidationError({"password": [_("That is not your password; no token was made.")]})
        token, key = services.token_create(user=request.user, **wanted)
        token.key = key  # on this instance only, for the one answer that shows it
        response = Response(AccessTokenMade(token).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        return response


class AccessTokenDetail(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses=with_errors({204: None}, 401, 403, 404), summary="Revoke one of your access tokens")
    def delete(self, request, pk: int) -> Response:
        get_object_or_404(services.tokens_of(request.user), pk=pk)
        services.token_revoke(user=request.user, token_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
