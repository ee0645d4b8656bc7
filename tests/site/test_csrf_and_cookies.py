"""CSRF on htmx and session-authenticated API posts, the session at log-in, passwords, and the production
settings (issue 7): cookies Secure, HttpOnly and SameSite, and `check --deploy` clean."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.authtoken.models import Token

from games import services
from games.models import MoveEvent, TableSession
from leagues.models import Club
from leagues.people.players import player_for_user
from tests.conftest import PASSWORD
from tests.games.tables import two_player_setup

ROOT = Path(__file__).resolve().parent.parent.parent
HTMX = {"HTTP_HX_REQUEST": "true"}
DRAW = {"seq": "0", "type": "draw", "n_samurai": "2", "n_bushi": "2", "k_1": "2"}


@pytest.fixture
def csrf_client():
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def table(alice, bob) -> TableSession:
    return services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        players=[player_for_user(alice), player_for_user(bob)],
    )


def _page_token(client: Client, url: str) -> str:
    """The token htmx sends: the body's data-hx-headers, as the page renders it."""
    html = client.get(url).content.decode()
    match = re.search(r"""<body[^>]*data-hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""", html)
    assert match, "the page's body carries no data-hx-headers CSRF token"
    return match.group(1)


@pytest.mark.django_db
def test_it_refuses_an_htmx_move_without_the_csrf_token(csrf_client, alice, table):
    csrf_client.force_login(alice)
    csrf_client.get(table.get_absolute_url())  # the CSRF cookie is set, but the header is missing
    response = csrf_client.post(f"/tables/{table.code}/move/", DRAW, **HTMX)
    assert response.status_code == 403
    assert not MoveEvent.objects.exists()
    table.refresh_from_db()
    assert table.head_seq == 0


@pytest.mark.django_db
def test_it_accepts_an_htmx_move_with_the_token_from_the_page(csrf_client, alice, table):
    csrf_client.force_login(alice)
    token = _page_token(csrf_client, table.get_absolute_url())
    response = csrf_client.post(f"/tables/{table.code}/move/", DRAW, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200
    assert MoveEvent.objects.filter(session=table).count() == 1


@pytest.mark.django_db
def test_it_refuses_a_session_authenticated_api_post_without_the_token(csrf_client, alice):
    csrf_client.force_login(alice)
    csrf_client.get("/")
    response = csrf_client.post("/api/clubs/", json.dumps({"name": "Edo"}), content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert not Club.objects.exists()
    token = _page_token(csrf_client, "/")
    response = csrf_client.post(
        "/api/clubs/", json.dumps({"name": "Edo"}), content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 201


@pytest.mark.django_db
def test_a_token_authenticated_api_post_needs_no_csrf_token(csrf_client, alice):
    token = Token.objects.create(user=alice)
    response = csrf_client.post(
        "/api/clubs/",
        json.dumps({"name": "Edo"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {token.key}",
    )
    assert response.status_code == 201
    assert Club.objects.filter(name="Edo").exists()


@pytest.mark.django_db
def test_it_rotates_the_session_key_at_log_in(client, alice):
    session = client.session
    session["seen"] = True
    session.save()
    before = client.cookies["sessionid"].value
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    after = client.cookies["sessionid"].value
    assert after != before
    assert not type(session)().exists(before)
    assert client.get("/api/me/").json()["username"] == "alice"


@pytest.mark.django_db
def test_it_sends_the_session_cookie_httponly_and_samesite(client, alice):
    client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    cookie = client.cookies["sessionid"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"


@pytest.mark.parametrize("password", ["short pass", "password1234", "123456789012345", "alice-example"])
def test_it_refuses_weak_passwords(password):
    from django.contrib.auth.models import User

    with pytest.raises(ValidationError):
        validate_password(password, User(username="alice-example", email="alice-example@example.org"))


def test_it_accepts_a_twelve_character_passphrase_and_refuses_eleven():
    """The boundary itself: twelve characters pass, eleven do not (only the length differs)."""
    assert len("tea at dawn!") == 12
    assert validate_password("tea at dawn!") is None  # Django's validators return None or raise
    with pytest.raises(ValidationError) as refused:
        validate_password("tea at dawn")
    assert [e.code for e in refused.value.error_list] == ["password_too_short"]


# --- production settings -----------------------------------------------------------------------------------


def _production_env(**extra) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="shitenno.example.org",
        DATABASE_URL=os.environ.get("DATABASE_URL") or "sqlite:///:memory:",
        DJANGO_SETTINGS_MODULE="shitenno_site.settings",
        **extra,
    )
    return env


def test_production_cookies_are_secure_httponly_and_samesite():
    code = (
        "from django.conf import settings as s; import json; print(json.dumps({n: getattr(s, n) for n in ["
        "'DEBUG', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SESSION_COOKIE_HTTPONLY', "
        "'SESSION_COOKIE_SAMESITE', 'CSRF_COOKIE_SAMESITE', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS']}))"
    )
    out = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    values = json.loads(out.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] and values["CSRF_COOKIE_SECURE"] and values["SESSION_COOKIE_HTTPONLY"]
    assert values["SESSION_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert values["CSRF_COOKIE_SAMESITE"] in ("Lax", "Strict")
    assert values["SECURE_SSL_REDIRECT"] and values["SECURE_HSTS_SECONDS"] >= 31536000


def test_check_deploy_passes_at_warning_level():
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
