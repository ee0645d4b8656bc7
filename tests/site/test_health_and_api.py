"""/healthz, the OpenAPI schema, and the API's answers to bad input."""

import threading

import pytest
from django.test import override_settings
from rest_framework.authtoken.models import Token

from leagues.models import Club, Membership

pytestmark = pytest.mark.django_db


def test_it_reports_database_and_broker_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"
    assert response.json()["broker"] == "ok"  # the tests run with a real broker (make test): it must answer


@override_settings(CELERY_TASK_ALWAYS_EAGER=True)
def test_it_says_when_tasks_run_in_the_request_without_a_broker(client):
    response = client.get("/healthz")
    assert (response.status_code, response.json()["broker"]) == (200, "eager")


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_it_answers_503_when_the_broker_is_down(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error")
    assert response.json()["database"] == "ok"


def test_it_serves_the_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    assert "/api/players/" in schema.json()["paths"]
    assert client.get("/api/docs/").status_code == 200


def test_it_authenticates_with_a_token(client, alice):
    token = Token.objects.create(user=alice)
    response = client.get("/api/me/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response.json()["player"]["name"] == "alice"
    assert client.get("/api/me/").status_code in (401, 403)


def test_it_answers_400_with_field_errors(api, alice):
    api.login(alice)
    response = api.post("/api/clubs/", {"description": "no name"})
    assert response.status_code == 400
    assert "name" in response.json()["errors"]
    assert not Club.objects.exists() and not Membership.objects.exists()


def test_it_rejects_unknown_fields(api, alice):
    response = api.login(alice).post("/api/clubs/", {"name": "Edo", "colour": "red"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"colour": ["Unknown field."]}
    assert not Club.objects.exists()


def test_it_answers_400_to_malformed_json_and_415_to_a_wrong_content_type(api, alice):
    api.login(alice)
    assert api.client.post("/api/clubs/", "{not json", content_type="application/json").status_code == 400
    assert api.client.post("/api/clubs/", "name=Edo", content_type="text/plain").status_code == 415
    assert not Club.objects.exists()


def test_it_refuses_writes_without_login(api):
    assert api.post("/api/clubs/", {"name": "Edo"}).status_code in (401, 403)
    assert not Club.objects.exists()


def test_pages_render_for_a_visitor(client):
    for url in ["/", "/players/", "/clubs/", "/accounts/login/", "/accounts/sign-up/"]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert b'data-hx-headers=\'{"X-CSRFToken"' in response.content


def test_an_account_without_an_address_has_a_null_email_as_the_schema_says(api, db, client):
    from django.contrib.auth import get_user_model

    hana = get_user_model().objects.create_user(username="hana", password="a long test passphrase 42")
    assert hana.email == ""
    assert api.login(hana).get("/api/me/").json()["email"] is None  # "" is not an address (format: email)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    email = schema["components"]["schemas"]["MeOutput"]["properties"]["email"]
    assert email["format"] == "email" and email.get("nullable") is True


# --- /healthz during a broker outage (issue 36) -------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class DownBroker:
    """kombu.Connection to a broker that is down, counting the connections tried; `hang` holds each one until
    released (a broker that does not answer, rather than one that refuses)."""

    def __init__(self, *, hang: bool = False) -> None:
        self.opened = 0
        self.hanging = threading.Event()
        self.release = threading.Event()
        self.finished = threading.Event()  # a hanging check gave up
        self.hang = hang

    def __call__(self, url, **options):
        self.opened += 1
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def ensure_connection(self, **options) -> None:
        if self.hang:
            self.hanging.set()
            self.release.wait(timeout=10)
            self.finished.set()
        raise ConnectionRefusedError("the broker is down")


@pytest.fixture
def broker_down(monkeypatch, settings):
    from shitenno_site import health

    settings.CELERY_TASK_ALWAYS_EAGER = False
    clock, broker = Clock(), DownBroker()
    monkeypatch.setattr(health, "Connection", broker)
    monkeypatch.setattr(health, "BROKER", health.RecentCheck(health._broker_check, clock=clock))
    return clock, broker, health


def test_healthz_asks_a_broker_that_is_down_once_per_interval_however_many_ask(client, broker_down):
    clock, broker, health = broker_down
    answers = [client.get("/healthz") for _ in range(20)]
    assert [a.status_code for a in answers] == [503] * 20
    assert answers[0].json()["broker"] == "error: ConnectionRefusedError"
    assert broker.opened == 1  # the first asked; 19 answered what it found

    clock.now += health.STATE_SECONDS  # the state is now old: the next request has it asked again, in the back
    answers = [client.get("/healthz") for _ in range(20)]
    health.BROKER.refresher.join(timeout=10)
    assert broker.opened == 2
    assert all(a.status_code == 503 for a in answers)
    clock.now += health.STATE_SECONDS - 0.001
    client.get("/healthz")
    assert broker.opened == 2


def test_healthz_does_not_wait_for_a_broker_that_hangs(client, broker_down):
    """Only the first request of a process waits for the check; after that a hanging broker is asked in the
    background while requests answer the last state known."""
    clock, broker, health = broker_down
    assert client.get("/healthz").status_code == 503
    broker.hang = True
    clock.now += health.STATE_SECONDS
    try:
        answers = [client.get("/healthz") for _ in range(5)]
        assert broker.hanging.wait(timeout=10)  # the check is under way in the background
        assert not broker.finished.is_set()  # and still hangs: none of the five answers waited for it
        assert [a.json()["broker"] for a in answers] == ["error: ConnectionRefusedError"] * 5
        assert broker.opened == 2
    finally:
        broker.release.set()
        health.BROKER.refresher.join(timeout=10)
