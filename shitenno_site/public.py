"""What the site says to crawlers and when a page cannot be served: robots.txt, the sitemap of public pages, and
the error pages (404, 500, the CSRF refusal) in the reader's language, with the site's own look.

Why here and not Django's defaults: Django's 404/500/CSRF pages are bare English pages (under `nl` too), and the
CSRF page came out `lang="en"` with a Dutch heading (issue 45). The API's paths answer JSON, as the API does."""

from django.contrib.sitemaps import Sitemap
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import loader
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.plugins import all_games
from shitenno_site.problems import problem_response

# Pages that are the same for everyone and carry no one's private data: what a search engine may list.
PUBLIC_PAGES = ("home", "final_count", "player_list", "club_list", "league_index", "league_rules", "rankings")
# Never crawled: accounts, the admin, the API (its schema is linked from docs), a table's moves and undo.
ROBOTS_DISALLOW = ("/accounts/", "/admin/", "/api/", "/i18n/", "/results/", "/tables/*/move/", "/tables/*/undo/")


class PublicPagesSitemap(Sitemap):
    """The site's public pages and each game's statistics page."""

    changefreq = "daily"

    def items(self) -> list[str]:
        return [*PUBLIC_PAGES, *(f"game:{game.slug}" for game in all_games())]

    def location(self, item: str) -> str:
        if item.startswith("game:"):
            return reverse("game_stats", args=[item.removeprefix("game:")])
        return reverse(item)


SITEMAPS = {"pages": PublicPagesSitemap}


@require_GET
@cache_control(max_age=86400, public=True)
def robots_txt(request: HttpRequest) -> HttpResponse:
    lines = [
        "User-agent: *",
        *(f"Disallow: {path}" for path in ROBOTS_DISALLOW),
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
        "",
    ]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: the site's page in the reader's language (the API: JSON with the same sentence)."""
    message = _("There is no page at this address.")
    if _is_api(request):
        return problem_response(404, message)
    return render(request, "404.html", {"message": message}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a page that needs nothing that may have failed (no database, no session, no context processor),
    in the language the request was being answered in."""
    message = _("Something went wrong on our side, and what you just sent was not saved. Try again in a moment.")
    if _is_api(request):
        return problem_response(500, message)
    return HttpResponse(loader.get_template("500.html").render({"message": message}), status=500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the form was sent from a page too old (or another site): say so and how to go on. A
    method the page does not take at all is its 405 with `Allow`, as it would answer past the CSRF check."""
    from django.http import HttpResponseNotAllowed

    from shitenno_site.methods import refused_method

    allowed = None if _is_api(request) else refused_method(request.path_info, request.method or "")
    if allowed:
        return HttpResponseNotAllowed(allowed)
    message = _(
        "This form was sent from a page that is too old, or from another site. Go back, load the page "
        "again and send it once more."
    )
    if _is_api(request):
        return problem_response(403, message)
    return render(request, "403_csrf.html", {"message": message}, status=403)
