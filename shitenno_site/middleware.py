"""Refusals at the edge, before any view reads the request (issue 14).

NUL cannot reach PostgreSQL (it refuses it in text), so a NUL in the path or the query string is a 400
here rather than a 500 deep in a view. The API answers JSON everywhere, also for a body too large to read
(413), which Django would otherwise answer with an HTML 400 once a view touched it.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote_to_bytes

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from shitenno_site.views import bad_request_page


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


class InputEdgeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        query = request.META.get("QUERY_STRING", "")
        if "\x00" in request.path_info or b"\x00" in unquote_to_bytes(query.replace("+", " ")):
            return self._refuse(request, 400, "The address cannot hold a NUL character (%00).")
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return self._refuse(request, 400, "The Content-Length header is not a number.")
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if _is_api(request) and limit is not None and length > limit:
            return self._refuse(request, 413, f"The body is too large: at most {limit} bytes.")
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, status: int, message: str) -> HttpResponse:
        if _is_api(request):
            return JsonResponse({"detail": message}, status=status)
        return bad_request_page(request, message, status=status)
