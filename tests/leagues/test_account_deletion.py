"""Deleting one's account (issue 47 finding 8): the account and its personal data go, the games he played stay
counted for the others under an anonymous name, and a club would not be left without an owner."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from rest_framework.authtoken.models import Token

from leagues.models import Membership, Player, Rating, Standing
from leagues.notifications.models import Preference, PushSubscription
from leagues.people import account_deletion, players
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store
from tests.conftest import PASSWORD
from tests.leagues.league_helpers import enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def played(club, alice, bob, carol):
    """alice's public league: carol ("Carol Voss") played two counted games with alice and bob."""
    club.members_public = True
    club.save()
    join(club, bob)
    league, season = league_with_season(club, alice)
    players.player_rename(user=carol, name="Carol Voss")
    sign_all(enter(season, alice, [(carol, 1, 30), (bob, 2, 20), (alice, 3, 10)], days_ago=3), bob, carol)
    sign_all(enter(season, alice, [(alice, 1, 31), (carol, 2, 21), (bob, 3, 11)], days_ago=2), bob, carol)
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    standings_store.standings_compute(season=season)
    PushSubscription.objects.create(user=carol, endpoint="https://push.example/carol", p256dh="x" * 40, auth="y" * 16)
    Preference.objects.create(user=carol, sign_off="email")
    Token.objects.create(user=carol)
    return league, season


def table(season):
    """The season's standings and every rating, by player id: what nobody else's deletion may change."""
    return (
        sorted(Standing.objects.filter(season=season).values_list("player_id", "points", "games", "wins")),
        sorted(Rating.objects.values_list("kind", "key", "player_id", "mu", "sigma", "games")),
    )


def everything_of(user):
    player = Player.objects.get(user=user)
    return (
        User.objects.filter(pk=user.pk).count(),
        player.name,
        sorted(Membership.objects.filter(player=player).values_list("club_id", "role")),
        PushSubscription.objects.filter(user=user).count(),
        Token.objects.filter(user=user).count(),
        Preference.objects.filter(user=user).count(),
    )


def test_deleting_keeps_the_standings_and_ratings_and_shows_an_anonymous_name(client, played, alice, carol):
    league, season = played
    player = Player.objects.get(user=carol)
    before = table(season)
    client.force_login(carol)
    response = client.post("/accounts/me/delete/", {"password": PASSWORD})
    assert response.status_code == 302

    assert not User.objects.filter(username="carol").exists()
    signing_in = client.post("/accounts/login/", {"username": "carol", "password": PASSWORD})
    assert signing_in.status_code != 302 and "_auth_user_id" not in client.session
    player.refresh_from_db()
    assert player.name == f"Former player {player.pk}" and player.user_id is None
    assert not Membership.objects.filter(player=player).exists()
    assert not PushSubscription.objects.filter(endpoint="https://push.example/carol").exists()
    assert not Token.objects.filter(user_id=carol.pk).exists() and not Preference.objects.filter(user_id=carol.pk)
    assert table(season) == before
    standings_store.standings_compute(season=season)  # and so does the table computed again from the results
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    assert table(season) == before

    client.force_login(alice)
    page = client.get(f"/leagues/{league.pk}/?season={season.pk}").content.decode()
    assert f"Former player {player.pk}" in page
    assert "Carol Voss" not in page and "carol" not in page.lower()


def test_deleting_ends_every_session_and_the_api_token(client, played, carol):
    from django.test import Client

    phone = Client()
    phone.force_login(carol)
    assert phone.get("/api/me/").status_code == 200
    client.force_login(carol)
    client.post("/accounts/me/delete/", {"password": PASSWORD})
    assert phone.get("/api/me/").status_code in (401, 403)
    assert not [s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(carol.pk)]


def test_a_wrong_password_deletes_nothing(client, played, carol):
    _league, season = played
    before, mine = table(season), everything_of(carol)
    client.force_login(carol)
    response = client.post("/accounts/me/delete/", {"password": "not my password"})
    assert response.status_code == 400 and "not your password" in response.content.decode()
    assert everything_of(carol) == mine and table(season) == before


