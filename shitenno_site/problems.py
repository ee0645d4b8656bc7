"""The API's one error shape: RFC 9457 problem details (`application/problem+json`), issue 48 finding 4.

Before, the API answered errors in six shapes (`{"detail"}`, a refused move's `{"detail","code","rule","params"}`,
a stale table's `{"detail","head_seq"}`, field errors as `{"field": [...]}` or nested `{"entries": {"0": ...}}`,
`{"non_field_errors"}`), so a client needed six readers. Now every error, from a view, a serializer, a service,
the middleware or the 404/500/CSRF handlers, is one document:

    {"type": "/api/problems/invalid-input/", "title": "The request has mistakes", "status": 400,
     "detail": "name: The club has a league called Summer cup already.",
     "errors": {"name": ["The club has a league called Summer cup already."]}}

`type` names the kind of problem (a relative URI reference that answers with its explanation, as the RFC asks);
`title` is the kind's short summary and `detail` this occurrence's sentence, both in the reader's language;
`errors` holds field errors by field (nested as the body was); the site's own members follow: `code`, `rule` and
`params` for a refused move, `head_seq`, `version` and the like for data that moved on (docs/api.md "Errors").
"""

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

PROBLEM_CONTENT_TYPE = "application/problem+json"
PROBLEM_PATH = "/api/problems/"

# The kinds of problem: slug -> (title, what it means and what a client does about it).
KINDS: dict[str, tuple] = {
    "invalid-input": (
        gettext_lazy("The request has mistakes"),
        gettext_lazy(
            "A field or a query parameter is missing, of the wrong type or out of bounds; `errors` names each field "
            "with its sentences. Correct the request and send it again."
        ),
    ),
    "bad-request": (
        gettext_lazy("The request cannot be read"),
        gettext_lazy(
            "The address, the headers or the body cannot be read (a NUL, an unreadable number, JSON nested too "
            "deeply). `detail` says what."
        ),
    ),
    "illegal-move": (
        gettext_lazy("The rules do not allow this move"),
        gettext_lazy(
            "The move breaks a rule of the game. `rule` names it as <game>.<rule> and `params` its values, so a "
            "client can say it in its own words; `detail` says it in the reader's language."
        ),
    ),
    "invalid-move": (
        gettext_lazy("This is not a move of this game"),
        gettext_lazy(
            "The move is malformed for this game (an unknown kind or a missing value). `rule` and `params` as for an "
            "illegal move."
        ),
    ),
    "not-authenticated": (
        gettext_lazy("Log in first"),
        gettext_lazy("This needs a person: send a token (Authorization: Bearer ...) or a session."),
    ),
    "forbidden": (
        gettext_lazy("Not allowed"),
        gettext_lazy("The caller is known but may not do this (not a member, not an organiser, a read-only token)."),
    ),
    "not-found": (
        gettext_lazy("Not found"),
        gettext_lazy("No such object, or it is private to people the caller is not."),
    ),
    "method-not-allowed": (
        gettext_lazy("Method not allowed"),
        gettext_lazy("This address does not take this method; the Allow header lists the ones it takes."),
    ),
    "not-acceptable": (
        gettext_lazy("Cannot answer in that format"),
        gettext_lazy("The Accept header asks for a format the API does not give; ask for application/json."),
    ),
    "conflict": (
        gettext_lazy("The data moved on"),
        gettext_lazy(
            "What the request assumed is no longer so (a table's head_seq, a season's version, a name taken). The "
            "members beside `detail` say what it is now: read it again and decide."
        ),
    ),
    "gone": (gettext_lazy("Gone"), gettext_lazy("This was here but is not any more.")),
    "too-large": (
        gettext_lazy("The body is too large"),
        gettext_lazy("The body is beyond the limit of this address (docs/api.md): send less."),
    ),
    "unsupported-media-type": (
        gettext_lazy("Send JSON"),
        gettext_lazy("The body's Content-Type is not application/json."),
    ),
    "key-reused": (
        gettext_lazy("This Idempotency-Key was used for another request"),
        gettext_lazy("An Idempotency-Key names one request: send a new key for a different body."),
    ),
    "too-many": (
        gettext_lazy("Too many requests for now"),
        gettext_lazy("A budget is used up (docs/operations.md); Retry-After, where sent, says when to try again."),
    ),
    "server-error": (
        gettext_lazy("Something went wrong on our side"),
        gettext_lazy("Nothing of the request was saved; try again in a moment."),
    ),
    "unavailable": (
        gettext_lazy("Not available just now"),
        gettext_lazy("A job failed or could not be queued; `detail` says why. Try again."),
    ),
}

# The kind an HTTP status means when nothing more specific is known.
KIND_OF_STATUS = {
    400: "bad-request",
    401: "not-authenticated",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    410: "gone",
    413: "too-large",
    415: "unsupported-media-type",
    422: "key-reused",
    429: "too-many",
    500: "server-error",
    503: "unavailable",
}


def kind_for(status: int) -> str:
    return KIND_OF_STATUS.get(status) or ("server-error" if status >= 500 else "bad-request")


def problem(status: int, detail: str, *, kind: str | None = None, errors: dict | None = None, **members) -> dict:
    """One problem document. `members` are the site's own (code, rule, params, head_seq, ...); they never
    replace the five the RFC names."""
    kind = kind or kind_for(status)
    body = {"type": f"{PROBLEM_PATH}{kind}/", "title": str(KINDS[kind][0]), "status": status, "detail": str(detail)}
    if errors is not None:
        body["errors"] = errors
    for name, value in members.items():
        body.setdefault(name, value)
    return body


def problem_response(status: int, detail: str, **kwargs) -> JsonResponse:
    """A problem answered outside DRF (the middleware, the 404/500/CSRF handlers, an unknown API address)."""
    return JsonResponse(
        problem(status, detail, **kwargs),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE,
        json_dumps_params={"ensure_ascii": False},
    )


def first_sentence(errors, prefix: str = "") -> str:
    """The first field error as a sentence naming its field ("name: ..."), for `detail`: a client that shows
    only `detail` still says what is wrong."""
    if isinstance(errors, dict):
        for field, value in errors.items():
            named = "" if field in ("non_field_errors", "detail") else f"{prefix}{field}"
            sentence = first_sentence(value, f"{named}." if named else "")
            if sentence:
                return sentence
        return ""
    if isinstance(errors, list | tuple):
        for value in errors:
            sentence = first_sentence(value, prefix)
            if sentence:
                return sentence
        return ""
    text = str(errors)
    field = prefix.rstrip(".")
    return f"{field}: {text}" if field else text


@require_safe
def kinds_document(request: HttpRequest, kind: str | None = None) -> JsonResponse:
    """GET /api/problems/ and /api/problems/<kind>: what each `type` means, in the reader's language (the RFC's
    type URI answers with its explanation)."""

    def described(slug: str) -> dict:
        title, meaning = KINDS[slug]
        return {"type": f"{PROBLEM_PATH}{slug}/", "title": str(title), "description": str(meaning)}

    if kind is None:
        return JsonResponse({"kinds": [described(slug) for slug in KINDS]}, json_dumps_params={"ensure_ascii": False})
    if kind not in KINDS:
        return problem_response(404, _("There is no such kind of problem."))
    return JsonResponse(described(kind), json_dumps_params={"ensure_ascii": False})
