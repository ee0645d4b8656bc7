"""A person's access token: what he named it, what it may do, when it was last used. The key itself is never
stored, only its SHA-256: keys are 256 random bits, so a fast hash is enough (a slow one guards guessable
passwords, not random keys), and a leaked table gives nobody a working key."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AccessToken(models.Model):
    READ = "read"
    WRITE = "write"
    SCOPES = [(READ, _("Read only")), (WRITE, _("Read and write"))]

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=60)
    scope = models.CharField(max_length=5, choices=SCOPES, default=READ)
    # The key's public part, shown on the account page so a person knows which key is which, and looked up by.
    prefix = models.CharField(max_length=16, unique=True)
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["user", "name"], name="one_token_name_per_account")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def writes(self) -> bool:
        return self.scope == self.WRITE
