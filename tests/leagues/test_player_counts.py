"""A result with more (or fewer) players than its game allows is no result of that game (issue 50): Shitennō is
played by 2 to 4, as its engine says, so a five-player Shitennō result is refused on every path that records one
(the API, the league's result form, a correction, an import), with the reason and nothing written. A game the site
does not know keeps the one rule it had: two players at least."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from games.engines import get_engine
from leagues.imports.formats import Source, SourceEntry, SourceGame, SourcePlay, SourcePlayer
from leagues.imports.plan import SKIP_PLAYER_COUNT, make_plan
from leagues.imports.service import site_games
from leagues.models import Result, ResultEntry, SignOff
from leagues.people.players import player_for_user
from leagues.result import results

from .league_helpers import TODAY, enter, league_with_season, members_joined

pytestmark = pytest.mark.django_db

SHITENNO_MAX = get_engine("shitenno").max_players  # the engine's own figure (the rulebook: 2 to 4 players)


def written():
    return Result.objects.count(), ResultEntry.objects.count(), SignOff.objects.count()


@pytest.fixture
def five(club, alice):
    return [player_for_user(u) for u in members_joined(club, alice, ["bob", "dan", "eve", "fay"])]


def test_the_api_refuses_one_player_more_than_shitenno_seats(api, club, alice, five):
    _league, season = league_with_season(club, alice)
    assert len(five) == SHITENNO_MAX + 1
    body = {
        "game": "shitenno",
        "played_on": str(TODAY),
        "season": season.pk,
        "entries": [{"player": p.pk, "rank": n} for n, p in enumerate(five, start=1)],
    }
    response = api.login(alice).post("/api/results/", body)
    assert response.status_code == 400
    assert "Shitennō is played by 2 to 4 players." in response.content.decode()
    assert written() == (0, 0, 0)


def test_the_api_says_it_in_dutch(api, club, alice, five):
    body = {
        "game": "Shitennō",
        "played_on": str(TODAY),
        "entries": [{"player": p.pk, "rank": n} for n, p in enumerate(five, start=1)],
    }
    response = api.login(alice).post("/api/results/", body, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    assert "Shitennō wordt gespeeld met 2 tot 4 spelers." in response.content.decode()
    assert written() == (0, 0, 0)


def test_four_players_are_a_shitenno_result_and_five_at_a_game_the_site_does_not_know_too(club, alice, five):
    _league, season = league_with_season(club, alice)
    enter(season, alice, [(p, n, None) for n, p in enumerate(five[:SHITENNO_MAX], start=1)])
    enter(season, alice, [(p, n, None) for n, p in enumerate(five, start=1)], game="Go")
    assert sorted(Result.objects.values_list("game", flat=True)) == ["Go", "shitenno"]


def test_the_league_form_refuses_five_at_shitenno(client, club, alice, five):
    league, _season = league_with_season(club, alice)
    data = {"game": "shitenno", "played_on": (TODAY - datetime.timedelta(days=2)).isoformat()}
    for i, player in enumerate(five, start=1):
        data.update({f"player_{i}": str(player.pk), f"rank_{i}": str(i), f"score_{i}": ""})
    client.force_login(alice)
    response = client.post(f"/leagues/{league.pk}/results/new/", data)
    assert response.status_code == 400
    assert "Shitennō is played by 2 to 4 players." in response.content.decode()
    assert written() == (0, 0, 0)


def test_a_correction_cannot_seat_a_fifth_player(club, alice, five):
    _league, season = league_with_season(club, alice)
    result = enter(season, alice, [(p, n, None) for n, p in enumerate(five[:SHITENNO_MAX], start=1)])
    before = sorted(result.entries.values_list("player_id", "rank"))
    with pytest.raises(ValidationError) as error:
        results.result_update(
            result=result,
            version=result.version,
            user=alice,
            entries=[{"player": p, "rank": n} for n, p in enumerate(five, start=1)],
        )
    assert "Shitennō is played by 2 to 4 players." in error.value.message_dict["entries"]
    result.refresh_from_db()
    assert result.version == 1 and sorted(result.entries.values_list("player_id", "rank")) == before


def test_an_import_skips_a_five_player_shitenno_play_with_its_reason():
    people = {k: SourcePlayer(key=k, name=k) for k in "abcde"}

    def play(external_id, keys):
        return SourcePlay(
            external_id=external_id,
            played_on=datetime.date(2026, 3, 1),
            game=SourceGame("Shitennō"),
            entries=tuple(SourceEntry(player=k, rank=n) for n, k in enumerate(keys, start=1)),
        )

    source = Source(kind="bgstats", players=people, plays=[play("4", "abcd"), play("5", "abcde")])
    plan = make_plan(source, games=site_games(), members=[])
    assert [r.external_id for r in plan.results] == ["4"]
    assert plan.skipped == {SKIP_PLAYER_COUNT: 1}
    assert plan.skipped_plays == [("5", "Shitennō", SKIP_PLAYER_COUNT)]


def test_the_import_command_skips_a_five_player_shitenno_play_and_writes_and_rates_none_of_it(club, alice, tmp_path):
    """The club's BG Stats file with a fifth player added to its first Shitennō play: that play is skipped with
    its reason and no result of it is written (so none is rated); the other 33 come in as before."""
    import io
    import json
    from pathlib import Path

    from django.core.management import call_command

    data = json.loads((Path(__file__).parent / "fixtures" / "imports" / "bgstats.json").read_text())
    play = data["plays"][0]
    assert next(g for g in data["games"] if g["id"] == play["gameRefId"])["name"] == "Shitennō"
    assert len(play["playerScores"]) == SHITENNO_MAX
    seated = {s["playerRefId"] for s in play["playerScores"]}
    extra = next(p["id"] for p in data["players"] if p["id"] not in seated)
    play["playerScores"].append({**play["playerScores"][-1], "playerRefId": extra, "seatOrder": 5})
    path = tmp_path / "bgstats.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    call_command(
        "import_plays",
        "--club",
        club.slug,
        "--format",
        "bgstats",
        "--as",
        "alice",
        str(path),
        stdout=out,
        stderr=io.StringIO(),
    )
    summary = json.loads(out.getvalue())
    assert summary["imported"] == 33 and summary["skipped"] == {"other game": 6, SKIP_PLAYER_COUNT: 1}
    assert Result.objects.filter(club=club, source="bgstats").count() == 33
    assert not Result.objects.filter(external_id=play["uuid"]).exists()
