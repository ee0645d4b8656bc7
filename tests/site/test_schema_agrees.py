"""The OpenAPI schema says what the API refuses (issue 24): bounds on limit, offset, ids and versions,
`additionalProperties: false` on every request body, PATCH bodies that need what the view needs, and the
name and date rules as patterns. Each test reads the schema and asks the API the same question, so the two
cannot drift apart silently; the schemathesis run (test_schemathesis.py) then throws generated requests at it.
"""

import re

import pytest
from django.utils import timezone

from games.models import TableSession
from leagues.models import Result
from leagues.people.players import player_for_user
from shitenno_site.validation import MAX_INT, name_problem

pytestmark = pytest.mark.django_db


@pytest.fixture
def schema(client):
    return client.get("/api/schema/", HTTP_ACCEPT="application/json").json()


def _parameter(schema, path, method, name):
    return next(p["schema"] for p in schema["paths"][path][method]["parameters"] if p["name"] == name)


def _request_component(schema, path, method):
    ref = schema["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


@pytest.mark.parametrize("path", ["/api/tables/", "/api/players/", "/api/clubs/"])
def test_limit_and_offset_have_the_bounds_the_list_enforces(client, schema, path):
    limit, offset = _parameter(schema, path, "get", "limit"), _parameter(schema, path, "get", "offset")
    assert (limit["minimum"], limit["maximum"], offset["minimum"]) == (1, 500, 0)
    for value, status in [(0, 400), (1, 200), (500, 200), (501, 400)]:
        assert client.get(f"{path}?limit={value}").status_code == status, value
    assert client.get(f"{path}?offset=-1").status_code == 400
    assert client.get(f"{path}?offset=0").status_code == 200


def test_every_request_body_refuses_unknown_keys_in_the_schema_too(schema):
    requests = {
        name: component for name, component in schema["components"]["schemas"].items() if name.endswith("Request")
    }
    assert len(requests) > 15
    assert {name for name, component in requests.items() if component.get("additionalProperties") is not False} == set()


def test_a_patch_body_needs_in_the_schema_what_the_view_needs(api, schema, alices_club, alice):
    edit = _request_component(schema, "/api/results/{id}/", "patch")
    assert edit["required"] == ["version"]
    assert schema["paths"]["/api/results/{id}/"]["patch"]["requestBody"]["required"] is True
    role = _request_component(schema, "/api/clubs/{slug}/members/{id}/", "patch")
    assert role["required"] == ["role"]
    result = alices_club.result
    response = api.login(alice).patch(f"/api/results/{result.pk}/", {})
    assert response.status_code == 400 and "version" in response.json()["errors"]
    result.refresh_from_db()
    assert result.version == 1


def test_ids_and_versions_start_where_the_api_takes_them(api, schema, alices_club, alice, bob):
    entry = schema["components"]["schemas"]["EntryInputRequest"]["properties"]["player"]
    assert (entry["minimum"], entry["maximum"]) == (1, MAX_INT)
    assert _request_component(schema, "/api/results/", "post")["properties"]["season"]["minimum"] == 1
    for path in ["/api/ratings/", "/api/games/{slug}/chances/"]:
        assert _parameter(schema, path, "get", "league")["minimum"] == 1
    assert _parameter(schema, "/api/results/{id}/", "delete", "version")["minimum"] == 0

    api.login(alice)
    before = Result.objects.count()
    body = {
        "game": "Go",
        "played_on": timezone.localdate().isoformat(),
        "season": 0,
        "entries": [{"player": player_for_user(alice).pk, "rank": 1}, {"player": player_for_user(bob).pk, "rank": 2}],
    }
    response = api.post("/api/results/", body)
    assert response.status_code == 400 and "season" in response.json()["errors"]
    missing = {**body, "season": alices_club.season.pk + 1000}
    response = api.post("/api/results/", missing)  # within the schema, naming nothing: the field's 400
    assert response.status_code == 400 and response.json()["errors"] == {"season": ["Unknown season."]}
    assert Result.objects.count() == before
    result = alices_club.result
    assert api.delete(f"/api/results/{result.pk}/?version=-1").status_code == 400
    assert Result.objects.filter(pk=result.pk).exists()


def test_a_club_slug_must_be_text_as_the_schema_says(api, alice):
    """A number was read as the slug "0" (and a final count that saves nothing answered 200 to it)."""
    from games.plugins import default_final_count_game

    _name, FINAL_COUNT_EXAMPLE = default_final_count_game().api_final_count_example
    api.login(alice)
    before = TableSession.objects.count()
    response = api.post("/api/final-count/", {"end": FINAL_COUNT_EXAMPLE, "club": 0})
    assert response.status_code == 400 and "club" in response.json()["errors"]
    response = api.post("/api/players/", {"name": "Hanzo", "club": 0})
    assert response.status_code == 400 and "club" in response.json()["errors"]
    assert TableSession.objects.count() == before
    assert api.post("/api/final-count/", {"end": FINAL_COUNT_EXAMPLE, "club": None}).status_code == 200


# The pattern cannot say "a letter or digit" (JSON Schema has no Unicode classes), so "-" is left to `format: name`;
# the invisible characters it can list (issue 47, finding 7) it does.
NAMES = [
    "Alice",
    " Edo Gamers ",
    "É",
    "東京",
    "a\x01b",
    "\u202eevil",
    "\x85",
    "   ",
    "",
    "9",
    "bob\u200b",
    "\u3164",
    "Al\u2800ice",
    "\ufeffEdo",
    "x\u2063",
]


def test_the_name_pattern_agrees_with_the_names_the_site_takes(schema):
    pattern = _request_component(schema, "/api/players/", "post")["properties"]["name"]["pattern"]
    for name in NAMES:
        taken = name.strip() != "" and name_problem(name.strip()) is None
        assert bool(re.search(pattern, name.strip())) is taken, repr(name)


def test_the_date_pattern_agrees_with_the_dates_the_site_takes(api, schema, alices_club, alice):
    pattern = _request_component(schema, "/api/leagues/{id}/seasons/", "post")["properties"]["starts_on"]["pattern"]
    api.login(alice)
    for day, taken in [
        ("1899-12-31", False),
        ("1900-01-01", True),
        ("2999-12-31", True),
        ("3000-01-01", False),
        ("0168-01-02", False),
    ]:
        assert bool(re.search(pattern, day)) is taken, day
        response = api.post(
            f"/api/leagues/{alices_club.league.pk}/seasons/", {"name": "Later", "starts_on": day, "ends_on": day}
        )
        if taken:
            assert response.status_code == 201, (day, response.json())
        else:
            assert response.status_code == 400 and "1900" in str(response.json()["errors"]["starts_on"]), day
