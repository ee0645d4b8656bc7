"""The schema's names and types say what the server does (issue 48 finding 3, found by a client generated from it):
one enum per set of choices, an action's operation named by the action, a request body named by what it makes,
no description copied from a base class, every operation summarised, every field typed."""

import pytest

pytestmark = pytest.mark.django_db

TYPED = ("type", "$ref", "allOf", "oneOf", "anyOf", "enum")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        return Client().get("/api/schema/?format=json").json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def test_one_enum_for_each_set_of_choices(schema):
    seen: dict[tuple, str] = {}
    twice = []
    for name, component in schema["components"]["schemas"].items():
        if "enum" in component:
            values = tuple(sorted(map(str, component["enum"])))
            if values in seen:
                twice.append(f"{seen[values]} and {name}")
            seen[values] = name
    assert twice == []
    assert {"PointsSchemeEnum", "ResultStatusEnum"} <= set(seen.values())


def test_an_action_is_named_by_the_action_not_by_create(schema):
    from shitenno_site.schema import ACTIONS

    actions = {
        (path, operation["operationId"])
        for path, method, operation in _operations(schema)
        if method == "post" and path.rstrip("/").rsplit("/", 1)[-1] in ACTIONS
    }
    assert len(actions) >= 15  # the check saw them
    assert [(path, name) for path, name in actions if name.endswith("_create")] == []
    names = {operation["operationId"] for _path, _method, operation in _operations(schema)}
    assert {"results_sign_off", "tables_undo", "invites_answer", "clubs_create", "tables_moves_create"} <= names


def test_every_operation_says_what_it_does(schema):
    bare = [
        f"{method.upper()} {path}"
        for path, method, operation in _operations(schema)
        if not operation.get("summary") and not operation.get("description")
    ]
    assert bare == []


def test_no_operation_is_described_by_a_base_class(schema):
    import inspect

    from shitenno_site.paged import PagedListView

    base = inspect.cleandoc(PagedListView.__doc__)
    assert [
        f"{method} {path}" for path, method, operation in _operations(schema) if operation.get("description") == base
    ] == []


def test_no_body_is_described_by_a_base_class_or_named_by_its_nesting(schema):
    from shitenno_site.api import StrictSerializer

    components = schema["components"]["schemas"]
    assert [name for name, c in components.items() if c.get("description") == StrictSerializer.__doc__] == []
    assert "InputRequest" not in components and "ClubInputRequest" in components


def test_every_field_has_a_type(schema):
    untyped = [
        f"{name}.{field}"
        for name, component in schema["components"]["schemas"].items()
        for field, spec in (component.get("properties") or {}).items()
        if not any(key in spec for key in TYPED)
    ]
    assert untyped == []


def test_a_table_s_result_statuses_are_the_results_own():
    """games does not import leagues, so the table's copy of the statuses is kept equal here."""
    from games.api.views import RESULT_STATUSES
    from leagues.models import Result

    assert [(value, str(label)) for value, label in RESULT_STATUSES] == [
        (value, str(label)) for value, label in Result.Status.choices
    ]


def test_the_schema_downloads_under_an_ascii_file_name(client):
    """`curl -OJ` could not read the RFC 2047-encoded header the title's "ō" made (issue 48 finding 3)."""
    for query, suffix in (("", "yaml"), ("?format=json", "json")):
        disposition = client.get(f"/api/schema/{query}")["Content-Disposition"]
        assert disposition.isascii() and "=?utf-8?" not in disposition
        assert disposition.startswith(f"inline; filename=\"shitenno-site-api.{suffix}\"; filename*=UTF-8''")


def test_the_headers_a_client_follows_are_in_the_schema(schema):
    """A night's 202 sends the proposal's poll address in Location, the move log its next page in Link."""
    proposal = schema["paths"]["/api/nights/{id}/rounds/"]["post"]["responses"]["202"]
    moves = schema["paths"]["/api/tables/{code}/moves/"]["get"]["responses"]["200"]
    assert "Location" in proposal.get("headers", {}) and "Link" in moves.get("headers", {})


def test_an_enum_of_values_that_are_not_names_names_its_members(schema):
    """A generated client called the points schemes VALUE_0 and VALUE_1 ("3-2-1-0" is no identifier)."""
    scheme = schema["components"]["schemas"]["PointsSchemeEnum"]
    assert scheme["x-enum-varnames"] == ["POINTS_SCHEME_3_2_1_0", "POINTS_SCHEME_7_5_3_1", "PERCENT", "CUSTOM"]
    for name, component in schema["components"]["schemas"].items():
        if "x-enum-varnames" in component:
            assert len(component["x-enum-varnames"]) == len(component["enum"]), name
            assert all(n.isidentifier() for n in component["x-enum-varnames"]), name
