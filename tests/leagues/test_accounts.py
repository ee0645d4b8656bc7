"""Sign-up, log-in, password change and reset, and claiming a guest player."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from leagues.club import clubs
from leagues.jobs import outbox
from leagues.models import Player
from leagues.people import players
from leagues.rating import store as rating_store
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_up_with_a_player_and_logs_in(client):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="erin")
    assert Player.objects.get(user=user).name == "erin"
    assert client.get("/").context["user"] == user


def test_it_refuses_a_short_password_with_the_reason(client):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": "short",
            "password2": "short",
        },
    )
    assert response.status_code == 400
    assert "at least 12 characters" in response.content.decode()
    assert not get_user_model().objects.filter(username="erin").exists()


def test_it_logs_in_and_out(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session.get("_auth_user_id") == str(alice.pk)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "another long passphrase",
            "new_password2": "another long passphrase",
        },
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("another long passphrase")


def test_it_mails_a_reset_link_that_sets_a_new_password(client, alice):
    client.post("/accounts/password_reset/", {"email": "alice@example.org"})
    outbox.sweep(older_than=0)  # the worker's part: the mail is queued, not sent in the request
    assert len(mail.outbox) == 1
    link = re.search(r"/accounts/reset/\S+/\S+/", mail.outbox[0].body).group(0)
    form_url = client.get(link).url
    new = "reset long passphrase"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("reset long passphrase")


def test_it_lets_a_user_claim_a_guest_and_keeps_every_game(client, alice, bob):
    from games.models import Seat

    guest = players.player_guest_create(name="Grandpa", created_by=alice)
    table = _table_with(alice, guest)
    token = players.player_claim_link_create(player=guest, user=alice)

    client.force_login(bob)
    assert client.get(f"/players/claim/{token}/").status_code == 200
    response = client.post(f"/players/claim/{token}/")
    assert response.status_code == 302

    bobs_player = Player.objects.get(user=bob)
    assert Seat.objects.get(session=table, player=bobs_player)
    guest.refresh_from_db()
    assert guest.merged_into == bobs_player and guest.claim_token is None


def test_it_refuses_a_used_claim_link(client, alice, bob, carol):
    guest = players.player_guest_create(name="Grandpa", created_by=alice)
    token = players.player_claim_link_create(player=guest, user=alice)
    players.player_claim(token=token, user=bob)
    client.force_login(carol)
    response = client.post(f"/players/claim/{token}/")
    assert response.status_code == 409
    assert "not valid any more" in response.content.decode()
    assert Player.objects.get(user=carol).seats.count() == 0


def test_it_lets_only_the_guests_creator_make_an_invite(alice, dave):
    from django.core.exceptions import PermissionDenied

    guest = players.player_guest_create(name="Grandpa", created_by=alice)
    with pytest.raises(PermissionDenied):
        players.player_claim_link_create(player=guest, user=dave)
    guest.refresh_from_db()
    assert guest.claim_token is None


def _table_with(host, guest):
    from games import services as game_services
    from tests.games.tables import two_player_setup

    return game_services.session_create(
        game="shitenno",
        created_by=host,
        players=[players.player_for_user(host), guest],
        setup=two_player_setup(),
    )


def test_it_locks_an_account_after_ten_failed_log_ins(client, alice):
    for _ in range(9):
        assert client.post("/accounts/login/", {"username": "alice", "password": "wrong guess"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "alice", "password": "wrong guess"}).status_code == 429
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 429
    assert "_auth_user_id" not in client.session


def test_it_rotates_the_session_key_at_log_in(client, alice):
    client.get("/accounts/login/")
    client.session.save()
    before = client.session.session_key
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert client.session.session_key != before


def test_a_claim_merges_a_guest_who_already_has_ratings(alice, bob, carol, django_capture_on_commit_callbacks):
    from leagues.models import Rating
    from leagues.people import players
    from tests.leagues.league_helpers import enter, league_with_season, sign_all

    club = clubs.club_create(name="Edo Gamers", owner=alice, members_public=True)  # public: rated site-wide too
    for user in (bob, carol):
        clubs.club_join(token=club.invite_token, user=user)
    guest = players.player_guest_create(name="Grandpa", created_by=alice)
    clubs.club_member_add(club=club, player=guest, user=alice)
    _league, season = league_with_season(club, alice)
    sign_all(enter(season, alice, [(guest, 1, 30), (carol, 2, 20)], days_ago=3), carol)
    sign_all(enter(season, alice, [(bob, 1, 30), (carol, 2, 20)], days_ago=2), bob, carol)
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    assert Rating.objects.filter(player=guest).exists() and Rating.objects.filter(player__user=bob).exists()

    token = players.player_claim_link_create(player=guest, user=alice)
    with django_capture_on_commit_callbacks() as jobs:
        players.player_claim(token=token, user=bob)
    assert not Rating.objects.filter(player=guest).exists()
    assert len(jobs) >= 2  # the scopes are rated again, now with bob in the guest's place
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    assert Rating.objects.get(player__user=bob, kind="league").games == 2


def test_a_lock_out_holds_one_account_from_one_address_only(client, alice, bob):
    """Ten wrong passwords for alice from one address must not lock alice out elsewhere, nor bob out of that
    address (behind a proxy everyone may share it): the lock is the account and the address together."""
    attacker = {"REMOTE_ADDR": "203.0.113.9"}
    for _ in range(10):
        client.post("/accounts/login/", {"username": "alice", "password": "wrong guess"}, **attacker)
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}, **attacker).status_code == 429
    assert client.post("/accounts/login/", {"username": "bob", "password": PASSWORD}, **attacker).status_code == 302
    client.logout()
    home = {"REMOTE_ADDR": "198.51.100.7"}
    assert client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}, **home).status_code == 302


def test_behind_a_trusted_proxy_the_client_is_read_from_x_forwarded_for(client, alice, settings):
    """With TRUSTED_PROXIES=1 the proxy's own address (REMOTE_ADDR) is everyone's; the client is the entry the
    proxy appended, and whatever the client wrote further left is not believed."""
    from shitenno_site.settings import client_address_settings

    for name, value in client_address_settings(1).items():  # what TRUSTED_PROXIES=1 sets
        setattr(settings, name, value)
    proxy = "10.0.0.2"
    for n in range(10):  # the attacker varies a forged left part; the proxy appends the real address
        client.post(
            "/accounts/login/",
            {"username": "alice", "password": "wrong guess"},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.9",
        )
    locked = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR="203.0.113.9",
    )
    assert locked.status_code == 429
    elsewhere = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    assert elsewhere.status_code == 302


def test_the_site_stores_passwords_with_pbkdf2_and_logs_in_with_them(client, real_password_hashing):
    """The suite hashes personas with MD5 for speed (tests/conftest.py); the site's own hashers are the real ones."""
    user = players.user_sign_up(username="hana", email="hana@example.org", password=PASSWORD)
    assert user.password.startswith("pbkdf2_sha256$")
    response = client.post("/accounts/login/", {"username": "hana", "password": PASSWORD})
    assert response.status_code == 302 and client.get("/").wsgi_request.user == user


