"""A push names the account it is for (issue 47, finding 2): the same opaque tag the account's pages carry
(X-Shitenno-Account), so that a shared phone's service worker shows it only while that account is signed in there.
The tag says nothing about who it is (no name, no id), and two accounts never share one."""

from unittest import mock

import pytest

from leagues.jobs import outbox
from leagues.people.players import player_for_user
from leagues.result import results
from shitenno_site.offline import account_tag
from tests.notifications.test_web_push import Browser, PushService, vapid  # noqa: F401 (fixtures)

from .conftest import TONIGHT


@pytest.fixture
def service():
    service = PushService()
    yield service
    service.close()


def test_the_push_carries_the_recipient_s_account_tag_and_nothing_of_who_he_is(
    season, alice, bob, members, vapid, service, settings
):  # noqa: F811
    settings.PUSH_LOCAL_ENDPOINTS = True  # the test's push service is plain http on this machine
    phone = Browser(service, "bob-phone")
    phone.subscribe(bob)
    with mock.patch.object(outbox, "publish"):
        results.result_enter(
            game="shitenno",
            played_on=TONIGHT,
            season=season,
            user=alice,
            entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
        )
        outbox.sweep(older_than=0)
    message = phone.decrypt(service.received[0])
    assert message["account"] == account_tag(bob) != account_tag(alice)
    assert str(bob.pk) != message["account"] and "bob" not in message["account"]
