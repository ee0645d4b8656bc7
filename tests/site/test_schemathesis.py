"""Hostile and malformed input against the whole API (issue 7).

Schemathesis reads the OpenAPI schema from the site itself and throws generated requests at every
operation in-process (WSGI), logged in by token as alice, who owns the club, hosts a private table and
manages a league. Half the examples aim at real objects (her table, club, league, result ...) so writes go
deep; the rest aim at random ids. Every answer must be no 5xx, a documented status code, and a body that
matches the documented schema.
"""

import json

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from shitenno_site.wsgi import application

WORLD: dict = {}  # the current test's real objects, for the path-parameter hook
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def world(alices_club, alice, carol, club):
    """alice's club with a league and season, a pending result, a private table and a guest."""
    league, season, result = alices_club.league, alices_club.season, alices_club.result
    table, guest = alices_club.private, alices_club.guest
    membership = club.memberships.get(player__user=carol)
    WORLD.clear()
    WORLD.update({
        "code": table.code, "slug": club.slug, "league": league.pk, "season": season.pk, "result": result.pk,
        "player": guest.pk, "membership": membership.pk, "token": Token.objects.create(user=alice).key,
    })
    return dict(WORLD)


@pytest.fixture
def in_process_connection():
    """Django's test client keeps the test transaction's connection across requests; the raw WSGI handler
    would close it at each request's end, so do what the test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


# Loaded once at collection: producing the schema reads no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)


def _real_path_parameters(path: str, world: dict) -> dict:
    """The ids of real objects for an operation's path parameters."""
    if not world:
        return {}
    values: dict = {"code": world["code"], "slug": world["slug"]}
    if path.startswith("/api/leagues/"):
        values["id"] = world["league"]
    elif path.startswith("/api/seasons/"):
        values["id"] = world["season"]
    elif path.startswith("/api/results/"):
        values["id"] = world["result"]
    elif path.startswith("/api/players/"):
        values["id"] = world["player"]
    elif path.startswith("/api/clubs/"):
        values["id"] = world["membership"]
    return values


@schema.hook
def flatmap_path_parameters(context, path_parameters: dict):
    """Half the time, aim at a real object instead of a random id."""
    if not path_parameters:
        return st.just(path_parameters)
    real = _real_path_parameters(context.operation.path, WORLD)
    aimed = {name: real.get(name, value) for name, value in path_parameters.items()}
    return st.sampled_from([path_parameters, aimed])


@schema.parametrize()
@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.generate])
def test_it_answers_every_operation_within_its_schema(case, world, in_process_connection):
    case.call_and_validate(headers={"Authorization": f"Token {world['token']}"}, checks=CHECKS)


# --- Malformed bodies on every write: bad JSON 400, a wrong Content-Type 415, an unknown field 400 ---

WRITES = [
    ("post", "/api/tables/"), ("post", "/api/tables/{code}/moves/"), ("post", "/api/tables/{code}/undo/"),
    ("post", "/api/final-count/"), ("post", "/api/players/"), ("post", "/api/players/claim/"),
    ("post", "/api/clubs/"), ("post", "/api/clubs/join/"), ("post", "/api/clubs/{slug}/members/"),
    ("patch", "/api/clubs/{slug}/members/{membership}/"), ("post", "/api/clubs/{slug}/leagues/"),
    ("post", "/api/leagues/{league}/seasons/"), ("post", "/api/results/"), ("patch", "/api/results/{result}/"),
    ("post", "/api/results/{result}/sign-off/"),
]


@pytest.mark.parametrize(("method", "template"), WRITES)
def test_it_refuses_malformed_bodies(client, world, method, template):
    url = template.format(**world)
    auth = {"HTTP_AUTHORIZATION": f"Token {world['token']}"}
    send = getattr(client, method)
    response = send(url, "{not json", content_type="application/json", **auth)
    assert response.status_code == 400, (url, response.content)
    response = send(url, "seq=1", content_type="text/plain", **auth)
    assert response.status_code == 415, (url, response.content)
    response = send(url, json.dumps({"no_such_field": 1}), content_type="application/json", **auth)
    assert response.status_code == 400, (url, response.content)
    assert "no_such_field" in response.json(), (url, response.json())
