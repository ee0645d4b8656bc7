"""The forms that send mail are limited per address and per client (issue 47 finding 8: reset mails were
unthrottled, so the site could be made to mail an address again and again): the password reset, the sign-up and
the verification link again. Over a budget: a 429 page in the reader's language saying when to try again, with
Retry-After, and nothing sent or made. An address the site does not know is answered exactly as one it knows."""

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from leagues.jobs import outbox
from leagues.models import VerifiedAddress
from shitenno_site import rate_limits

pytestmark = pytest.mark.django_db

PASSWORD = "a long test passphrase 42"


def reset(client, email, ip="203.0.113.5", **headers):
    """The reset page asked, then the worker's part: the mail is queued in the outbox, not sent in the request."""
    response = client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=ip, **headers)
    outbox.sweep(older_than=0)
    return response


def test_reset_mails_to_one_address_stop_at_its_budget(client, alice):
    limit = rate_limits.PASSWORD_RESET.per_address
    for n in range(limit):  # from addresses of their own: the address's budget is what stops them
        assert reset(client, "alice@example.org", ip=f"203.0.113.{n + 1}").status_code == 302
    assert len(mail.outbox) == limit
    refused = reset(client, "alice@example.org", ip="198.51.100.7")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= rate_limits.PASSWORD_RESET.window
    page = refused.content.decode()
    assert "Try again in 60 minutes" in page and "Nothing was sent" in page
    assert len(mail.outbox) == limit  # nothing more was sent


def test_an_unknown_address_is_answered_as_a_known_one(client, alice):
    limit = rate_limits.PASSWORD_RESET.per_address
    known = [reset(client, "alice@example.org", ip=f"203.0.113.{n + 1}") for n in range(limit + 1)]
    unknown = [reset(client, "nobody@example.org", ip=f"203.0.113.{n + 101}") for n in range(limit + 1)]
    assert [r.status_code for r in known] == [r.status_code for r in unknown] == [302] * limit + [429]
    assert [r.get("Location") for r in known[:limit]] == [r.get("Location") for r in unknown[:limit]]
    assert abs(int(known[-1]["Retry-After"]) - int(unknown[-1]["Retry-After"])) <= 2
    said = [r.content.decode().split('role="alert">')[1].split("</p>")[0] for r in (known[-1], unknown[-1])]
    assert said[0] == said[1] and "alice" not in said[0] and "nobody" not in said[1]
    assert all(m.to == ["alice@example.org"] for m in mail.outbox) and len(mail.outbox) == limit


