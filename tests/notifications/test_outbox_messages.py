"""The messages as rows (issue 39): each event writes its messages in its own transaction, once per person and
event; only members with an account are told, and only of what they may see. Delivery runs through the league
outbox, so a broker outage loses none and a second run sends none twice."""

from unittest import mock

import pytest
from django.db import transaction

from leagues.jobs import outbox
from leagues.models import LeagueJob, Membership, Player
from leagues.nights import services as nights
from leagues.notifications import delivery, services
from leagues.notifications.models import Channel, Kind, Notification, Preference, PushSubscription
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT, leave


@pytest.fixture(autouse=True)
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "p", "mailto:a@b.c"


def device(user, name="phone"):
    return PushSubscription.objects.create(
        user=user, endpoint=f"https://push.example/{user.pk}/{name}", p256dh="x" * 40, auth="y" * 16
    )


@pytest.fixture(autouse=True)
def no_broker():
    """Hints go nowhere: the tests run the outbox rows themselves, as the worker or the sweep would."""
    with mock.patch.object(outbox, "publish") as publish:
        yield publish


def test_opening_the_tables_tells_each_seated_member_his_table_and_who_sits_with_him(opened_round, alice, bob):
    device(alice)
    device(bob)
    nights.tables_open(night_round=opened_round, user=alice)
    rows = {n.recipient_id: n for n in Notification.objects.filter(kind=Kind.YOUR_TABLE)}
    seated = {p for t in opened_round.tables.all() for p in t.players}
    assert set(rows) == set(Player.objects.filter(pk__in=seated).values_list("user_id", flat=True))
    for table in opened_round.tables.all():
        names = dict(Player.objects.filter(pk__in=table.players).values_list("user_id", "name"))
        for user_id, name in names.items():
            payload = rows[user_id].payload
            assert payload["round"] == 1 and payload["table"] == table.position + 1
            assert sorted(payload["with"]) == sorted(n for n in names.values() if n != name)
            assert payload["url"] == table.session.get_absolute_url()
    assert {uid for uid, row in rows.items() if row.state == Notification.State.QUEUED} == {alice.pk, bob.pk}
    # the others have no device to push to: kept, but dropped at once
    assert {row.state for uid, row in rows.items() if uid not in (alice.pk, bob.pk)} == {Notification.State.DROPPED}
    # each push is in the outbox, written with the round
    assert set(LeagueJob.objects.filter(job=LeagueJob.Job.NOTIFY).values_list("target", flat=True)) == {
        str(alice.pk),
        str(bob.pk),
    }


def test_the_same_event_told_again_writes_nothing_twice(opened_round, alice):
    nights.tables_open(night_round=opened_round, user=alice)
    before = Notification.objects.count()
    assert services.round_opened(opened_round) == []
    assert Notification.objects.count() == before == 6


def test_no_message_to_a_guest_to_who_left_the_club_or_to_who_chose_nothing(club, season, alice, bob, carol, members):
    guest = Player.objects.create(name="Kenshin", created_by=alice)
    Membership.objects.create(club=club, player=guest)  # a guest of the club: a member without an account
    Preference.objects.create(user=carol, sign_off=Channel.NONE)
    frank = members[1]
    # alice records a game she did not play: Shitennō seats four (issue 50), her guest's sign-off is hers
    entries = [{"player": player_for_user(u), "rank": r} for r, u in enumerate([bob, carol, frank], start=1)]
    result = results.result_enter(
        game="shitenno", played_on=TONIGHT, season=season, user=alice, entries=[*entries, {"player": guest, "rank": 4}]
    )
    assert sorted(Notification.objects.values_list("recipient_id", "kind")) == [
        (bob.pk, Kind.SIGN_OFF),
        (frank.pk, Kind.SIGN_OFF),
    ]
    leave(club, frank)  # frank leaves the club before the reminder: he is told no more of it
    assert [n.recipient_id for n in services.result_recorded(result, reminder=True)] == [bob.pk]


