"""Issue 48 finding 5: a page answers a method it does not take with 405 and the `Allow` header naming those it
does (read-only pages answered PUT, DELETE, PATCH and OPTIONS with the page itself)."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from shitenno_site.methods import declared_methods

pytestmark = pytest.mark.django_db

# Django's own language switch (it takes a POST and answers anything else with a redirect back, by its design),
# and the API's catch-all, which answers an unknown address 404 in JSON whatever the method
NOT_DECLARED = {"django.views.i18n.set_language", "games.api.urls.not_found"}
ADMIN = "admin/"  # Django's admin, its own pages and rules


def _patterns(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.callback


def test_the_checker_finds_a_function_view_that_declares_no_methods():
    from django.views.decorators.http import require_safe

    def page(request):
        return None

    assert declared_methods(page) is None
    assert declared_methods(require_safe(page)) == ["GET", "HEAD"]


def test_every_page_declares_the_methods_it_takes():
    """Class-based views (the API's, the account pages') answer 405 for what they do not define; every function
    view says its methods by decorator, so a new page cannot forget."""
    undeclared = [
        f"{route} ({view.__module__}.{view.__name__})"
        for route, view in _patterns(get_resolver().url_patterns)
        if not route.startswith(ADMIN)
        and not hasattr(view, "view_class")
        and not hasattr(view, "cls")
        and f"{view.__module__}.{view.__name__}" not in NOT_DECLARED
        and declared_methods(view) is None
    ]
    assert undeclared == []


@pytest.mark.parametrize("method", ["put", "delete", "patch", "options"])
@pytest.mark.parametrize(
    "url, allow",
    [
        ("/", "GET, HEAD"),
        ("/rankings/", "GET, HEAD"),
        ("/players/", "GET, HEAD"),
        ("/clubs/", "GET, HEAD"),
        ("/accounts/sign-up/", "GET, HEAD, POST"),
        ("/sitemap.xml", "GET, HEAD"),
    ],
)
def test_a_page_refuses_a_method_it_does_not_take_with_405_and_says_which_it_does(client, url, allow, method):
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.count()
    response = getattr(client, method)(url)
    assert response.status_code == 405 and response["Allow"] == allow
    assert get_user_model().objects.count() == users
    assert client.get(url).status_code == 200


@pytest.mark.parametrize(
    "method, url, allow",
    [
        ("put", "/leagues/", "GET, HEAD"),
        ("delete", "/clubs/", "GET, HEAD"),
        ("patch", "/rankings/", "GET, HEAD"),
        ("post", "/players/", "GET, HEAD"),
        ("put", "/accounts/sign-up/", "GET, HEAD, POST"),
    ],
)
def test_a_real_client_without_a_csrf_token_gets_the_405_too(alice, method, url, allow):
    """A client that sends no CSRF token (curl, an app) met the CSRF check first: 403 "the form expired" for a
    method the page never takes. Django's test client skips that check unless asked, so this one enforces it."""
    from django.contrib.auth import get_user_model

    client = Client(enforce_csrf_checks=True)
    users = get_user_model().objects.count()
    response = getattr(client, method)(url)
    assert response.status_code == 405 and response["Allow"] == allow
    assert get_user_model().objects.count() == users
    client.force_login(alice)
    assert client.put("/accounts/me/").status_code == 405  # signed in too
    assert client.post("/accounts/me/").status_code == 403  # a method it takes, without the token: still refused


def test_a_table_page_is_read_only_and_its_moves_go_to_their_own_addresses(client, alice, bob):
    from .test_query_budgets import _table

    session, _legal = _table(alice, bob, 2)
    client.force_login(alice)
    for url in (f"/tables/{session.code}/", f"/tables/{session.code}/history/"):
        response = client.put(url)
        assert response.status_code == 405 and response["Allow"] == "GET, HEAD"
        assert client.get(url).status_code == 200
