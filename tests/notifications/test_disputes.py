"""A dispute's message (issue 39, a new user's walk): whoever reads "bob disputes Shitennō" must know which result
it is: the game and its day, the league (and the night's table it was played at), who disputed and why, and a
link that opens that very result, in English and in Dutch."""

import pytest
from django.urls import reverse

from leagues.models import Result
from leagues.nights import services as nights
from leagues.notifications.messages import worded
from leagues.notifications.models import Channel, Kind, Notification, Preference
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT, finish


@pytest.fixture
def alice_told(alice):
    """alice (the club's owner) chose disputes by e-mail, so her message is written whatever her devices."""
    return Preference.objects.create(user=alice, dispute=Channel.EMAIL)


def disputed_message(recipient) -> Notification:
    return Notification.objects.get(kind=Kind.DISPUTE, recipient=recipient)


def test_the_message_names_the_game_its_day_the_league_who_disputed_and_why(
    season, alice, bob, carol, members, alice_told
):
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that game")
    payload = disputed_message(alice).payload
    assert worded(Kind.DISPUTE, payload, "en") == {
        "title": "bob disputes Shitennō of 26 November",
        "body": "Edo Gamers, Thursday: “I won that game”",
        "url": f"/leagues/{season.league_id}/?result={result.pk}#result-{result.pk}",
    }
    dutch = worded(Kind.DISPUTE, payload, "nl")
    assert (dutch["title"], dutch["body"]) == (
        "bob betwist Shitennō van 26 november",
        "Edo Gamers, Thursday: “I won that game”",
    )


def test_the_link_opens_the_disputed_result_on_the_league_page(client, season, alice, bob, carol, members, alice_told):
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that game")
    path, anchor = disputed_message(alice).payload["url"].split("#")
    client.force_login(alice)
    page = client.get(path).content.decode()
    row = page[page.index(f'id="{anchor}"') :]
    row = row[: row.index("</li>")]
    assert "I won that game" in row and "disputed" in row  # the row of that result, with bob's note


def test_a_result_of_a_league_night_names_its_round_and_table(opened_round, alice, bob, carol, alice_told):
    nights.tables_open(night_round=opened_round, user=alice)
    table = next(t for t in opened_round.tables.order_by("position") if player_for_user(bob).pk in t.players)
    result = finish(table.session, sign=False)
    results.result_sign_off(result=result, user=bob, agreed=False, note="wrong scores")
    told = Notification.objects.filter(kind=Kind.DISPUTE).exclude(recipient=bob).first()
    message = worded(Kind.DISPUTE, told.payload, "en")
    assert message["body"] == (
        f"Edo Gamers, Thursday, the night of 26 November, round 1, table {table.position + 1}: “wrong scores”"
    )
    assert worded(Kind.DISPUTE, told.payload, "nl")["body"] == (
        f"Edo Gamers, Thursday, de avond van 26 november, ronde 1, tafel {table.position + 1}: “wrong scores”"
    )


def test_a_message_written_before_it_named_the_result_still_reads(alice):
    old = {"result": 1, "game": "Shitennō", "by": "bob", "note": "I won that game", "url": "/leagues/1/"}
    assert worded(Kind.DISPUTE, old, "en") == {
        "title": "bob disputes Shitennō",
        "body": "I won that game",
        "url": "/leagues/1/",
    }


def test_a_dispute_of_a_play_counted_on_a_manager_s_word_tells_the_managers_too(
    season, alice, bob, carol, members, alice_told
):
    """An imported play alice vouched for: carol's dispute takes it out of the standings and waits for a manager,
    so the managers are told as for any other dispute."""
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    Result.objects.filter(pk=result.pk).update(
        source="bgstats", external_id="p1", vouched_by=alice, status=Result.Status.COUNTED
    )
    result.sign_offs.all().delete()
    Notification.objects.all().delete()
    results.result_sign_off(result=result, user=carol, agreed=False, note="I was not there")
    message = worded(Kind.DISPUTE, disputed_message(alice).payload, "en")
    assert message["title"] == "carol disputes Shitennō of 26 November"
    assert reverse("league_detail", args=[season.league_id]) in message["url"]