def test_a_result_waiting_tells_each_player_who_has_not_signed_naming_the_others(season, alice, bob, carol, members):
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[
            {"player": player_for_user(alice), "rank": 1},
            {"player": player_for_user(bob), "rank": 2},
            {"player": player_for_user(carol), "rank": 3},
        ],
    )
    rows = {n.recipient_id: n.payload for n in Notification.objects.all()}
    assert set(rows) == {bob.pk, carol.pk}  # alice recorded it and signed
    assert sorted(rows[carol.pk]["with"]) == ["alice", "bob"]


def test_a_dispute_tells_the_recorder_and_the_managers_but_not_who_disputed(club, season, alice, bob, carol, members):
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    Preference.objects.create(user=alice, dispute=Channel.PUSH)
    device(alice)
    Preference.objects.create(user=carol, dispute=Channel.EMAIL)
    Notification.objects.all().delete()
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that game")
    rows = {n.recipient_id: n for n in Notification.objects.filter(kind=Kind.DISPUTE)}
    assert set(rows) == {alice.pk, carol.pk}
    assert rows[alice.pk].payload["by"] == "bob" and rows[alice.pk].payload["note"] == "I won that game"
    assert rows[alice.pk].state == Notification.State.QUEUED  # pushed
    assert rows[carol.pk].state == Notification.State.DIGEST  # waits for the e-mail


def test_a_refused_event_writes_no_message(opened_round, carol):
    from django.core.exceptions import PermissionDenied

    with pytest.raises(PermissionDenied):
        nights.tables_open(night_round=opened_round, user=carol)
    assert not Notification.objects.exists()
    assert not LeagueJob.objects.filter(job=LeagueJob.Job.NOTIFY).exists()


def test_a_rolled_back_event_leaves_no_message(opened_round, alice):
    with pytest.raises(RuntimeError), transaction.atomic():
        nights.tables_open(night_round=opened_round, user=alice)
        assert Notification.objects.count() == 6
        raise RuntimeError("the request failed after the tables opened")
    assert not Notification.objects.exists()


def test_a_broker_outage_loses_no_push_and_two_runs_send_none_twice(
    opened_round, alice, bob, no_broker, django_capture_on_commit_callbacks
):
    device(alice, "phone")
    device(alice, "tablet")
    device(bob)
    with django_capture_on_commit_callbacks(execute=True):
        nights.tables_open(night_round=opened_round, user=alice)  # its hint is lost: the broker is down
    sent = []
    with mock.patch.object(delivery, "send", side_effect=lambda sub, message: sent.append(message["title"])):
        hinted = no_broker.call_args.args[0]
        assert sorted(LeagueJob.objects.filter(job=LeagueJob.Job.NOTIFY).values_list("pk", flat=True)) == hinted
        assert outbox.sweep(older_than=0)["ran"] == 2  # the beat's sweep, once the broker is back
        assert outbox.sweep(older_than=0)["ran"] == 0  # and again: nothing is left
        assert delivery.deliver(alice.pk) == {}  # a stale hint arriving late sends nothing
    assert len(sent) == 3 and all(title.startswith("Shitennō, round 1, table ") for title in sent)  # 2 devices + 1
    states = dict(Notification.objects.values_list("recipient_id", "state"))
    assert states.pop(alice.pk) == states.pop(bob.pk) == Notification.State.PUSHED
    assert set(states.values()) == {Notification.State.DROPPED}  # the others have no device
    assert not LeagueJob.objects.filter(job=LeagueJob.Job.NOTIFY).exists()


def test_a_push_failing_on_every_device_stays_queued_for_the_next_run(opened_round, alice):
    device(alice)
    nights.tables_open(night_round=opened_round, user=alice)
    with (
        mock.patch.object(delivery, "send", side_effect=ConnectionError("push service down")),
        pytest.raises(ConnectionError),
    ):
        delivery.deliver(alice.pk)
    assert Notification.objects.get(recipient=alice).state == Notification.State.QUEUED
    with mock.patch.object(delivery, "send") as send:
        delivery.deliver(alice.pk)
    assert send.call_count == 1
    assert Notification.objects.get(recipient=alice).state == Notification.State.PUSHED
