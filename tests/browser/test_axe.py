"""Every page of the site, as axe-core (Deque's accessibility engine, from npm) reads it on a 360 x 740 phone, in
English and Dutch, light and dark: no violation of any rule at any impact. The same visit checks that no page
scrolls sideways and that no word is broken across lines inside a table cell.

axe-core comes from package.json (`make test` runs `npm ci`); it is evaluated into each page through Playwright,
which the site's Content-Security-Policy does not stop (no inline script is added to the page)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from leagues.people import players
from tests.browser.layout import broken_words
from tests.every_page import site  # noqa: F401 (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(django_settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"

# aria-describedby and aria-labelledby naming an id no element has (axe only asks a person to review those).
DANGLING_REFERENCES = """() => [...document.querySelectorAll('[aria-describedby], [aria-labelledby]')]
  .flatMap(el => ['aria-describedby', 'aria-labelledby'].flatMap(a => (el.getAttribute(a) || '').split(/\\s+/)))
  .filter(id => id && !document.getElementById(id))"""

RUN_AXE = """async () => {
  const found = await axe.run(document, {resultTypes: ['violations']});
  return found.violations.map(v => ({
    id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
}"""


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci` (make test does)")
    return AXE.read_text()


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_page_passes_axe_and_fits_360_px(
    phone,
    shoot,
    live_server,
    site,
    axe_source,
    language,  # noqa: F811
    dark,
):
    found = {}
    pages = {}
    kenjis_page = players.player_for_user(get_user_model().objects.get(username="kenji")).get_absolute_url()
    for user, url in site:
        page = pages.get(user)
        if page is None:
            page = pages[user] = phone(user, dark=dark)
            page.context.add_cookies(
                [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
            )
        response = page.goto(url)
        assert response.status == 200, (url, response.status)
        api_docs = url == reverse("api-docs")  # Swagger UI speaks English only
        expect(page.locator("html")).to_have_attribute("lang", "en" if api_docs else language)
        if api_docs:
            expect(page.locator(".swagger-ui .info")).to_be_visible()
        page.evaluate(axe_source + "\n;0")  # defines window.axe
        if url == kenjis_page:  # the player page's charts, for docs/screenshots/
            shoot(page, f"player-{language}-{'dark' if dark else 'light'}")
        problems = page.evaluate(RUN_AXE)
        width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        if width[0] > width[1]:
            problems.append({"id": "scrolls-sideways", "nodes": [f"{width[0]} px wide in {width[1]}"]})
        dangling = page.evaluate(DANGLING_REFERENCES)
        if dangling:
            problems.append({"id": "aria-reference-to-no-element", "nodes": dangling[:5]})
        broken = broken_words(page, "td, th")  # a table cell's word broken across lines
        if broken:
            problems.append({"id": "word-broken-in-a-table-cell", "nodes": broken[:5]})
        if problems:
            found[f"{url} ({user or 'guest'})"] = problems
    assert found == {}, "\n".join(f"{url}: {p}" for url, ps in found.items() for p in ps)
