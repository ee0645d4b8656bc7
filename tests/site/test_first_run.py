"""What a newcomer meets on the first `make run`: quiet, single log lines, an icon, a description, and pages
sent compressed."""

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def demo_env(tmp_path) -> dict:
    """The environment of `make run`: no service, SQLite, DEBUG on."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "DEBUG")
    }
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'demo.sqlite3'}", DJANGO_SETTINGS_MODULE="shitenno_site.settings")
    return env


def manage(tmp_path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=demo_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_it_loads_the_demo_without_broker_noise(tmp_path):
    assert manage(tmp_path, "migrate", "--noinput").returncode == 0
    run = manage(tmp_path, "demo_data", "--games", "1")
    assert run.returncode == 0, run.stderr
    assert "Loaded 8 players" in run.stdout
    assert "No hostname was supplied" not in run.stderr  # kombu, for a broker eager tasks never use
    assert run.stderr.strip() == ""


def test_it_prints_a_log_line_once(tmp_path):
    code = (
        "import django, logging; django.setup(); "
        "logging.getLogger('django.request').warning('Not Found: /nowhere'); "
        "logging.getLogger('games').warning('a warning of the site')"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=demo_env(tmp_path), capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("Not Found: /nowhere") == 1
    assert run.stderr.count("a warning of the site") == 1


@pytest.mark.django_db
def test_it_has_a_favicon_and_a_description(client):
    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.ico"' in page
    assert '<meta name="description" content="Score Shitennō at the table' in page
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.ico"
    assert (ROOT / "static" / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"  # an icon file


@pytest.mark.django_db
def test_it_sends_pages_gzipped_to_clients_that_accept_it(client):
    plain = client.get("/")
    assert "Content-Encoding" not in plain
    packed = client.get("/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    html = gzip.decompress(packed.content).decode()
    assert "<html" in html and len(packed.content) < len(plain.content)


@pytest.mark.django_db
def test_the_texts_a_newcomer_reads_have_no_known_typos():
    files = [*(ROOT / "templates").rglob("*.html"), ROOT / "locale/nl/LC_MESSAGES/django.po"]
    texts = [path.read_text() for path in files]
    assert not any(" a owner" in text or "a {{ role }}" in text for text in texts)
    table = [(ROOT / "templates/games" / name).read_text() for name in ("table.html", "partials/table_body.html")]
    assert "".join(table).count("Full history") == 1
