"""/healthz, the OpenAPI schema, and the API's answers to bad input."""

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
    assert "name" in response.json()
    assert not Club.objects.exists() and not Membership.objects.exists()


def test_it_rejects_unknown_fields(api, alice):
    response = api.login(alice).post("/api/clubs/", {"name": "Edo", "colour": "red"})
    assert response.status_code == 400
    assert response.json() == {"colour": ["Unknown field."]}
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
        assert b'hx-headers=\'{"X-CSRFToken"' in response.content


def test_an_account_without_an_address_has_a_null_email_as_the_schema_says(api, db, client):
    from django.contrib.auth import get_user_model

    hana = get_user_model().objects.create_user(username="hana", password="a long test passphrase 42")
    assert hana.email == ""
    assert api.login(hana).get("/api/me/").json()["email"] is None  # "" is not an address (format: email)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    email = schema["components"]["schemas"]["MeOutput"]["properties"]["email"]
    assert email["format"] == "email" and email.get("nullable") is True
