"""A dispute settled before its e-mail goes out is not mailed (issue 47 finding 7: the evening's digest still told
of a dispute the manager had settled that afternoon, its link's anchor gone); one that still stands is, and its
link opens a page where the anchor is."""

import datetime

import pytest
from django.core import mail

from leagues.models import Result
from leagues.notifications import digest
from leagues.notifications.models import Channel, Kind, Notification, Preference
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT

AT_SIX = datetime.datetime.combine(TONIGHT, datetime.time(18, 5)).astimezone()


@pytest.fixture
def disputed(season, alice, bob, carol, members):
    """carol recorded a game with bob; bob disputes it before it counts. alice, the club's owner, gets disputes in
    her digest."""
    Preference.objects.create(user=alice, dispute=Channel.EMAIL)
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    results.result_sign_off(result=result, user=bob, agreed=False, note="I won that game")
    result.refresh_from_db()
    assert result.status == Result.Status.DISPUTED
    assert Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).state == Notification.State.DIGEST
    return result


def dispute_mails(user):
    return [m for m in mail.outbox if m.to == [user.email] and "disputes" in m.body]


def anchor_on_page(client, user, url) -> bool:
    path, anchor = url.split("#")
    client.force_login(user)
    return f'id="{anchor}"' in client.get(path).content.decode()


def test_a_dispute_still_standing_is_mailed_and_its_anchor_is_on_the_page(disputed, client, alice, settings):
    settings.SITE_URL = "https://shitenno.example"
    assert digest.send_digests(AT_SIX) == 1
    body = dispute_mails(alice)[0].body
    url = Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).payload["url"]
    assert f"https://shitenno.example{url}" in body and "I won that game" in body
    assert anchor_on_page(client, alice, url)


def test_a_dispute_the_disputer_withdrew_is_not_mailed(disputed, alice, bob):
    results.result_sign_off(result=disputed, user=bob, agreed=True)
    assert digest.send_digests(AT_SIX) == 0
    assert mail.outbox == []
    assert Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).state == Notification.State.DROPPED


def test_a_dispute_answered_by_a_correction_is_not_mailed(disputed, alice, bob, carol):
    results.result_update(
        result=disputed,
        version=disputed.version,
        user=alice,
        entries=[{"player": player_for_user(bob), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    assert digest.send_digests(AT_SIX) == 0 and mail.outbox == []
    assert Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).state == Notification.State.DROPPED


def test_a_disputed_result_deleted_is_not_mailed(disputed, alice):
    results.result_delete(result=disputed, version=disputed.version, user=alice)
    assert digest.send_digests(AT_SIX) == 0 and mail.outbox == []
    assert Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).state == Notification.State.DROPPED


def test_the_disputed_row_stays_on_the_page_behind_many_newer_results(disputed, client, season, alice, carol, bob):
    for _n in range(25):  # newer results waiting for sign-off push the dispute past the list's first 20
        results.result_enter(
            game="shitenno",
            played_on=TONIGHT,
            season=season,
            user=carol,
            entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
        )
    url = Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).payload["url"]
    assert anchor_on_page(client, alice, url)


@pytest.fixture
def flagged(season, alice, bob, carol, members):
    """A result that counts, recorded by carol (a plain member); bob flags it. carol and alice get disputes by
    e-mail."""
    for user in (alice, carol):
        Preference.objects.create(user=user, dispute=Channel.EMAIL)
    result = results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    results.result_sign_off(result=result, user=bob)
    results.result_sign_off(result=result, user=bob, agreed=False, note="wrong scores")
    result.refresh_from_db()
    assert result.status == Result.Status.COUNTED and result.flagged_by == bob
    return result


def test_a_flag_a_manager_confirmed_is_not_mailed(flagged, alice, carol):
    results.result_update(result=flagged, version=flagged.version, user=alice)  # saved unchanged: confirmed
    assert digest.send_digests(AT_SIX) == 0 and mail.outbox == []
    assert set(Notification.objects.filter(kind=Kind.DISPUTE).values_list("state", flat=True)) == {"dropped"}


def test_a_flag_still_standing_leads_each_reader_to_a_page_that_has_its_link(flagged, client, alice, carol):
    """The manager's link opens the result's row under "disputed after counting"; the recorder (no manager, who
    does not see that list) is led to the league page itself, not to an anchor it lacks."""
    assert digest.send_digests(AT_SIX) == 2
    manager = Notification.objects.get(kind=Kind.DISPUTE, recipient=alice).payload["url"]
    recorder = Notification.objects.get(kind=Kind.DISPUTE, recipient=carol).payload["url"]
    assert manager.endswith(f"#result-{flagged.pk}") and anchor_on_page(client, alice, manager)
    assert "#" not in recorder and recorder == manager.split("#")[0]
    assert len(dispute_mails(alice)) == len(dispute_mails(carol)) == 1


def test_a_flag_on_an_older_result_finds_its_row_however_many_newer_were_flagged(
    flagged, client, alice, bob, carol, monkeypatch
):
    """Issue 47: the managers' list of disputes after counting showed the latest 20 and no more; it now pages
    ("Show more"), and a dispute's link names its result, whose row the page then lists first."""
    from leagues.result import views as result_views

    monkeypatch.setattr(result_views, "FLAGGED_PAGE", 2)
    newer = []
    for n in range(3):  # three later games, each flagged too: the first one is the oldest of four
        result = results.result_enter(
            game="shitenno",
            played_on=TONIGHT,
            season=flagged.season,
            user=carol,
            entries=[{"player": player_for_user(carol), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
        )
        results.result_sign_off(result=result, user=bob)
        results.result_sign_off(result=result, user=bob, agreed=False, note=f"wrong scores {n}")
        newer.append(result)
    client.force_login(alice)
    league_page = f"/leagues/{flagged.season.league_id}/"
    page = client.get(league_page).content.decode()
    assert f'id="result-{newer[2].pk}"' in page and f'id="result-{newer[1].pk}"' in page
    assert f'id="result-{flagged.pk}"' not in page and 'href="?flagged=2' in page  # the oldest is on page 2
    more = client.get(league_page, {"flagged": "2", "season": flagged.season_id}, HTTP_HX_REQUEST="true")
    assert f'id="result-{newer[0].pk}"' in more.content.decode() and "<html" not in more.content.decode()
    url = Notification.objects.filter(kind=Kind.DISPUTE, recipient=alice).order_by("pk").first().payload["url"]
    assert f"?result={flagged.pk}#result-{flagged.pk}" in url and anchor_on_page(client, alice, url)
    assert client.get(league_page, {"result": "x"}).status_code == 400
