"""A member of a large club downloads its BG Stats file on a 360 px phone, in English and in Dutch (issue 46 finding
6): the export's button on the club page leads to a page that asks for the file; its button starts the job; the
file's page says it is being made and, polling, shows the download once the job has made it; the file downloaded
is the club's export.

The club is made "large" by lowering `IN_PAGE_ENTRIES` below its four entries; the job's message is caught and its
body run by the test while the page polls, as the heavy queue's worker would run it.
"""

import datetime
import json

import pytest
from playwright.sync_api import expect

from leagues.club import clubs
from leagues.imports import export_job
from leagues.models import ClubExport, Player, Result, ResultEntry

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {"ask": "Make the file", "making": "Making the file", "ready": "The file is ready"},
    "nl": {"ask": "Maak het bestand", "making": "Het bestand wordt gemaakt", "ready": "Het bestand is klaar"},
}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_member_of_a_large_club_gets_its_file_from_the_job(phone, alice, carol, language, monkeypatch, shoot):
    from leagues.imports import tasks as imports_tasks

    club = clubs.club_create(name="Edo Gamers", owner=alice)
    clubs.club_join(token=club.invite_token, user=carol)
    ken = Player.objects.create(name="Uncle Ken")
    for day in (5, 12):
        result = Result.objects.create(
            game="shitenno", played_on=datetime.date(2026, 11, day), club=club, status=Result.Status.COUNTED
        )
        ResultEntry.objects.bulk_create(
            [
                ResultEntry(result=result, player=ken, rank=1, score=20.0, seat=1),
                ResultEntry(result=result, player=alice.player, rank=2, score=7.0, seat=2),
            ]
        )
    sent: list[str] = []
    monkeypatch.setattr(export_job, "IN_PAGE_ENTRIES", 3)
    monkeypatch.setattr(imports_tasks.club_export_job, "delay", sent.append)
    says = SAYS[language]

    page = phone(carol)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/clubs/{club.slug}/")
    page.locator(f"a[href='/clubs/{club.slug}/export/bgstats/']").click()
    page.get_by_role("button", name=says["ask"]).click()
    expect(page.locator("#export-progress [role=status]")).to_contain_text(says["making"])
    no_horizontal_scroll(page)
    assert len(sent) == 1 and ClubExport.objects.get().state == ClubExport.State.QUEUED

    export_job.export_build(sent[0])  # the worker's part; the page finds it on its next look
    expect(page.locator("#export-progress [role=status]")).to_contain_text(says["ready"], timeout=15_000)
    no_horizontal_scroll(page)
    shoot(page, f"export-walk-ready-{language}")
    with page.expect_download() as download:
        page.locator("#export-progress a.button").click()
    assert download.value.suggested_filename == f"{club.slug}-bgstats.json"
    backup = json.loads(open(download.value.path(), "rb").read())
    assert [p["name"] for p in backup["players"]] == ["Uncle Ken", alice.player.name]
    assert len(backup["plays"]) == 2 and sent == [ClubExport.objects.get().token]
