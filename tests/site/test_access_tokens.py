"""A person's access tokens (issue 48 finding 2): he makes, names, limits and revokes the keys his apps use, on
the account's tokens page and by the API; each key is shown once and stored only as its SHA-256; a read-only key
cannot write; a revoked or expired key is refused at once, saying so."""

import datetime
import hashlib

import pytest
from django.test import Client
from django.utils import timezone

from leagues.models import Player
from leagues.people import account_deletion, my_data
from shitenno_site.tokens import services
from shitenno_site.tokens.models import AccessToken
from tests.clock import TONIGHT, travel_to
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def bearer(key: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def app() -> Client:
    """An app: no session, no cookies, only the key it was given."""
    return Client()


def make(user, name="Score app", scope=AccessToken.WRITE, days=90) -> tuple[AccessToken, str]:
    return services.token_create(user=user, name=name, scope=scope, expires_in_days=days)


def my_name(user) -> str:
    return Player.objects.get(user=user).name


# Made on the account page, shown once


def test_the_tokens_page_makes_a_token_and_shows_its_key_this_once(client, alice):
    client.force_login(alice)
    answer = client.post(
        "/accounts/me/tokens/", {"name": "Score app", "scope": "write", "expires_in_days": "90", "password": PASSWORD}
    )
    assert answer.status_code == 200
    token = AccessToken.objects.get(user=alice)
    key = answer.context["key"]
    assert key.startswith(f"shp_{token.prefix}_") and key in answer.content.decode()
    assert "no-store" in answer["Cache-Control"]
    # the site keeps the fingerprint, never the key
    assert token.digest == hashlib.sha256(key.encode()).hexdigest() and key not in str(vars(token))
    again = client.get("/accounts/me/tokens/").content.decode()
    assert "Score app" in again and token.prefix in again and key not in again


def test_the_page_asks_for_the_password_before_it_makes_a_token(client, alice):
    """A borrowed, signed-in phone must not make a key for someone else's app: the page asks for the password; a
    wrong one makes nothing, and five wrong ones hold the form for 15 minutes, even for the right one."""
    client.force_login(alice)
    ask = {"name": "Score app", "scope": "write", "expires_in_days": "90"}
    assert client.post("/accounts/me/tokens/", ask).status_code == 400  # no password
    wrong = client.post("/accounts/me/tokens/", dict(ask, password="not it at all"))
    assert wrong.status_code == 400 and "not your password" in wrong.content.decode()
    assert not AccessToken.objects.exists()
    for _n in range(4):
        client.post("/accounts/me/tokens/", dict(ask, password="not it either"))
    held = client.post("/accounts/me/tokens/", dict(ask, password=PASSWORD))
    assert held.status_code == 429 and "Too many wrong passwords" in held.content.decode()
    assert not AccessToken.objects.exists()


def test_the_account_page_leads_to_the_tokens(client, alice):
    client.force_login(alice)
    assert 'href="/accounts/me/tokens/"' in client.get("/accounts/me/").content.decode()


def test_a_token_name_with_invisible_characters_is_refused_and_nothing_is_made(client, alice):
    client.force_login(alice)
    answer = client.post(
        "/accounts/me/tokens/", {"name": "Score\u200bapp", "scope": "read", "expires_in_days": "", "password": PASSWORD}
    )
    assert answer.status_code == 400 and "invisible" in answer.content.decode()
    assert not AccessToken.objects.exists()


def test_two_tokens_of_one_account_cannot_share_a_name(alice):
    make(alice)
    with pytest.raises(Exception, match="already have a token named Score app"):
        make(alice)
    assert AccessToken.objects.filter(user=alice).count() == 1


def test_an_account_has_at_most_twenty_tokens(client, alice):
    for n in range(services.MAX_TOKENS):
        make(alice, name=f"App {n}")
    client.force_login(alice)
    answer = client.post(
        "/accounts/me/tokens/", {"name": "One more", "scope": "read", "expires_in_days": "30", "password": PASSWORD}
    )
    assert answer.status_code == 429
    assert AccessToken.objects.filter(user=alice).count() == services.MAX_TOKENS
    api_answer = client.post(
        "/api/tokens/", {"name": "One more", "password": PASSWORD}, content_type="application/json"
    )
    assert api_answer.status_code == 429 and "revoke one" in api_answer.json()["detail"]
    assert AccessToken.objects.filter(user=alice).count() == services.MAX_TOKENS


# What a key lets an app do


def test_a_key_signs_the_app_in_as_its_person_by_bearer_or_token(alice):
    _token, key = make(alice)
    assert app().get("/api/me/", **bearer(key)).json()["username"] == "alice"
    assert app().get("/api/me/", HTTP_AUTHORIZATION=f"Token {key}").json()["username"] == "alice"


def test_a_use_is_recorded(alice):
    token, key = make(alice)
    assert token.last_used_at is None
    app().get("/api/me/", **bearer(key))
    token.refresh_from_db()
    assert token.last_used_at is not None and timezone.now() - token.last_used_at < datetime.timedelta(minutes=1)


def test_a_read_only_key_reads_but_cannot_write(alice):
    _token, key = make(alice, scope=AccessToken.READ)
    assert app().get("/api/me/", **bearer(key)).status_code == 200
    answer = app().patch("/api/me/", {"name": "Mallory"}, content_type="application/json", **bearer(key))
    assert answer.status_code == 403 and "read only" in answer.json()["detail"]
    assert my_name(alice) == "alice"


def test_a_read_and_write_key_writes(alice):
    _token, key = make(alice, scope=AccessToken.WRITE)
    answer = app().patch("/api/me/", {"name": "Alice of Edo"}, content_type="application/json", **bearer(key))
    assert answer.status_code == 200 and my_name(alice) == "Alice of Edo"


def test_the_refusal_is_in_the_readers_language(alice):
    _token, key = make(alice, name="Telefoon", scope=AccessToken.READ)
    answer = app().patch(
        "/api/me/", {"name": "X"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="nl", **bearer(key)
    )
    assert answer.status_code == 403 and "alleen lezen" in answer.json()["detail"]


def test_a_wrong_secret_behind_a_real_prefix_is_refused(alice):
    token, key = make(alice)
    forged = key[:-4] + ("aaaa" if not key.endswith("aaaa") else "bbbb")
    answer = app().get("/api/me/", **bearer(forged))
    assert answer.status_code == 401 and "not a token of this site" in answer.json()["detail"]
    token.refresh_from_db()
    assert token.last_used_at is None


def test_an_unknown_bearer_is_refused_not_taken_for_anonymous(db):
    assert app().get("/api/me/", **bearer("nonsense")).status_code == 401


def test_an_expired_key_is_refused_saying_when_it_expired(alice):
    with travel_to(TONIGHT):
        _token, key = make(alice, days=30)
    with travel_to(TONIGHT + datetime.timedelta(days=31)):
        answer = app().get("/api/me/", **bearer(key))
    assert answer.status_code == 401 and "expired on" in answer.json()["detail"]


def test_a_token_of_a_deactivated_account_is_refused(alice):
    _token, key = make(alice)
    alice.is_active = False
    alice.save()
    assert app().get("/api/me/", **bearer(key)).status_code == 401


def test_the_live_poll_of_a_table_takes_a_bearer_key_too(alice):
    """The poll is a page, not the API: it reads the same keys (games/views.py `_with_api_token`)."""
    from django.test import RequestFactory

    from games.views import _with_api_token

    _token, key = make(alice, scope=AccessToken.READ)
    request = RequestFactory().get("/tables/x/live/", **bearer(key))
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    _with_api_token(request)
    assert request.user.username == "alice"


# Revoked


def test_a_revoked_key_stops_working_at_once(client, alice):
    token, key = make(alice)
    client.force_login(alice)
    answer = client.post(f"/accounts/me/tokens/{token.pk}/revoke/")
    assert answer.status_code == 302 and not AccessToken.objects.exists()
    assert app().get("/api/me/", **bearer(key)).status_code == 401


def test_nobody_revokes_another_persons_token(client, alice, bob):
    token, key = make(alice)
    client.force_login(bob)
    assert client.post(f"/accounts/me/tokens/{token.pk}/revoke/").status_code == 404
    assert client.delete(f"/api/tokens/{token.pk}/").status_code == 404
    assert AccessToken.objects.filter(pk=token.pk).exists()
    assert app().get("/api/me/", **bearer(key)).status_code == 200


# By the API


def test_the_api_makes_lists_and_revokes_tokens(api, alice):
    api.login(alice)
    made = api.post("/api/tokens/", {"name": "Scorer", "scope": "read", "expires_in_days": None, "password": PASSWORD})
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["key"].startswith(body["prefix"]) and body["expires_at"] is None and body["scope"] == "read"
    listed = api.get("/api/tokens/").json()  # paged as every list (issue 46 finding 6)
    assert listed["count"] == 1 and not listed["next"]
    assert [t["name"] for t in listed["results"]] == ["Scorer"] and "key" not in listed["results"][0]
    assert app().get("/api/me/", **bearer(body["key"])).status_code == 200
    assert api.client.delete(f"/api/tokens/{body['id']}/").status_code == 204
    assert app().get("/api/me/", **bearer(body["key"])).status_code == 401


def test_the_api_asks_for_the_password_too(api, alice):
    """The page's rule holds for the API with the session: no password, or a wrong one, makes nothing (400), and
    the wrong ones count towards the same 15-minute hold as the page's."""
    api.login(alice)
    assert api.post("/api/tokens/", {"name": "Scorer"}).status_code == 400
    wrong = api.post("/api/tokens/", {"name": "Scorer", "password": "not it at all"})
    assert wrong.status_code == 400 and "password" in wrong.json()["errors"]
    for _n in range(4):
        api.post("/api/tokens/", {"name": "Scorer", "password": "not it either"})
    assert api.post("/api/tokens/", {"name": "Scorer", "password": PASSWORD}).status_code == 429
    assert not AccessToken.objects.exists()


def test_a_token_cannot_make_another_token(alice):
    _token, key = make(alice, scope=AccessToken.WRITE)
    answer = app().post("/api/tokens/", {"name": "Sneaky"}, content_type="application/json", **bearer(key))
    assert answer.status_code == 403 and "signed in on the site" in answer.json()["detail"]
    assert list(AccessToken.objects.values_list("name", flat=True)) == ["Score app"]


def test_the_api_refuses_an_expiry_it_does_not_offer(api, alice):
    answer = api.login(alice).post("/api/tokens/", {"name": "Scorer", "expires_in_days": 7, "password": PASSWORD})
    assert answer.status_code == 400 and "expires_in_days" in answer.json()["errors"]
    assert not AccessToken.objects.exists()


def test_the_token_list_needs_a_login(db):
    assert app().get("/api/tokens/").status_code == 401


# The account's own pages


def test_my_data_lists_the_tokens_by_name_never_a_key(alice):
    token, key = make(alice)
    data = my_data.personal_data(alice)
    assert [t["name"] for t in data["access_tokens"]] == ["Score app"]
    text = str(data)
    assert key not in text and token.digest not in text


def test_deleting_the_account_deletes_its_tokens(alice):
    _token, key = make(alice)
    account_deletion.account_delete(user=alice, password=PASSWORD)
    assert not AccessToken.objects.exists()
    assert app().get("/api/me/", **bearer(key)).status_code == 401
