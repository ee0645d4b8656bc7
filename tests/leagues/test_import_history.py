"""Issue 34: a club's imported history counts. Its plays go to the seasons that cover them, whether the season
came first or later (one rule, `seasons.seasons_adopt`), count at once when the importing manager vouches for
them, may be disputed by each player, and never reach the site-wide rankings."""

import datetime
import io
import json
import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from leagues.club import seasons
from leagues.jobs import outbox
from leagues.models import PendingImport, Player, Result, Season, SignOff, Standing
from leagues.people.players import player_for_user
from leagues.result import results

FIXTURES = Path(__file__).parent / "fixtures" / "imports"
BGSTATS = str(FIXTURES / "bgstats.json")
JAN, JUN, DEC = datetime.date(2024, 1, 1), datetime.date(2024, 6, 30), datetime.date(2024, 12, 31)


def run(*args) -> dict:
    out = io.StringIO()
    call_command("import_plays", *args, stdout=out, stderr=io.StringIO())
    return json.loads(out.getvalue())


def league_of(club, alice, games=("shitenno", "teikoku")):
    return seasons.league_create(club=club, name="Dinsdag", games=list(games), user=alice)


def placed(club) -> list[tuple]:
    """Each imported play and the season it is in."""
    return sorted(Result.objects.filter(club=club).values_list("external_id", "season__name"))


@pytest.mark.django_db
def test_a_season_made_after_the_import_adopts_the_plays_of_its_dates(club, alice, carol):
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", BGSTATS)
    assert Result.objects.filter(club=club, season__isnull=False).count() == 0
    assert set(Result.objects.filter(club=club).values_list("status", flat=True)) == {Result.Status.COUNTED}
    first_half = Result.objects.filter(club=club, played_on__lte=JUN).count()
    assert 0 < first_half < 34

    season = seasons.season_create(
        league=league_of(club, alice), name="Spring 2024", starts_on=JAN, ends_on=JUN, user=alice
    )
    assert Result.objects.filter(season=season).count() == first_half
    assert not Result.objects.filter(season=None, played_on__lte=JUN).exists()
    assert Result.objects.filter(season=None, played_on__gt=JUN).count() == 34 - first_half
    outbox.sweep(older_than=0)  # the jobs the adoption asked for
    assert Standing.objects.filter(season=season, player=player_for_user(carol), games__gt=0).exists()


@pytest.mark.django_db
def test_an_import_after_the_season_goes_into_it_the_same_way(club, alice):
    """The other way round, the same rule: a season first, then the import."""
    season = seasons.season_create(
        league=league_of(club, alice), name="Spring 2024", starts_on=JAN, ends_on=JUN, user=alice
    )
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", BGSTATS)
    in_season = Result.objects.filter(season=season)
    assert in_season.count() == Result.objects.filter(club=club, played_on__lte=JUN).count() > 0
    assert not Result.objects.filter(season=None, played_on__lte=JUN).exists()


@pytest.mark.django_db
def test_a_season_takes_only_its_leagues_games_and_the_clubs_members(club, alice, dave):
    """Teikoku is not counted by a Shitennō-only league; a game with an outsider belongs to no season."""
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", BGSTATS)
    outsider_game = results.result_enter(
        game="shitenno",
        played_on=datetime.date(2024, 3, 3),
        user=alice,
        club=club,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(dave), "rank": 2}],
    )
    season = seasons.season_create(
        league=league_of(club, alice, games=["shitenno"]), name="2024", starts_on=JAN, ends_on=DEC, user=alice
    )
    assert set(Result.objects.filter(season=season).values_list("game", flat=True)) == {"shitenno"}
    assert Result.objects.filter(club=club, game="teikoku", season=None).count() == 17
    outsider_game.refresh_from_db()
    assert outsider_game.season_id is None


