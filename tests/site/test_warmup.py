"""A web worker does its first requests' work when it loads the site (shitenno_site/warmup.py): bench/load.py saw
the first 10 s after a start at 400-1,050 ms p95 when each worker imported the URLconf and compiled the templates
on its first requests."""

import logging
import subprocess
import sys

from django.template import engines

from shitenno_site import warmup
from tests.conftest import ROOT


def test_every_template_of_the_site_is_compiled_by_the_warm_up():
    names = warmup._templates()
    assert "games/table.html" in names and "games/partials/table_body.html" in names and "base.html" in names
    warmup.warm()
    loader = engines["django"].engine.template_loaders[0]
    assert type(loader).__name__ == "Loader" and loader.__module__.endswith("cached")
    kept = {key.split("-")[0] for key in loader.get_template_cache}  # names, with the dirs' hash after a dash
    assert set(names) <= kept


def test_loading_the_wsgi_application_imports_the_urls_and_the_views():
    """In a fresh process, as a gunicorn worker: after wsgi.py, the URLconf and the table views are imported."""
    code = (
        "import sys; import shitenno_site.wsgi; print(*(name in sys.modules for name in "
        "('shitenno_site.urls', 'games.views', 'games.api.views')))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]


def test_a_failing_step_is_logged_and_the_site_still_starts(monkeypatch, caplog):
    def broken() -> None:
        raise RuntimeError("cache down")

    monkeypatch.setattr(warmup, "_cache", broken)
    with caplog.at_level(logging.ERROR, logger="shitenno_site.warmup"):
        assert warmup.warm() >= 0
    assert "warm-up step broken failed" in caplog.text
