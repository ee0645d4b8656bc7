"""Issues 27 and 34 on a phone: Alice uploads her club's BG Stats file, reads the preview at 360 px, merges two
names, lets the import make the season of last year's plays, vouches for them and imports; the league's standings
show them at once. axe finds nothing and nothing scrolls sideways."""

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from leagues.club import seasons
from leagues.jobs import outbox
from leagues.models import Player, Result, Season
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
def test_alice_previews_and_imports_on_her_phone(phone, live_server, club, alice, carol, language):
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci` (make test does)")
    league = seasons.league_create(club=club, name="Dinsdag", games=["shitenno", "teikoku"], user=alice)
    page = phone(alice)
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
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

    expect(page.locator(".import-seasons")).to_contain_text("2024")  # the season the import offers to make
    expect(page.locator("#season-league")).to_have_value(str(league.pk))
    expect(page.locator("#vouch")).not_to_be_checked()  # vouching is her act, never a default
    page.locator("#vouch").check()
    page.locator("#merges").fill("Masashi=Masa")
    page.locator("#import-update").click()
    expect(page.locator(".import-players")).to_contain_text("Masa, Masashi")
    page.locator("#import-commit").click()
    expect(page.locator("#import-progress [role=status]")).to_contain_text("34")
    assert _fits_and_passes_axe(page) == []
    season = Season.objects.get(league=league, name="2024")
    assert Result.objects.filter(club=club, season=season, status=Result.Status.COUNTED).count() == 34

    outbox.sweep(older_than=0)  # what the worker does with the jobs the import asked for
    page.goto(reverse("league_detail", args=[league.pk]))
    standings = page.locator("table.standings")
    expect(standings).to_contain_text("Hanzo")
    expect(standings).to_contain_text("carol")
    page.goto(Player.objects.get(user=carol).get_absolute_url())  # her page counts them too
    record = page.locator(".player-stats")
    expect(record).not_to_contain_text("No counted games yet")
    expect(record).not_to_contain_text("Nog geen getelde partijen")
    expect(record).to_contain_text(str(Result.objects.filter(club=club, entries__player__user=carol).count()))