@pytest.mark.django_db
def test_vouched_plays_count_and_a_player_may_dispute_one(client, club, alice, carol):
    season = seasons.season_create(league=league_of(club, alice), name="2024", starts_on=JAN, ends_on=DEC, user=alice)
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", BGSTATS)
    outbox.sweep(older_than=0)
    carol_player = player_for_user(carol)
    games_before = Standing.objects.get(season=season, player=carol_player).games
    assert games_before > 0
    # the manager's word, never a public ranking
    assert not Result.objects.filter(club=club, ranked_publicly=True).exists()

    disputed = Result.objects.filter(season=season, entries__player=carol_player).first()
    results.result_sign_off(result=disputed, user=carol, agreed=False, note="I was not there")
    disputed.refresh_from_db()
    assert disputed.status == Result.Status.DISPUTED and disputed.flagged_by == carol
    outbox.sweep(older_than=0)
    assert Standing.objects.get(season=season, player=carol_player).games == games_before - 1

    # the manager settles it: his waiting page offers it, and he signs it again (he answers for his import)
    client.force_login(alice)
    page = client.get(reverse("results_waiting")).content.decode()
    assert f"/results/{disputed.pk}/sign-off/" in page and "I was not there" in page
    results.result_sign_off(result=disputed, user=alice, agreed=True)
    disputed.refresh_from_db()
    assert disputed.status == Result.Status.COUNTED and disputed.flagged_by is None
    outbox.sweep(older_than=0)
    assert Standing.objects.get(season=season, player=carol_player).games == games_before


@pytest.mark.django_db
def test_a_player_who_signed_himself_only_flags_it(club, alice, carol):
    """Carol's own sign-off is her word: after it, her dispute flags the result for the managers, as for any."""
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)  # no vouch: Carol signs hers
    mine = Result.objects.filter(club=club, entries__player__user=carol).first()
    assert mine.status == Result.Status.PENDING
    results.result_sign_off(result=mine, user=carol)
    mine.refresh_from_db()
    assert mine.status == Result.Status.COUNTED
    results.result_sign_off(result=mine, user=carol, agreed=False, note="wrong scores")
    mine.refresh_from_db()
    assert mine.status == Result.Status.COUNTED and mine.flagged_by == carol


@pytest.mark.django_db
def test_the_waiting_page_lists_results_without_a_season(client, club, alice, carol):
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", BGSTATS)
    waiting = Result.objects.filter(club=club, entries__player__user=carol, status=Result.Status.PENDING)
    assert waiting.exists() and not waiting.filter(season__isnull=False).exists()
    client.force_login(carol)
    page = client.get(reverse("results_waiting")).content.decode()
    forms = set(re.findall(r"/results/(\d+)/sign-off/", page))
    assert forms == {str(pk) for pk in waiting.values_list("pk", flat=True)}
    # signing one off from there leaves it off the list
    client.post(reverse("result_sign_off", args=[waiting.first().pk]), {"agreed": "yes"})
    page = client.get(reverse("results_waiting")).content.decode()
    assert len(set(re.findall(r"/results/(\d+)/sign-off/", page))) == len(forms) - 1


@pytest.mark.django_db
def test_the_waiting_page_offers_a_dispute_of_each_vouched_play(client, club, alice, carol):
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", BGSTATS)
    vouched = Result.objects.filter(club=club, entries__player__user=carol)
    client.force_login(carol)
    page = client.get(reverse("results_waiting")).content.decode()
    assert set(re.findall(r"/results/(\d+)/sign-off/", page)) == {
        str(pk) for pk in vouched.values_list("pk", flat=True)
    }
    assert "Imported games counted on a manager" in page


def _upload(client, club):
    response = client.post(
        reverse("import_start", args=[club.slug]),
        {"kind": "bgstats", "files": SimpleUploadedFile("b.json", (FIXTURES / "bgstats.json").read_bytes())},
    )
    return re.search(r"/import/([^/]+)/$", response["Location"]).group(1)


@pytest.mark.django_db
def test_the_preview_offers_a_season_per_year_and_the_commit_makes_it(client, club, alice, carol):
    league = league_of(club, alice)
    client.force_login(alice)
    token = _upload(client, club)
    page = client.get(reverse("import_preview", args=[club.slug, token])).content.decode()
    assert "34 plays go to a new season 2024 of Dinsdag (1 Jan 2024 to 31 Dec 2024)" in page
    assert "I vouch for these plays" in page and "never enter the site-wide rankings" in page
    assert not Season.objects.exists()
    done = client.post(
        reverse("import_commit", args=[club.slug, token]),
        {
            "choices": "1",
            "merges": "",
            "season_league": str(league.pk),
            "vouch": "1",
            "game:Shitennō": "shitenno",
            "game:Teikoku": "teikoku",
            "game:Harbour Lanterns": "",
        },
    )
    assert done.status_code == 302
    season = Season.objects.get(league=league)
    assert (season.name, season.starts_on, season.ends_on) == ("2024", JAN, DEC)
    assert Result.objects.filter(season=season, status=Result.Status.COUNTED).count() == 34
    outbox.sweep(older_than=0)
    assert Standing.objects.filter(season=season, player=player_for_user(carol), games__gt=0).exists()


