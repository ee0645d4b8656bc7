"""Issue 46 finding 6: a large upload is read and planned once for each set of choices, by the preview job on the
heavy queue, not in the web request on every look; the page says it is reading and looks again; the commit takes
its size from the kept preview.

alice manages the club. `IN_PAGE_BYTES` is set below the fixture's size, so the fixture (34 plays) is "large"; the
job is not queued but caught (`queued`) and its body run by the test, as the worker would run it.
"""

import datetime
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from leagues.imports import formats, preview, service
from leagues.imports import views as import_views
from leagues.models import PendingImport, Player, Result

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
READING = "Reading your files"


@pytest.fixture
def queued(monkeypatch):
    """The preview and commit jobs' messages, caught (the broker would carry them to the heavy queue)."""
    from leagues.imports import tasks as imports_tasks

    sent = {"preview": [], "commit": []}
    monkeypatch.setattr(preview, "IN_PAGE_BYTES", 100)
    monkeypatch.setattr(import_views, "IN_PAGE", 10)
    monkeypatch.setattr(imports_tasks.import_preview_job, "delay", sent["preview"].append)
    monkeypatch.setattr(imports_tasks.import_plays_job, "delay", sent["commit"].append)
    return sent


@pytest.fixture
def reads(monkeypatch):
    """How often the upload's files are parsed, wherever it happens."""
    calls = []
    parse = service.parse_bgstats

    def counted(*args, **kwargs):
        calls.append(1)
        return parse(*args, **kwargs)

    monkeypatch.setattr(service, "parse_bgstats", counted)
    return calls


