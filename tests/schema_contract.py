"""Every answer the API gives a test is checked against the live OpenAPI schema (issue 48, "the schema-validation
fixture on every API test"): a drift between what the server does and what the schema says fails the test that
saw it, not a third-party app in production.

tests/conftest.py installs `check` on Django's test client (and so on DRF's APIClient, its subclass) for every
test: each response to a request under /api/ must have a status code the operation documents, a Content-Type it
documents for that status, and a JSON body (application/json or application/problem+json) that validates against
that status's schema; and a JSON request body the server took (a 2xx answer) must validate against the
operation's request schema (a body refused with a 4xx is the test's own business). The schema is
drf-spectacular's, built once per test process (as /api/schema/ serves it) and turned from OpenAPI 3.0 into JSON
Schema draft 4 (`nullable`, `$ref` with no siblings; an object lists all its
members unless it says otherwise; `date`, `date-time`, `uri`, `email` and the site's `name` format are checked);
each response schema's validator (jsonschema, resolving the `$ref`s in the document's components) is made once, on
first use.

What the schema cannot speak of is held to the one rule every error keeps (docs/api.md, "Errors"): a method an
address does not take, or an address the schema does not name, may only be refused, with a problem document.
OPTIONS (DRF's metadata) and the contract's own documents (the schema, its docs, the problem types' explanations)
are not checked. A test that deliberately breaks the contract opts out with
`@pytest.mark.outside_the_schema(reason="...")`.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft4Validator, FormatChecker

# Under /api/ but not operations: the schema itself, its browsable docs, and the problem types' explanations.
NOT_OPERATIONS = ("/api/schema/", "/api/docs/", "/api/problems/")
JSON_TYPES = re.compile(r"^application/(.+\+)?json$")
SCHEMA_KEYWORDS_WITH_ONE_SCHEMA = ("items", "not", "additionalProperties")
SCHEMA_KEYWORDS_WITH_SCHEMAS = ("allOf", "anyOf", "oneOf")


# The formats the schema's answers carry, checked as OpenAPI means them (jsonschema checks date and email itself but
# needs extra packages for date-time and uri); any other format (double, int64, ...) says nothing to check.
FORMATS = FormatChecker(["date", "email"])
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
ABSOLUTE_URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:[^\s]*$")


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not RFC3339.match(value):
        return False
    import datetime

    datetime.datetime.fromisoformat(value.upper().replace("Z", "+00:00"))  # a real day and time, or ValueError
    return True


@FORMATS.checks("uri")
def _uri(value: object) -> bool:
    return not isinstance(value, str) or bool(ABSOLUTE_URI.match(value))


@FORMATS.checks("name")
def _name(value: object) -> bool:
    """The site's own `format: name` (shitenno_site.api.NameFieldSchema): what it answers, it would take."""
    from shitenno_site.validation import name_problem

    return not isinstance(value, str) or name_problem(value) is None


class SchemaDrift(AssertionError):
    """The server answered what the schema does not say."""


def json_schema(node: Any, closed: bool = True) -> Any:
    """An OpenAPI 3.0 schema object as JSON Schema draft 4: `nullable: true` becomes a "null" type (or an anyOf
    with null where there is no `type`, as around drf-spectacular's `allOf: [{$ref}]`); nested schemas likewise.
    A `properties` map's keys are names, not keywords (a property may be called "nullable").

    `closed`: an object whose schema lists its properties and says nothing of others has no others
    (`additionalProperties: false`), so a member the server sends and the schema does not name is a drift too; a
    schema that allows more says so (the Problem document's `additionalProperties: true`, a DictField's map)."""
    if not isinstance(node, dict):
        return node
    out: dict = {}
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: json_schema(sub, closed) for name, sub in value.items()}
        elif key in SCHEMA_KEYWORDS_WITH_ONE_SCHEMA:
            out[key] = json_schema(value, closed)
        elif key in SCHEMA_KEYWORDS_WITH_SCHEMAS and isinstance(value, list):
            out[key] = [json_schema(sub, closed) for sub in value]
        elif key == "nullable":
            continue
        else:
            out[key] = value
    if closed and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if node.get("nullable") is True:
        if "type" in out and "$ref" not in out:
            types = out["type"] if isinstance(out["type"], list) else [out["type"]]
            out["type"] = [*types, "null"] if "null" not in types else types
            if "enum" in out and None not in out["enum"]:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


