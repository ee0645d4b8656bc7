"""Issue 27: a club brings its BG Stats and BoardGameGeek history in, and takes it out again."""

import datetime
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import given
from hypothesis import strategies as st

from leagues.club import clubs
from leagues.imports.formats import SourceEntry, ranks_of
from leagues.jobs import outbox
from leagues.models import AuditEntry, Membership, Player, Rating, Result, ResultEntry, SignOff
from leagues.result import results

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
BGSTATS = str(FIXTURES / "bgstats.json")
BGG = [str(FIXTURES / f"bgg_page{n}.xml") for n in (1, 2, 3)]


def run(*args) -> dict:
    out = io.StringIO()
    call_command("import_plays", *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def refused(*args) -> str:
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("import_plays", *args, stdout=io.StringIO(), stderr=err)
    assert exit_.value.code == 2
    return err.getvalue()


def written() -> tuple:
    return (
        Result.objects.count(),
        ResultEntry.objects.count(),
        SignOff.objects.count(),
        Player.objects.count(),
        Membership.objects.count(),
    )


def tables(club) -> list:
    """The club's results as plain values, in a stable order."""
    return sorted(
        (
            r.game,
            r.played_on,
            tuple(sorted((e.player.name.casefold(), e.rank, e.seat, e.score, e.score_text) for e in r.entries.all())),
        )
        for r in Result.objects.filter(club=club).prefetch_related("entries__player")
    )


@pytest.mark.django_db
def test_the_preview_counts_the_bgstats_file_and_writes_nothing(club):
    before = written()
    summary = run("--club", club.slug, "--format", "bgstats", "--dry-run", BGSTATS)
    assert summary == {
        "plays": 40,
        "imported": 34,
        "duplicates": 0,
        "skipped": {"other game": 6},
        "games": {"shitenno": 17, "teikoku": 17},
        "players": {"matched": 2, "new_guests": 4},
    }
    assert written() == before


@pytest.mark.django_db
def test_a_merge_makes_two_imported_names_one_guest(club):
    summary = run("--club", club.slug, "--format", "bgstats", "--merge", "Masashi=Masa", BGSTATS)
    assert summary["players"] == {"matched": 2, "new_guests": 3}
    guests = set(Player.objects.filter(created_in=club).values_list("name", flat=True))
    assert guests == {"Hanzo", "Tomoe", "Masa"}


@pytest.mark.django_db
def test_a_merge_naming_nobody_is_refused(club):
    before = written()
    assert "Nobody" in refused("--club", club.slug, "--format", "bgstats", "--merge", "Nobody=Masa", BGSTATS)
    assert written() == before


@pytest.mark.django_db
def test_alice_commits_the_import_and_a_second_run_writes_nothing(club, alice, carol):
    first = run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)
    assert first["imported"] == 34 and first["duplicates"] == 0
    assert Result.objects.filter(club=club, source="bgstats").count() == 34
    after_first = written()
    again = run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)
    assert again == {
        "plays": 40,
        "imported": 0,
        "duplicates": 34,
        "skipped": {"other game": 6},
        "games": {},
        "players": {"matched": 0, "new_guests": 0},
    }
    assert written() == after_first
    assert AuditEntry.objects.filter(action="results.import").count() == 2


@pytest.mark.django_db
def test_ranks_seats_and_a_string_score_come_in_as_the_file_says(club):
    run("--club", club.slug, "--format", "bgstats", BGSTATS)

    def entries(n):
        result = Result.objects.get(external_id=f"0000a000-0000-4000-8000-{n:012d}")
        return {e.player.name: (e.rank, e.seat, e.score, e.score_text) for e in result.entries.all()}

    # the team play: both winners first, the other team tied behind them
    assert entries(5) == {
        "alice": (1, 1, None, ""),
        "carol": (1, 2, None, ""),
        "Hanzo": (3, 3, None, ""),
        "Tomoe": (3, 4, None, ""),
    }
    # Hanzo won with "3+20+5": his text is kept, and the other scores decide nothing beside the winner flag
    assert entries(7)["Hanzo"] == (1, 1, None, "3+20+5")
    assert {rank for rank, *_ in list(entries(7).values())[1:]} == {2}
    # nobody won and nobody scored: everyone ties
    assert {rank for rank, *_ in entries(9).values()} == {1}
    # ranks given, with a tie for first
    assert sorted(rank for rank, *_ in entries(11).values()) == [1, 1, 3, 4]


@pytest.mark.django_db
def test_imported_results_are_signed_by_the_importer_alone(club, alice, carol):
    """Alice answers for herself and the guests she brings in; Carol has an account and signs her own games.
    So a game with Carol waits for her, and no imported result is signed by two accounts (issue 27 / h1's rule:
    only such a result reaches the site-wide rankings)."""
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)
    assert set(SignOff.objects.values_list("by__username", flat=True)) == {"alice"}
    with_carol = Result.objects.filter(club=club, entries__player__user=carol)
    assert with_carol.exists()
    assert set(with_carol.values_list("status", flat=True)) == {Result.Status.PENDING}
    without_carol = Result.objects.filter(club=club).exclude(pk__in=with_carol.values("pk"))
    assert set(without_carol.values_list("status", flat=True)) == {Result.Status.COUNTED}