def test_one_client_asking_for_many_addresses_stops_at_its_budget(client, alice, bob):
    limit = rate_limits.PASSWORD_RESET.per_ip
    for n in range(limit):
        assert reset(client, f"someone{n}@example.org").status_code == 302
    assert reset(client, "alice@example.org").status_code == 429
    assert mail.outbox == []  # alice's mail was the one refused; the others' addresses are unknown
    assert reset(client, "bob@example.org", ip="198.51.100.9").status_code == 302  # another client is not held
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_the_429_page_in_dutch(client, alice):
    for n in range(rate_limits.PASSWORD_RESET.per_address):
        reset(client, "alice@example.org", ip=f"203.0.113.{n + 1}")
    page = reset(client, "alice@example.org", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Te veel verzoeken" in page and "Probeer het over 60 minuten opnieuw" in page


def sign_up(client, name, email, ip="203.0.113.5"):
    return client.post(
        reverse("sign_up"),
        {"username": name, "display_name": "", "email": email, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=ip,
    )


def test_sign_ups_with_one_address_stop_at_its_budget_and_make_no_account(client):
    limit = rate_limits.SIGN_UP.per_address
    for n in range(limit):
        client.logout()
        assert sign_up(client, f"victim{n}", "victim@example.org", ip=f"203.0.113.{n + 1}").status_code == 302
    client.logout()
    refused = sign_up(client, "victim9", "victim@example.org", ip="198.51.100.7")
    assert refused.status_code == 429 and "Try again in" in refused.content.decode()
    assert not get_user_model().objects.filter(username="victim9").exists()
    assert len(mail.outbox) == limit


def test_sign_ups_from_one_client_stop_at_its_budget(client):
    limit = rate_limits.SIGN_UP.per_ip
    for n in range(limit):
        client.logout()
        assert sign_up(client, f"bot{n}", f"bot{n}@example.org").status_code == 302
    client.logout()
    assert sign_up(client, "bot99", "bot99@example.org").status_code == 429
    assert not get_user_model().objects.filter(username="bot99").exists() and len(mail.outbox) == limit


def test_the_link_again_stops_at_its_budget(client, alice):
    VerifiedAddress.objects.filter(user=alice).delete()
    client.force_login(alice)
    limit = rate_limits.VERIFY_RESEND.per_address
    for _n in range(limit):
        assert client.post(reverse("email_link_again")).status_code == 302
    refused = client.post(reverse("email_link_again"))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert len(mail.outbox) == limit


def test_an_address_whose_link_could_not_be_sent_is_not_changed(client, alice):
    """The link budget used up from this connection: changing the address would leave one that cannot be
    confirmed for an hour, so the change is refused (429) before anything is written, and nothing is sent."""
    VerifiedAddress.objects.filter(user=alice).delete()
    client.force_login(alice)
    for _n in range(rate_limits.VERIFY_RESEND.per_address):
        assert client.post(reverse("email_link_again")).status_code == 302
    sent = len(mail.outbox)
    # the same address's budget is used up: a change back to it (or to one the connection has used up) waits
    refused = client.post(reverse("email_change"), {"email": "ALICE@example.org", "password": PASSWORD})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    alice.refresh_from_db()
    assert alice.email == "alice@example.org" and len(mail.outbox) == sent
    # another address still has its budget: changed, and its link sent
    moved = client.post(reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD})
    assert moved.status_code == 302
    alice.refresh_from_db()
    assert alice.email == "alice@new.example" and mail.outbox[-1].to == ["alice@new.example"]


def test_a_connection_past_its_link_budget_changes_no_address(client, alice):
    client.force_login(alice)
    limit = rate_limits.VERIFY_RESEND.per_ip
    for n in range(limit):  # links for other accounts' addresses, from one connection
        rate_limits.check(rate_limits.VERIFY_RESEND, ip="203.0.113.9", address=f"x{n}@example.org")
    refused = client.post(
        reverse("email_change"), {"email": "alice@new.example", "password": PASSWORD}, REMOTE_ADDR="203.0.113.9"
    )
    assert refused.status_code == 429
    alice.refresh_from_db()
    assert (
        alice.email == "alice@example.org" and mail.outbox == [] and VerifiedAddress.objects.filter(user=alice).exists()
    )


def test_clients_behind_a_trusted_proxy_are_told_apart(client, alice, settings):
    """Behind one proxy (TRUSTED_PROXIES=1) the client is the last X-Forwarded-For entry, as for the log-in lock-out;
    what a client writes further left does not move it to another budget."""
    settings.AXES_IPWARE_META_PRECEDENCE_ORDER = ("HTTP_X_FORWARDED_FOR",)
    settings.AXES_IPWARE_PROXY_ORDER, settings.AXES_IPWARE_PROXY_COUNT, settings.IPWARE_STRICT = "left-most", 0, False
    limit = rate_limits.PASSWORD_RESET.per_ip
    for n in range(limit):
        assert (
            client.post(
                reverse("password_reset"),
                {"email": f"x{n}@example.org"},
                REMOTE_ADDR="10.0.0.1",
                HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.5",
            ).status_code
            == 302
        )
    assert (
        client.post(
            reverse("password_reset"),
            {"email": "y@example.org"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="192.0.2.200, 203.0.113.5",
        ).status_code
        == 429
    )
    assert (
        client.post(
            reverse("password_reset"),
            {"email": "z@example.org"},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR="203.0.113.6",
        ).status_code
        == 302
    )
