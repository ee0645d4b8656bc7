"""Hostile and malformed input against the whole API (issue 7).

Schemathesis reads the OpenAPI schema from the site itself and throws generated requests at every
operation in-process (WSGI), logged in by token as alice, who owns the club, hosts a private table and
manages a league. Half the examples aim at real objects (her table, club, league, result ...) so writes go
deep; the rest aim at random ids. Every check schemathesis has runs (issue 24): no 5xx, a documented status
code, content type, headers and body; a request the schema allows is not refused with a 400 and one it
forbids is refused; a missing required header, an undocumented method and a missing token are answered as
they should be.
"""

import copy
import json

import pytest
import schemathesis
import schemathesis.specs.openapi.negative as schemathesis_negative
from django.core import signals
from django.db import close_old_connections
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test
from rest_framework.authtoken.models import Token
from schemathesis.checks import CHECKS as REGISTERED_CHECKS
from schemathesis.checks import is_check_class, load_all_checks, not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import status_code_conformance

from leagues.people.players import player_for_user
from shitenno_site.validation import name_problem
from shitenno_site.wsgi import application
from tests.games.tables import two_player_setup

WORLD: dict = {}  # the current test's real objects, for the path-parameter hook
# The schema's `format: name` (shitenno_site.api.NameFieldSchema): names the site takes, for the positive cases.
schemathesis.openapi.format(
    "name",
    st.text(min_size=1, max_size=30).map(str.strip).filter(lambda name: name != "" and name_problem(name) is None),
)


def _name_format_holds(value: object) -> bool:
    """`format: name` as the site checks it (NameField: trimmed, then name_problem), for negative mode.

    Schemathesis checks a format it does not know with an "always invalid" stand-in, so that format-violating
    data can be generated; for `name` that made any sound name, once the format was dropped from the schema to
    negate it, count as "invalid data", and the site accepting it a failure (issue 34: PATCH /api/me/ {"name":
    "Autumn"}). Which operation drew such a case was luck of the draw; with the real rule only names the site
    refuses count as violations. "name" is the only format the suite registers."""
    return isinstance(value, str) and name_problem(value.strip()) is None


schemathesis_negative._always_invalid = _name_format_holds
load_all_checks()  # the OpenAPI checks register themselves when their module is imported
EVERY_CHECK = [check for check in REGISTERED_CHECKS.get_all() if not is_check_class(check)]

# Operations whose input carries a rule no JSON Schema can state: which object an id names, which move is legal
# now, which set-up or end state a game allows, "game or league, not both". A request the schema allows can
# break one, and the answer is a 400 naming the field (docs/api.md, "Errors"), so positive_data_acceptance
# takes a 400 there too; everywhere else a schema-valid request answered 400 is a failure, and
# negative_data_rejection holds everywhere.
RULES_BEYOND_THE_SCHEMA = {
    "GET /api/games/{slug}/chances/": "player ids that name nobody, or one player twice",
    "GET /api/players/{id}/ratings/history/": "either a game or a league, not both nor neither",
    "GET /api/ratings/": "either a game or a league, not both nor neither",
    "POST /api/clubs/{slug}/leagues/": "a name no other league of the club has",
    "POST /api/clubs/{slug}/tournaments/": "points per place for exactly the table sizes used, one a place, never "
    "increasing; a named scheme that has whole points for those sizes",
    "POST /api/leagues/{id}/seasons/": "an end on or after the start; no overlap with the league's other seasons",
    "PATCH /api/leagues/{id}/": "a name no other league of the club has",
    "PATCH /api/seasons/{id}/": "an end on or after the start; no overlap with the league's other seasons; custom "
    "points that fit their player counts",
    "POST /api/results/{id}/sign-off/": "a note when you dispute the result",
    "POST /api/tables/{code}/sign-off/": "a note when you dispute the result",
    "POST /api/tables/{code}/undo/": "a move to take back",
    "POST /api/final-count/": "an end state the game's rules allow; player ids that name somebody",
    "POST /api/results/": "a season and players that exist; ranks that fit the entries",
    "PATCH /api/results/{id}/": "players that exist; ranks that fit the entries (as when the result was made)",
    "POST /api/seasons/{id}/nights/": "games the league plays; forbidden pairs of the club's members",
    "POST /api/tables/": "players that exist; a set-up the game allows",
    "POST /api/tables/{code}/moves/": "a move legal at this point of the game",
    "POST /api/me/delete/": "your own password (and no club of which you are the only owner)",
    "PATCH /api/me/": "a name nobody else in your clubs reads the same as (capitals and accents aside)",
    "POST /api/players/": "a name nobody in the club reads the same as (capitals and accents aside)",
}
CONFIG = SchemathesisConfig.from_dict(
    {
        "operations": [
            {
                "include-name": [name],
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": [*POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES, "400"]
                    }
                },
            }
            for name in RULES_BEYOND_THE_SCHEMA
        ]
    }
)


