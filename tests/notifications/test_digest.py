"""The e-mail digest (issue 39): at most one a day per person, at his club's hour, in his language, for the kinds
he chose to get by e-mail; unsubscribed by the link in it without logging in; once through a real SMTP server."""

import datetime
import socket
from unittest import mock

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from leagues.models import Result
from leagues.notifications import digest
from leagues.notifications.mail import unsubscribe_token
from leagues.notifications.messages import worded
from leagues.notifications.models import Channel, ClubHours, Kind, Notification, Preference
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results

from .conftest import TONIGHT, leave

AT_SIX = timezone.make_aware(datetime.datetime(2026, 11, 26, 18, 5))


@pytest.fixture
def two_waiting(season, alice, bob, carol, members):
    """Two results waiting for carol's sign-off; carol chose the e-mail for them, in Dutch."""
    Preference.objects.create(user=carol, sign_off=Channel.EMAIL, language="nl")
    for day in (1, 2):
        results.result_enter(
            game="shitenno",
            played_on=TONIGHT - datetime.timedelta(days=day),
            season=season,
            user=alice,
            entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
        )
    assert Notification.objects.filter(recipient=carol, state=Notification.State.DIGEST).count() == 2


def test_one_digest_a_day_with_everything_waiting_in_the_person_s_language(two_waiting, carol, settings):
    settings.SITE_URL = "https://shitenno.example"
    assert digest.hourly(AT_SIX - datetime.timedelta(hours=1))["digests"] == 0  # not the club's hour yet
    assert digest.hourly(AT_SIX)["digests"] == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [carol.email] and message.subject == "Shitennō: 2 dingen voor jou"
    assert "Shitennō van 25 november wacht op je bevestiging" in message.body
    assert "Shitennō van 24 november wacht op je bevestiging" in message.body
    assert "https://shitenno.example/results/waiting/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert set(Notification.objects.filter(recipient=carol).values_list("state", flat=True)) == {"emailed"}
    assert digest.hourly(AT_SIX)["digests"] == 0  # the beat running twice in the hour sends none twice
    assert len(mail.outbox) == 1


def test_a_message_after_today_s_digest_waits_for_tomorrow_s(two_waiting, season, alice, carol):
    digest.hourly(AT_SIX)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    assert digest.send_digests(AT_SIX) == 0
    assert digest.send_digests(AT_SIX + datetime.timedelta(days=1)) == 1
    assert len(mail.outbox) == 2 and mail.outbox[1].subject == "Shitennō: 1 ding voor jou"


def test_the_club_chooses_the_hour(two_waiting, club):
    ClubHours.objects.create(club=club, digest_hour=7)
    assert digest.send_digests(AT_SIX) == 0
    assert digest.send_digests(AT_SIX.replace(hour=7)) == 1


def test_push_and_nothing_never_go_by_e_mail(season, alice, bob, carol, members):
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    assert digest.send_digests(AT_SIX) == 0 and not mail.outbox  # the default: push, no e-mail until chosen


def test_the_link_in_the_digest_unsubscribes_without_logging_in(two_waiting, client, carol, settings):
    settings.SITE_URL = "http://testserver"
    digest.hourly(AT_SIX)
    link = next(line for line in mail.outbox[0].body.splitlines() if "/unsubscribe/" in line).split()[-1]
    path = link.removeprefix("http://testserver")
    assert client.get(path).status_code == 200  # opening the link (or a mail scanner) changes nothing
    assert Preference.objects.get(user=carol).sign_off == Channel.EMAIL
    assert client.post(path).status_code == 200
    assert Preference.objects.get(user=carol).sign_off == Channel.NONE


def test_a_forged_or_cut_link_is_refused_and_changes_nothing(two_waiting, client, carol, alice):
    token = unsubscribe_token(carol.pk)
    payload, _sep, signature = token.partition(":")
    alice_payload = unsubscribe_token(alice.pk).partition(":")[0]
    assert alice_payload != payload
    for bad in (token[:-3], f"{alice_payload}:{signature}", "nonsense"):
        assert client.post(reverse("notifications:unsubscribe", args=[bad])).status_code == 400
    assert Preference.objects.get(user=carol).sign_off == Channel.EMAIL
    assert Notification.objects.filter(recipient=carol, state=Notification.State.DIGEST).count() == 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_digest_goes_out_through_a_real_smtp_server(two_waiting, carol, settings):
    from aiosmtpd.controller import Controller

    class Inbox:
        def __init__(self):
            self.envelopes = []

        async def handle_DATA(self, server, session, envelope):
            self.envelopes.append(envelope)
            return "250 OK"

    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", controller.port
        assert digest.send_digests(AT_SIX) == 1
    finally:
        controller.stop()
    assert len(inbox.envelopes) == 1
    envelope = inbox.envelopes[0]
    assert envelope.rcpt_tos == [carol.email]
    text = envelope.content.decode()
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text and "Subject:" in text


def test_the_beat_s_hourly_task_runs_the_round(two_waiting, carol):
    from leagues.notifications import tasks

    with mock.patch.object(digest.timezone, "now", return_value=AT_SIX):
        assert tasks.hourly.run() == {"reminders": 0, "released": 0, "digests": 1}
    assert mail.outbox[0].to == [carol.email]


# --- what is still worth telling when the digest goes out, not only when the message was written ---


