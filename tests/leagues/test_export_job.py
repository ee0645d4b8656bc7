"""Issue 46 finding 6: a large club's export is made by a job on the heavy queue and downloaded, not streamed by a
web worker for as long as the club's history takes to read (7-11 s for 100,000 entries, asked by any member).

alice owns Edo Gamers and carol is a member; dave is not. `IN_PAGE_ENTRIES` is set below the fixture's four
entries, so the club is "large"; the job's message is caught (`queued`) and its body run by the test as the worker
would run it, except in the last test, where the real worker does.
"""

import datetime
import gzip

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.imports import export, export_job
from leagues.models import ClubExport

from .test_exports import kenji, two_results  # noqa: F401 (the fixtures: two results, four entries)


@pytest.fixture
def queued(monkeypatch):
    """The export job's messages, caught (the broker would carry them to the heavy queue)."""
    from leagues.imports import tasks as imports_tasks

    sent: list[str] = []
    monkeypatch.setattr(export_job, "IN_PAGE_ENTRIES", 3)
    monkeypatch.setattr(imports_tasks.club_export_job, "delay", sent.append)
    return sent


def _ask(client, club, kind="bgstats"):
    return client.post(reverse("club_export", args=[club.slug, kind]))


def _token(response) -> str:
    assert response.status_code == 302, response.content.decode()[:300]
    return response["Location"].rstrip("/").rsplit("/", 1)[1]


@pytest.mark.django_db
def test_a_large_club_gets_a_page_that_asks_for_the_file_and_nothing_is_made_by_looking(
    client, club, carol, two_results, queued
):  # noqa: F811
    client.force_login(carol)
    page = client.get(reverse("club_export", args=[club.slug, "bgstats"]))
    assert page.status_code == 200 and not page.streaming
    assert "Make the file" in page.content.decode()
    assert not ClubExport.objects.exists() and queued == []


@pytest.mark.django_db
def test_the_job_makes_the_file_once_and_any_member_downloads_the_same_bytes(
    client, club, alice, carol, two_results, queued
):  # noqa: F811
    client.force_login(carol)
    token = _token(_ask(client, club))
    assert queued == [token]
    waiting = client.get(reverse("export_progress", args=[club.slug, token]))
    assert "Making the file" in waiting.content.decode()
    assert client.get(reverse("export_download", args=[club.slug, token])).status_code == 404  # not ready yet

    export_job.export_build(token)  # what the worker runs
    ready = client.get(reverse("export_progress", args=[club.slug, token]))
    assert "The file is ready" in ready.content.decode() and "data-hx-get" not in ready.content.decode()
    expected = export.export_bgstats(club)

    client.force_login(alice)  # another member: the same file
    packed = client.get(reverse("export_download", args=[club.slug, token]), headers={"accept-encoding": "gzip"})
    assert packed.status_code == 200 and packed["Content-Encoding"] == "gzip"
    assert packed["Content-Disposition"] == f'attachment; filename="{club.slug}-bgstats.json"'
    assert gzip.decompress(packed.content) == expected
    plain = client.get(reverse("export_download", args=[club.slug, token]), headers={"accept-encoding": "identity"})
    assert plain.status_code == 200 and not plain.has_header("Content-Encoding")
    assert b"".join(plain.streaming_content) == expected
    assert ClubExport.objects.get(token=token).size == len(expected)


@pytest.mark.django_db
def test_asking_again_reuses_the_file_until_a_result_changes(client, club, carol, alice, two_results, queued):  # noqa: F811
    first, _second = two_results
    client.force_login(carol)
    token = _token(_ask(client, club))
    export_job.export_build(token)
    client.force_login(alice)
    assert _token(_ask(client, club)) == token and queued == [token]  # unchanged: the same file, no new job

    first.played_on = datetime.date(2026, 11, 6)
    first.save()  # an edit of one of the club's results
    again = _token(_ask(client, club))
    assert again != token and queued == [token, again]
    assert _token(_ask(client, club, "csv")) not in (token, again)  # another kind is another file


@pytest.mark.django_db
def test_a_second_ask_joins_the_build_under_way(client, club, carol, alice, two_results, queued):  # noqa: F811
    client.force_login(carol)
    token = _token(_ask(client, club))
    client.force_login(alice)
    assert _token(_ask(client, club)) == token
    assert queued == [token] and ClubExport.objects.count() == 1


@pytest.mark.django_db
def test_outsiders_see_nothing_and_make_nothing(client, club, dave, carol, two_results, queued):  # noqa: F811
    client.force_login(carol)
    token = _token(_ask(client, club))
    export_job.export_build(token)
    client.force_login(dave)
    for response in (
        client.get(reverse("club_export", args=[club.slug, "bgstats"])),
        _ask(client, club, "csv"),
        client.get(reverse("export_progress", args=[club.slug, token])),
        client.get(reverse("export_download", args=[club.slug, token])),
    ):
        assert response.status_code == 404
    assert ClubExport.objects.count() == 1 and queued == [token]
    client.logout()
    assert client.get(reverse("export_download", args=[club.slug, token])).status_code == 302  # to the log-in page