# --- the name others see (issue 34) -------------------------------------------------------------------------------


def test_sign_up_asks_for_the_name_others_see_and_stores_it_as_the_players(client):
    page = client.get("/accounts/sign-up/").content.decode()
    assert page.index('name="username"') < page.index('name="display_name"') < page.index('name="password1"')
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "erin77",
            "display_name": "  Erin de Vries ",
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302
    assert Player.objects.get(user__username="erin77").name == "Erin de Vries"
    assert "Welcome, Erin de Vries!" in client.get("/").content.decode()


@pytest.mark.parametrize("name", ["Erin\u202e", "Erin\x07", "E" * 81])
def test_sign_up_refuses_a_name_that_cannot_be_shown_and_creates_nothing(client, name):
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "erin77",
            "display_name": name,
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 400
    assert not get_user_model().objects.filter(username="erin77").exists() and not Player.objects.exists()


def test_the_service_refuses_an_unshowable_name_and_creates_no_account():
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        players.user_sign_up(username="erin77", email="", password=PASSWORD, display_name="\u200f")
    assert "name" in refused.value.message_dict
    assert not get_user_model().objects.exists()


def test_the_account_page_changes_the_name_and_every_page_shows_it_not_the_username(client, club, alice, bob, carol):
    from games import services as game_services
    from leagues.nights.models import Night, NightCheckIn
    from leagues.standings import store as standings_store
    from tests.games.tables import two_player_setup
    from tests.leagues.league_helpers import enter, league_with_season, sign_all

    clubs.club_join(token=club.invite_token, user=bob)
    _league, season = league_with_season(club, alice)
    sign_all(enter(season, alice, [(carol, 1, 30), (bob, 2, 20)]), carol, bob)
    standings_store.standings_compute(season=season)
    table = game_services.session_create(
        game="shitenno",
        created_by=carol,
        setup=two_player_setup(),
        players=[players.player_for_user(carol), players.player_for_user(bob)],
    )
    night = Night.objects.create(season=season, date=season.starts_on, games=["shitenno"], opened_by=alice)
    NightCheckIn.objects.create(night=night, player=players.player_for_user(carol))

    client.force_login(carol)
    assert 'value="carol"' in client.get("/accounts/me/").content.decode()
    response = client.post("/accounts/me/", {"name": "Carol Tanaka"})
    assert response.status_code == 302 and response.url == "/accounts/me/"
    assert players.player_for_user(carol).name == "Carol Tanaka"

    client.force_login(alice)
    me = players.player_for_user(carol)
    for url in (
        f"/leagues/{season.league_id}/",
        table.get_absolute_url(),
        me.get_absolute_url(),
        f"/nights/{night.pk}/",
    ):
        page = client.get(url).content.decode()
        assert "Carol Tanaka" in page, url
        assert ">carol<" not in page and " carol " not in page, url


