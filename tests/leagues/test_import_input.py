"""Issues 34 and 36: an import's odd text is refused with its place, its limits count what it writes, and what it
stores the API shows."""

import io
import json
import re
import threading
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.imports import formats
from leagues.imports import views as import_views
from leagues.imports.formats import _competition
from leagues.jobs import outbox
from leagues.models import Club, Membership, PendingImport, Player, Result, ResultEntry, SignOff

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
BGSTATS = json.loads((FIXTURES / "bgstats.json").read_text())
BGG_PAGE = (FIXTURES / "bgg_page1.xml").read_bytes()


def written() -> tuple:
    return (
        Result.objects.count(),
        ResultEntry.objects.count(),
        SignOff.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
        PendingImport.objects.count(),
    )


def bgstats_with(change) -> bytes:
    data = json.loads(json.dumps(BGSTATS))
    change(data)
    return json.dumps(data).encode()  # ensure_ascii: a NUL or a lone surrogate goes in escaped, "\u0000"


def refused(tmp_path, data: bytes, kind: str = "bgstats", name: str = "file.json") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "import_plays", "--club", "edo-gamers", "--format", kind, str(path), stdout=io.StringIO(), stderr=err
        )
    assert exit_.value.code == 2
    return err.getvalue()


def _name(n, text):
    def change(data):
        data["players"][n]["name"] = text

    return change


def _score(text):
    def change(data):
        data["plays"][0]["playerScores"][1]["score"] = text

    return change


def _game_name(text):
    def change(data):
        data["games"][0]["name"] = text

    return change


ODD = [
    (_name(2, "Han\u0000zo"), "players[2].name", "NUL"),
    (_name(2, "Han\ud800zo"), "players[2].name", "surrogate"),
    (_name(2, "\u202eoznaH"), "players[2].name", "direction"),
    (_name(2, "Hanzo\u0007"), "players[2].name", "control"),
    (_score("4\ud800"), "plays[0] (0000a000-0000-4000-8000-000000000001).playerScores[1].score", "surrogate"),
    (_score("4\u0000"), "plays[0] (0000a000-0000-4000-8000-000000000001).playerScores[1].score", "NUL"),
    (_game_name("Shiten\u0000nō"), "games[0].name", "NUL"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "place", "what"), ODD)