@pytest.mark.django_db
def test_a_queue_that_does_not_answer_keeps_nothing(client, club, carol, two_results, monkeypatch):  # noqa: F811
    from leagues.imports import tasks as imports_tasks

    def down(token):
        raise ConnectionError("broker down")

    monkeypatch.setattr(export_job, "IN_PAGE_ENTRIES", 3)
    monkeypatch.setattr(imports_tasks.club_export_job, "delay", down)
    client.force_login(carol)
    response = _ask(client, club)
    assert response.status_code == 503 and "job queue does not answer" in response.content.decode()
    assert not ClubExport.objects.exists()


@pytest.mark.django_db
def test_a_failed_build_says_so_and_offers_another_try(client, club, carol, two_results, queued, monkeypatch):  # noqa: F811
    def broken(club):
        yield b"{"
        raise RuntimeError("disk on fire")

    client.force_login(carol)
    token = _token(_ask(client, club))
    monkeypatch.setitem(export_job.KINDS, "bgstats", (broken, "application/json", "bgstats.json"))
    export_job.export_build(token)
    made = ClubExport.objects.get(token=token)
    assert made.state == ClubExport.State.FAILED and bytes(made.data) == b""
    page = client.get(reverse("export_progress", args=[club.slug, token])).content.decode()
    assert "could not be made" in page and "Try again" in page
    assert client.get(reverse("export_download", args=[club.slug, token])).status_code == 404
    assert _token(_ask(client, club)) != token  # a failed file is not reused


@pytest.mark.django_db
def test_a_build_delivered_twice_is_made_once(club, carol, two_results, queued, django_assert_max_num_queries):  # noqa: F811
    made, queue = export_job.export_ask(club, carol, "csv")
    assert queue
    export_job.export_build(made.token)
    finished = ClubExport.objects.get(pk=made.pk).finished_at
    with django_assert_max_num_queries(3):
        export_job.export_build(made.token)  # the second delivery finds it made
    assert ClubExport.objects.get(pk=made.pk).finished_at == finished


@pytest.mark.django_db
def test_the_beat_asks_again_for_a_lost_build_and_deletes_expired_files(club, carol, two_results, monkeypatch):  # noqa: F811
    from leagues.imports import tasks as imports_tasks

    sent: list[str] = []
    monkeypatch.setattr(imports_tasks.club_export_job, "delay", sent.append)
    lost, _queue = export_job.export_ask(club, carol, "bgg")
    fresh, _queue = export_job.export_ask(club, carol, "csv")
    ClubExport.objects.filter(pk=lost.pk).update(created_at=timezone.now() - datetime.timedelta(minutes=3))
    done, _queue = export_job.export_ask(club, carol, "bgstats")
    export_job.export_build(done.token)
    ClubExport.objects.filter(pk=done.pk).update(expires_at=timezone.now() - datetime.timedelta(seconds=1))

    imports_tasks.imports_expire()
    assert sent == [lost.token]  # the fresh one is left to its worker
    assert set(ClubExport.objects.values_list("pk", flat=True)) == {lost.pk, fresh.pk}  # the expired file is gone
    imports_tasks.imports_expire()
    assert sent == [lost.token]  # its clock was reset: not asked twice in a row


@pytest.mark.django_db
def test_a_small_club_is_still_streamed_while_the_page_waits(client, club, carol, two_results):  # noqa: F811
    client.force_login(carol)
    response = client.get(reverse("club_export", args=[club.slug, "csv"]))
    assert response.status_code == 200 and response.streaming
    assert not ClubExport.objects.exists()


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_worker_makes_the_file_on_the_heavy_queue(request, client, club, carol, two_results, monkeypatch):  # noqa: F811
    """The real worker on Redis, against PostgreSQL."""
    from django.conf import settings
    from django.db import connection

    from .test_jobs import wait_for

    if connection.vendor != "postgresql" or settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("the worker runs on Redis and reads the PostgreSQL test database")
    assert settings.CELERY_TASK_ROUTES["leagues.imports.export_job"] == {"queue": settings.HEAVY_QUEUE}
    request.getfixturevalue("celery_worker_process")
    monkeypatch.setattr(export_job, "IN_PAGE_ENTRIES", 3)
    client.force_login(carol)
    token = _token(_ask(client, club, "bgg"))
    wait_for(lambda: ClubExport.objects.get(token=token).state == ClubExport.State.READY)
    packed = client.get(reverse("export_download", args=[club.slug, token]), headers={"accept-encoding": "gzip"})
    assert gzip.decompress(packed.content) == export.export_bgg(club)


@pytest.mark.parametrize("language", ["en", "nl"])
@pytest.mark.django_db
def test_the_page_that_asks_for_the_file_is_valid_html(
    client,
    club,
    carol,
    two_results,
    queued,
    tmp_path,  # noqa: F811
    language,
):
    """The one export page tests/every_page.py cannot list (it shows only for a large club)."""
    import shutil

    from tests.site.test_html_valid import VNU, checked

    if not VNU.exists() or shutil.which("java") is None:
        pytest.skip("the Nu Html Checker needs vnu-jar (`npm ci`) and Java")
    client.force_login(carol)
    page = client.get(reverse("club_export", args=[club.slug, "bgg"]), headers={"accept-language": language})
    wording = "Make the file" if language == "en" else "Maak het bestand"
    assert page.status_code == 200 and wording in page.content.decode()
    (tmp_path / "ask.html").write_bytes(page.content)
    assert checked([tmp_path / "ask.html"]) == []