@dataclass
class Contract:
    """The live schema, ready to check answers against."""

    document: dict
    paths: list = field(default_factory=list)  # (regex, template, {method: responses})
    validators: dict = field(default_factory=dict)
    checked: int = 0
    seconds: float = 0.0
    build_seconds: float = 0.0
    request_bodies: dict = field(default_factory=dict)  # (template, method) -> the JSON request body's schema
    requests_checked: int = 0

    def __post_init__(self) -> None:
        converted = {
            "components": {
                "schemas": {
                    name: json_schema(schema)
                    for name, schema in self.document.get("components", {}).get("schemas", {}).items()
                }
            }
        }
        self.converted = converted
        for template, operations in self.document["paths"].items():
            regex = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$")
            self.paths.append(
                (
                    regex,
                    template,
                    {
                        method.upper(): op.get("responses", {})
                        for method, op in operations.items()
                        if method in {"get", "put", "post", "patch", "delete"}
                    },
                )
            )
            for method, op in operations.items():
                body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
                if body is not None:
                    self.request_bodies[(template, method.upper())] = body
        # The most specific template first: /api/players/claim/ before /api/players/{id}/.
        self.paths.sort(key=lambda entry: (entry[1].count("{"), -len(entry[1])))

    def validator(self, key: tuple, schema: dict) -> Draft4Validator:
        if key not in self.validators:
            components = self.converted["components"]
            own = json_schema(schema)
            # The response schema in a copy of the document's root, so its "#/components/..." refs resolve.
            root = {"components": components, "allOf": [own]}
            Draft4Validator.check_schema({"allOf": [own]})
            self.validators[key] = Draft4Validator(root, format_checker=FORMATS)
        return self.validators[key]

    def operation(self, path: str) -> tuple[str, dict] | None:
        for regex, template, operations in self.paths:
            if regex.match(path):
                return template, operations
        return None

    def check(self, method: str, path: str, response) -> None:
        """Raise SchemaDrift unless the schema says `response` is an answer to `method path`."""
        if not path.startswith("/api/") or path.startswith(NOT_OPERATIONS) or method == "OPTIONS":
            return
        started = time.perf_counter()
        try:
            self._check(method, path, response)
        finally:
            self.checked += 1
            self.seconds += time.perf_counter() - started

    def check_request(self, method: str, path: str, content_type: str, body: bytes, response) -> None:
        """Raise SchemaDrift when the server took (2xx) a JSON body the operation's request schema refuses: an app
        generated from the schema could not send what the server needs, or the schema promises a field the server
        does not read. A refused body (4xx) is the test's own business: tests send bad bodies on purpose."""
        if (
            not path.startswith("/api/")
            or path.startswith(NOT_OPERATIONS)
            or not 200 <= response.status_code < 300
            or not body
            or content_type.split(";")[0].strip().lower() != "application/json"
        ):
            return
        found = self.operation(path)
        schema = found and self.request_bodies.get((found[0], method))
        if not schema:
            return
        try:
            data = json.loads(body)
        except ValueError:
            return
        self.requests_checked += 1
        errors = sorted(
            self.validator(("request", found[0], method), schema).iter_errors(data), key=lambda e: list(e.absolute_path)
        )
        if errors:
            said = "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or 'the top'}: {_short(e)}" for e in errors[:5])
            raise SchemaDrift(
                f"{method} {found[0]} ({path}) took a body its request schema refuses and answered "
                f"{response.status_code} ({len(errors)} error(s)): {said}\nbody: {body[:600]!r}"
            )

    def _check(self, method: str, path: str, response) -> None:
        status = response.status_code
        found = self.operation(path)
        documented = found and found[1].get("GET" if method == "HEAD" else method)
        if not documented:
            # The schema does not name this address or this method: only a refusal, as a problem document, fits.
            where = f"{method} {path}" + ("" if found else " (an address the schema does not name)")
            if status < 400 and not (300 <= status < 400 and not found):  # APPEND_SLASH's redirect
                raise SchemaDrift(f"{where} answered {status}: the schema has no such operation")
            if status >= 400:
                media = response.get("Content-Type", "").split(";")[0].strip().lower()
                if media != "application/problem+json":
                    raise SchemaDrift(
                        f"{where} answered {status} as {media!r}, not as a problem document: {_excerpt(response)}"
                    )
                self._body(
                    ("Problem",),
                    {"$ref": "#/components/schemas/Problem"},
                    "application/problem+json",
                    response,
                    f"{where} {status}",
                )
            return
        template = found[0]
        where = f"{method} {template} ({path}) answered {status}"
        answer = documented.get(str(status)) or documented.get(f"{str(status)[0]}XX") or documented.get("default")
        if answer is None:
            raise SchemaDrift(
                f"{where}, a status the schema does not document for it (it documents "
                f"{', '.join(sorted(documented))}): {_excerpt(response)}"
            )
        content = answer.get("content") or {}
        body = b"" if response.streaming or method == "HEAD" else response.content
        media = response.get("Content-Type", "").split(";")[0].strip().lower()
        if not content:
            if body:
                raise SchemaDrift(
                    f"{where} with a {media or 'typeless'} body, where the schema says there is none: "
                    f"{_excerpt(response)}"
                )
            return
        if not body and (status in (204, 304) or method == "HEAD"):
            return
        if media not in content and "*/*" not in content:
            raise SchemaDrift(f"{where} as {media!r}, where the schema says {', '.join(content)}: {_excerpt(response)}")
        schema = (content.get(media) or content.get("*/*") or {}).get("schema")
        if schema is None or response.streaming:
            return
        if JSON_TYPES.match(media):
            self._body((template, method, str(status), media), schema, media, response, where)

    def _body(self, key: tuple, schema: dict, media: str, response, where: str) -> None:
        content = response.content
        if response.get("Content-Encoding") == "gzip":  # GZipMiddleware, for a test that asked for it
            content = gzip.decompress(content)
        try:
            data = json.loads(content or b"null")
        except ValueError as error:
            raise SchemaDrift(f"{where}: the {media} body is not JSON ({error}): {_excerpt(response)}") from None
        errors = sorted(self.validator(key, schema).iter_errors(data), key=lambda e: list(e.absolute_path))
        if errors:
            said = "; ".join(f"at {'/'.join(map(str, e.absolute_path)) or 'the top'}: {_short(e)}" for e in errors[:5])
            raise SchemaDrift(
                f"{where}, a body its schema refuses ({len(errors)} error(s)): {said}\nbody: {_excerpt(response)}"
            )


