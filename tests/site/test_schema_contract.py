"""The check on every API answer (tests/schema_contract.py, installed for every test by tests/conftest.py) fails
when the server drifts from the schema: an undocumented status, a body its schema refuses, a Content-Type the
schema does not name. Each drift here is made on purpose, by patching one view of the real site."""

import pytest
from django.test import Client
from rest_framework.response import Response
from rest_framework.test import APIClient

from games.api import views as game_views
from tests import schema_contract
from tests.schema_contract import SchemaDrift, json_schema

pytestmark = pytest.mark.django_db


def test_the_check_is_on_for_django_s_test_client_and_drf_s():
    assert getattr(Client.request, "checks_the_schema", False)
    assert issubclass(APIClient, Client)  # its request() ends in Client's


def test_an_answer_within_the_schema_passes(client):
    assert client.get("/api/games/").status_code == 200
    assert client.get("/api/clubs/no-such-club/").status_code == 404


def test_an_undocumented_status_fails(client, monkeypatch):
    monkeypatch.setattr(game_views.Games, "get", lambda self, request: Response({"slug": "tea"}, status=418))
    with pytest.raises(
        SchemaDrift,
        match=r"GET /api/games/ \(/api/games/\) answered 418, a status the schema "
        r"does not document",
    ):
        client.get("/api/games/")


def test_a_body_its_schema_refuses_fails(client, monkeypatch):
    """A game whose min_players is text, and one without its score_unit: the schema says an integer, required."""

    def drifting(self, request):
        return Response(
            {
                "count": 1,
                "next": None,
                "previous": None,
                "results": [{"slug": "go", "name": "Go", "min_players": "two", "max_players": 2, "rules_version": "1"}],
            }
        )

    monkeypatch.setattr(game_views.Games, "get", drifting)
    with pytest.raises(SchemaDrift) as drift:
        APIClient().get("/api/games/")
    assert "a body its schema refuses" in str(drift.value)
    assert "at results/0/min_players: 'two' is not of type 'integer'" in str(drift.value)
    assert "'score_unit' is a required property" in str(drift.value)


def test_a_body_the_server_takes_and_its_request_schema_refuses_fails(client, alice, monkeypatch):
    """The check on what the tests send (issue 48): a POST answered 2xx whose JSON body the operation's request
    schema refuses is a drift (an app generated from the schema could not send it). Here the club-making view takes
    a name that is a number and a member the schema does not name; the same body refused (400) passes."""
    from leagues.api import views as league_api
    from leagues.club import clubs

    client.force_login(alice)
    body = {"name": 5, "colour": "red"}
    assert client.post("/api/clubs/", body, content_type="application/json").status_code == 400  # refused: fine
    monkeypatch.setattr(
        league_api.ClubList,
        "post",
        lambda self, request: Response(
            league_api.ClubOutput(clubs.club_create(name=str(request.data["name"]), owner=alice)).data, status=201
        ),
    )
    with pytest.raises(SchemaDrift) as drift:
        client.post("/api/clubs/", body, content_type="application/json")
    assert "POST /api/clubs/ (/api/clubs/) took a body its request schema refuses and answered 201" in str(drift.value)
    assert "5 is not of type 'string'" in str(drift.value) and "'colour' was unexpected" in str(drift.value)


def test_an_error_that_is_not_a_problem_document_fails(client, monkeypatch):
    from django.http import JsonResponse

    monkeypatch.setattr(game_views.Games, "get", lambda self, request: JsonResponse({"detail": "no"}, status=400))
    with pytest.raises(SchemaDrift, match="as 'application/json', where the schema says application/problem\\+json"):
        client.get("/api/games/")


def test_a_method_the_schema_does_not_name_may_only_be_refused(client, alice, monkeypatch):
    client.force_login(alice)
    response = client.put("/api/games/", {}, content_type="application/json")
    assert response.status_code == 405  # a problem document: passes
    monkeypatch.setattr(game_views.Games, "put", lambda self, request: Response({}), raising=False)
    with pytest.raises(SchemaDrift, match="PUT /api/games/ answered 200: the schema has no such operation"):
        client.put("/api/games/", {}, content_type="application/json")


@pytest.mark.outside_the_schema(reason="this test proves the opt-out turns the check off")
def test_a_test_marked_outside_the_schema_is_not_checked(client, monkeypatch):
    monkeypatch.setattr(game_views.Games, "get", lambda self, request: Response({"slug": "tea"}, status=418))
    assert client.get("/api/games/").status_code == 418


def test_nullable_is_openapi_3_0_s():
    assert json_schema({"type": "integer", "nullable": True}) == {"type": ["integer", "null"]}
    assert json_schema({"type": "string", "enum": ["a"], "nullable": True}) == {
        "type": ["string", "null"],
        "enum": ["a", None],
    }
    assert json_schema({"allOf": [{"$ref": "#/x"}], "nullable": True}) == {
        "anyOf": [{"allOf": [{"$ref": "#/x"}]}, {"type": "null"}]
    }
    assert json_schema(
        {"type": "object", "properties": {"nullable": {"type": "string", "nullable": True}}}, closed=False
    ) == {"type": "object", "properties": {"nullable": {"type": ["string", "null"]}}}


def test_a_member_the_schema_does_not_name_is_a_drift(client, monkeypatch):
    """An object's schema that lists its members says there are no others (unless it says `additionalProperties`)."""
    assert json_schema({"type": "object", "properties": {"a": {}}})["additionalProperties"] is False
    assert (
        json_schema({"type": "object", "properties": {"a": {}}, "additionalProperties": True})["additionalProperties"]
        is True
    )
    original = game_views.Games.get

    def with_colour(self, request):
        page = original(self, request).data  # paged (issue 46 finding 6)
        return Response({**page, "results": [{**game, "colour": "red"} for game in page["results"]]})

    monkeypatch.setattr(game_views.Games, "get", with_colour)
    with pytest.raises(SchemaDrift, match="Additional properties are not allowed \\('colour' was unexpected\\)"):
        client.get("/api/games/")


def test_the_formats_are_checked_as_openapi_means_them():
    from tests.schema_contract import FORMATS

    assert FORMATS.conforms("2026-12-04T18:10:00.123456Z", "date-time")
    assert FORMATS.conforms("2026-12-04T19:10:00+01:00", "date-time")
    for wrong in ["2026-12-04", "2026-12-04 18:10:00", "2026-02-30T10:00:00Z", "yesterday"]:
        assert not FORMATS.conforms(wrong, "date-time"), wrong
    assert FORMATS.conforms("http://testserver/api/clubs/?limit=1&offset=1", "uri")
    assert not FORMATS.conforms("/api/clubs/", "uri")  # a relative reference is a uri-reference, not a uri
    assert not FORMATS.conforms("2026-13-01", "date") and FORMATS.conforms("2026-12-01", "date")
    assert FORMATS.conforms("Hanzo", "name") and not FORMATS.conforms("\u202eevil", "name")
    assert FORMATS.conforms(1.5, "double")


def test_the_check_builds_the_schema_once_and_each_answer_s_validator_once(client):
    """The schema is built once a test process and each operation's validator once: a check after that is a
    lookup and a validation, whatever the number of answers (its cost is printed in the run's summary; a time
    bound here failed on a loaded machine, and timings belong in bench/)."""
    first = schema_contract.contract()
    client.get("/api/games/")
    validators, checked = dict(first.validators), first.checked
    for _ in range(20):
        client.get("/api/games/")
    assert schema_contract.contract() is first
    assert first.checked == checked + 20
    assert first.validators == validators and all(first.validators[key] is validators[key] for key in validators)