def _headers(world) -> dict:
    """The token, and no compression: the site gzips answers for clients that ask, and schemathesis' WSGI
    transport would read the compressed bytes as the answer."""
    return {"Authorization": f"Token {world['token']}", "Accept-Encoding": "identity"}


@pytest.fixture
def world(alices_club, alice, bob, carol, club):
    """alice's club with a league and season, a pending result, a private table and a guest."""
    league, season, result = alices_club.league, alices_club.season, alices_club.result
    table, guest = alices_club.private, alices_club.guest
    membership = club.memberships.get(player__user=carol)
    WORLD.clear()
    WORLD.update(
        {
            "code": table.code,
            "slug": club.slug,
            "league": league.pk,
            "season": season.pk,
            "result": result.pk,
            "player": guest.pk,
            "membership": membership.pk,
            "token": Token.objects.create(user=alice).key,
            "alice_player": player_for_user(alice).pk,
            "bob_player": player_for_user(bob).pk,
        }
    )
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


def _loaded(config: SchemathesisConfig | None = None):
    """The live schema as schemathesis loads it from the site, once per collection (issue 45: drf-spectacular built
    it three times, a third of the suite's start-up), then a fresh copy for each of the three uses below, since each
    changes its own (modes, hooks, links). Producing the schema reads no database."""
    global _RAW_SCHEMA
    if _RAW_SCHEMA is None:
        _RAW_SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).raw_schema
    loaded = schemathesis.openapi.from_dict(copy.deepcopy(_RAW_SCHEMA), config=config)
    loaded.app = application
    loaded.location = "/api/schema/?format=json"
    return loaded


_RAW_SCHEMA: dict | None = None
schema = _loaded(CONFIG)


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


def _valid_path_value(operation, name: str, value) -> bool:
    """Whether `value` is one the schema allows for the path parameter `name`. A negative case's broken value (an id
    drawn as `true`) stays as it is: aiming it at a real object would make the case valid while schemathesis still
    counts it as invalid data, and the site's 200 for it a failure (GET /api/leagues/{id}/seasons/ with `true`
    replaced by a real league's id)."""
    from jsonschema import Draft4Validator

    definitions = _RAW_SCHEMA["paths"][operation.path][operation.method.lower()].get("parameters", [])
    found = next((p for p in definitions if p.get("in") == "path" and p.get("name") == name), None)
    return found is None or Draft4Validator(found.get("schema", {})).is_valid(value)


@schema.hook
def flatmap_path_parameters(context, path_parameters: dict):
    """Half the time, aim at a real object instead of a random id (only a value the schema allows: see above)."""
    if not path_parameters:
        return st.just(path_parameters)
    real = _real_path_parameters(context.operation.path, WORLD)
    aimed = {
        name: real[name] if name in real and _valid_path_value(context.operation, name, value) else value
        for name, value in path_parameters.items()
    }
    return st.sampled_from([path_parameters, aimed])


@schema.parametrize()
@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)
def test_it_answers_every_operation_within_its_schema(case, world, in_process_connection):
    case.call_and_validate(headers=_headers(world), checks=EVERY_CHECK)


def test_it_runs_every_check_schemathesis_has():
    """No check is left out: the 14 of schemathesis 4.32 at least, and any a later version adds."""
    assert {check.__name__ for check in EVERY_CHECK} >= {
        "not_a_server_error",
        "status_code_conformance",
        "content_type_conformance",
        "response_headers_conformance",
        "response_schema_conformance",
        "negative_data_rejection",
        "positive_data_acceptance",
        "missing_required_header",
        "unsupported_method",
        "allow_header_conformance",
        "use_after_free",
        "ensure_resource_availability",
        "ignored_auth",
        "object_level_authorization",
    }
    names = set(RULES_BEYOND_THE_SCHEMA)
    assert names <= {f"{op['method'].upper()} {op['path']}" for op in _operations()}, "a rule list entry names nothing"


def _operations() -> list[dict]:
    return [
        {"method": method, "path": path}
        for path, methods in schema.raw_schema["paths"].items()
        for method in methods
        if method in {"get", "post", "patch", "put", "delete"}
    ]


# --- Malformed bodies on every write: bad JSON 400, a wrong Content-Type 415, an unknown field 400 ---

WRITES = [
    ("post", "/api/tables/"),
    ("post", "/api/tables/{code}/moves/"),
    ("post", "/api/tables/{code}/undo/"),
    ("post", "/api/final-count/"),
    ("post", "/api/players/"),
    ("post", "/api/players/claim/"),
    ("post", "/api/clubs/"),
    ("post", "/api/clubs/join/"),
    ("post", "/api/clubs/{slug}/members/"),
    ("patch", "/api/clubs/{slug}/members/{membership}/"),
    ("post", "/api/clubs/{slug}/leagues/"),
    ("post", "/api/leagues/{league}/seasons/"),
    ("post", "/api/results/"),
    ("patch", "/api/results/{result}/"),
    ("post", "/api/results/{result}/sign-off/"),
    ("patch", "/api/leagues/{league}/"),
    ("patch", "/api/seasons/{season}/"),
    ("patch", "/api/me/"),
    ("post", "/api/me/delete/"),
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
    assert "no_such_field" in response.json()["errors"], (url, response.json())


# --- Negative mode: data that breaks each operation's schema must be refused with a 4xx, never a 5xx ---------

negative_schema = _loaded()
negative_schema.config.generation.update(modes=[GenerationMode.NEGATIVE])
negative_schema.hook(flatmap_path_parameters)


@negative_schema.parametrize()
@settings(
    max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), phases=[Phase.generate]
)
def test_it_refuses_invalid_data_on_every_operation(case, world, in_process_connection):
    case.call_and_validate(headers=_headers(world), checks=[not_a_server_error])


