"""An account's verified e-mail address (issue 47 finding 8): the site mails a member's notifications (the digest,
a sign-off, a dispute, "your table") only to an address its owner proved he reads, by opening a signed link sent
there (leagues/people/verification.py). The row keeps the address that was verified, so an address changed by any
way (the account page, the admin) is unverified until its own link is opened."""

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models


class VerifiedAddress(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="verified_address")
    email = models.EmailField(
        max_length=254,
        help_text="The address its link was opened for; verified while it is still the account's address.",
    )
    verified_at = models.DateTimeField()

    class Meta:
        app_label = "leagues"

    def __str__(self) -> str:
        return f"verified address of {self.user_id}"


def same_address(one: str, other: str) -> bool:
    return bool(one) and one.strip().casefold() == (other or "").strip().casefold()


def address_verified(user: AbstractBaseUser) -> bool:
    """True when the account's current address is the one it verified."""
    row = VerifiedAddress.objects.filter(user_id=user.pk).first()
    return row is not None and same_address(user.email, row.email)


def verified_user_ids(user_ids: Iterable[int]) -> set[int]:
    """The accounts among `user_ids` whose current address is verified: one query."""
    rows = VerifiedAddress.objects.filter(user_id__in=set(user_ids)).values_list("user_id", "email", "user__email")
    return {uid for uid, verified, current in rows if same_address(current, verified)}
