"""Template context every page needs."""

from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict:
    """`debug_errors`: show a server error's debug page when an htmx request fails (DEBUG only)."""
    return {"debug_errors": settings.DEBUG}
