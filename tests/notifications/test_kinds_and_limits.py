"""The other kinds and the limits (issue 39): the night's standings when its last table counts, one message per
import, the reminder a day later, at most PUSHES_PER_HOUR pushes an hour, and no push in a club's quiet hours."""

import datetime
from unittest import mock

import pytest
from django.utils import timezone

from leagues.jobs import outbox
from leagues.models import Result, ResultEntry
from leagues.nights import services as nights
from leagues.notifications import delivery, digest, services
from leagues.notifications.models import Channel, ClubHours, Kind, Notification, Preference, PushSubscription
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT, finish


@pytest.fixture(autouse=True)
def no_broker():
    with mock.patch.object(outbox, "publish"):
        yield


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "p", "mailto:a@b.c"


def test_the_night_s_standings_go_out_when_its_last_table_counts(opened_round, alice, carol):
    for user in (alice, carol):
        Preference.objects.create(user=user, standings=Channel.EMAIL)
    nights.tables_open(night_round=opened_round, user=alice)
    first, last = opened_round.tables.order_by("position")
    finish(first.session)
    assert not Notification.objects.filter(kind=Kind.STANDINGS).exists()  # a table still plays
    finish(last.session)
    rows = Notification.objects.filter(kind=Kind.STANDINGS)
    assert sorted(rows.values_list("recipient_id", flat=True)) == sorted([alice.pk, carol.pk])
    payload = rows.first().payload
    assert payload["league"] == "Thursday" and [row["place"] for row in payload["top"]] == [1, 1, 3]
    assert payload["url"] == f"/nights/{opened_round.night_id}/standings/"


def test_an_import_is_one_message_per_person(club, season, alice, bob, carol, members):
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
        for rank, user in enumerate((alice, bob, carol), start=1):
            ResultEntry.objects.create(result=result, player=player_for_user(user), rank=rank)
        made.append(result)
    players = {r.pk: [player_for_user(u) for u in (alice, bob, carol)] for r in made}
    results.results_settle_imported(made, players, alice, set())  # the importer signs his own, as the import does
    rows = Notification.objects.filter(kind=Kind.SIGN_OFF)
    assert sorted((n.recipient_id, n.payload["count"]) for n in rows) == sorted([(bob.pk, 3), (carol.pk, 3)])
    assert services.imported_to_sign(made) == []  # told once


def test_a_day_later_those_who_still_have_not_signed_are_asked_once_more(season, alice, bob, carol, members):
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(u), "rank": r} for r, u in enumerate((alice, bob, carol), start=1)],
    )
    results.result_sign_off(result=result, user=bob)
    later = timezone.now() + datetime.timedelta(hours=25)
    assert digest.remind_sign_offs(timezone.now()) == 0  # not a day yet
    assert digest.remind_sign_offs(later) == 1
    assert digest.remind_sign_offs(later) == 0  # once
    reminder = Notification.objects.get(dedupe_key__startswith="sign_off_reminder:")
    assert reminder.recipient == carol and reminder.payload["reminder"] is True


def test_no_more_than_the_hourly_limit_of_pushes_reaches_a_person(push_on, alice):
    Preference.objects.create(user=alice, standings=Channel.PUSH)  # she asked for the standings by push
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/a", p256dh="x" * 40, auth="y" * 16)
    for n in range(delivery.PUSHES_PER_HOUR + 2):  # (a dispute's message goes only while its dispute stands)
        Notification.objects.create(
            recipient=alice, kind=Kind.STANDINGS, dedupe_key=f"k{n}", payload={"league": f"Go {n}", "top": []}
        )
    with mock.patch.object(delivery, "send") as send:
        counts = delivery.deliver(alice.pk)
    assert send.call_count == delivery.PUSHES_PER_HOUR
    assert counts == {"pushed": delivery.PUSHES_PER_HOUR, "dropped": 2}


def test_quiet_hours_hold_a_push_until_the_hourly_round_after_them(push_on, club, alice):
    Preference.objects.create(user=alice, standings=Channel.PUSH)  # she asked for the standings by push
    ClubHours.objects.create(club=club, quiet_from=23, quiet_until=8)
    PushSubscription.objects.create(user=alice, endpoint="https://push.example/a", p256dh="x" * 40, auth="y" * 16)
    row = Notification.objects.create(
        recipient=alice, club=club, kind=Kind.STANDINGS, dedupe_key="k", payload={"league": "Go", "top": []}
    )
    night = timezone.make_aware(datetime.datetime(2026, 11, 26, 23, 30))
    morning = timezone.make_aware(datetime.datetime(2026, 11, 27, 8, 0))
    assert delivery.in_quiet_hours(club.pk, night) and not delivery.in_quiet_hours(club.pk, morning)
    with (
        mock.patch.object(delivery.timezone, "localtime", return_value=night),
        mock.patch.object(delivery, "send") as send,
    ):
        assert delivery.deliver(alice.pk) == {"held": 1}
    assert send.call_count == 0
    row.refresh_from_db()
    assert row.state == Notification.State.QUEUED
    Notification.objects.filter(pk=row.pk).update(created_at=timezone.now() - digest.HELD_FOR)
    assert digest.release_held(timezone.now()) == 1  # the hourly round asks the outbox again
    with (
        mock.patch.object(delivery.timezone, "localtime", return_value=morning),
        mock.patch.object(delivery, "send") as send,
    ):
        assert outbox.sweep(older_than=0)["ran"] == 1
    assert send.call_count == 1
    row.refresh_from_db()
    assert row.state == Notification.State.PUSHED