@pytest.mark.django_db
def test_an_import_into_a_public_club_never_moves_the_public_rankings(club, alice, carol):
    """Even once carol signs her imported games too (two accounts), an imported play stays out of the site-wide
    game ratings: it counts in the club only (issue 27, docs/security.md)."""
    club.members_public = True
    club.save()
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)
    for result in Result.objects.filter(club=club, entries__player__user=carol, status=Result.Status.PENDING):
        results.result_sign_off(result=result, user=carol)
    outbox.sweep(older_than=0)
    counted = Result.objects.filter(club=club, status=Result.Status.COUNTED)
    assert counted.filter(entries__player__user=carol).exists()
    assert not counted.filter(ranked_publicly=True).exists()
    assert not Rating.objects.filter(kind="game").exists()


@pytest.mark.django_db
def test_an_outsider_cannot_import_into_the_club(club, dave):
    before = written()
    assert "owners and admins" in refused("--club", club.slug, "--format", "bgstats", "--as", "dave", BGSTATS)
    assert written() == before


@pytest.mark.django_db
def test_bgg_pages_with_a_quantity_and_an_incomplete_play(club):
    summary = run("--club", club.slug, "--format", "bgg", *BGG)
    assert summary == {
        "plays": 11,
        "imported": 9,
        "duplicates": 0,
        "skipped": {"incomplete": 1, "other game": 1},
        "games": {"shitenno": 5, "teikoku": 4},
        "players": {"matched": 2, "new_guests": 2},
    }
    assert set(Result.objects.filter(external_id__startswith="2006").values_list("external_id", flat=True)) == {
        "2006#1",
        "2006#2",
    }
    assert not Result.objects.filter(external_id__in=["2009", "2010"]).exists()
    # an overlapping later export (pages 2 and 3 again) writes nothing twice
    again = run("--club", club.slug, "--format", "bgg", *BGG[1:])
    assert again["imported"] == 0 and again["duplicates"] == 5
    assert Result.objects.filter(club=club).count() == 9


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["bgstats", "bgg"])
def test_a_round_trip_gives_the_same_results(club, alice, dave, tmp_path, kind):
    files = [BGSTATS] if kind == "bgstats" else BGG
    run("--club", club.slug, "--format", kind, *files)
    out = tmp_path / f"export.{kind}"
    call_command("export_plays", "--club", club.slug, "--format", kind, "--out", str(out))
    elsewhere = clubs.club_create(name="Nagoya Table", owner=dave)
    summary = run("--club", elsewhere.slug, "--format", kind, str(out))
    assert summary["imported"] == Result.objects.filter(club=club).count()
    assert tables(elsewhere) == tables(club)


def _bad(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


BAD_BGSTATS = {
    "wrong format": (b'<?xml version="1.0"?><plays/>', "looks like XML"),
    "truncated": (Path(BGSTATS).read_bytes()[:5000], "ends early"),
    "NUL": (b'{"plays": []\x00}', "NUL byte at byte 12"),
    "date out of range": (
        Path(BGSTATS).read_bytes().replace(b'"2024-02-02 19:30:00"', b'"3024-02-02 19:30:00"'),
        "3024-02-02 is out of range",
    ),
    "unknown game": (
        Path(BGSTATS).read_bytes().replace(b'"gameRefId": 2', b'"gameRefId": 99', 1),
        "gameRefId 99 is not in the file's games",
    ),
    "unknown player": (
        Path(BGSTATS).read_bytes().replace(b'"playerRefId": 4', b'"playerRefId": 44', 1),
        "playerRefId 44 is not in the file's players",
    ),
    "deep array": (b'{"plays": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
    "not an export": (b'{"games": []}', "not a BG Stats export"),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(BAD_BGSTATS))
def test_bad_bgstats_input_is_refused_with_nothing_written(club, tmp_path, case):
    data, message = BAD_BGSTATS[case]
    before = written()
    error = refused("--club", club.slug, "--format", "bgstats", _bad(tmp_path, "backup.json", data))
    assert message in error and "backup.json" in error
    assert written() == before


@pytest.mark.django_db
def test_a_100_mb_file_is_refused_unread(club, tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(100 * 1024 * 1024)
    before = written()
    assert "100 MB" in refused("--club", club.slug, "--format", "bgstats", str(path))
    assert written() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data,message",
    [
        (b'{"plays": []}', "looks like JSON"),
        (Path(BGG[0]).read_bytes()[:700], "not valid XML at line"),
        (b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY a "aaaa">]><plays>&a;</plays>', "refused for safety"),
        (b"<items/>", "top element is <items>"),
        (Path(BGG[0]).read_bytes().replace(b'date="2025-02-01"', b'date="1066-10-14"'), "1066-10-14 is out of range"),
    ],
)
def test_bad_bgg_input_is_refused_with_nothing_written(club, tmp_path, data, message):
    before = written()
    error = refused("--club", club.slug, "--format", "bgg", BGG[1], _bad(tmp_path, "page.xml", data))
    assert message in error and "page.xml" in error
    assert written() == before


@given(
    st.lists(
        st.tuples(st.booleans(), st.one_of(st.just(""), st.integers(-50, 50).map(str), st.just("3+4"))),
        min_size=2,
        max_size=6,
    ),
    st.booleans(),
)
def test_winners_finish_first_and_ranks_stay_in_range(rows, highest_wins):
    entries = [SourceEntry(player=str(i), winner=won, score_text=score) for i, (won, score) in enumerate(rows)]
    ranks = ranks_of(entries, highest_wins)
    assert min(ranks) == 1 and max(ranks) <= len(ranks)
    if any(won for won, _ in rows):
        assert all(rank == 1 for rank, (won, _) in zip(ranks, rows, strict=True) if won)


def test_a_date_today_is_in_range():
    from leagues.imports.formats import _date

    assert _date("2025-01-01 10:00:00", "x", datetime.date(2025, 1, 1)) == datetime.date(2025, 1, 1)
