"""Issue 27 on a phone: Alice uploads her club's BG Stats file, reads the preview at 360 px, merges two names
and imports; axe finds nothing and nothing scrolls sideways."""

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from leagues.models import Result
from tests.browser.test_axe import RUN_AXE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BGSTATS = Path(__file__).parent.parent / "leagues" / "fixtures" / "imports" / "bgstats.json"
AXE = Path(django_settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"


def _fits_and_passes_axe(page) -> list:
    page.evaluate(AXE.read_text() + "\n;0")
    problems = page.evaluate(RUN_AXE)
    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    if width[0] > width[1]:
        problems.append({"id": "scrolls-sideways", "nodes": [f"{width[0]} px wide in {width[1]}"]})
    return problems


@pytest.mark.parametrize("language", ["en", "nl"])
def test_alice_previews_and_imports_on_her_phone(phone, live_server, club, alice, language):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci` (make test does)")
    page = phone(alice)
    page.context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language,
                               "url": live_server.url}])
    page.goto(reverse("club_detail", args=[club.slug]))
    page.locator(f"a[href='{reverse('import_start', args=[club.slug])}']").click()
    assert _fits_and_passes_axe(page) == []
    page.locator("select[name=kind]").select_option("bgstats")
    page.locator("input[type=file]").set_input_files(str(BGSTATS))
    page.locator("form button.primary").click()
    figures = page.locator(".import-figures")
    expect(figures).to_contain_text("40")
    expect(figures).to_contain_text("34")
    assert _fits_and_passes_axe(page) == []
    assert Result.objects.count() == 0

    page.locator("#merges").fill("Masashi=Masa")
    page.locator("#import-update").click()
    expect(page.locator(".import-players")).to_contain_text("Masa, Masashi")
    page.locator("#import-commit").click()
    expect(page.locator("#import-progress [role=status]")).to_contain_text("34")
    assert _fits_and_passes_axe(page) == []
    assert Result.objects.filter(club=club).count() == 34
