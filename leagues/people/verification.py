"""E-mail verification (issue 47 finding 8: the site could be made to mail any address). A new account's address,
and a changed one, is unverified until its owner opens the signed link the site mails there
(`django.core.signing`, with the account and the address inside, valid VERIFY_DAYS days); until then no
notification mail goes to it (leagues.models.accounts.verified_user_ids, asked by the digest and the at-once
mails). Opening the link asks; its button verifies (a mail scanner that follows links verifies nothing)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, override

from leagues.models import VerifiedAddress
from leagues.models.accounts import address_verified, same_address

SALT = "leagues.people.verify-address"
VERIFY_DAYS = 3


class LinkExpired(Exception):
    """A genuine link older than VERIFY_DAYS: the page says so and offers a new one."""


class LinkInvalid(Exception):
    """Not the site's link (cut, altered), or for an address the account no longer has."""


def token_for(user: AbstractBaseUser) -> str:
    return signing.dumps({"u": user.pk, "e": user.email.strip().casefold()}, salt=SALT, compress=True)


def link_for(user: AbstractBaseUser) -> str:
    return settings.SITE_URL + reverse("verify_email", args=[token_for(user)])


def user_of(token: str) -> AbstractBaseUser:
    """The account a link is for, while the address in it is still the account's; LinkExpired, LinkInvalid."""
    try:
        data = signing.loads(token, salt=SALT, max_age=VERIFY_DAYS * 86400)
    except signing.SignatureExpired as expired:
        raise LinkExpired from expired
    except signing.BadSignature as bad:
        raise LinkInvalid from bad
    try:
        user = get_user_model().objects.filter(pk=int(data["u"]), is_active=True).first()
        address = str(data["e"])
    except (KeyError, TypeError, ValueError) as bad:
        raise LinkInvalid from bad
    if user is None or not same_address(user.email, address):  # the address changed since: its link is void
        raise LinkInvalid
    return user


@transaction.atomic
def verify(token: str) -> AbstractBaseUser:
    """The link's button: the account's current address is verified."""
    user = user_of(token)
    VerifiedAddress.objects.update_or_create(user=user, defaults={"email": user.email, "verified_at": timezone.now()})
    return user


def language_of(user: AbstractBaseUser) -> str:
    """The reader's language: the one his messages are worded in when he chose it, else the page's, else the
    site's."""
    from leagues.notifications.models import Preference

    chosen = Preference.objects.filter(user_id=user.pk).values_list("language", flat=True).first()
    return chosen or get_language() or settings.LANGUAGE_CODE


def send_link(user: AbstractBaseUser, *, language: str | None = None) -> bool:
    """Mails the verification link to the account's address, in the reader's language; False (nothing sent) when
    it has none or it is verified already."""
    if not user.email or address_verified(user):
        return False
    with override(language or language_of(user)):
        context = {
            "user": user,
            "link": link_for(user),
            "site_name": settings.SITE_NAME,
            "site_url": settings.SITE_URL,
            "days": VERIFY_DAYS,
        }
        subject = render_to_string("registration/verify_email_subject.txt", context).strip()
        body = render_to_string("registration/verify_email.txt", context)
    EmailMessage(subject, body, to=[user.email]).send()
    return True


@transaction.atomic
def email_change(*, user: AbstractBaseUser, email: str, password: str) -> AbstractBaseUser:
    """A new address, after the password (a borrowed signed-in phone must not move the reset mails elsewhere): it
    is unverified until its own link is opened (the caller mails it)."""
    user = get_user_model().objects.select_for_update().get(pk=user.pk)
    if not password or not user.check_password(password):
        raise ValidationError({"password": _wrong_password()})
    user.email = get_user_model().objects.normalize_email(email.strip())
    user.save(update_fields=["email"])
    return user


def _wrong_password() -> str:
    from django.utils.translation import gettext as _

    return _("That is not your password; your address was not changed.")