def test_the_only_owner_of_a_club_is_told_to_hand_it_over_and_nothing_changes(client, played, alice, carol):
    _league, season = played
    before, mine = table(season), everything_of(alice)
    client.force_login(alice)
    page = client.get("/accounts/me/delete/").content.decode()
    assert "You are the only owner of" in page and "Edo Gamers" in page
    response = client.post("/accounts/me/delete/", {"password": PASSWORD})
    assert response.status_code == 409
    assert "Make another member an owner first" in response.content.decode()
    assert everything_of(alice) == mine and table(season) == before

    Membership.objects.filter(player__user=carol).update(role=Membership.Role.OWNER)  # handed over
    assert client.post("/accounts/me/delete/", {"password": PASSWORD}).status_code == 302
    assert not User.objects.filter(username="alice").exists() and table(season)[0] == before[0]


def test_the_page_speaks_dutch_and_is_on_the_account_page(client, carol):
    client.force_login(carol)
    assert 'href="/accounts/me/delete/"' in client.get("/accounts/me/").content.decode()
    page = client.get("/accounts/me/delete/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Mijn account verwijderen" in page
    response = client.post("/accounts/me/delete/", {"password": "nope"}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400 and "Dat is niet je wachtwoord" in response.content.decode()


def test_the_api_deletes_with_the_password_and_refuses_without(api, played, bob):
    _league, season = played
    before, mine = table(season), everything_of(bob)
    api.login(bob)
    assert api.post("/api/me/delete/", {}).status_code == 400
    assert api.post("/api/me/delete/", {"password": "wrong"}).status_code == 400
    assert api.post("/api/me/delete/", {"password": PASSWORD, "extra": 1}).status_code == 400
    assert everything_of(bob) == mine
    assert api.post("/api/me/delete/", {"password": PASSWORD}).status_code == 204
    assert api.get("/api/me/").status_code in (401, 403)
    assert not User.objects.filter(username="bob").exists() and table(season) == before


def test_the_api_refuses_the_only_owner_with_409(api, played, alice):
    mine = everything_of(alice)
    response = api.login(alice).post("/api/me/delete/", {"password": PASSWORD})
    assert response.status_code == 409 and "Edo Gamers" in response.json()["detail"]
    assert everything_of(alice) == mine


def test_a_game_still_waiting_goes_to_the_clubs_managers_not_lost(played, alice, bob, carol):
    """carol agreed to a game bob has not signed yet, then left: her word goes with her account, the club's
    managers answer for the former player as for any guest, and the game counts once they and bob sign."""
    from leagues.common.selectors import results_to_sign
    from leagues.result import results

    _league, season = played
    waiting = enter(season, alice, [(carol, 1, 40), (bob, 2, 30)], days_ago=1)
    sign_all(waiting, carol)
    assert waiting.status == "pending" and waiting not in results_to_sign(alice)
    account_deletion.account_delete(user=carol, password=PASSWORD)
    assert waiting in results_to_sign(alice) and waiting in results_to_sign(bob)
    results.result_sign_off(result=waiting, user=bob)
    results.result_sign_off(result=waiting, user=alice)
    waiting.refresh_from_db()
    assert waiting.status == "counted"


def test_five_wrong_passwords_hold_the_deletion_even_with_the_right_one(api, played, bob):
    mine = everything_of(bob)
    api.login(bob)
    for _ in range(account_deletion.WRONG_PASSWORDS):
        assert api.post("/api/me/delete/", {"password": "guess"}).status_code == 400
    response = api.post("/api/me/delete/", {"password": PASSWORD})
    assert response.status_code == 429 and "Too many wrong passwords" in response.json()["detail"]
    assert everything_of(bob) == mine


def test_a_deleted_account_leaves_the_nights_to_come_and_keeps_the_nights_played(played, carol):
    import datetime

    from django.utils import timezone

    from leagues.models import Night, NightCheckIn

    _league, season = played
    player = Player.objects.get(user=carol)
    today = timezone.localdate()
    played_night = Night.objects.create(season=season, date=today - datetime.timedelta(days=7))
    coming_night = Night.objects.create(season=season, date=today + datetime.timedelta(days=7))
    for night in (played_night, coming_night):
        NightCheckIn.objects.create(night=night, player=player)
    account_deletion.account_delete(user=carol, password=PASSWORD)
    assert list(NightCheckIn.objects.filter(player=player).values_list("night", flat=True)) == [played_night.pk]
