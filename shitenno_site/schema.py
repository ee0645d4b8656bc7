"""The site's schema class: drf-spectacular's, plus the answers every operation really gives. Its own module:
drf_spectacular.openapi imports DRF's generic views, which read the API settings naming shitenno_site.api."""

import inspect
from types import SimpleNamespace

from drf_spectacular.openapi import AutoSchema

from shitenno_site.api import ERROR_BODIES

# The last segments of the addresses whose POST is an action on the thing before it, not a new member of a list:
# their operation is named by the action ("results_sign_off", not "results_sign_off_create": issue 48 finding 3,
# where a generated client had 19 functions named "..._create" that create nothing).
ACTIONS = frozenset(
    {
        "join",
        "final-count",
        "delete",
        "check-in",
        "leave",
        "open",
        "swap",
        "game",
        "lock",
        "invite",
        "claim",
        "sign-off",
        "undo",
        "drop",
        "places",
        "settle",
    }
)
# A POST whose address ends in an id, and what it does to it.
ANSWERS = {"/api/invites/{id}/": "invites_answer"}


class SiteAutoSchema(AutoSchema):
    """The schema says 401 wherever the server answers it: an operation whose permissions refuse a caller with
    no session and no token (IsAuthenticated; IsAuthenticatedOrReadOnly for a write) documents 401 with the error
    body, whether or not its own `with_errors` named it (issue 48 finding 3: 27 operations said only 403, and a
    generated client raised "unexpected status" on the server's right answer)."""

    def get_description(self) -> str:  # type: ignore[override]
        """A view's own docstring describes its operation; a base class's is not (drf-spectacular falls back on
        it: PagedListView's said how it pages to 8 operations, issue 48)."""
        from shitenno_site.paged import PagedListView

        description = super().get_description()
        return "" if description == inspect.cleandoc(PagedListView.__doc__ or "") else description

    def get_operation_id(self) -> str:
        if self.method == "POST":
            path = self.path.rstrip("/")
            if self.path in ANSWERS:
                return ANSWERS[self.path]
            if path.rsplit("/", 1)[-1] in ACTIONS:
                return super().get_operation_id().removesuffix("_create")
        return super().get_operation_id()

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
