"""Whose pages a phone keeps (docs/offline.md, docs/security.md). Club phones are shared: the service worker keeps
a copy of each page read for when the wifi drops, and those copies must never be shown to the next person who
signs in on that phone. So every page names, in a header, the account it was made for (an opaque tag, not the
user's name or id), and the worker keeps its copies per account and forgets them all as soon as a page arrives for
another account (a sign-out, a sign-in, an expired session). The page itself carries the same tag, so that the
phone's queue of waiting moves is kept per account too and never posted under another account's session."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.crypto import salted_hmac
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

ACCOUNT_HEADER = "X-Shitenno-Account"
ANONYMOUS = "anonymous"


def account_tag(user) -> str:
    """An opaque, stable tag for the signed-in account ("anonymous" for a visitor): the same account always gets
    the same tag, two accounts never share one, and the tag says nothing about who it is."""
    if user is None or not user.is_authenticated:
        return ANONYMOUS
    return salted_hmac("site.offline.account", str(user.pk)).hexdigest()[:20]


class OfflineAccountMiddleware:
    """Names the account on every page (not on htmx fragments and polls: they never pass through the worker's
    page cache, and a poll must stay one cheap query), and tells the browser to drop its HTTP cache at sign-out
    (`Clear-Site-Data: "cache"`; the worker empties its own page cache when the next page names another
    account). A page whose template showed a secret (`{% never_kept %}`) is answered `Cache-Control: no-store`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.offline_account = SimpleLazyObject(lambda: account_tag(getattr(request, "user", None)))
        entered_as = request.headers.get(ACCOUNT_HEADER)
        if request.method == "POST" and entered_as and entered_as != str(request.offline_account):
            return _entered_by_another(request)
        response = self.get_response(request)
        if getattr(request, "offline_never_kept", False):  # a template said it shows a secret ({% never_kept %})
            add_never_cache_headers(response)
        if request.headers.get("HX-Request"):
            return response
        response[ACCOUNT_HEADER] = str(request.offline_account)
        if request.method == "POST" and request.path_info == reverse("logout") and response.status_code < 400:
            response["Clear-Site-Data"] = '"cache"'
        return response


def _entered_by_another(request: HttpRequest) -> HttpResponse:
    """A waiting move posted by a page of one account while the phone's session is now another's (a shared phone:
    bob signed in while a page of alice's was still open and kept trying to send her moves). The phone names the
    account the move was entered under (the header); it is refused before any view runs, so it is never logged in
    bob's name, and the answer names the session's account so that the phone keeps the move waiting for its own."""
    response = HttpResponse(
        _("This move was entered under another account than the one signed in on this phone now; it was not sent."),
        status=409,
        content_type="text/plain; charset=utf-8",
    )
    response[ACCOUNT_HEADER] = str(request.offline_account)
    return response
