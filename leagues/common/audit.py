"""The audit trail: services append one `AuditEntry` per correction (undo, edited or deleted result, sign-off
or dispute, membership change), inside their own transaction, so a refused change leaves no line behind.

An entry stores its action as a code ("result.sign_off") and its details as JSON, so the trail reads the same in
every language and survives an export; the club's audit page says both in the reader's words (`action_words`,
`details_words`, `object_words`), never the code or a Python dict.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.plugins import game_name
from leagues.models import AuditEntry, Club, Membership

# Every action a service records, in words (a new action without words shows its code: tests/leagues/test_audit.py
# checks each recorded action is here).
ACTIONS: dict[str, str] = {
    "move.undo": _("Move undone"),
    "result.edit": _("Result corrected"),
    "result.admin_add": _("Result added"),
    "result.delete": _("Result deleted"),
    "result.sign_off": _("Result signed off"),
    "result.dispute": _("Result disputed"),
    "result.flag": _("Result disputed after counting"),
    "results.import": _("Results imported"),
    "membership.join": _("Joined the club"),
    "membership.invite": _("Invited to the club"),
    "membership.add": _("Added to the club"),
    "membership.decline": _("Invitation declined"),
    "membership.role": _("Role changed"),
    "membership.leave": _("Left the club"),
    "membership.remove": _("Removed from the club"),
    "player.claim": _("Guest claimed by an account"),
    "league.update": _("League changed"),
    "league.delete": _("League deleted"),
    "season.update": _("Season changed"),
    "season.delete": _("Season deleted"),
}
OBJECTS: dict[str, str] = {
    "games.tablesession": _("table"),
    "leagues.result": _("result"),
    "leagues.membership": _("membership"),
    "leagues.clubinvite": _("invitation"),
    "leagues.player": _("player"),
    "leagues.club": _("club"),
    "leagues.league": _("league"),
    "leagues.season": _("season"),
}
# The fields a league's or a season's change names ("name: Winter -> Winter 2026-27").
FIELDS: dict[str, str] = {
    "name": _("name"),
    "games": _("games"),
    "starts_on": _("starts"),
    "ends_on": _("ends"),
    "points_scheme": _("points"),
    "custom_points": _("points by place"),
    "tie_breakers": _("tie-breakers"),
    "min_games": _("minimum games"),
}


def audit_record(
    *,
    action: str,
    obj: models.Model,
    user: AbstractBaseUser | None,
    club: Club | int | None = None,
    details: dict[str, Any] | None = None,
    object_id: int | None = None,
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


def action_words(action: str) -> str:
    """An audit action in the reader's words (its code when it has none)."""
    return str(ACTIONS.get(action, action))


def object_words(object_type: str) -> str:
    """What kind of thing an entry changed ("result"), in the reader's words (the model's label when unknown)."""
    return str(OBJECTS.get(object_type, object_type))


def role_words(role: Any) -> str:
    """A membership role ("admin") in the reader's words."""
    return str(dict(Membership.Role.choices).get(role, role or ""))


def details_words(action: str, details: dict) -> str:
    """The details the audit page's template does not lay out itself, as a sentence: a claimed guest, an import,
    or, for an action it does not know, each detail as "name: value" (never a Python dict)."""
    if not isinstance(details, dict):
        return str(details or "")
    if action == "player.claim":
        return gettext("%(guest)s is now the account %(account)s (%(role)s)") % {
            "guest": details.get("guest", "?"),
            "account": details.get("account", "?"),
            "role": role_words(details.get("role")),
        }
    if action == "results.import":
        return gettext("%(imported)s of %(plays)s plays from %(source)s; %(duplicates)s already there") % {
            "imported": details.get("imported", 0),
            "plays": details.get("plays", 0),
            "source": details.get("source", "?"),
            "duplicates": details.get("duplicates", 0),
        }
    if action.endswith(".update") and isinstance(details.get("after"), dict):
        before = details.get("before") if isinstance(details.get("before"), dict) else {}
        return "; ".join(
            f"{FIELDS.get(key, key)}: {_value_words(before.get(key, ''))} → {_value_words(value)}"
            for key, value in details["after"].items()
        )
    return "; ".join(f"{key}: {_value_words(value)}" for key, value in details.items() if key != "via")


def _value_words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {_value_words(inner)}" for key, inner in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value_words(inner) for inner in value)
    return game_name(value) if isinstance(value, str) else str(value)  # a game's slug reads as its name
