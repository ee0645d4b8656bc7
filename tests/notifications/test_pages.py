"""Each person's choices and devices (issue 39): one settings page, EN + NL; the device endpoint the page's script
calls after "Turn on"; the nav's "to sign" badge; signing out of a device stops its pushes."""

import datetime
import json
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from leagues.notifications.models import Preference, PushSubscription
from leagues.people.players import player_for_user
from leagues.result import results

SUBSCRIPTION = {"endpoint": "https://push.example/send/abc", "keys": {"p256dh": "B" * 87, "auth": "a" * 22}}


@pytest.fixture
def push_on(settings):
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "k", "BPub", "mailto:a@b.c"


def test_the_defaults_push_your_table_and_sign_offs_where_the_site_can_push(client, alice, settings):
    client.force_login(alice)
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY, settings.VAPID_SUBJECT = "private", "public", "mailto:a@b"
    form = client.get(reverse("notifications:settings")).context["form"]
    assert {name: form[name].value() for name in ("your_table", "sign_off", "dispute", "standings")} == {
        "your_table": "push",
        "sign_off": "push",
        "dispute": "none",
        "standings": "none",
    }


def test_a_site_that_cannot_push_preselects_e_mail_instead(client, alice):
    """Issue 47 finding 3: push was preselected on a site with no push keys, and a member who kept the defaults
    got nothing (his messages dropped). Nothing is preselected that the site cannot deliver."""
    from leagues.notifications import services
    from leagues.notifications.models import Preference

    client.force_login(alice)
    page = client.get(reverse("notifications:settings"))
    form = page.context["form"]
    assert {name: form[name].value() for name in ("your_table", "sign_off", "dispute", "standings")} == {
        "your_table": "email",
        "sign_off": "email",
        "dispute": "none",
        "standings": "none",
    }
    assert "Phone notifications are not set up on this site yet" in page.content.decode()  # no VAPID keys here
    assert not Preference.objects.filter(user=alice).exists()  # she chose nothing: the messages follow the default
    assert services._channels([alice.pk], "sign_off") == {alice.pk: "email"}


