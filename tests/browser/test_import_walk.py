"""A new organiser's import, walked on a 360 px phone in English and in Dutch (the walk's findings of issue 36):
plays on three days of March 2023, in a league whose first season starts in September, are offered the season
"2023" from 1 January to 31 August (not 3 to 6 March); "I vouch for these plays" waits for her to tick it, and
without it Carol's plays wait for her sign-off; Carol's waiting page says the season each will count in."""

import datetime
import json

import pytest
from playwright.sync_api import expect

from leagues.club import clubs, seasons
from leagues.models import Result, Season

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAYS = {
    "en": {
        "offer": "3 plays go to a new season 2023 of Dinsdag (1 Jan 2023 to 31 Aug 2023)",
        "waits": "counts in 2023 of Dinsdag",
    },
    "nl": {
        "offer": "3 partijen gaan naar een nieuw seizoen 2023 van Dinsdag (1 Jan 2023 tot 31 Aug 2023)",
        "waits": "telt mee in 2023 van Dinsdag",
    },
}


def _march_2023() -> bytes:
    """Three plays of Shitennō, Kiku (Carol's BGG name) against Hanzo, a guest the import adds."""
    players = [
        {"id": 1, "uuid": "p-1", "name": "Kiku", "bggUsername": "carol"},
        {"id": 2, "uuid": "p-2", "name": "Hanzo", "bggUsername": ""},
    ]
    return json.dumps(
        {
            "players": players,
            "games": [{"id": 1, "name": "Shitennō", "bggId": 0, "highestWins": True}],
            "plays": [
                {
                    "uuid": f"play-{day}",
                    "playDate": f"2023-03-0{day} 20:00:00",
                    "gameRefId": 1,
                    "playerScores": [
                        {"playerRefId": p, "score": str(50 - p), "rank": p, "seatOrder": p, "winner": p == 1}
                        for p in (1, 2)
                    ],
                }
                for day in (3, 4, 6)
            ],
        }
    ).encode()


def _club_and_upload(alice, carol, tmp_path):
    """alice's club with carol in it, its league "Dinsdag" whose first season starts in September 2023, and the
    file of March 2023's three plays."""
    club = clubs.club_create(name="Edo Gamers", owner=alice)
    clubs.club_join(token=club.invite_token, user=carol)
    league = seasons.league_create(club=club, name="Dinsdag", games=["shitenno"], user=alice)
    seasons.season_create(
        league=league,
        name="2023-2024",
        starts_on=datetime.date(2023, 9, 1),
        ends_on=datetime.date(2024, 6, 30),
        user=alice,
    )
    upload = tmp_path / "bgstats.json"
    upload.write_bytes(_march_2023())
    return club, upload


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_new_organiser_imports_a_sparse_year_without_vouching(phone, alice, carol, language, tmp_path, shoot):
    club, upload = _club_and_upload(alice, carol, tmp_path)
    says = SAYS[language]

    page = phone(alice)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/clubs/{club.slug}/import/")
    page.locator("select[name=kind]").select_option("bgstats")
    page.locator("input[type=file]").set_input_files(str(upload))
    page.locator("form button.primary").click()
    expect(page.locator(".import-seasons")).to_contain_text(says["offer"])
    expect(page.locator("#vouch")).not_to_be_checked()
    no_horizontal_scroll(page)
    shoot(page, f"import-walk-preview-{language}")
    page.locator("#import-commit").click()
    expect(page.locator("#import-progress [role=status]")).to_contain_text("3")
    made = Season.objects.get(league__club=club, league__name="Dinsdag", name="2023")
    assert (made.starts_on, made.ends_on) == (datetime.date(2023, 1, 1), datetime.date(2023, 8, 31))
    assert set(Result.objects.filter(club=club).values_list("status", "season__name")) == {
        (Result.Status.PENDING, "2023")
    }  # not vouched: they wait for Carol

    page = phone(carol)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto("/results/waiting/")
    waiting = page.locator(".sign-offs li")
    expect(waiting).to_have_count(3)
    for n in range(3):
        expect(waiting.nth(n)).to_contain_text(says["waits"])
    no_horizontal_scroll(page)
    shoot(page, f"import-walk-waiting-{language}")


READING = {"en": "Reading your files", "nl": "Je bestanden worden gelezen"}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_large_upload_says_it_is_being_read_and_shows_its_preview_when_the_job_has_kept_it(
    phone, alice, carol, language, tmp_path, monkeypatch, shoot
):
    """Issue 46: past IN_PAGE_BYTES the preview job reads the files (caught here and run by the test, as the heavy
    queue's worker would); the page says so at 360 px and, polling, turns into the preview by itself."""
    from leagues.imports import preview
    from leagues.imports import tasks as imports_tasks

    queued = []
    monkeypatch.setattr(preview, "IN_PAGE_BYTES", 100)
    monkeypatch.setattr(imports_tasks.import_preview_job, "delay", queued.append)
    club, upload = _club_and_upload(alice, carol, tmp_path)

    page = phone(alice)
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(f"/clubs/{club.slug}/import/")
    page.locator("select[name=kind]").select_option("bgstats")
    page.locator("input[type=file]").set_input_files(str(upload))
    page.locator("form button.primary").click()
    expect(page.locator("#import-reading [role=status]")).to_contain_text(READING[language])
    no_horizontal_scroll(page)
    shoot(page, f"import-walk-reading-{language}")
    assert len(queued) == 1 and not Result.objects.exists()
    preview.preview_build_job(queued[0])  # the worker
    expect(page.locator(".import-seasons")).to_contain_text(SAYS[language]["offer"], timeout=15_000)
    no_horizontal_scroll(page)
    page.locator("#vouch").check()
    page.locator("#import-commit").click()
    expect(page.locator("#import-progress [role=status]")).to_contain_text("3")
    assert Result.objects.filter(club=club).count() == 3 and len(queued) == 1  # the commit needed no new preview
