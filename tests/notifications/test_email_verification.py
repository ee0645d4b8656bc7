"""E-mail verification (issue 47 finding 8: the site could be made to mail any address). A new account's address,
and a changed one, gets no notification mail until the signed link mailed there is opened and confirmed; the
account page says so and sends the link again."""

import datetime
import re

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from leagues.models import VerifiedAddress
from leagues.models.accounts import address_verified
from leagues.notifications import digest
from leagues.notifications.models import Channel, Notification, Preference
from leagues.people import verification
from leagues.people.players import player_for_user
from leagues.result import results
from tests.clock import travel_to

from .conftest import TONIGHT

pytestmark = pytest.mark.django_db

PASSWORD = "a long test passphrase 42"
AT_SIX = datetime.datetime.combine(TONIGHT, datetime.time(18, 5)).astimezone()


def sign_up(client, name="erin", email="erin@example.org", **headers):
    return client.post(
        reverse("sign_up"),
        {"username": name, "display_name": "", "email": email, "password1": PASSWORD, "password2": PASSWORD},
        **headers,
    )


def link_in(message) -> str:
    return re.search(r"https?://\S+(/accounts/verify/\S+/)", message.body).group(1)


def test_sign_up_mails_a_link_and_the_address_is_unverified_until_it_is_confirmed(client, settings):
    settings.SITE_NAME, settings.SITE_URL = "Edo Leagues", "https://leagues.example.org"
    assert sign_up(client).status_code == 302
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["erin@example.org"] and sent.subject == "Edo Leagues: confirm your e-mail address"
    assert "Edo Leagues" in sent.body and "https://leagues.example.org/accounts/verify/" in sent.body
    assert "127.0.0.1" not in sent.body and "testserver" not in sent.body
    user = VerifiedAddress._meta.get_field("user").related_model.objects.get(username="erin")
    assert not address_verified(user)
    path = link_in(sent)
    client.logout()  # the link works without logging in
    page = client.get(path)
    assert page.status_code == 200 and "erin@example.org" in page.content.decode()
    assert not address_verified(user)  # opening it (a mail scanner) verifies nothing
    assert client.post(path).status_code == 200
    assert address_verified(user)


def test_the_mail_and_its_page_in_dutch(client):
    sign_up(client, HTTP_ACCEPT_LANGUAGE="nl")
    sent = mail.outbox[0]
    assert sent.subject == "Shitennō: bevestig je e-mailadres"
    assert "Hallo erin" in sent.body and "confirm" not in sent.body
    page = client.get(link_in(sent), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Bevestig het adres" in page


@pytest.fixture
def erin_unverified(season, alice, carol, django_user_model):
    """erin, a member who signed up and never opened her link, chose sign-offs by e-mail; a result waits for her."""
    from leagues.club.clubs import club_join
    from leagues.people.players import user_sign_up

    erin = user_sign_up(username="erin", email="erin@example.org", password=PASSWORD)
    club_join(token=season.league.club.invite_token, user=erin)
    Preference.objects.create(user=erin, sign_off=Channel.EMAIL)
    results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(erin), "rank": 2}],
    )
    assert Notification.objects.filter(recipient=erin, state=Notification.State.DIGEST).count() == 1
    return erin


def test_an_unverified_address_gets_no_digest_until_it_is_verified(erin_unverified, client):
    assert digest.send_digests(AT_SIX) == 0
    assert mail.outbox == []
    row = Notification.objects.get(recipient=erin_unverified)
    assert row.state == Notification.State.DIGEST  # it waits, shown on the badge and pages meanwhile
    token = verification.token_for(erin_unverified)
    assert client.post(reverse("verify_email", args=[token])).status_code == 200
    assert digest.send_digests(AT_SIX) == 1
    assert mail.outbox[0].to == ["erin@example.org"]


def test_an_unverified_address_gets_no_your_table_mail_at_once(opened_round, alice, carol):
    from leagues.jobs import outbox
    from leagues.nights import services as nights

    VerifiedAddress.objects.filter(user=carol).delete()
    Preference.objects.create(user=carol, your_table=Channel.EMAIL)
    nights.tables_open(night_round=opened_round, user=alice)
    outbox.sweep(older_than=0)
    assert [m for m in mail.outbox if m.to == [carol.email]] == []
    assert Notification.objects.get(recipient=carol).state == Notification.State.DROPPED


