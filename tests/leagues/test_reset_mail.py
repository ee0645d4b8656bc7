"""The password-reset mail speaks as the site (issue 47, finding 7): Django's default was signed "The
127.0.0.1:8101 team", the host the request came by. Now the site's name and address come from settings, in the
language of the page the reset was asked from, and its link still sets a new password. It is sent by the league
jobs' outbox, not inside the request (issue 47: the request's time told whether an address had an account).
"""

import re

import pytest
from django.core import mail

from leagues.jobs import outbox
from leagues.models import LeagueJob

pytestmark = pytest.mark.django_db


def run_outbox() -> None:
    """What the worker does with the outbox's rows (their hint, or the sweep)."""
    outbox.sweep(older_than=0)


def _ask(client, **headers):
    response = client.post("/accounts/password_reset/", {"email": "alice@example.org"}, **headers)
    assert response.status_code == 302
    run_outbox()
    assert len(mail.outbox) == 1
    return mail.outbox[0]


def test_the_request_queues_the_mail_and_sends_none_itself_for_a_known_or_an_unknown_address(client, alice):
    """Both answers take the same path: a row in the outbox, no mail sent in the request; the worker's job then
    mails the account that has the address, and nobody for the other."""
    for address in ("alice@example.org", "nobody@example.org"):
        response = client.post("/accounts/password_reset/", {"email": address})
        assert response.status_code == 302 and response.url == "/accounts/password_reset/done/"
        assert mail.outbox == []
    queued = list(LeagueJob.objects.filter(job=LeagueJob.Job.PASSWORD_RESET).values_list("target", flat=True))
    assert sorted(target.rsplit(" ", 1)[1] for target in queued) == ["alice@example.org", "nobody@example.org"]
    run_outbox()
    assert [sent.to for sent in mail.outbox] == [["alice@example.org"]]
    assert not LeagueJob.objects.filter(job=LeagueJob.Job.PASSWORD_RESET).exists()


def test_the_mail_names_the_site_from_settings_not_the_host(client, alice, settings):
    settings.SITE_NAME, settings.SITE_URL = "Edo Leagues", "https://leagues.example.org"
    sent = _ask(client, HTTP_HOST="127.0.0.1")
    assert sent.subject == "Edo Leagues: reset your password"
    assert "Edo Leagues" in sent.body and "alice" in sent.body
    assert "127.0.0.1" not in sent.body and "team" not in sent.body and "testserver" not in sent.body
    link = re.search(r"https://leagues\.example\.org(/accounts/reset/\S+/\S+/)", sent.body).group(1)
    form_url = client.get(link).url
    new = "reset long passphrase"
    assert client.post(form_url, {"new_password1": new, "new_password2": new}).status_code == 302
    alice.refresh_from_db()
    assert alice.check_password(new)


def test_the_mail_is_in_dutch_when_asked_in_dutch(client, alice, settings):
    settings.SITE_NAME = "Shitennō"
    sent = _ask(client, HTTP_ACCEPT_LANGUAGE="nl")
    assert sent.subject == "Shitennō: stel je wachtwoord opnieuw in"
    assert "nieuw wachtwoord" in sent.body and "Reset" not in sent.body and "password" not in sent.body


def test_an_unknown_address_gets_no_mail(client, alice):
    response = client.post("/accounts/password_reset/", {"email": "nobody@example.org"})
    run_outbox()
    assert response.status_code == 302 and mail.outbox == []


def test_the_mail_is_in_the_reader_s_own_language_when_he_chose_one(client, alice):
    """alice's messages are worded in Dutch (her notification choices): her reset mail too, though it was asked
    from an English page."""
    from leagues.notifications.models import Preference

    Preference.objects.create(user=alice, language="nl")
    sent = _ask(client, HTTP_ACCEPT_LANGUAGE="en")
    assert sent.subject == "Shitennō: stel je wachtwoord opnieuw in" and "nieuw wachtwoord" in sent.body


def test_an_unverified_address_still_gets_the_reset_it_asks_for(client, alice):
    """The account's one way back in (docs/security.md, "Mail"): limited, not refused."""
    from leagues.models import VerifiedAddress

    VerifiedAddress.objects.filter(user=alice).delete()
    assert _ask(client).to == ["alice@example.org"]
