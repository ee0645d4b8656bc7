"""Every page of the site is valid HTML, as the Nu Html Checker (the W3C's validator, vnu.jar from npm's vnu-jar,
pinned in package.json; `make test` runs `npm ci`) reads it, in English and Dutch: no error. The pages are those
tests/every_page.py lists (the accessibility test's), fetched as their users see them and checked in one run of
the checker (its Java start-up is the cost). Java comes with the machine (Debian's default JDK)."""

# ruff: noqa: F811  (the `site` fixture imported from tests/every_page is a parameter here, by name)

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client

from tests.every_page import site  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db

VNU = Path(django_settings.BASE_DIR) / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"


def checked(files: list[Path]) -> list[dict]:
    """The checker's errors for `files` (warnings and info left out)."""
    run = subprocess.run(
        ["java", "-Xss4m", "-jar", str(VNU), "--errors-only", "--format", "json", "--stdout", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return json.loads(run.stdout or "{}").get("messages", [])


@pytest.fixture(scope="module")
def checker() -> None:
    if not VNU.exists():
        pytest.skip("vnu-jar is not installed: run `npm ci` (make test does)")
    if shutil.which("java") is None:
        pytest.skip("no Java to run the Nu Html Checker: apt-get install default-jre-headless")


def test_the_checker_finds_an_error_in_a_page_that_has_one(checker, tmp_path):
    """The check can fail: an attribute HTML does not have, and a list inside a phrase, are errors to it."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body>'
        '<p hx-get="/x"><small><ul><li>a</li></ul></small></p></body></html>'
    )
    good = tmp_path / "good.html"
    good.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><p data-hx-get="/x">a</p></body></html>'
    )
    errors = checked([bad, good])
    assert {Path(e["url"].removeprefix("file:")).name for e in errors} == {"bad.html"}
    assert any("hx-get" in e["message"] for e in errors)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_every_page_is_valid_html(checker, site, tmp_path, language):
    files, names = [], {}
    clients: dict = {}
    for n, (user, url) in enumerate(site):
        client = clients.get(user)
        if client is None:
            client = clients[user] = Client(headers={"Accept-Language": language})
            if user is not None:
                client.force_login(user)
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
        path = tmp_path / f"page-{n}.html"
        path.write_bytes(answer.content)
        files.append(path)
        names[path.name] = f"{url} ({user or 'visitor'})"
    errors = checked(files)
    found = sorted(
        {(names[Path(e["url"].removeprefix("file:")).name], e.get("lastLine", 0), e["message"]) for e in errors}
    )
    assert found == [], "\n".join(f"{page} line {line}: {message}" for page, line, message in found[:60]) + (
        f"\n... {len(found)} in all" if len(found) > 60 else ""
    )
