"""The audit trail: services append one `AuditEntry` per correction (undo, edited or deleted result, sign-off
or dispute, membership change), inside their own transaction, so a refused change leaves no line behind."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import models

from .models import AuditEntry, Club


def audit_record(
    *, action: str, obj: models.Model, user: AbstractBaseUser | None, club: Club | int | None = None,
    details: dict[str, Any] | None = None, object_id: int | None = None,
) -> AuditEntry:
    """Append one line. `object_id` overrides `obj.pk` for an object being deleted (its pk is gone after)."""
    club_id = club.pk if isinstance(club, Club) else club
    return AuditEntry.objects.create(
        club_id=club_id,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=obj._meta.label_lower,
        object_id=object_id if object_id is not None else obj.pk,
        details=details or {},
    )