def test_a_changed_address_needs_verifying_again_and_the_old_link_is_void(client, alice):
    old = verification.token_for(alice)
    client.force_login(alice)
    assert address_verified(alice)
    response = client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@new.example" and not address_verified(alice)
    assert [m.to for m in mail.outbox] == [["alice@new.example"]]
    assert client.post(reverse("verify_email", args=[old])).status_code == 400  # for the old address
    assert not address_verified(alice)
    assert client.post(link_in(mail.outbox[0])).status_code == 200
    alice.refresh_from_db()
    assert address_verified(alice)


def test_a_wrong_password_changes_no_address(client, alice):
    client.force_login(alice)
    response = client.post(reverse("email_change"), {"email": "eve@example.org", "password": "not it at all"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    alice.refresh_from_db()
    assert alice.email == "alice@example.org" and address_verified(alice) and mail.outbox == []


def test_an_old_or_forged_link_is_refused_and_verifies_nothing(client):
    from leagues.people.players import user_sign_up

    erin = user_sign_up(username="erin", email="erin@example.org", password=PASSWORD)
    with travel_to(TONIGHT):
        token = verification.token_for(erin)
    with time_machine.travel(timezone.now() + datetime.timedelta(days=verification.VERIFY_DAYS + 1)):
        expired = client.post(reverse("verify_email", args=[token]))
    assert expired.status_code == 410 and "no longer works" in expired.content.decode()
    fresh = verification.token_for(erin)
    for bad in (
        fresh[:-2],
        fresh.replace(fresh.split(":")[0], verification.token_for(erin).split(":")[0] + "x"),
        "nonsense",
    ):
        assert client.post(reverse("verify_email", args=[bad])).status_code == 400
    assert not address_verified(erin)


def test_the_account_page_says_unverified_and_sends_the_link_again(client, erin_unverified):
    client.force_login(erin_unverified)
    page = client.get(reverse("account")).content.decode()
    assert "not confirmed yet" in page and "Send the link again" in page
    assert client.post(reverse("email_link_again")).status_code == 302
    assert [m.to for m in mail.outbox] == [["erin@example.org"]]
    client.post(link_in(mail.outbox[0]))
    page = client.get(reverse("account"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "bevestigd" in page and "Stuur de link opnieuw" not in page


def test_the_notification_settings_say_an_unverified_address_gets_nothing(client, erin_unverified, alice):
    client.force_login(erin_unverified)
    url = reverse("notifications:settings")
    assert "not confirmed yet" in client.get(url).content.decode()
    assert "nog niet bevestigd" in client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    client.force_login(alice)
    assert "not confirmed yet" not in client.get(url).content.decode()


def test_a_verified_address_is_sent_no_link(client, alice):
    client.force_login(alice)
    assert client.post(reverse("email_link_again")).status_code == 302
    assert mail.outbox == []


def test_the_migration_s_rule_existing_addresses_are_verified(django_user_model):
    """Migration 0035 marks the addresses of accounts made before verification verified (its function, run on the
    accounts as they are): an account without an address gets no row."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("leagues.migrations.0035_verified_address")
    old = django_user_model.objects.create_user("old", "old@example.org", PASSWORD)
    none = django_user_model.objects.create_user("none", "", PASSWORD)
    migration.existing_addresses_verified(apps, None)
    assert address_verified(old) and not VerifiedAddress.objects.filter(user=none).exists()


def test_the_verified_address_goes_with_a_deleted_account(alice, bob):
    from leagues.people import account_deletion

    assert VerifiedAddress.objects.filter(user=bob).exists()
    account_deletion.account_delete(user=bob, password=PASSWORD)
    assert not VerifiedAddress.objects.filter(email="bob@example.org").exists()
    assert VerifiedAddress.objects.filter(user=alice).exists()


def test_the_api_says_whether_the_address_is_verified(api, alice):
    assert api.login(alice).get("/api/me/").json()["email_verified"] is True
    VerifiedAddress.objects.filter(user=alice).delete()
    assert api.get("/api/me/").json()["email_verified"] is False