@pytest.mark.parametrize(
    ("language", "says"),
    [
        (
            "en",
            "Phone notifications are not set up on this site yet. Choose e-mail below for what you want to hear about.",
        ),
        (
            "nl",
            "Pushberichten op je telefoon zijn op deze site nog niet ingesteld. Kies hieronder voor e-mail voor "
            "waarover je bericht wilt krijgen.",
        ),
    ],
)
def test_push_not_set_up_is_said_in_the_member_s_words_not_the_operator_s(client, alice, language, says):
    """The keys and their setting names are for whoever runs the site (docs/notifications.md, Production)."""
    client.force_login(alice)
    client.cookies["django_language"] = language
    body = client.get(reverse("notifications:settings"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert says in body
    assert "VAPID" not in body and "data-push-on" not in body


def test_the_page_s_title_is_only_its_name(client, club, alice):
    client.force_login(alice)  # she owns the club: the page lists her clubs' hours, in the page and not its title
    body = client.get(reverse("notifications:settings")).content.decode()
    assert re.search(r"<title>([^<]*)</title>", body).group(1).startswith("Notifications")
    assert body.count(reverse("notifications:club_hours", args=[club.slug])) == 1


def test_a_member_chooses_per_kind_in_dutch(client, alice):
    client.force_login(alice)
    client.cookies["django_language"] = "nl"
    page = client.get(reverse("notifications:settings"), HTTP_ACCEPT_LANGUAGE="nl")
    assert "Waarover je bericht krijgt, en hoe" in page.content.decode()
    answer = client.post(
        reverse("notifications:settings"),
        {"your_table": "push", "sign_off": "email", "dispute": "email", "standings": "none"},
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert answer.status_code == 302
    preference = Preference.objects.get(user=alice)
    assert (preference.sign_off, preference.dispute, preference.language) == ("email", "email", "nl")


def test_a_bad_choice_is_refused_and_nothing_is_saved(client, alice):
    client.force_login(alice)
    answer = client.post(
        reverse("notifications:settings"),
        {"your_table": "pigeon", "sign_off": "email", "dispute": "email", "standings": "none"},
    )
    assert answer.status_code == 200 and answer.context["form"].errors["your_table"]
    assert not Preference.objects.exists()


def test_the_page_offers_turn_on_when_push_is_configured(client, alice, push_on):
    client.force_login(alice)
    body = client.get(reverse("notifications:settings")).content.decode()
    assert 'data-vapid-key="BPub"' in body and "data-push-on" in body and "js/notifications.js" in body


def test_a_device_subscribes_once_and_turns_off(client, alice, push_on):
    client.force_login(alice)
    url = reverse("notifications:devices")
    for _ in range(2):  # the page may send it twice: one row
        assert client.post(url, SUBSCRIPTION, content_type="application/json").status_code == 201
    assert PushSubscription.objects.filter(user=alice).count() == 1
    assert client.delete(url, SUBSCRIPTION, content_type="application/json").status_code == 204
    assert not PushSubscription.objects.exists()


KEYS = SUBSCRIPTION["keys"]


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[]",
        b'{"endpoint": "ftp://x", "keys": {}}',
        b'{"endpoint": "https://push.example/x", "keys": {"p256dh": "short"}}',
        # the worker would post there: never plain http, an address on the site's own network, or a bare name
        *(
            json.dumps({"endpoint": url, "keys": KEYS}).encode()
            for url in (
                "http://push.example/x",
                "https://127.0.0.1:8000/admin/",
                "https://10.0.0.7/x",
                "https://[::1]/x",
                "https://localhost/x",
                "https://redis/x",
            )
        ),
    ],
)
def test_a_malformed_subscription_is_a_400_and_writes_nothing(client, alice, push_on, body):
    client.force_login(alice)
    answer = client.post(reverse("notifications:devices"), body, content_type="application/json")
    assert answer.status_code == 400 and "push subscription" in answer.json()["detail"]
    assert not PushSubscription.objects.exists()


def test_no_device_without_push_configured_or_without_logging_in(client, alice):
    url = reverse("notifications:devices")
    assert client.post(url, SUBSCRIPTION, content_type="application/json").status_code == 401
    client.force_login(alice)
    assert client.post(url, SUBSCRIPTION, content_type="application/json").status_code == 409
    assert not PushSubscription.objects.exists()


def test_signing_out_of_a_device_removes_its_subscription_only(client, alice, push_on):
    other = PushSubscription.objects.create(
        user=alice,
        endpoint="https://push.example/tablet",
        p256dh="B" * 87,
        auth="a" * 22,
        session_key="another-session",
    )
    client.force_login(alice)
    client.post(reverse("notifications:devices"), SUBSCRIPTION, content_type="application/json")
    assert PushSubscription.objects.count() == 2
    client.post(reverse("logout"))
    assert list(PushSubscription.objects.all()) == [other]


def test_the_nav_counts_what_waits_for_my_sign_off_and_links_to_it(client, club, alice, carol):
    from leagues.club import seasons

    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    today = timezone.localdate()
    season = seasons.season_create(
        league=league,
        name="Now",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=30),
        user=alice,
    )
    for day in (1, 2):
        results.result_enter(
            game="shitenno",
            played_on=today - datetime.timedelta(days=day),
            season=season,
            user=alice,
            entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
        )
    client.force_login(carol)
    with translation.override("en"):
        body = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("results_waiting")}">2 to sign</a>' in body  # the one sign-off page (issue 34)
    client.force_login(alice)  # alice signed both when she entered them
    assert "to sign</a>" not in client.get(reverse("home")).content.decode()
    client.force_login(carol)
    assert client.get(reverse("notifications:to_sign")).url == reverse("results_waiting")  # old messages' links
    page = client.get(reverse("results_waiting"))
    assert len(page.context["awaiting"]) == 2 and "Sign off" in page.content.decode()
    results.result_sign_off(result=page.context["awaiting"][0], user=carol)
    assert ">1 to sign</a>" in client.get(reverse("home")).content.decode()


def test_a_club_s_owner_sets_its_hours_and_a_member_cannot(client, club, alice, carol, dave):
    from leagues.notifications.models import ClubHours

    url = reverse("notifications:club_hours", args=[club.slug])
    client.force_login(alice)
    assert url in client.get(reverse("notifications:settings")).content.decode()  # linked for her club
    answer = client.post(url, {"digest_hour": "7", "quiet_from": "22", "quiet_until": "9"})
    assert answer.status_code == 302
    assert ClubHours.objects.filter(club=club).values_list("digest_hour", "quiet_from", "quiet_until").get() == (
        7,
        22,
        9,
    )
    client.force_login(carol)  # a member, not an admin
    assert url not in client.get(reverse("notifications:settings")).content.decode()
    assert client.post(url, {"digest_hour": "3", "quiet_from": "0", "quiet_until": "0"}).status_code == 403
    client.force_login(dave)  # not a member: the club is not his to know of
    assert client.get(url).status_code == 404
    assert client.post(url, {"digest_hour": "25", "quiet_from": "0", "quiet_until": "0"}).status_code == 404
    client.force_login(alice)
    assert client.post(url, {"digest_hour": "25", "quiet_from": "0", "quiet_until": "0"}).status_code == 200
    assert ClubHours.objects.get(club=club).digest_hour == 7  # refusals changed nothing