# --- Stateful mode: links from a new table to its moves and undo, and from a league to its season, a result
# and its sign-off; alice (seated at the tables she opens, manager of the club) follows them with real ids ---

LINKS = {  # (source path, method, status) -> {link name: (target path, method, parameters, request body)}
    ("/api/tables/", "post", "201"): {
        "GetTable": ("/api/tables/{code}/", "get", {"code": "$response.body#/code"}, None),
        "PostMove": (
            "/api/tables/{code}/moves/",
            "post",
            {"code": "$response.body#/code"},
            {"seq": "$response.body#/head_seq"},
        ),
        "GetMoves": ("/api/tables/{code}/moves/", "get", {"code": "$response.body#/code"}, None),
    },
    ("/api/tables/{code}/moves/", "post", "201"): {
        "Undo": ("/api/tables/{code}/undo/", "post", {"code": "$request.path.code"}, None),
        "GetScore": ("/api/tables/{code}/score/", "get", {"code": "$request.path.code"}, None),
    },
    ("/api/clubs/{slug}/leagues/", "post", "201"): {
        "PostSeason": ("/api/leagues/{id}/seasons/", "post", {"id": "$response.body#/id"}, None),
        "GetLeague": ("/api/leagues/{id}/", "get", {"id": "$response.body#/id"}, None),
    },
    ("/api/leagues/{id}/seasons/", "post", "201"): {
        "GetStandings": ("/api/seasons/{id}/standings/", "get", {"id": "$response.body#/id"}, None),
    },
    ("/api/results/", "post", "201"): {
        "SignOff": ("/api/results/{id}/sign-off/", "post", {"id": "$response.body#/id"}, None),
        "GetResult": ("/api/results/{id}/", "get", {"id": "$response.body#/id"}, None),
        "PatchResult": (
            "/api/results/{id}/",
            "patch",
            {"id": "$response.body#/id"},
            {"version": "$response.body#/version"},
        ),
    },
}

stateful_schema = _loaded()
stateful_schema.config.generation.update(modes=[GenerationMode.POSITIVE])
for (_path, _method, _status), _links in LINKS.items():
    _responses = stateful_schema.raw_schema["paths"][_path][_method]["responses"]
    _responses[_status]["links"] = {
        name: {
            "operationId": stateful_schema.raw_schema["paths"][target][method]["operationId"],
            "parameters": parameters,
            **({"requestBody": body} if body else {}),
        }
        for name, (target, method, parameters, body) in _links.items()
    }


stateful_schema.hook(flatmap_path_parameters)


@stateful_schema.hook
def flatmap_body(context, body):
    """Half the bodies of a new table, a move, a league or a result are sound ones with real ids, so the
    workflow reaches its success paths (a random set-up is nearly never a legal one)."""
    sound = _sound_body(context.operation.path, context.operation.method.lower(), WORLD)
    return st.just(body) if sound is None else st.sampled_from([body, sound])


def _sound_body(path: str, method: str, world: dict) -> dict | None:
    if not world or method != "post":
        return None
    if path == "/api/tables/":
        return {"players": [world["alice_player"], world["bob_player"]], "setup": two_player_setup()}
    if path == "/api/tables/{code}/moves/":
        return {
            "seq": 0,
            "move": {"type": "draw", "seat": 0, "troops": ["samurai", "samurai", "bushi", "bushi"], "kokus": [1, 1]},
        }
    if path == "/api/clubs/{slug}/leagues/":
        return {"name": "Spring league", "games": ["shitenno"]}
    if path == "/api/results/":
        return {
            "game": "Go",
            "played_on": timezone.localdate().isoformat(),
            "entries": [{"player": world["alice_player"], "rank": 1}, {"player": world["bob_player"], "rank": 2}],
        }
    return None


def test_it_follows_links_through_tables_and_leagues_without_a_server_error(world, in_process_connection):
    workflow = stateful_schema.as_state_machine()

    class Workflow(workflow):
        def get_call_kwargs(self, case):
            return {"headers": _headers(world)}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=[not_a_server_error, status_code_conformance])

    run_state_machine_as_test(
        Workflow,
        settings=settings(
            max_examples=15,
            stateful_step_count=6,
            deadline=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        ),
    )
