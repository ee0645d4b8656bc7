"""Every message says where and when (issue 47 finding 7): a Teikoku table was mailed as "Shitennō: Round 1: table
1" (the site's name hard-coded, read as the game's), and two nights of one club gave the same text. Now each names
its game, club, league, night and date, in the reader's language (his stored choice, else the site's), and the
e-mail's subject carries the site's own name from settings."""

import datetime
from unittest import mock

import pytest
from django.core import mail

from leagues.jobs import outbox
from leagues.models import Result, ResultEntry
from leagues.nights import services as nights
from leagues.notifications import digest, services
from leagues.notifications.messages import worded
from leagues.notifications.models import Channel, Kind, Notification, Preference
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT, finish

AT_SIX = datetime.datetime(2026, 11, 26, 18, 5, tzinfo=datetime.UTC).astimezone()


@pytest.fixture(autouse=True)
def no_broker():
    with mock.patch.object(outbox, "publish") as publish:
        yield publish


def open_night(season, alice, users, day, game):
    night = nights.night_open(season=season, user=alice, date=day, games=[game], table_sizes=[3])
    for user in users:
        nights.night_check_in(night=night, user=user)
    night_round = nights.round_propose(night=night, user=alice)
    counts = {t.position: 27 for t in night_round.tables.all()} if game == "teikoku" else None  # its Units deck
    nights.tables_open(night_round=night_round, user=alice, counts=counts)
    return night_round


def table_message(user, night):
    return Notification.objects.get(
        kind=Kind.YOUR_TABLE,
        recipient=user,
        dedupe_key__in=[f"your_table:{t.pk}:{user.pk}" for r in night.rounds.all() for t in r.tables.all()],
    )


def test_a_teikoku_table_names_its_game_club_league_and_night(season, alice, bob, carol, members):
    night_round = open_night(season, alice, [alice, carol, *members], TONIGHT, "teikoku")
    row = table_message(bob, night_round.night)
    message = worded(Kind.YOUR_TABLE, row.payload, "en")
    assert message["title"] == f"Teikoku, round 1, table {row.payload['table']}"
    assert message["body"].startswith("Edo Gamers, Thursday, the night of 26 November; with ")
    assert "Shitennō" not in message["title"] + message["body"]
    dutch = worded(Kind.YOUR_TABLE, row.payload, "nl")
    assert dutch["title"] == f"Teikoku, ronde 1, tafel {row.payload['table']}"
    assert dutch["body"].startswith("Edo Gamers, Thursday, de avond van 26 november; met ")


def test_two_nights_of_one_club_read_differently(season, alice, bob, carol, members):
    users = [alice, carol, *members]
    first = open_night(season, alice, users, TONIGHT, "shitenno")
    second = open_night(season, alice, users, TONIGHT + datetime.timedelta(days=7), "shitenno")
    one = worded(Kind.YOUR_TABLE, table_message(bob, first.night).payload, "en")
    two = worded(Kind.YOUR_TABLE, table_message(bob, second.night).payload, "en")
    assert "the night of 26 November" in one["body"] and "the night of 3 December" in two["body"]
    assert (one["title"], one["body"]) != (two["title"], two["body"])


def test_the_mail_s_subject_has_the_site_s_name_from_settings_and_the_reader_s_language(
    season, alice, bob, carol, members, settings
):
    settings.SITE_NAME = "Edo Leagues"
    Preference.objects.create(user=carol, your_table=Channel.EMAIL, language="nl")
    Preference.objects.create(user=bob, your_table=Channel.EMAIL, language="en")
    open_night(season, alice, [alice, carol, *members], TONIGHT, "teikoku")
    outbox.sweep(older_than=0)
    subjects = {message.to[0]: message.subject for message in mail.outbox}
    carol_row = Notification.objects.get(kind=Kind.YOUR_TABLE, recipient=carol)
    bob_row = Notification.objects.get(kind=Kind.YOUR_TABLE, recipient=bob)
    assert subjects[carol.email] == (
        f"Edo Leagues: Teikoku, ronde 1, tafel {carol_row.payload['table']} (Edo Gamers, 26 november)"
    )
    assert subjects[bob.email] == (
        f"Edo Leagues: Teikoku, round 1, table {bob_row.payload['table']} (Edo Gamers, 26 November)"
    )
    for message in mail.outbox:
        assert "Shitennō" not in message.subject + message.body  # neither the site (renamed) nor the game
        assert "Edo Leagues" in message.body


