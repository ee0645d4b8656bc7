"""People and clubs: a Player sits at tables, with or without an account; a Club gathers players."""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Player(models.Model):
    """A person at a table. A guest has no user until someone claims it with its invite link."""

    name = models.CharField(_("name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claim_token = models.CharField(max_length=64, unique=True, null=True, blank=True)  # noqa: DJ001 (unique when set)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_guests",
        help_text="A claimed guest whose games moved to this player; kept for the record.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player_detail", args=[self.pk])

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(unique=True, max_length=100)
    description = models.TextField(_("description"), blank=True)
    members_public = models.BooleanField(
        _("members list is public"), default=False,
        help_text=_("When off, only members see who is in the club."),
    )
    invite_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.slug])


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")]
        ordering = ["club", "player__name"]

    def __str__(self) -> str:
        return f"{self.player} in {self.club} ({self.role})"

    @property
    def manages(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)
