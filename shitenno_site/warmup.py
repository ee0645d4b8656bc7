"""What a web worker would otherwise pay on its first requests, paid once when it loads the site (wsgi.py, asgi.py).

bench/load.py measured the site's move p95 at 400-1,050 ms in the first 10 s after a start against ~50-100 ms
after (issue 28). Each of gunicorn's workers imported the URLconf on its first request (the views, DRF, the API
schema's views with the `requests` they bring: ~0.5 s of a fresh process's first move, 506-522 ms against 9 ms
for the next, on this machine), compiled the templates on its first live poll (96-105 ms against 18-20), read
the Dutch catalogue and the static files' manifest and opened its cache connection on first use. With 4 workers
on 2 cores and a hundred moves a second arriving, the queue behind those first requests took seconds to drain. A
worker now does all of that before it accepts its first request (~0.7 s a worker): first move 27-30 ms, first
live poll 28-30 ms.

What it leaves for the first request: the database connection (one made here would be shared by the processes a
`--preload` server forks from this one) and each table's own state, which the shared cache keeps across a deploy.
"""

import logging
import time
from pathlib import Path

log = logging.getLogger(__name__)


def _templates() -> list[str]:
    """Every template of the site's own folders and apps (not the admin's or other packages')."""
    from django.conf import settings

    roots = [Path(d) for conf in settings.TEMPLATES for d in conf.get("DIRS", [])]
    roots += [Path(settings.BASE_DIR) / app / "templates" for app in ("games", "leagues", "shitenno_site")]
    return sorted({str(path.relative_to(root)) for root in roots if root.is_dir() for path in root.rglob("*.html")})


def _urls() -> None:
    """The URLconf with every view, the API and its schema views (imported on the first request otherwise)."""
    from django.urls import get_resolver

    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 (imports the URLconf)
    resolver.reverse_dict  # noqa: B018 (builds the reverse lookups every page's links use)


def _catalogues() -> None:
    """Each language's translations, read from the .mo files once a process."""
    from django.conf import settings
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Tables")


def _games() -> None:
    """Each game's adapter and engine, with the tables they compute once (games.plugins)."""
    from games.plugins import all_games

    for game in all_games():
        game.name  # noqa: B018 (the registry loads the adapter and its engine)


def _cache() -> None:
    """The shared cache's client and connection pool (Redis in production; the pool is remade after a fork)."""
    from django.core.cache import cache

    cache.get("warm-up")


def _static() -> None:
    """The static files' manifest (every page's {% static %} reads it; loaded when the storage is first used)."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    staticfiles_storage.base_url  # noqa: B018 (sets the storage up, reading the manifest in production)


def warm() -> float:
    """Do the first-request work now; returns the seconds it took. A step that fails is logged and skipped: a
    warm-up must never keep the site from starting (the first request then pays for it, as before)."""
    from django.template import TemplateDoesNotExist, TemplateSyntaxError
    from django.template.loader import get_template

    begun = time.perf_counter()
    for step in (_urls, _catalogues, _games, _cache, _static):
        try:
            step()
        except Exception:  # noqa: BLE001 (logged; the request that needs it will raise it again)
            log.exception("warm-up step %s failed", step.__name__)
    for name in _templates():
        try:
            get_template(name)  # compiled once and kept by the cached loader (DEBUG=0)
        except (TemplateDoesNotExist, TemplateSyntaxError):
            log.exception("warm-up: template %s", name)
    return time.perf_counter() - begun
