"""The API's token authentication: `Authorization: Bearer <key>` or `Token <key>` with a person's key
(services.KEY_START), and still `Token <key>` with an operator's DRF token (`manage.py drf_create_token`).

A read-only token is refused any write here, before the view runs, so no view's own permission classes can
forget it: 403, with a sentence saying which token is needed."""

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication, get_authorization_header

from . import services

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class AccessTokenAuthentication(TokenAuthentication):
    keyword = "Token"  # the challenge in WWW-Authenticate: what an anonymous write answers 401 with

    def authenticate(self, request) -> tuple | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() not in (b"token", b"bearer"):
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(_("Send the header as: Authorization: Bearer <your token>."))
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("The token has characters no token has.")) from None
        if key.startswith(services.KEY_START):
            return self._person(key, request.method)
        if words[0].lower() == b"bearer":
            raise exceptions.AuthenticationFailed(_("This is not a token of this site, or it was revoked."))
        return self.authenticate_credentials(key)

    @staticmethod
    def _person(key: str, method: str) -> tuple:
        token = services.token_for_key(key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("This is not a token of this site, or it was revoked."))
        if token.expires_at is not None and token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(
                _("This token expired on %(date)s: make a new one on your account page.")
                % {"date": timezone.localtime(token.expires_at).date().isoformat()}
            )
        if method not in SAFE_METHODS and not token.writes:
            raise exceptions.PermissionDenied(
                _("The token “%(name)s” is read only: make a read-and-write token for this.") % {"name": token.name}
            )
        services.token_used(token)
        return token.user, token
