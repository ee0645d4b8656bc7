"""What makes the site installable and lets a table keep scoring with the club's wifi gone (docs/offline.md): the web
app manifest, and the service worker, served from the site's root so that its scope covers every page."""

import hashlib
import json

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.templatetags.static import PrefixNode, static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.plugins import all_games

# The files every page needs, precached when the worker installs (Workbox's precaching): the first page a phone
# opens was loaded before the worker ran, so without these it would have no style sheet or scripts offline.
SHELL_FILES = (
    "css/site.css",
    "js/htmx.min.js",
    "js/site.js",
    "js/offline-queue.js",
    "js/offline-sign-out.js",
    "js/offline.js",
    "favicon.svg",
    "icons/icon-192.png",
)


def shell_files() -> list[str]:
    """The site's own shell files, then each game's style sheets and scripts (its adapter's): a table opened first
    with the wifi gone still has its board styled and its forms' scripts."""
    return [*SHELL_FILES, *(path for game in all_games() for path in (*game.stylesheets, *game.scripts))]


def _revision(name: str) -> str | None:
    """Workbox's precache entry revision: none for a hashed address (collectstatic's manifest storage: the address
    changes with the file), else a hash of the file's bytes (DEBUG's plain addresses), so a changed file is fetched
    again and its old copy dropped."""
    if static(name) != PrefixNode.handle_simple("STATIC_URL") + name:
        return None
    path = finders.find(name)
    if not path:
        return None
    with open(path, "rb") as file:
        return hashlib.md5(file.read(), usedforsecurity=False).hexdigest()


def precache_manifest() -> list[dict]:
    """The shell files as Workbox's precache manifest: [{url, revision}]."""
    return [{"url": static(name), "revision": _revision(name)} for name in shell_files()]


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: opened from the home screen, the site fills the screen like an app."""
    return JsonResponse(
        {
            "name": _("Shitennō site"),
            "short_name": _("Shitennō"),
            "description": _("Score samurai board games at the table on your phones, even when the wifi drops."),
            "id": "/",
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "background_color": "#faf7f2",
            "theme_color": "#7a1c1c",
            "icons": [
                {
                    "src": static(f"icons/icon-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": "any maskable",
                }
                for size in (192, 512)
            ],
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, at /sw.js rather than under /static/ (a worker controls only the pages below its own
    address), never cached by the browser's HTTP cache, so a new version reaches the phones on their next visit."""
    # The static prefix is read from the settings: static("") is refused by the manifest storage (DEBUG=0), as "" is
    # no file; bench/lighthouse.py serves the site that way.
    settings = {
        "workbox": static("js/workbox/workbox-sw.js"),
        "modules": static("js/workbox/workbox-core.prod.js").rsplit("/", 1)[0] + "/",
        "static": PrefixNode.handle_simple("STATIC_URL"),
        "precache": precache_manifest(),
    }
    body = render_to_string("offline/sw.js", {"settings": json.dumps(settings)})
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response
