"""Make, find and revoke a person's access tokens. The key is shown once, when made: the site keeps only its
SHA-256 (models.py says why that is enough), so a lost key is revoked and made again, never shown again."""

import datetime
import hashlib
import hmac
import re
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from shitenno_site.errors import TooMany
from shitenno_site.validation import name_problem

from .models import AccessToken

# "shp_" (the site's keys, told apart from an operator's 40-hex DRF token), 12 hex of public prefix, 43 of secret.
KEY_START = "shp_"
KEY_SHAPE = re.compile(r"shp_([0-9a-f]{12})_[A-Za-z0-9_-]{43}")
# Enough for every app a person uses, few enough that one account cannot fill a table (issue 46's bounds).
MAX_TOKENS = 20
EXPIRY_DAYS = (30, 90, 365)
NAME_LENGTH = 60
# A token's use is written at most once a minute: polling apps would otherwise make every read a write.
LAST_USE_EVERY = datetime.timedelta(minutes=1)


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def tokens_of(user: AbstractBaseUser) -> QuerySet[AccessToken]:
    return AccessToken.objects.filter(user=user)


def token_create(
    *, user: AbstractBaseUser, name: str, scope: str, expires_in_days: int | None
) -> tuple[AccessToken, str]:
    """A new token for `user`, and its key (the only time the key exists outside the app that asked for it)."""
    name = name.strip()
    problem = name_problem(name) or (
        _("A token's name has at most %(count)d characters.") % {"count": NAME_LENGTH}
        if len(name) > NAME_LENGTH
        else None
    )
    if problem:
        raise ValidationError({"name": problem})
    if scope not in (AccessToken.READ, AccessToken.WRITE):
        raise ValidationError({"scope": _("Choose read only or read and write.")})
    if expires_in_days is not None and expires_in_days not in EXPIRY_DAYS:
        raise ValidationError({"expires_in_days": _("Choose 30, 90 or 365 days, or never.")})
    now = timezone.now()
    with transaction.atomic():
        # the account's row locked: two tabs making tokens at once cannot both pass the cap
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = tokens_of(user)
        if mine.filter(name=name).exists():
            raise ValidationError(
                {
                    "name": _("You already have a token named %(name)s: choose another name, or revoke that one first.")
                    % {"name": name}
                }
            )
        if mine.count() >= MAX_TOKENS:
            raise TooMany(
                _("You have %(count)d tokens, the most an account may have: revoke one you no longer use first.")
                % {"count": MAX_TOKENS}
            )
        while True:
            prefix = secrets.token_hex(6)
            key = f"{KEY_START}{prefix}_{secrets.token_urlsafe(32)}"
            try:
                with transaction.atomic():
                    token = AccessToken.objects.create(
                        user=user,
                        name=name,
                        scope=scope,
                        prefix=prefix,
                        digest=digest(key),
                        created_at=now,
                        expires_at=now + datetime.timedelta(days=expires_in_days) if expires_in_days else None,
                    )
            except IntegrityError:  # the one prefix in 2^48 already taken: draw again
                continue
            return token, key


def token_revoke(*, user: AbstractBaseUser, token_id: int) -> bool:
    """Revoke (delete) one of `user`'s tokens; False when he has no such token. Its key stops working at once."""
    deleted, _rows = tokens_of(user).filter(pk=token_id).delete()
    return bool(deleted)


def token_for_key(key: str) -> AccessToken | None:
    """The live token whose key this is, its user loaded; None for a key of the wrong shape, an unknown or
    revoked one, or a wrong secret (compared in constant time). An expired token is returned: the caller says so."""
    match = KEY_SHAPE.fullmatch(key)
    if not match:
        return None
    token = AccessToken.objects.select_related("user").filter(prefix=match.group(1)).first()
    if token is None or not hmac.compare_digest(token.digest, digest(key)):
        return None
    return token


def token_used(token: AccessToken) -> None:
    """Record that the token was just used (at most once a minute, see LAST_USE_EVERY)."""
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at <= now - LAST_USE_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
