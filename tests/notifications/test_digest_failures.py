"""One person's digest never stops another's (issue 46 finding 4): the beat sends each due person's digest on its
own; a mail server that refuses one (a bad address, SMTP down) is recorded for him, logged and tried again after a
growing wait, and the others still get theirs. The e-mail goes out outside any transaction."""

import datetime
import smtplib
from unittest import mock

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.db import connection
from django.utils import timezone

from leagues.notifications import digest
from leagues.notifications.models import Channel, Notification, Preference
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT

AT_SIX = timezone.make_aware(datetime.datetime(2026, 11, 26, 18, 5))


@pytest.fixture
def three_due(season, alice, bob, carol, members):
    """bob, carol and erin chose the e-mail for sign-offs; one result waits for each of them. Returned in the
    order the beat takes them (by id)."""
    erin = members[1]
    users = sorted([bob, carol, erin], key=lambda user: user.pk)
    for user in users:
        Preference.objects.create(user=user, sign_off=Channel.EMAIL)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[
            {"player": player_for_user(alice), "rank": 1},
            *({"player": player_for_user(u), "rank": 2} for u in users),
        ],
    )
    assert Notification.objects.filter(state=Notification.State.DIGEST).count() == 3
    return users


def refusing(address: str):
    """EmailMessage.send, except that the mail server refuses `address` (SMTPRecipientsRefused, as smtplib
    raises it)."""
    real = EmailMessage.send

    def send(message, fail_silently=False):
        if address in message.to:
            raise smtplib.SMTPRecipientsRefused({address: (550, b"No such user")})
        return real(message, fail_silently)

    return mock.patch.object(EmailMessage, "send", send)


def test_a_refused_address_is_recorded_for_its_owner_and_everyone_else_gets_the_digest(three_due):
    first, middle, third = three_due
    with refusing(middle.email):
        assert digest.hourly(AT_SIX)["digests"] == 2  # the hourly task did not die on the middle one
    assert sorted(message.to[0] for message in mail.outbox) == sorted([first.email, third.email])
    for user in (first, third):
        assert Notification.objects.get(recipient=user).state == Notification.State.EMAILED
        assert Preference.objects.get(user=user).last_digest_on == AT_SIX.date()
    refused = Preference.objects.get(user=middle)
    assert refused.last_digest_on is None  # not marked sent: today is still his
    assert refused.digest_failures == 1 and "SMTPRecipientsRefused" in refused.digest_error
    assert refused.digest_retry_at == AT_SIX.replace(hour=19, minute=0)
    notification = Notification.objects.get(recipient=middle)
    assert notification.state == Notification.State.DIGEST and notification.sent_at is None


def test_the_refused_digest_is_tried_again_later_waiting_longer_each_time_and_then_sent_once(three_due):
    _first, middle, _third = three_due
    with refusing(middle.email):
        digest.hourly(AT_SIX)
        assert digest.send_digests(AT_SIX + datetime.timedelta(minutes=30)) == 0  # not before its hour
        assert digest.send_digests(AT_SIX + datetime.timedelta(hours=1)) == 0  # tried at 19:00, refused again
        assert Preference.objects.get(user=middle).digest_failures == 2
        assert Preference.objects.get(user=middle).digest_retry_at == AT_SIX.replace(hour=21, minute=0)
        assert digest.send_digests(AT_SIX + datetime.timedelta(hours=2)) == 0  # 20:05: waits for 21:00
        assert Preference.objects.get(user=middle).digest_failures == 2
    assert len(mail.outbox) == 2
    assert digest.send_digests(AT_SIX + datetime.timedelta(hours=3)) == 1  # the address works again
    assert mail.outbox[-1].to == [middle.email]
    preference = Preference.objects.get(user=middle)
    assert (preference.digest_failures, preference.digest_retry_at, preference.digest_error) == (0, None, "")
    assert preference.last_digest_on == AT_SIX.date()
    assert Notification.objects.get(recipient=middle).state == Notification.State.EMAILED
    assert digest.send_digests(AT_SIX + datetime.timedelta(hours=4)) == 0 and len(mail.outbox) == 3


def test_an_unforeseen_failure_of_one_digest_does_not_stop_the_others(three_due):
    first, middle, third = three_due
    real = digest._claim

    def claim(user_id, today):
        if user_id == middle.pk:
            raise RuntimeError("a bug in one person's messages")
        return real(user_id, today)

    with mock.patch.object(digest, "_claim", claim):
        assert digest.hourly(AT_SIX)["digests"] == 2
    assert sorted(message.to[0] for message in mail.outbox) == sorted([first.email, third.email])


@pytest.mark.django_db(transaction=True)
def test_the_e_mail_goes_out_outside_any_transaction(three_due):
    """A mail server that takes its time holds no row: the send runs with no transaction open."""
    seen = []
    real = EmailMessage.send

    def send(message, fail_silently=False):
        seen.append(connection.in_atomic_block)
        return real(message, fail_silently)

    with mock.patch.object(EmailMessage, "send", send):
        assert digest.send_digests(AT_SIX) == 3
    assert seen == [False, False, False]


def test_the_smtp_connection_has_a_timeout(settings):
    from django.conf import settings as live

    assert live.EMAIL_TIMEOUT == 10  # set by shitenno_site/settings.py (EMAIL_TIMEOUT, or EMAIL_URL's ?timeout=)
    from django.core.mail import get_connection

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    assert get_connection().timeout == 10


def test_a_step_of_the_hourly_round_that_fails_costs_nobody_his_digest(three_due):
    with mock.patch.object(digest, "remind_sign_offs", side_effect=RuntimeError("a broken reminder")):
        assert digest.hourly(AT_SIX) == {"reminders": None, "released": 0, "digests": 3}
    assert len(mail.outbox) == 3


def test_one_result_s_reminder_that_fails_keeps_none_of_the_others_back(three_due, season, alice, carol):
    """Two results a day old wait; the first one's reminder raises, the second's is written."""
    from leagues.models import Result
    from leagues.notifications import services

    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    first, second = Result.objects.order_by("pk")
    real = services.result_recorded

    def recorded(result, *, reminder=False):
        if result.pk == first.pk:
            raise RuntimeError("a bug in one result")
        return real(result, reminder=reminder)

    with mock.patch.object(services, "result_recorded", recorded):
        written = digest.remind_sign_offs(timezone.now() + datetime.timedelta(days=1, minutes=1))
    assert written == 1
    assert Notification.objects.filter(dedupe_key__startswith=f"sign_off_reminder:{second.pk}:").count() == 1
    assert not Notification.objects.filter(dedupe_key__startswith=f"sign_off_reminder:{first.pk}:").exists()
