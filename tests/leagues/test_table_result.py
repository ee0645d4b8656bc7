"""A finished table leads to its result: the table page loads a fragment that leagues owns (the games app knows
only its URL name), showing who has signed, a one-tap sign-off for a seated player, a dispute, the season it
counts in and the standings. The sign-off rules are the service's own."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services
from leagues.club import seasons
from leagues.club.clubs import club_join
from leagues.models import Result, SignOff
from leagues.people.players import player_for_user
from tests.games.teikoku_site.test_results import ATTRITION, MOVES, play

TODAY = timezone.localdate()
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def finished(club, alice, bob, carol):
    """alice, bob and carol finish a Teikoku game at the club, in the club league's running season."""
    club_join(token=club.invite_token, user=bob)
    league = seasons.league_create(club=club, name="Teikoku league", games=["teikoku"], user=alice)
    seasons.season_create(
        league=league,
        name="Spring",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    session = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=ATTRITION,
        club=club,
        players=[player_for_user(u) for u in (alice, bob, carol)],
    )
    return play(session, alice, MOVES)


def test_the_finished_table_page_loads_the_result_and_links_to_it(client, bob, finished):
    client.force_login(bob)
    url = reverse("table_result", args=[finished.code])
    page = client.get(finished.get_absolute_url()).content.decode()
    assert f'data-hx-get="{url}"' in page and f'href="{url}"' in page  # htmx, and a link for a phone without script


def test_a_seated_player_sees_who_signed_the_season_and_a_one_tap_sign_off(client, bob, finished):
    client.force_login(bob)
    fragment = client.get(reverse("table_result", args=[finished.code]), **HTMX).content.decode()
    assert fragment.count("not signed yet") == 3
    assert "Counts in Spring of Teikoku league." in fragment and "The standings" in fragment
    assert 'value="yes">Sign off</button>' in fragment and ">Dispute</button>" in fragment
    assert "<html" not in fragment


def test_signing_off_from_the_table_records_it_and_answers_the_fragment(client, bob, finished):
    client.force_login(bob)
    answer = client.post(reverse("table_result", args=[finished.code]), {"agreed": "yes"}, **HTMX)
    assert answer.status_code == 200
    fragment = answer.content.decode()
    assert fragment.count("signed off") == 1 and fragment.count("not signed yet") == 2
    assert "Sign off</button>" not in fragment  # bob has signed: nothing more to tap
    result = Result.objects.get(session=finished)
    assert list(result.sign_offs.values_list("player__name", "agreed")) == [("bob", True)]
    assert result.status == "pending"


def test_without_script_the_sign_off_returns_to_the_table(client, bob, finished):
    client.force_login(bob)
    answer = client.post(reverse("table_result", args=[finished.code]), {"agreed": "yes"})
    assert answer.status_code == 302 and answer["Location"] == finished.get_absolute_url()
    assert SignOff.objects.filter(result__session=finished).count() == 1


def test_a_dispute_without_a_reason_is_refused_and_nothing_is_written(client, bob, finished):
    client.force_login(bob)
    answer = client.post(reverse("table_result", args=[finished.code]), {"agreed": "no", "note": " "}, **HTMX)
    assert answer.status_code == 400
    assert "Say what is wrong with the result." in answer.content.decode()
    assert not SignOff.objects.filter(result__session=finished).exists()


def test_someone_not_at_the_table_gets_no_form_and_cannot_sign(client, dave, finished):
    client.force_login(dave)
    fragment = client.get(reverse("table_result", args=[finished.code]), **HTMX).content.decode()
    assert "Sign off</button>" not in fragment
    answer = client.post(reverse("table_result", args=[finished.code]), {"agreed": "yes"}, **HTMX)
    assert answer.status_code in (403, 404)
    assert not SignOff.objects.filter(result__session=finished).exists()


def test_a_table_without_a_result_shows_nothing_and_its_page_is_a_404(client, alice, bob, carol):
    session = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=ATTRITION,  # still playing
        players=[player_for_user(u) for u in (alice, bob, carol)],
    )
    client.force_login(alice)
    url = reverse("table_result", args=[session.code])
    assert client.get(url, **HTMX).content.decode().strip() == ""
    assert client.get(url).status_code == 404
    assert client.post(url, {"agreed": "yes"}, **HTMX).status_code == 404


def test_a_table_s_result_keeps_its_seats_and_the_exports_say_them(client, alice, club, finished):
    """Issue 48 finding 6: a site table's entries had no seat, so the exports said every player started last
    (`seatOrder` 0, `startPlayer` false). Each entry now has its table seat, 1 first, whatever its place."""
    import json

    result = Result.objects.get(session=finished)
    assert {e.player.name: e.seat for e in result.entries.select_related("player")} == {
        "alice": 1,
        "bob": 2,
        "carol": 3,
    }  # seated alice, bob, carol (the fixture), whatever their places
    client.force_login(alice)
    backup = json.loads(b"".join(client.get(reverse("club_export", args=[club.slug, "bgstats"])).streaming_content))
    names = {p["id"]: p["name"] for p in backup["players"]}
    (play,) = backup["plays"]
    assert sorted((names[s["playerRefId"]], s["seatOrder"], s["startPlayer"]) for s in play["playerScores"]) == [
        ("alice", 1, True),
        ("bob", 2, False),
        ("carol", 3, False),
    ]