def test_a_member_who_left_the_club_gets_none_of_its_messages(two_waiting, club, carol):
    """A private club's names never reach someone no longer in it, though they waited for his digest."""
    leave(club, carol)
    assert digest.hourly(AT_SIX)["digests"] == 0 and not mail.outbox
    assert set(Notification.objects.filter(recipient=carol).values_list("state", flat=True)) == {"dropped"}


def test_nothing_chosen_after_the_message_stops_it(two_waiting, carol):
    Preference.objects.filter(user=carol).update(sign_off=Channel.NONE)
    assert digest.hourly(AT_SIX)["digests"] == 0 and not mail.outbox


def test_a_result_signed_before_the_digest_is_left_out_and_a_reminder_beside_it_said_once(
    two_waiting, season, alice, carol
):
    signed, waiting = Result.objects.filter(season=season).order_by("played_on")
    results.result_sign_off(result=signed, user=carol)
    Notification.objects.create(
        recipient=carol,
        club=season.league.club,
        kind=Kind.SIGN_OFF,
        dedupe_key=f"sign_off_reminder:{waiting.pk}:{carol.pk}",
        state=Notification.State.DIGEST,
        payload=dict(Notification.objects.get(dedupe_key=f"sign_off:{waiting.pk}:{carol.pk}").payload, reminder=True),
    )
    assert digest.hourly(AT_SIX)["digests"] == 1
    body = mail.outbox[0].body
    assert mail.outbox[0].subject == "Shitennō: 1 ding voor jou"
    assert body.count(f"{waiting.played_on.day} november") == 1 and f"{signed.played_on.day} november" not in body


def test_an_organiser_is_told_of_a_guest_s_result_he_signs_for_until_he_signs_it(season, alice, carol, members):
    """Gus has no account, so alice (the club's owner, who added him) signs for him: the sign-off message and the
    digest tell her, naming him, as her badge counts it (the waiting page's rule, results_to_sign); a result she
    signed before the digest is left out of it."""
    Preference.objects.create(user=alice, sign_off=Channel.EMAIL, language="nl")
    gus = player_guest_create(name="Gus", created_by=alice, club=season.league.club)
    entered = [
        results.result_enter(
            game="shitenno",
            played_on=TONIGHT - datetime.timedelta(days=day),
            season=season,
            user=carol,
            entries=[{"player": player_for_user(carol), "rank": 1}, {"player": gus, "rank": 2}],
        )
        for day in (1, 2)
    ]
    rows = Notification.objects.filter(recipient=alice, kind=Kind.SIGN_OFF).order_by("pk")
    assert [(row.payload["result"], row.payload["for"], row.payload["with"]) for row in rows] == [
        (result.pk, ["Gus"], ["carol"]) for result in entered
    ]
    assert not Notification.objects.filter(recipient=carol).exists()  # she entered them and signed her own
    assert worded(Kind.SIGN_OFF, rows[0].payload, "en")["body"] == "Edo Gamers, Thursday; for Gus, with carol"
    results.result_sign_off(result=entered[1], user=alice)
    assert digest.hourly(AT_SIX)["digests"] == 1
    body = mail.outbox[0].body
    assert mail.outbox[0].to == [alice.email] and mail.outbox[0].subject == "Shitennō: 1 ding voor jou"
    assert "Shitennō van 25 november wacht op je bevestiging" in body and "voor Gus, met carol" in body
    assert "24 november" not in body


def test_an_unsubscribe_link_works_for_90_days_then_says_it_is_too_old_and_changes_nothing(two_waiting, client, carol):
    """Issue 47: the link never expired. It now works for UNSUBSCRIBE_DAYS (every digest brings a new one); an older
    one is a 410 saying so, in the reader's language, with the way to the settings."""
    import time_machine

    from tests.clock import travel_to

    with travel_to(TONIGHT):
        token = unsubscribe_token(carol.pk)
    path = reverse("notifications:unsubscribe", args=[token])
    with travel_to(TONIGHT + datetime.timedelta(days=89)):
        assert client.get(path).status_code == 200
    with time_machine.travel(
        datetime.datetime.combine(TONIGHT + datetime.timedelta(days=91), datetime.time(20), tzinfo=datetime.UTC),
        tick=True,
    ):
        refused = client.post(path)
        dutch = client.get(path, headers={"Accept-Language": "nl"}).content.decode()
    assert refused.status_code == 410 and "more than 90 days old" in refused.content.decode()
    assert reverse("notifications:settings") in refused.content.decode()
    assert "meer dan 90 dagen oud" in dutch
    assert Preference.objects.get(user=carol).sign_off == Channel.EMAIL
    assert Notification.objects.filter(recipient=carol, state=Notification.State.DIGEST).count() == 2


def test_a_new_choice_voids_the_unsubscribe_links_mailed_before_it(two_waiting, client, carol):
    """Issue 47 finding 8: the links were not versioned. A link carries the person's choices as they stood; once
    he chooses again (here: the standings by e-mail too), the older link is a 410 saying why, changing nothing,
    and the next e-mail's link works."""
    old = reverse("notifications:unsubscribe", args=[unsubscribe_token(carol.pk)])
    assert client.get(old).status_code == 200
    Preference.objects.filter(user=carol).update(standings=Channel.EMAIL)
    refused = client.post(old)
    assert (
        refused.status_code == 410 and "before you last changed your notification choices" in refused.content.decode()
    )
    assert Preference.objects.get(user=carol).sign_off == Channel.EMAIL  # nothing stopped
    new = reverse("notifications:unsubscribe", args=[unsubscribe_token(carol.pk)])
    assert client.post(new).status_code == 200
    assert Preference.objects.get(user=carol).sign_off == Channel.NONE
