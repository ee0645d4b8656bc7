"""A kind that cannot wait (a new user's walk: "your table" chosen by e-mail came with the evening's digest, after
the round was played). By e-mail, "your table" goes out on its own through the outbox, like a push: the hint at
once, the minute sweep at the latest; never held for the digest hour, once only, and only while still due."""

import datetime
from unittest import mock

import pytest
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import timezone

from leagues.jobs import outbox
from leagues.models import LeagueJob
from leagues.nights import services as nights
from leagues.notifications import delivery, digest
from leagues.notifications.models import AT_ONCE, Channel, Kind, Notification, Preference

AT_SIX = timezone.make_aware(datetime.datetime(2026, 11, 26, 18, 5))


@pytest.fixture(autouse=True)
def no_broker():
    """Hints go nowhere: the tests run the outbox rows themselves, as the worker (hint) or the sweep would."""
    with mock.patch.object(outbox, "publish") as publish:
        yield publish


@pytest.fixture
def carol_by_mail(carol):
    """carol chose "your table" by e-mail, in Dutch."""
    return Preference.objects.create(user=carol, your_table=Channel.EMAIL, language="nl")


def carol_s_table(carol):
    return Notification.objects.get(kind=Kind.YOUR_TABLE, recipient=carol)


def test_your_table_by_e_mail_goes_out_at_the_outbox_s_next_run_not_at_the_digest_hour(
    opened_round, alice, carol, carol_by_mail, settings
):
    settings.SITE_URL = "https://shitenno.example"
    nights.tables_open(night_round=opened_round, user=alice)
    row = carol_s_table(carol)
    assert row.state == Notification.State.QUEUED  # not kept for the digest
    assert LeagueJob.objects.filter(job=LeagueJob.Job.NOTIFY, target=str(carol.pk)).exists()  # written with it
    outbox.sweep(older_than=0)  # the outbox's next run: the hint's job, or the sweep's
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    table = next(t for t in opened_round.tables.all() if row.payload["table"] == t.position + 1)
    assert message.to == [carol.email] and message.subject == (
        f"Shitennō: Shitennō, ronde 1, tafel {table.position + 1} (Edo Gamers, 26 november)"
    )
    assert f"https://shitenno.example{table.session.get_absolute_url()}" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    row.refresh_from_db()
    assert row.state == Notification.State.EMAILED
    outbox.sweep(older_than=0)
    assert digest.hourly(AT_SIX)["digests"] == 0 and len(mail.outbox) == 1  # sent once, not again at six


def test_the_outbox_s_sweep_runs_every_minute():
    """The timing rule's upper bound: a lost hint is run by the beat's sweep within a minute and a half."""
    sweep = settings.CELERY_BEAT_SCHEDULE["leagues-outbox-sweep"]
    assert sweep["task"] == "leagues.tasks.outbox_sweep" and sweep["schedule"] <= 60
    assert Kind.YOUR_TABLE in AT_ONCE


def test_a_mail_server_down_keeps_it_for_the_next_run_which_sends_it_once(opened_round, alice, carol, carol_by_mail):
    nights.tables_open(night_round=opened_round, user=alice)
    with mock.patch.object(EmailMessage, "send", side_effect=ConnectionError("mail server down")):
        assert outbox.sweep(older_than=0)["failed"]
    assert carol_s_table(carol).state == Notification.State.QUEUED and not mail.outbox
    outbox.sweep(older_than=0)
    outbox.sweep(older_than=0)
    assert len(mail.outbox) == 1 and carol_s_table(carol).state == Notification.State.EMAILED


def test_quiet_hours_hold_a_push_but_not_the_e_mail(opened_round, alice, carol, carol_by_mail):
    nights.tables_open(night_round=opened_round, user=alice)
    with mock.patch.object(delivery, "in_quiet_hours", return_value=True):
        outbox.sweep(older_than=0)
    assert len(mail.outbox) == 1


def test_a_change_of_mind_before_it_goes_out_stops_it(opened_round, alice, carol, carol_by_mail):
    nights.tables_open(night_round=opened_round, user=alice)
    Preference.objects.filter(user=carol).update(your_table=Channel.NONE)
    outbox.sweep(older_than=0)
    assert not mail.outbox and carol_s_table(carol).state == Notification.State.DROPPED


@pytest.mark.parametrize(("language", "label"), [("en", "By e-mail, at once"), ("nl", "Per e-mail, meteen")])
def test_the_settings_page_says_your_table_is_e_mailed_at_once(client, alice, language, label):
    client.force_login(alice)
    client.cookies["django_language"] = language
    page = client.get(reverse("notifications:settings"), HTTP_ACCEPT_LANGUAGE=language)
    form = page.context["form"]
    assert dict(form.fields["your_table"].choices)["email"] == label
    assert dict(form.fields["sign_off"].choices)["email"] != label  # the others wait for the daily e-mail
    assert label in page.content.decode()
