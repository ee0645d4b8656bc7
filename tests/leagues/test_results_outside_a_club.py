"""Who a result outside any club may name (issue 47 finding 6). Anyone could record results outside a club naming
any player: 20 in a row gave a stranger "20 to sign", each with a guest named "Visit shitenno-prize.example to
verify", on his badge and his waiting page. Outside a club the recorder now names only himself, guests he added
and people he already plays with (who share a club with him, or sat at a table of the site with him); anyone
else is refused with a 400 that says so, and nothing is written."""

import html

import pytest
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from leagues.club import clubs
from leagues.common import selectors
from leagues.models import Result
from leagues.people.players import player_for_user, player_guest_create
from tests.games.tables import two_player_setup

SPAM = "Visit shitenno-prize.example to verify"
REFUSED = {
    "en": "Outside a club you may name only yourself, guests you added and people you share a club or a table with",
    "nl": "Buiten een club mag je alleen jezelf noemen, gasten die je hebt toegevoegd en mensen met wie je "
    "een club of een tafel deelt",
}


def _post(api, players, language="en"):
    return api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": timezone.localdate().isoformat(),
            "entries": [{"player": p.pk, "rank": rank} for rank, p in enumerate(players, start=1)],
        },
        headers={"Accept-Language": language},
    )


@pytest.mark.parametrize("language", ["en", "nl"])
def test_twenty_results_naming_a_stranger_are_refused_and_his_waiting_list_stays_empty(
    api, client, dave, bob, language
):
    spam = player_guest_create(name=SPAM, created_by=dave)
    stranger = player_for_user(bob)  # bob shares no club and no table with dave
    api.login(dave)
    for _ in range(20):
        refused = _post(api, [spam, stranger], language)
        assert refused.status_code == 400, refused.content
        said = refused.json()["errors"]["entries"][0]
        assert REFUSED[language] in said and stranger.name in said
    assert not Result.objects.exists()
    assert not selectors.results_to_sign(bob).exists()
    client.force_login(bob)
    page = html.unescape(client.get(reverse("results_waiting")).content.decode())
    assert SPAM not in page


def test_he_may_name_himself_his_guests_his_club_and_who_sat_at_his_table(api, alice, bob, carol, dave, club):
    guest = player_guest_create(name="Hanzo", created_by=alice)
    api.login(alice)
    assert _post(api, [player_for_user(alice), guest]).status_code == 201  # his own guest
    assert _post(api, [player_for_user(alice), player_for_user(carol)]).status_code == 201  # his club's member
    assert _post(api, [player_for_user(alice), player_for_user(bob)]).status_code == 400  # nobody to him yet
    game_services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        players=[player_for_user(alice), player_for_user(bob)],
    )
    assert _post(api, [player_for_user(alice), player_for_user(bob)]).status_code == 201  # they sat at a table
    assert _post(api, [player_for_user(carol), player_for_user(bob)]).status_code == 201  # both known to him
    assert Result.objects.count() == 4


def test_a_stranger_once_in_the_recorders_club_may_be_named(api, alice, dave, club):
    api.login(alice)
    assert _post(api, [player_for_user(alice), player_for_user(dave)]).status_code == 400
    clubs.club_join(token=club.invite_token, user=dave)
    assert _post(api, [player_for_user(alice), player_for_user(dave)]).status_code == 201
