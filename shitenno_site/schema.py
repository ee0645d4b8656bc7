"""The site's schema class: drf-spectacular's, plus the answers every operation really gives. Its own module:
drf_spectacular.openapi imports DRF's generic views, which read the API settings naming shitenno_site.api."""

from types import SimpleNamespace

from drf_spectacular.openapi import AutoSchema

from shitenno_site.api import ERROR_BODIES


class SiteAutoSchema(AutoSchema):
    """The schema says 401 wherever the server answers it: an operation whose permissions refuse a caller with
    no session and no token (IsAuthenticated; IsAuthenticatedOrReadOnly for a write) documents 401 with the error
    body, whether or not its own `with_errors` named it (issue 48 finding 3: 27 operations said only 403, and a
    generated client raised "unexpected status" on the server's right answer)."""

    def _get_response_bodies(self, direction: str = "response") -> dict:
        bodies = super()._get_response_bodies(direction)
        if direction == "response" and "401" not in bodies and self._anonymous_refused():
            bodies["401"] = self._get_response_for_code(ERROR_BODIES[401], "401", None, direction)
        return bodies

    def _anonymous_refused(self) -> bool:
        from django.contrib.auth.models import AnonymousUser

        caller = SimpleNamespace(user=AnonymousUser(), method=self.method, auth=None)
        for permission in self.view.get_permissions():
            try:
                if not permission.has_permission(caller, self.view):
                    return True
            except AttributeError:  # a permission that reads more of the request than the caller has: not known
                continue
        return False
