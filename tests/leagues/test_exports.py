"""A club's exports (CSV, BG Stats, BGG) as a member downloads them: every result, rank, seat and score as before,
under the names people are shown by, never their log-in usernames (issue 47, finding 7); streamed as read from a
fixed number of queries however many entries the club has (issue 46, finding 6); the CSV with a byte-order mark
for Excel and whole scores without ".0"."""

import csv
import datetime
import io
import json
import uuid
from xml.etree import ElementTree

import pytest
from django.urls import reverse

from leagues.club import clubs
from leagues.models import Player, Result, ResultEntry
from leagues.people import players

LOGIN = "k.sato.login"  # Kenji's log-in username: no other member may see it


@pytest.fixture
def kenji(club):
    user = players.user_sign_up(
        username=LOGIN, email="kenji@example.org", password="a password 47", display_name="Kenji Sato"
    )
    clubs.club_join(token=club.invite_token, user=user)
    return user


@pytest.fixture
def two_results(club, kenji):
    """Kenji wins the first (20 to 7.5, he starts); the guest Uncle Ken wins the second (3, Kenji unscored)."""
    ken = Player.objects.create(name="Uncle Ken")
    first = Result.objects.create(
        game="shitenno", played_on=datetime.date(2026, 11, 5), club=club, status=Result.Status.COUNTED
    )
    second = Result.objects.create(game="shitenno", played_on=datetime.date(2026, 11, 12), club=club)
    ResultEntry.objects.bulk_create(
        [
            ResultEntry(result=first, player=kenji.player, rank=1, score=20.0, seat=1),
            ResultEntry(result=first, player=ken, rank=2, score=7.5, seat=2),
            ResultEntry(result=second, player=ken, rank=1, score=3.0),
            ResultEntry(result=second, player=kenji.player, rank=2),
        ]
    )
    return first, second


def download(client, club, kind) -> bytes:
    response = client.get(reverse("club_export", args=[club.slug, kind]))
    assert response.status_code == 200 and response.streaming, kind
    return b"".join(response.streaming_content)


@pytest.mark.django_db
def test_the_csv_has_a_bom_whole_scores_and_display_names(client, club, carol, two_results):
    first, second = two_results
    client.force_login(carol)
    data = download(client, club, "csv")
    assert data.startswith("\ufeff".encode()) and LOGIN.encode() not in data
    rows = list(csv.reader(io.StringIO(data.decode().removeprefix("\ufeff"))))
    assert rows == [
        ["date", "game", "league", "season", "result id", "status", "player", "rank", "score"],
        ["2026-11-05", "shitenno", "", "", str(first.pk), "counted", "Kenji Sato", "1", "20"],
        ["2026-11-05", "shitenno", "", "", str(first.pk), "counted", "Uncle Ken", "2", "7.5"],
        ["2026-11-12", "shitenno", "", "", str(second.pk), "pending", "Uncle Ken", "1", "3"],
        ["2026-11-12", "shitenno", "", "", str(second.pk), "pending", "Kenji Sato", "2", ""],
    ]


@pytest.mark.django_db
def test_bg_stats_names_people_by_display_name_and_carries_no_username(client, club, carol, two_results):
    first, second = two_results
    client.force_login(carol)
    data = download(client, club, "bgstats")
    assert LOGIN.encode() not in data
    backup = json.loads(data)
    assert [(p["id"], p["name"], p["bggUsername"]) for p in backup["players"]] == [
        (1, "Kenji Sato", ""),
        (2, "Uncle Ken", ""),
    ]
    assert [(g["id"], g["name"]) for g in backup["games"]] == [(1, "Shitennō")]
    assert [(p["uuid"], p["playDate"], p["gameRefId"]) for p in backup["plays"]] == [
        (str(uuid.uuid5(uuid.NAMESPACE_URL, f"result:{first.pk}")), "2026-11-05 00:00:00", 1),
        (str(uuid.uuid5(uuid.NAMESPACE_URL, f"result:{second.pk}")), "2026-11-12 00:00:00", 1),
    ]  # real UUIDs
    assert download(client, club, "bgstats") == data  # the same on every export
    assert [
        [
            (s["playerRefId"], s["rank"], s["score"], s["winner"], s["seatOrder"], s["startPlayer"])
            for s in p["playerScores"]
        ]
        for p in backup["plays"]
    ] == [
        [(1, 1, "20", True, 1, True), (2, 2, "7.5", False, 2, False)],
        [(2, 1, "3", True, 0, False), (1, 2, "", False, 0, False)],
    ]
    assert backup["locations"] == []