def _upload(client, club, data: bytes | None = None):
    data = (FIXTURES / "bgstats.json").read_bytes() if data is None else data
    response = client.post(
        reverse("import_start", args=[club.slug]), {"kind": "bgstats", "files": SimpleUploadedFile("b.json", data)}
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return re.search(r"/import/([^/]+)/$", response["Location"]).group(1)


@pytest.fixture
def previewed(client, club, alice, queued) -> str:
    """alice's large upload, its preview built by the job (caught and run here): its token."""
    client.force_login(alice)
    token = _upload(client, club)
    preview.preview_build_job(token)
    return token


def _page(client, club, token, **extra):
    return client.get(reverse("import_preview", args=[club.slug, token]), **extra)


def _form(token: str, **changes) -> dict:
    """What the preview's form posts as it shows: every game's match and the league chosen, the merges."""
    pending = PendingImport.objects.get(token=token)
    shown = pending.preview["shown"]
    fields = {
        "choices": "1",
        "merges": "\n".join(shown["merges"]),
        "season_league": "" if shown["league"] is None else str(shown["league"]),
        **{f"game:{name}": slug or "" for name, slug in shown["games"].items()},
    }
    return {**fields, **changes}


def _written() -> tuple:
    return Result.objects.count(), Player.objects.count()


@pytest.mark.django_db
def test_a_large_upload_is_read_by_the_job_once_and_the_page_shows_what_it_kept(client, club, alice, queued, reads):
    client.force_login(alice)
    token = _upload(client, club)
    assert reads == [] and queued["preview"] == [token]  # the upload's request read nothing: the job will
    waiting = _page(client, club, token)
    assert waiting.status_code == 200 and READING in waiting.content.decode() and reads == []
    assert _page(client, club, token, HTTP_HX_REQUEST="true").status_code == 200  # the page's look: still reading
    assert queued["preview"] == [token]  # looking again asks nothing more

    preview.preview_build_job(token)  # the worker
    assert reads == [1]
    assert _page(client, club, token, HTTP_HX_REQUEST="true")["HX-Refresh"] == "true"  # the look: show it now
    for _look in range(3):
        page = _page(client, club, token).content.decode()
        assert "34 new results to import" in page and READING not in page
    assert reads == [1]  # three looks, no parse

    before = _written()
    done = client.post(reverse("import_commit", args=[club.slug, token]), _form(token))
    assert done.status_code == 302 and queued["commit"] == [token] and reads == [1]  # the commit read nothing
    pending = PendingImport.objects.get(token=token)
    assert pending.state == PendingImport.State.RUNNING
    assert pending.choices["seats"] == pending.preview["view"]["seats"] >= 2 * 34  # the job's size, from the preview
    assert _written() == before  # the job writes, not the tap
    import_views.run_import_job(token)
    assert Result.objects.filter(club=club).count() == 34


@pytest.mark.django_db
def test_changed_choices_are_previewed_again_by_the_job(client, club, reads, previewed, queued):
    """`reads` before `previewed`: it counts the first build too."""
    token = previewed
    names = re.findall(r'<span class="name">([^<]+)</span>', _page(client, club, token).content.decode())
    first, second = [name for name in names if "," not in name][-2:]  # two names that are a person each

    # alice merges one name into another and posts "Update": the job is asked for that, the page reads again
    update = client.post(reverse("import_preview", args=[club.slug, token]), _form(token, merges=f"{first}={second}"))
    assert update.status_code == 200 and READING in update.content.decode()
    assert queued["preview"] == [token, token] and reads == [1]
    preview.preview_build_job(token)
    page = _page(client, club, token).content.decode()
    assert (
        f'<span class="name">{first}, {second}</span>' in page or f'<span class="name">{second}, {first}</span>' in page
    )  # one person now, both imported names
    assert PendingImport.objects.get(token=token).choices["merges"] == [f"{first}={second}"]
    assert reads == [1, 1]  # read twice in all: once for each set of choices


@pytest.mark.django_db
def test_a_build_for_choices_no_longer_asked_keeps_nothing(client, club, alice, queued, monkeypatch):
    """The job read the upload for the first choices; meanwhile alice asked for others: its outcome is dropped."""
    client.force_login(alice)
    token = _upload(client, club)
    first = PendingImport.objects.get(token=token).preview["asked"]
    view = preview._view

    def slow_view(club_, pending, choices):  # while the job reads, alice posts other choices
        client.post(
            reverse("import_preview", args=[club.slug, token]), {"choices": "1", "merges": "", "season_league": "0"}
        )
        return view(club_, pending, choices)

    monkeypatch.setattr(preview, "_view", slow_view)
    preview.preview_build_job(token)
    kept = PendingImport.objects.get(token=token).preview
    assert "view" not in kept and kept["asked"] != first  # still asking for the second; the first's build dropped


@pytest.mark.django_db
def test_changed_merges_posted_straight_to_the_commit_are_shown_first_and_nothing_written(
    client, club, previewed, queued
):
    token = previewed
    before = _written()
    answer = client.post(
        reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": "", "season_league": "0"}
    )
    assert answer.status_code == 200 and READING in answer.content.decode()
    assert queued["commit"] == [] and _written() == before
    assert PendingImport.objects.get(token=token).state == PendingImport.State.WAITING
    preview.preview_build_job(token)
    done = client.post(
        reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": "", "season_league": "0"}
    )
    assert done.status_code == 302 and queued["commit"] == [token]


@pytest.mark.django_db
def test_only_the_vouch_changed_needs_no_new_preview(client, club, previewed, queued):
    token = previewed
    done = client.post(reverse("import_commit", args=[club.slug, token]), _form(token, vouch="1"))
    assert done.status_code == 302 and queued["preview"] == [token] and queued["commit"] == [token]
    assert PendingImport.objects.get(token=token).choices["vouch"] is True


@pytest.mark.django_db
def test_a_post_that_names_no_game_commits_the_games_as_the_preview_showed_them(client, club, previewed, queued):
    """An app (or a bench) posting only the merges: the games not named are as shown, and written so."""
    token = previewed
    shown = PendingImport.objects.get(token=token).preview["shown"]
    league = "" if shown["league"] is None else str(shown["league"])
    done = client.post(
        reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": "", "season_league": league}
    )
    assert done.status_code == 302 and queued["preview"] == [token] and queued["commit"] == [token]
    assert PendingImport.objects.get(token=token).choices["games"] == shown["games"]


@pytest.mark.django_db
def test_a_merge_naming_nobody_is_refused_on_the_kept_preview_and_the_commit_writes_nothing(
    client, club, previewed, queued
):
    token = previewed
    client.post(reverse("import_preview", args=[club.slug, token]), {"choices": "1", "merges": "Nobody=Nemo"})
    preview.preview_build_job(token)
    page = _page(client, club, token)
    assert page.status_code == 400 and "Nobody" in page.content.decode()
    before = _written()
    refused = client.post(reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": "Nobody=Nemo"})
    assert refused.status_code == 400 and queued["commit"] == [] and _written() == before
    assert PendingImport.objects.get(token=token).state == PendingImport.State.WAITING


@pytest.mark.django_db
def test_a_large_file_the_job_refuses_is_said_on_the_page_and_nothing_written(client, club, alice, queued):
    client.force_login(alice)
    before = _written()
    token = _upload(client, club, b'{"players": [], "games": [], "plays": "not a list"}' + b" " * 200)
    preview.preview_build_job(token)
    page = _page(client, club, token)
    assert page.status_code == 400 and READING not in page.content.decode()
    assert "Upload other files" in page.content.decode()
    refused = client.post(reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": ""})
    assert refused.status_code == 400 and queued["commit"] == [] and _written() == before


@pytest.mark.django_db
def test_a_lost_preview_job_is_asked_again_by_the_next_look(client, club, alice, queued, settings):
    client.force_login(alice)
    token = _upload(client, club)
    long_ago = timezone.now() - datetime.timedelta(seconds=settings.IMPORT_JOB_TIME_LIMIT + 61)
    pending = PendingImport.objects.get(token=token)
    PendingImport.objects.filter(pk=pending.pk).update(preview={**pending.preview, "asked_at": long_ago.isoformat()})
    assert READING in _page(client, club, token).content.decode()
    assert queued["preview"] == [token, token]  # the upload's, and the look's


@pytest.mark.django_db
def test_the_queue_down_at_upload_is_said_and_the_next_look_asks_again(client, club, alice, queued, monkeypatch):
    from leagues.imports import tasks as imports_tasks

    def down(token):
        raise OSError("Connection refused")

    monkeypatch.setattr(imports_tasks.import_preview_job, "delay", down)
    client.force_login(alice)
    token = _upload(client, club)
    assert PendingImport.objects.get(token=token).preview == {}
    answer = _page(client, club, token)
    assert answer.status_code == 503 and "does not answer" in answer.content.decode()
    monkeypatch.setattr(imports_tasks.import_preview_job, "delay", queued["preview"].append)
    assert READING in _page(client, club, token).content.decode() and queued["preview"] == [token]


@pytest.mark.django_db
def test_a_small_upload_is_still_read_on_the_form_and_refused_there(client, club, alice):
    """At most IN_PAGE_BYTES: a bad file is said on the upload form at once, nothing kept."""
    client.force_login(alice)
    answer = client.post(
        reverse("import_start", args=[club.slug]),
        {"kind": "bgstats", "files": SimpleUploadedFile("b.json", b'{"players": [], "games": [], "plays": 3}')},
    )
    assert answer.status_code == 400 and not PendingImport.objects.exists()
    assert formats.MAX_BYTES > preview.IN_PAGE_BYTES


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_reads_a_large_upload_on_the_heavy_queue(request, client, club, alice, monkeypatch):
    """The real worker on Redis, against PostgreSQL: the preview job runs on the heavy queue and the page then shows
    the preview; committing it writes the plays."""
    from django.conf import settings
    from django.db import connection

    from .test_jobs import wait_for

    if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("the worker runs on Redis and reads the PostgreSQL test database")
    assert settings.CELERY_TASK_ROUTES["leagues.imports.preview_job"] == {"queue": settings.HEAVY_QUEUE}
    request.getfixturevalue("celery_worker_process")
    monkeypatch.setattr(preview, "IN_PAGE_BYTES", 100)
    client.force_login(alice)
    token = _upload(client, club)
    wait_for(lambda: "view" in PendingImport.objects.get(token=token).preview)
    assert "34 new results to import" in _page(client, club, token).content.decode()
    client.post(reverse("import_commit", args=[club.slug, token]), _form(token, vouch="1"))
    assert Result.objects.filter(club=club).count() == 34  # 34 results: written in the page (IN_PAGE is 300)
    # the jobs the import asked for run on the worker too: the teardown empties the database only once they have,
    # or its TRUNCATE deadlocks with their writes (as in test_import_jobs.py)
    from leagues.models import LeagueJob

    wait_for(lambda: not LeagueJob.objects.exists())
