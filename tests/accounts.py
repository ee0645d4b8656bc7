"""Accounts as the tests' personas are: of long standing, their e-mail addresses verified."""

from django.utils import timezone


def verified(user):
    """`user`'s address as if its link had been opened (the personas are accounts of long standing, as the
    accounts made before verification are: leagues migration 0035); a test of verification makes its own."""
    from leagues.models import VerifiedAddress

    VerifiedAddress.objects.update_or_create(user=user, defaults={"email": user.email, "verified_at": timezone.now()})
    return user