@pytest.mark.django_db
def test_bgg_plays_leave_the_username_empty(client, club, carol, two_results):
    first, second = two_results
    client.force_login(carol)
    data = download(client, club, "bgg")
    assert data.startswith(b'<?xml version="1.0" encoding="utf-8"?>\n<plays ') and LOGIN.encode() not in data
    root = ElementTree.fromstring(data)
    assert (root.get("username"), root.get("total")) == (club.slug, "2")
    assert [(p.get("id"), p.get("date"), p.find("item").get("name")) for p in root] == [
        (str(first.pk), "2026-11-05", "Shitennō"),
        (str(second.pk), "2026-11-12", "Shitennō"),
    ]
    assert [
        [
            (q.get("name"), q.get("username"), q.get("score"), q.get("win"), q.get("startposition"))
            for q in p.find("players")
        ]
        for p in root
    ] == [
        [("Kenji Sato", "", "20", "1", "1"), ("Uncle Ken", "", "7.5", "0", "2")],
        [("Uncle Ken", "", "3", "1", ""), ("Kenji Sato", "", "", "0", "")],
    ]


@pytest.mark.django_db
def test_an_empty_club_exports_empty_files(client, club, carol):
    client.force_login(carol)
    assert json.loads(download(client, club, "bgstats")) == {"plays": [], "players": [], "games": [], "locations": []}
    assert ElementTree.fromstring(download(client, club, "bgg")).get("total") == "0"
    header = "date,game,league,season,result id,status,player,rank,score\r\n"
    assert download(client, club, "csv").decode() == "\ufeff" + header


def _results_of(club, start: int, count: int) -> None:
    """`count` more entries in the club (players `start` on): results of two players each."""
    people = Player.objects.bulk_create([Player(name=f"Player {n}") for n in range(start, start + count)])
    results = Result.objects.bulk_create(
        [Result(game="shitenno", played_on=datetime.date(2026, 10, 1), club=club) for _n in range(count // 2)]
    )
    ResultEntry.objects.bulk_create(
        [ResultEntry(result=results[n // 2], player=p, rank=n % 2 + 1, score=n) for n, p in enumerate(people)]
    )


@pytest.mark.django_db
@pytest.mark.parametrize("kind", ["csv", "bgstats", "bgg"])
def test_the_queries_do_not_grow_with_the_entries(client, club, carol, kind, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(carol)
    _results_of(club, 0, 10)
    with CaptureQueriesContext(connection) as ten:
        download(client, club, kind)
    _results_of(club, 10, 190)
    with django_assert_max_num_queries(len(ten.captured_queries)):
        data = download(client, club, kind)
    assert data.count(b"Player 199") == 1  # all 200 entries are in it


@pytest.mark.django_db
def test_a_game_s_bgg_id_is_exported_where_the_site_has_one_and_read_back_by_it(
    client, club, carol, two_results, settings
):
    """settings.GAME_BGG_IDS (none by default: the rulebooks give none, so the exports say 0, both formats'
    "no id"); where an operator sets one, both exports carry it and an import matches the game by it."""
    from leagues.imports.plan import match_game
    from leagues.imports.service import site_games

    client.force_login(carol)
    assert json.loads(download(client, club, "bgstats"))["games"][0]["bggId"] == 0
    settings.GAME_BGG_IDS = {"shitenno": 123}
    assert json.loads(download(client, club, "bgstats"))["games"][0]["bggId"] == 123
    items = ElementTree.fromstring(download(client, club, "bgg")).findall("play/item")
    assert {item.get("objectid") for item in items} == {"123"}
    assert match_game("Some other title", 123, site_games()) == "shitenno"  # by the id, whatever the name
    settings.GAME_BGG_IDS = {}
    assert match_game("Some other title", 123, site_games()) is None