def test_a_reader_with_no_stored_language_reads_the_site_s_own(season, alice, bob, carol, members, settings):
    """Written in a Dutch request, worded in the reader's language when it is sent: bob stored none, so the
    site's default (English); carol chose Dutch."""
    from django.utils import translation

    Preference.objects.create(user=carol, sign_off=Channel.EMAIL, language="nl")
    with translation.override("nl"):
        results.result_enter(
            game="shitenno",
            played_on=TONIGHT,
            season=season,
            user=alice,
            entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
        )
    assert digest.send_digests(AT_SIX.replace(hour=18)) == 1
    body = mail.outbox[0].body
    assert "Shitennō van 26 november wacht op je bevestiging" in body
    assert "Edo Gamers, Thursday; met alice" in body


def test_a_sign_off_of_a_night_s_table_names_the_night_and_the_table(opened_round, alice, bob, carol):
    nights.tables_open(night_round=opened_round, user=alice)
    table = next(t for t in opened_round.tables.order_by("position") if player_for_user(bob).pk in t.players)
    finish(table.session, sign=False)
    row = Notification.objects.get(kind=Kind.SIGN_OFF, recipient=bob)
    body = worded(Kind.SIGN_OFF, row.payload, "en")["body"]
    assert body.startswith(
        f"Edo Gamers, Thursday, the night of 26 November, round 1, table {table.position + 1}; with "
    )


def test_the_night_s_standings_name_the_night_and_the_club(opened_round, alice, bob, carol):
    Preference.objects.create(user=carol, standings=Channel.EMAIL)
    nights.tables_open(night_round=opened_round, user=alice)
    for table in opened_round.tables.all():
        finish(table.session)
    row = Notification.objects.filter(kind=Kind.STANDINGS).first()
    message = worded(Kind.STANDINGS, row.payload, "en")
    assert message["title"] == "Standings of the night of 26 November: Thursday"
    assert message["body"].startswith("Edo Gamers: 1. ")
    assert worded(Kind.STANDINGS, row.payload, "nl")["title"] == "De stand van de avond van 26 november: Thursday"


def test_an_import_names_its_club_and_its_days(club, season, alice, bob, carol, members):
    made = []
    for day in range(3):
        result = Result.objects.create(
            game="shitenno",
            played_on=TONIGHT - datetime.timedelta(days=day),
            club=club,
            season=season,
            created_by=alice,
            source="bgstats",
            external_id=str(day),
        )
        for rank, user in enumerate((alice, bob), start=1):
            ResultEntry.objects.create(result=result, player=player_for_user(user), rank=rank)
        made.append(result)
    results.results_settle_imported(
        made, {r.pk: [player_for_user(alice), player_for_user(bob)] for r in made}, alice, set()
    )
    row = Notification.objects.get(kind=Kind.SIGN_OFF, recipient=bob)
    assert worded(Kind.SIGN_OFF, row.payload, "en") == {
        "title": "3 plays imported into Edo Gamers wait for your sign-off",
        "body": "Played from 24 November 2026 to 26 November 2026: see them",
        "url": "/results/waiting/",
    }
    assert services.imported_to_sign(made) == []


def test_a_message_stored_before_it_named_its_place_still_reads():
    old = {"round": 1, "table": 2, "game": "Teikoku", "with": ["bob"], "url": "/t/x/"}
    assert worded(Kind.YOUR_TABLE, old, "en")["title"] == "Round 1: table 2"
    assert worded(Kind.STANDINGS, {"league": "Thursday", "top": []}, "en")["title"] == "Tonight's standings: Thursday"