@pytest.mark.django_db
def test_vouching_is_an_explicit_act_and_without_it_the_plays_wait_for_sign_off(client, club, alice, carol):
    """The box is not ticked for the organiser; the preview's form imported as it stands vouches for nothing, so
    each member with an account signs his own plays first (they wait on his page), and none counts for him yet."""
    league = league_of(club, alice)
    client.force_login(alice)
    token = _upload(client, club)
    page = client.get(reverse("import_preview", args=[club.slug, token])).content.decode()
    assert re.search(r'<input type="checkbox" id="vouch" name="vouch" value="1">', page)  # no "checked"
    client.post(
        reverse("import_commit", args=[club.slug, token]),
        {
            "choices": "1",
            "merges": "",
            "season_league": str(league.pk),
            "game:Shitennō": "shitenno",
            "game:Teikoku": "teikoku",
            "game:Harbour Lanterns": "",
        },
    )
    assert Result.objects.filter(club=club).count() == 34
    assert not Result.objects.filter(club=club, vouched_by__isnull=False).exists()
    hers = Result.objects.filter(club=club, entries__player__user=carol)
    assert hers.exists() and set(hers.values_list("status", flat=True)) == {Result.Status.PENDING}
    client.force_login(carol)
    waiting = client.get(reverse("results_waiting")).content.decode()
    assert set(re.findall(r"/results/(\d+)/sign-off/", waiting)) == {
        str(pk) for pk in hers.values_list("pk", flat=True)
    }