def _short(error) -> str:
    message = error.message
    return message if len(message) < 300 else message[:300] + "..."


def _excerpt(response) -> str:
    if response.streaming:
        return "(streamed)"
    text = response.content[:600].decode("utf-8", "replace")
    return text + ("..." if len(response.content) > 600 else "")


_CONTRACT: Contract | None = None


def live_schema() -> dict:
    """drf-spectacular's schema as /api/schema/ serves it (SpectacularAPIView: the generator, public), as plain
    JSON. Building it reads no database."""
    from django.utils import translation
    from drf_spectacular.generators import SchemaGenerator
    from rest_framework.utils.encoders import JSONEncoder

    with translation.override("en"):
        schema = SchemaGenerator().get_schema(request=None, public=True)
        return json.loads(json.dumps(schema, cls=JSONEncoder))


def contract() -> Contract:
    """The session's one Contract, built on first use (once per xdist worker)."""
    global _CONTRACT
    if _CONTRACT is None:
        started = time.perf_counter()
        _CONTRACT = Contract(live_schema())
        _CONTRACT.build_seconds = time.perf_counter() - started
    return _CONTRACT


def summary() -> str | None:
    """What the check cost this process, for the run's summary (without xdist; a worker's is not shown)."""
    if _CONTRACT is None or not _CONTRACT.checked:
        return None
    each = _CONTRACT.seconds / _CONTRACT.checked
    return (
        f"schema check: {_CONTRACT.checked} API answers checked in {_CONTRACT.seconds:.2f} s "
        f"({each * 1000:.2f} ms each), {_CONTRACT.requests_checked} request bodies the server took, the schema "
        f"built once in {_CONTRACT.build_seconds:.2f} s"
    )


def _sent(environ: dict) -> bytes:
    """The body the test client sent: its FakePayload keeps it whole (read or not) in a BytesIO."""
    payload = environ.get("wsgi.input")
    content = getattr(payload, "_FakePayload__content", None)
    return content.getvalue() if content is not None else b""


def checking(request_method):
    """Django's Client.request, checking each answer under /api/ against the live schema."""

    def request(self, **environ):
        response = request_method(self, **environ)
        method, path = environ.get("REQUEST_METHOD", "GET").upper(), environ.get("PATH_INFO", "")
        contract().check(method, path, response)
        contract().check_request(method, path, environ.get("CONTENT_TYPE", ""), _sent(environ), response)
        return response

    request.checks_the_schema = True
    return request