def test_odd_text_is_refused_by_the_command_with_its_place(club, tmp_path, change, place, what):
    before = written()
    message = refused(tmp_path, bgstats_with(change))
    assert place in message and what in message
    assert written() == before


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "place", "what"), ODD[:2])
def test_odd_text_is_refused_on_the_page_in_the_readers_language(client, club, alice, change, place, what):
    client.force_login(alice)
    before = written()
    response = client.post(
        reverse("import_start", args=[club.slug]),
        {"kind": "bgstats", "files": SimpleUploadedFile("b.json", bgstats_with(change))},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    page = response.content.decode()
    assert response.status_code == 400 and place in page
    assert "NUL-teken" in page or "losse UTF-16-surrogaat" in page
    assert written() == before


@pytest.mark.django_db
def test_a_right_to_left_override_in_a_bgg_name_is_refused(club, tmp_path):
    before = written()
    message = refused(tmp_path, BGG_PAGE.replace(b'name="Hanzo"', 'name="\u202eHanzo"'.encode()), "bgg", "p.xml")
    assert "play 1 (id 2001) player 3 name" in message and "direction" in message
    assert written() == before


@pytest.mark.django_db
def test_a_huge_bgg_id_the_site_does_not_use_is_no_reason_to_refuse(club, tmp_path):
    def change(data):
        data["games"][0]["bggId"] = 10**30

    path = tmp_path / "b.json"
    path.write_bytes(bgstats_with(change))
    out = io.StringIO()
    call_command("import_plays", "--club", club.slug, "--format", "bgstats", str(path), stdout=out)
    assert json.loads(out.getvalue())["imported"] == 34


@pytest.mark.django_db
def test_a_play_of_too_many_players_is_refused_with_its_place(club, tmp_path):
    def change(data):
        data["players"] += [{"id": 100 + i, "uuid": f"wide-{i}", "name": f"Wide {i}"} for i in range(101)]
        data["plays"][3]["playerScores"] = [{"playerRefId": 100 + i, "score": "1"} for i in range(101)]

    before = written()
    message = refused(tmp_path, bgstats_with(change))
    assert "plays[3]" in message and "101 players at one play; at most 100" in message
    assert written() == before


@pytest.mark.django_db
def test_an_import_past_the_results_limit_is_refused(club, tmp_path, monkeypatch):
    """Counted in results: a play of quantity 10 is 10."""
    monkeypatch.setattr(formats, "MAX_RESULTS", 20)
    before = written()
    message = refused(tmp_path, BGG_PAGE.replace(b'quantity="1"', b'quantity="10"'), "bgg", "p.xml")
    assert "at most 20 an import" in message
    assert written() == before


@pytest.mark.django_db
def test_an_import_past_the_players_places_limit_is_refused(club, tmp_path, monkeypatch):
    """Its job's time follows the players' places it writes: a play of quantity 10 with 4 players is 40."""
    monkeypatch.setattr(formats, "MAX_SEATS", 10)
    before = written()
    message = refused(tmp_path, BGG_PAGE.replace(b'quantity="1"', b'quantity="10"'), "bgg", "p.xml")
    assert "players' places over all their plays; at most 10 an import" in message
    assert written() == before


@pytest.mark.django_db
def test_the_in_page_limit_counts_results_not_plays(client, club, alice, monkeypatch):
    """Four plays of quantity 100 are 400 results: more than the page writes while it waits, so a job."""
    from leagues.imports import tasks as imports_tasks

    queued = []
    monkeypatch.setattr(imports_tasks.import_plays_job, "delay", queued.append)
    client.force_login(alice)
    data = BGG_PAGE.replace(b'quantity="1"', b'quantity="100"')
    response = client.post(
        reverse("import_start", args=[club.slug]), {"kind": "bgg", "files": SimpleUploadedFile("p.xml", data)}
    )
    token = re.search(r"/import/([^/]+)/$", response["Location"]).group(1)
    client.post(reverse("import_commit", args=[club.slug, token]))
    assert queued == [token] and Result.objects.count() == 0
    assert len(re.findall(rb"<play ", data)) == 4 < import_views.IN_PAGE < 400


@pytest.mark.django_db
def test_a_nul_typed_in_the_merges_is_refused_and_nothing_kept(client, club, alice):
    client.force_login(alice)
    response = client.post(
        reverse("import_start", args=[club.slug]),
        {"kind": "bgstats", "files": SimpleUploadedFile("b.json", (FIXTURES / "bgstats.json").read_bytes())},
    )
    token = re.search(r"/import/([^/]+)/$", response["Location"]).group(1)
    for url in ("import_preview", "import_commit"):
        answer = client.post(reverse(url, args=[club.slug, token]), {"choices": "1", "merges": "Masa\u0000=Hanzo"})
        assert answer.status_code == 400 and "NUL" in answer.content.decode()
    pending = PendingImport.objects.get(token=token)
    assert pending.choices == {} and pending.state == PendingImport.State.WAITING and Result.objects.count() == 0


def test_ranks_of_a_wide_play_are_competition_ranks():
    """One more than the number of players ahead, for a play of any width (sorted once, not counted per
    player)."""
    small = [5, 1, 1, 3, 5, 0]
    assert _competition(small) == [1 + sum(other < key for other in small) for key in small] == [5, 2, 2, 4, 5, 1]
    assert _competition(small * 3000)[:6] == [12001, 3001, 3001, 9001, 12001, 1]


@pytest.mark.django_db
def test_the_result_api_shows_each_entrys_seat_and_score_text(client, club, alice):
    call_command(
        "import_plays", "--club", club.slug, "--format", "bgstats", str(FIXTURES / "bgstats.json"), stdout=io.StringIO()
    )
    result = Result.objects.get(external_id="0000a000-0000-4000-8000-000000000007")
    client.force_login(alice)
    entries = client.get(reverse("api-result", args=[result.pk])).json()["entries"]
    hanzo = next(e for e in entries if e["player"]["name"] == "Hanzo")
    assert (hanzo["seat"], hanzo["score_text"], hanzo["score"]) == (1, "3+20+5", None)
    assert all(set(e) >= {"seat", "score_text"} for e in entries)


@pytest.mark.django_db(transaction=True)
def test_an_import_does_not_hold_the_clubs_row(club, alice, monkeypatch):
    """While an import commits, another transaction locks the club's row at once (issue 36: "leave early"
    deadlocked an import that held it for its whole commit)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks and lock_timeout are PostgreSQL's")
    # The import's jobs stay outbox rows: a real worker left running by an earlier job test would take their hint
    # and write to this database while the test's teardown empties it (TRUNCATE then fails on its locks).
    monkeypatch.setattr(outbox, "_flush_hints", lambda: None)
    from leagues.imports.service import import_commit, read_files

    source = read_files("bgstats", [("b.json", (FIXTURES / "bgstats.json").read_bytes())])
    inside, go_on, outcome = threading.Event(), threading.Event(), {}

    def importing():
        try:

            def step(done, total):
                inside.set()
                go_on.wait(30)

            outcome["summary"] = import_commit(club=club, user=alice, source=source, progress=step)
        finally:
            connections.close_all()

    worker = threading.Thread(target=importing)
    worker.start()
    try:
        assert inside.wait(30)  # the import's transaction is open, its results half written
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '2s'")
            locked = Club.objects.select_for_update(of=("self",)).get(pk=club.pk)
            assert locked.pk == club.pk  # a leave-early's lock: not stuck behind the import
    finally:
        go_on.set()
        worker.join()
    assert outcome["summary"]["imported"] == 34


@pytest.mark.django_db
def test_a_broken_file_is_refused_in_dutch(client, club, alice):
    client.force_login(alice)
    before = written()
    response = client.post(
        reverse("import_start", args=[club.slug]),
        {"kind": "bgstats", "files": SimpleUploadedFile("b.json", b'{"plays": [')},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    page = response.content.decode()
    assert response.status_code == 400 and "b.json: geen geldige JSON op regel 1" in page and "afgekapt" in page
    assert written() == before


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=st.characters(exclude_categories=()), max_size=12),
    field=st.sampled_from(["player name", "score", "game name", "team", "uuid"]),
)
def test_any_text_in_any_field_is_read_or_refused_never_crashes(text, field):
    """Random Unicode, lone surrogates and NUL included (JSON-escaped, as json.dumps writes them): the reader
    either takes the file, with text the site's rule accepts, or refuses it with its place (issue 36)."""
    from shitenno_site.validation import text_problem

    def change(data):
        if field == "player name":
            data["players"][2]["name"] = text
        elif field == "game name":
            data["games"][0]["name"] = text
        elif field == "uuid":
            data["plays"][0]["uuid"] = text
        else:
            data["plays"][0]["playerScores"][1]["score" if field == "score" else "team"] = text

    try:
        source = formats.parse_bgstats(bgstats_with(change), "b.json")
    except formats.ImportRefused as refused:
        assert str(refused).startswith("b.json: ")
        return
    assert all(text_problem(p.name) is None for p in source.players.values())
    assert all(
        text_problem(e.score_text) is None and text_problem(e.team) is None
        for play in source.plays
        for e in play.entries
    )