@pytest.mark.django_db
def test_the_waiting_page_names_the_season_each_imported_play_will_count_in(client, club, alice, carol):
    """Her Shitennō plays go to the new season 2024 of Dinsdag; no league of the club counts Teikoku, so those
    wait in no season: the page says which, in English and in Dutch."""
    league = league_of(club, alice, games=("shitenno",))
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", "--new-seasons-in", league.slug, BGSTATS)
    hers = Result.objects.filter(club=club, entries__player__user=carol, status=Result.Status.PENDING)
    in_season, seasonless = hers.filter(season__name="2024").count(), hers.filter(season=None).count()
    assert in_season and seasonless
    client.force_login(carol)
    page = client.get(reverse("results_waiting")).content.decode()
    assert page.count("counts in 2024 of Dinsdag") == in_season
    assert page.count("in no season: it counts in no standings") == seasonless
    dutch = client.get(reverse("results_waiting"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert dutch.count("telt mee in 2024 van Dinsdag") == in_season
    assert dutch.count("in geen seizoen: telt in geen stand mee") == seasonless


@pytest.mark.django_db
def test_the_preview_says_where_each_play_goes_in_dutch(client, club, alice):
    seasons.season_create(league=league_of(club, alice), name="Voorjaar", starts_on=JAN, ends_on=JUN, user=alice)
    client.force_login(alice)
    token = _upload(client, club)
    page = client.get(reverse("import_preview", args=[club.slug, token]), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "naar Voorjaar van Dinsdag" in page and "Ik sta in voor deze partijen" in page


@pytest.mark.django_db
def test_the_commit_applies_the_merge_typed_in_the_preview(client, club, alice):
    """One form: the merge typed beside the import button is applied, without an "update" first."""
    client.force_login(alice)
    token = _upload(client, club)
    client.post(
        reverse("import_commit", args=[club.slug, token]),
        {"choices": "1", "merges": "Masashi=Masa", "game:Shitennō": "shitenno", "game:Teikoku": "teikoku"},
    )
    assert Result.objects.filter(club=club).count() == 34
    assert not Player.objects.filter(created_in=club, name="Masashi").exists()
    assert Player.objects.filter(created_in=club, name="Masa").exists()


@pytest.mark.django_db
def test_a_bad_merge_typed_at_the_commit_is_refused_and_nothing_written(client, club, alice):
    client.force_login(alice)
    token = _upload(client, club)
    players = Player.objects.count()
    response = client.post(reverse("import_commit", args=[club.slug, token]), {"choices": "1", "merges": "Nobody=Masa"})
    assert response.status_code == 400 and "Nobody" in response.content.decode()
    assert Result.objects.count() == 0 and Player.objects.count() == players and SignOff.objects.count() == 0
    assert PendingImport.objects.get(token=token).state == PendingImport.State.WAITING


def _backup(plays: int, players: int = 8) -> bytes:
    start = datetime.date(2024, 1, 1)
    return json.dumps(
        {
            "players": [{"id": i, "uuid": f"p-{i}", "name": f"Imported {i:02d}"} for i in range(1, players + 1)],
            "games": [{"id": 1, "name": "Shitennō", "highestWins": True}],
            "plays": [
                {
                    "uuid": f"play-{n}",
                    "playDate": str(start + datetime.timedelta(days=n % 300)),
                    "gameRefId": 1,
                    "playerScores": [
                        {"playerRefId": 1 + (n + k) % players, "score": str(10 * k), "seatOrder": k + 1}
                        for k in range(4)
                    ],
                }
                for n in range(plays)
            ],
        }
    ).encode()


@pytest.mark.django_db
def test_the_commit_reads_the_club_once_not_once_a_play(alice):
    """50 plays cost 145 queries before (issue 34): members, entries and sign-offs were read once a play. Now
    ten times the plays cost the same queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leagues.club.clubs import club_create
    from leagues.imports.formats import parse_bgstats
    from leagues.imports.service import import_commit

    if connection.vendor != "postgresql":
        pytest.skip("SQLite inserts in batches its parameter limit sets: PostgreSQL copies each chunk at once")
    counts = []
    for n, plays in enumerate((50, 500)):
        into = club_create(name=f"Club {n}", owner=alice)  # each its own league jobs to ask for
        league = league_of(into, alice, games=["shitenno"])
        seasons.season_create(league=league, name="2024", starts_on=JAN, ends_on=DEC, user=alice)
        with CaptureQueriesContext(connection) as queries:
            summary = import_commit(
                club=into,
                user=alice,
                source=parse_bgstats(
                    _backup(plays).replace(b"play-", f"run{n}-".encode()).replace(b"Imported", f"Run{n}".encode()),
                    "b.json",
                ),
                vouch=True,
            )
        assert summary["imported"] == plays
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[0] <= 90, counts


@pytest.mark.django_db
def test_the_command_makes_the_seasons_and_vouches(club, alice):
    league = league_of(club, alice)
    summary = run(
        "--club", club.slug, "--format", "bgstats", "--as", "alice", "--vouch", "--new-seasons-in", league.slug, BGSTATS
    )
    assert summary["new_seasons"] == ["2024"] and summary["imported"] == 34
    season = Season.objects.get(league=league)
    assert Result.objects.filter(season=season, status=Result.Status.COUNTED).count() == 34


@pytest.mark.django_db
def test_the_command_refuses_a_league_of_no_such_name(club, alice):
    err = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "import_plays",
            "--club",
            club.slug,
            "--format",
            "bgstats",
            "--new-seasons-in",
            "nowhere",
            BGSTATS,
            stdout=io.StringIO(),
            stderr=err,
        )
    assert exit_.value.code == 2 and "nowhere" in err.getvalue()
    assert (
        not Result.objects.exists()
        and not Season.objects.exists()
        and not Player.objects.filter(created_in=club).exists()
    )


@pytest.mark.django_db
def test_an_offered_season_never_overlaps_the_leagues_own(club, alice):
    """The league has a spring season: the plays after it are offered the rest of the year (from the day after
    spring ends to 31 December), not the spring too; the spring plays go to the spring season."""
    from leagues.imports.seasons import place_plan
    from leagues.imports.service import club_plan, read_files

    league = league_of(club, alice)
    spring = seasons.season_create(league=league, name="Spring", starts_on=JAN, ends_on=JUN, user=alice)
    plan = club_plan(club, read_files("bgstats", [("b.json", (FIXTURES / "bgstats.json").read_bytes())]))
    placing = place_plan(club, plan)
    later = sorted(r.played_on for r in plan.results if r.played_on > JUN)
    assert [(o.name, o.starts_on, o.ends_on, o.plays) for o in placing.offers] == [
        ("2024", datetime.date(2024, 7, 1), DEC, len(later))
    ]
    assert placing.existing == [(spring, len(plan.results) - len(later))]
    assert not placing.left_out


def _plays_on(*days: str) -> bytes:
    """A BG Stats file of one Shitennō play on each day, by the same two players."""
    return json.dumps(
        {
            "players": [{"id": n, "uuid": f"p-{n}", "name": f"Player {n}", "bggUsername": ""} for n in (1, 2)],
            "games": [{"id": 1, "name": "Shitennō", "bggId": 0, "highestWins": True}],
            "plays": [
                {
                    "uuid": f"play-{day}",
                    "playDate": f"{day} 20:00:00",
                    "gameRefId": 1,
                    "playerScores": [
                        {"playerRefId": p, "score": str(50 - p), "rank": p, "seatOrder": p, "winner": p == 1}
                        for p in (1, 2)
                    ],
                }
                for day in days
            ],
        }
    ).encode()


def _file(folder: Path, data: bytes) -> str:
    path = folder / f"plays-{len(list(folder.iterdir()))}.json"
    path.write_bytes(data)
    return str(path)


def _offers_for(club, *days: str) -> list[tuple]:
    from leagues.imports.seasons import place_plan
    from leagues.imports.service import club_plan, read_files

    placing = place_plan(club, club_plan(club, read_files("bgstats", [("b.json", _plays_on(*days))])))
    return [(o.name, o.starts_on, o.ends_on, o.plays) for o in placing.offers] + [("blocked", placing.blocked_years)]


@pytest.mark.django_db
def test_a_sparse_year_is_offered_the_year_up_to_the_leagues_next_season(club, alice):
    """The walk's case: plays on three days of March 2023, and the league's first season starts in September.
    The offer is the year's part before it (1 January to 31 August), not 3 to 6 March."""
    league = league_of(club, alice)
    seasons.season_create(
        league=league,
        name="2023-2024",
        starts_on=datetime.date(2023, 9, 1),
        ends_on=datetime.date(2024, 6, 30),
        user=alice,
    )
    assert _offers_for(club, "2023-03-03", "2023-03-04", "2023-03-06") == [
        ("2023", datetime.date(2023, 1, 1), datetime.date(2023, 8, 31), 3),
        ("blocked", []),
    ]


@pytest.mark.django_db
def test_a_sparse_year_without_seasons_is_offered_the_whole_year(club, alice):
    league_of(club, alice)
    assert _offers_for(club, "2023-03-03", "2023-03-06") == [
        ("2023", datetime.date(2023, 1, 1), DEC.replace(year=2023), 2),
        ("blocked", []),
    ]


@pytest.mark.django_db
def test_a_year_split_by_a_season_is_offered_each_free_part_with_plays(club, alice):
    league = league_of(club, alice)
    seasons.season_create(
        league=league,
        name="Summer",
        starts_on=datetime.date(2023, 6, 1),
        ends_on=datetime.date(2023, 8, 31),
        user=alice,
    )
    seasons.season_create(
        league=league,
        name="Winter",
        starts_on=datetime.date(2023, 12, 1),
        ends_on=datetime.date(2024, 2, 29),
        user=alice,
    )
    assert _offers_for(club, "2023-03-03", "2023-10-10", "2023-07-01") == [
        ("2023 (1)", datetime.date(2023, 1, 1), datetime.date(2023, 5, 31), 1),
        ("2023 (2)", datetime.date(2023, 9, 1), datetime.date(2023, 11, 30), 1),
        ("blocked", []),
    ]


@pytest.mark.django_db
def test_the_commit_makes_the_clipped_season_and_a_later_play_of_the_year_goes_into_it(club, alice, tmp_path):
    league = league_of(club, alice)
    seasons.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2023, 9, 1),
        ends_on=datetime.date(2023, 12, 31),
        user=alice,
    )
    run(
        "--club",
        club.slug,
        "--format",
        "bgstats",
        "--as",
        "alice",
        "--new-seasons-in",
        league.slug,
        _file(tmp_path, _plays_on("2023-03-03", "2023-03-06")),
    )
    made = Season.objects.get(league=league, name="2023")
    assert (made.starts_on, made.ends_on) == (datetime.date(2023, 1, 1), datetime.date(2023, 8, 31))
    run("--club", club.slug, "--format", "bgstats", "--as", "alice", _file(tmp_path, _plays_on("2023-05-20")))
    assert Result.objects.filter(club=club, season=made).count() == 3
