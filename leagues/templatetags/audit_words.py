"""The club audit page's words for the trail's codes (leagues/common/audit.py): `{% load audit_words %}`."""

from __future__ import annotations

from typing import Any

from django import template

from leagues.common import audit

register = template.Library()


@register.filter
def action_words(action: str) -> str:
    return audit.action_words(action)


@register.filter
def object_words(object_type: str) -> str:
    return audit.object_words(object_type)


@register.filter
def role_words(role: Any) -> str:
    return audit.role_words(role)


@register.filter
def details_words(entry: Any) -> str:
    return audit.details_words(entry.action, entry.details)