def test_the_table_log_names_who_entered_a_move_by_his_shown_name(client, alice, bob):
    from games import services as game_services
    from tests.games.engines.shitenno.tables import EVEN_YEAR_EXAMPLE
    from tests.games.tables import four_player_setup

    seated = [players.player_for_user(alice), players.player_for_user(bob)] + [
        Player.objects.create(name=n, created_by=alice) for n in ("Carl", "Dora")
    ]
    table = game_services.session_create(game="shitenno", created_by=alice, players=seated, setup=four_player_setup())
    game_services.move_record(session=table, seq=0, move=EVEN_YEAR_EXAMPLE[0], user=alice)
    players.player_rename(user=alice, name="Alice Sato")
    client.force_login(bob)
    log = client.get(f"{table.get_absolute_url()}history/").content.decode()
    assert "entered by Alice Sato" in log and "entered by alice" not in log


def test_a_refused_name_on_the_account_page_changes_nothing(client, alice):
    client.force_login(alice)
    for name in ("", "   ", "\u202eecila", "x" * 81):
        response = client.post("/accounts/me/", {"name": name})
        assert response.status_code == 400, name
    assert players.player_for_user(alice).name == "alice"
    client.logout()
    assert client.post("/accounts/me/", {"name": "Mallory"}).status_code == 302  # to the log-in page
    assert players.player_for_user(alice).name == "alice"


def test_the_api_changes_the_name_and_refuses_a_bad_one(api, alice):
    api.login(alice)
    answer = api.patch("/api/me/", {"name": "Alice Sato"})
    assert answer.status_code == 200 and answer.json()["player"]["name"] == "Alice Sato"
    assert answer.json()["username"] == "alice"
    for body in ({"name": "\u202e"}, {"name": ""}, {"name": 3}, {"username": "mallory"}, {}):
        assert api.patch("/api/me/", body).status_code == 400, body
    assert players.player_for_user(alice).name == "Alice Sato"


def test_the_account_page_speaks_dutch(client, alice):
    client.force_login(alice)
    page = client.get("/accounts/me/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Je account" in page and "Je naam" in page
    page = client.get("/accounts/sign-up/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "De naam die anderen zien" in page


def test_an_invite_and_a_dispute_name_their_author_by_his_shown_name(client, club, alice, bob, carol, dave):
    from leagues.result import results
    from tests.leagues.league_helpers import enter, league_with_season, sign_all

    players.player_rename(user=alice, name="Alice Sato")
    players.player_rename(user=carol, name="Carol Tanaka")
    clubs.club_member_add(club=club, player=players.player_for_user(dave), user=alice)
    client.force_login(dave)
    assert "Alice Sato invites you to Edo Gamers." in client.get("/clubs/").content.decode()

    league, season = league_with_season(club, alice)
    counted = sign_all(enter(season, alice, [(alice, 1, 30), (carol, 2, 20)]), carol)
    results.result_sign_off(result=counted, user=carol, agreed=False, note="I won that one")
    client.force_login(alice)
    page = client.get(league.get_absolute_url()).content.decode()
    assert "Carol Tanaka: “I won that one”" in page
