"""Refusals at the edge, before any view reads the request (issues 14 and 36).

NUL cannot reach PostgreSQL (it refuses it in text), so a NUL in the path or the query string is a 400
here rather than a 500 deep in a view. A body longer than DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) is refused
with 413 from its Content-Length, before a byte of it is read, on the API and on the pages alike; a page that
takes uploads says its own limit with `@body_limit(...)`. A page's form fields follow the site's one text rule
(validation.text_problem) before any view sees them: a 400 page naming the field. The API answers JSON
everywhere, also for a body too large to read (413), which Django would otherwise answer with an HTML 400 once
a view touched it; its bodies are read by its own parser and fields.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from shitenno_site import validation
from shitenno_site.problems import problem_response
from shitenno_site.views import bad_request_page

# Fields whose value is never shown nor stored as text (a password is hashed): the text rule does not apply.
UNSHOWN_FIELDS = ("password",)


def body_limit(max_bytes: int) -> Callable:
    """Marks an upload page: its bodies may be `max_bytes` long (the site's default cap is for everything else)."""

    def mark(view: Callable) -> Callable:
        view.body_limit = max_bytes
        return view

    return mark


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _form_text_problem(request: HttpRequest) -> str | None:
    """The first form field whose text the site's text rule refuses, as a sentence naming the field."""
    for name, values in request.POST.lists():
        if any(word in name for word in UNSHOWN_FIELDS):
            continue
        for value in values:
            problem = validation.text_problem(name) or validation.text_problem(value, multiline=True)
            if problem:
                return validation.where_problem(name if not validation.text_problem(name) else "", problem)
    return None


class InputEdgeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = self._edge(request)
        return self.get_response(request) if refused is None else refused

    def _edge(self, request: HttpRequest) -> HttpResponse | None:
        """The address and the declared length, refused before anything else runs: in the reader's language,
        though LocaleMiddleware has not run yet (a 413 said "The body is too large" under `nl`: issue 48)."""
        query = request.META.get("QUERY_STRING", "")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        with translation.override(translation.get_language_from_request(request)):
            if "\x00" in request.path_info or b"\x00" in unquote_to_bytes(query.replace("+", " ")):
                nul = _("The address cannot hold a NUL character (%(code)s).") % {"code": "%00"}
                return self._refuse(request, 400, nul)
            try:
                request.declared_length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                return self._refuse(request, 400, _("The Content-Length header is not a number."))
            if _is_api(request) and limit is not None and request.declared_length > limit:
                return self._refuse(request, 413, _("The body is too large: at most %(n)d bytes.") % {"n": limit})
        return None

    def process_view(self, request: HttpRequest, view: Callable, args: tuple, kwargs: dict) -> HttpResponse | None:
        """A page's body: refused unread when longer than the page takes, then its fields' text checked."""
        if _is_api(request) or request.method in ("GET", "HEAD", "OPTIONS"):
            return None
        limit = getattr(view, "body_limit", settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        if limit is not None and request.declared_length > limit:
            return self._refuse(request, 413, _("The request is too large: at most %(n)d bytes.") % {"n": limit})
        problem = _form_text_problem(request) if request.method == "POST" else None
        if problem:
            return self._refuse(request, 400, problem)
        return None

    @staticmethod
    def _refuse(request: HttpRequest, status: int, message: str) -> HttpResponse:
        if _is_api(request):
            return problem_response(status, message)
        page = bad_request_page(request, message, status=status)
        if request.headers.get("HX-Request"):  # a form posted by htmx: the page takes the window, not the panel
            page["HX-Retarget"], page["HX-Reswap"] = "body", "innerHTML"
        return page


class WeakETagMiddleware:
    """Every answer's ETag weak, the 200's and the 304's alike (issue 48: a gzipped 200 carried W/"x", Django's
    GZipMiddleware weakening it, while the 304 for the same answer carried "x"). The validator is of the content
    before compression, so weak is what it is: If-None-Match compares weakly either way. Above GZipMiddleware, so
    it sees the answer as it leaves."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        etag = response.get("ETag")
        if etag and not etag.startswith("W/"):
            response["ETag"] = f"W/{etag}"
        return response
