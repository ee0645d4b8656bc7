"""Issue 27 on the pages: Alice previews her club's BG Stats file, merges two names, confirms, and it is in."""

import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.imports import views as import_views
from leagues.models import Player, Result

FIXTURES = Path(__file__).parent / "fixtures" / "imports"


def upload(client, club, name="bgstats.json", kind="bgstats", data=None):
    data = data if data is not None else (FIXTURES / name).read_bytes()
    return client.post(
        reverse("import_start", args=[club.slug]), {"kind": kind, "files": SimpleUploadedFile(name, data)}
    )


def token_of(response) -> str:
    return re.search(r"/import/([^/]+)/$", response["Location"]).group(1)


@pytest.mark.django_db
def test_alice_previews_merges_and_commits(client, club, alice):
    client.force_login(alice)
    response = upload(client, club)
    assert response.status_code == 302
    token = token_of(response)
    preview = client.get(response["Location"])
    page = preview.content.decode()
    assert "40 plays found" in page and "34 new results to import" in page and "Harbour Lanterns" in page
    assert "Masashi" in page and "new guest" in page
    assert Result.objects.count() == 0 and not Player.objects.filter(created_in=club).exists()

    # Masashi is Masa; Teikoku's plays are left out this time
    preview = client.post(
        response["Location"],
        {"merges": "Masashi=Masa", "game:Shitennō": "shitenno", "game:Teikoku": "", "game:Harbour Lanterns": ""},
    )
    page = preview.content.decode()
    assert "Masa, Masashi" in page and "17 new results to import" in page
    assert Result.objects.count() == 0

    done = client.post(reverse("import_commit", args=[club.slug, token]))
    assert done.status_code == 302
    assert "17 results imported" in client.get(done["Location"]).content.decode()
    assert set(Result.objects.filter(club=club).values_list("game", flat=True)) == {"shitenno"}
    assert Player.objects.filter(created_in=club, name="Masashi").count() == 0


@pytest.mark.django_db
def test_a_bad_merge_is_explained_and_the_preview_stays(client, club, alice):
    client.force_login(alice)
    location = upload(client, club)["Location"]
    preview = client.post(location, {"merges": "Nobody=Masa"})
    assert preview.status_code == 400 and "Nobody" in preview.content.decode()
    assert Result.objects.count() == 0


@pytest.mark.django_db
def test_a_broken_file_is_refused_on_the_form(client, club, alice):
    client.force_login(alice)
    response = upload(client, club, data=b'{"plays": [')
    assert response.status_code == 400 and "not valid JSON" in response.content.decode()
    assert Result.objects.count() == 0


@pytest.mark.django_db
def test_only_managers_import(client, club, carol, dave):
    client.force_login(carol)
    assert upload(client, club).status_code == 403
    client.force_login(dave)
    assert upload(client, club).status_code == 404
    assert Result.objects.count() == 0


@pytest.mark.django_db
def test_a_large_import_runs_as_a_job_with_a_progress_bar(client, club, alice, monkeypatch):
    from leagues.imports import tasks as imports_tasks

    queued = []
    monkeypatch.setattr(import_views, "IN_PAGE", 10)
    monkeypatch.setattr(imports_tasks.import_plays_job, "delay", queued.append)
    client.force_login(alice)
    token = token_of(upload(client, club))
    progress = client.post(reverse("import_commit", args=[club.slug, token]))
    assert queued == [token] and Result.objects.count() == 0
    assert "<progress" in client.get(progress["Location"]).content.decode()
    import_views.run_import_job(token)  # what the worker runs
    bar = client.get(progress["Location"], HTTP_HX_REQUEST="true").content.decode()
    assert "34 results imported" in bar and "<progress" not in bar and "hx-trigger" not in bar
    assert Result.objects.filter(club=club).count() == 34


@pytest.mark.django_db
def test_members_download_the_exports_and_outsiders_do_not(client, club, carol, dave):
    cache.clear()
    client.force_login(carol)
    for kind, start in [("bgstats", b"{"), ("bgg", b"<?xml"), ("csv", "\ufeffdate,game".encode())]:
        response = client.get(reverse("club_export", args=[club.slug, kind]))
        assert response.status_code == 200 and b"".join(response.streaming_content).startswith(start), kind
    client.force_login(dave)
    assert client.get(reverse("club_export", args=[club.slug, "bgstats"])).status_code == 404


@pytest.mark.django_db
def test_the_preview_speaks_dutch(client, club, alice):
    client.force_login(alice)
    location = upload(client, club)["Location"]
    page = client.get(location, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "40 partijen gevonden" in page and "nieuwe gast" in page
