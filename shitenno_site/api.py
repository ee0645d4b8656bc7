"""The API's shared pieces: strict input fields and serializers, the JSON parser, and the one place that
turns service errors into API answers (HackSoft styleguide's exception handler).

Input serializers are StrictSerializers built from the strict fields below, so a body is typed in one
place: no unknown field, no bool read as a number or a number as text, no fraction truncated, no number
beyond its column, no NUL in stored JSON (issue 14).
"""

import copy
import math
import re

from django.core.exceptions import BadRequest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import RegexValidator
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiSerializerExtension, OpenApiSerializerFieldExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema_field, extend_schema_serializer
from rest_framework import exceptions, serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import MoveError
from shitenno_site import problems, validation
from shitenno_site.errors import Conflict, KeyReused, TooMany, Unavailable
from shitenno_site.parsers import MAX_JSON_DEPTH, StrictJSONParser  # noqa: F401  (the parser's old home)


class StrictSerializer(serializers.Serializer):
    """Input serializers refuse unknown fields, so a typo is a 400, not a silently ignored value."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = set(data) - set(self.fields)
            if unknown:
                raise serializers.ValidationError({name: [_("Unknown field.")] for name in sorted(unknown)})
        return super().to_internal_value(data)


class StrictSerializerSchema(OpenApiSerializerExtension):
    """Says in the schema what StrictSerializer does: a request body with a key it does not name is refused
    (`additionalProperties: false`), so a client, and schemathesis, knows an unknown key is malformed."""

    target_class = StrictSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema, direction):
        # The views validate their StrictSerializers whole, on PATCH too: a field required is required there.
        serializer = copy.copy(self.target)
        serializer.partial = False
        schema = auto_schema._map_serializer(serializer, direction, bypass_extensions=True)
        if direction == "request":
            schema["additionalProperties"] = False
        if schema.get("description") == StrictSerializer.__doc__:
            # drf-spectacular falls back on a base class's docstring: this one said the same of 35 request bodies
            # (issue 48 finding 3); a body's own docstring stays its description
            del schema["description"]
        return schema


class StrictIntegerField(serializers.IntegerField):
    """A JSON number that is whole: no bool, no string, no fraction; bounded by the database's integers."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("min_value", -validation.MAX_INT - 1)
        kwargs.setdefault("max_value", validation.MAX_INT)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            raise serializers.ValidationError("A whole number is required (not text, true/false or a fraction).")
        return super().to_internal_value(data)


class IdField(StrictIntegerField):
    """An object's id in a body: a whole number from 1 (the database's ids start there). One that names nothing
    is the view's 400, naming the field."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("min_value", 1)
        super().__init__(**kwargs)


def id_parameter(name: str, description: str, **kwargs) -> OpenApiParameter:
    """A query parameter holding an object's id, with the bounds `query_int(..., min_value=1)` enforces."""
    return OpenApiParameter(
        name, {"type": "integer", "minimum": 1, "maximum": validation.MAX_INT}, description=description, **kwargs
    )


class StrictFloatField(serializers.FloatField):
    """A finite JSON number within bounds (default ±1,000,000); no bool, no string."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("min_value", -validation.MAX_POINTS)
        kwargs.setdefault("max_value", validation.MAX_POINTS)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        finite = isinstance(data, int) or math.isfinite(data) if isinstance(data, int | float) else False
        if isinstance(data, bool) or not finite:
            raise serializers.ValidationError("A finite number is required.")
        if isinstance(data, int) and not self.min_value <= data <= self.max_value:  # float(10**400) overflows
            raise serializers.ValidationError(f"A number from {self.min_value:g} to {self.max_value:g} is required.")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """true or false, not 1, "yes" or "on"."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            raise serializers.ValidationError("true or false is required.")
        return data


class StrictCharField(serializers.CharField):
    """JSON text only (a number is not silently turned into text), under the site's one text rule
    (validation.text_problem: no NUL, lone surrogate, control or direction character; `multiline` lets line
    breaks and tabs through, for notes and descriptions)."""

    def __init__(self, *, multiline: bool = False, **kwargs) -> None:
        self.multiline = multiline
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("Text is required.")
        value = super().to_internal_value(data)  # trimmed: a line break around a name is dropped, not refused
        problem = validation.text_problem(value, multiline=self.multiline)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class StrictCharFieldSchema(OpenApiSerializerFieldExtension):
    """The text rule in the schema, as far as a pattern can say it: no control (but line breaks and tabs in
    free text) nor direction-control character."""

    target_class = StrictCharField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        own_pattern = any(isinstance(v, RegexValidator) for v in self.target.validators)  # a token's: stricter
        if direction == "request" and not own_pattern:
            schema["pattern"] = validation.FREE_TEXT_PATTERN if self.target.multiline else validation.TEXT_PATTERN
        return schema


class StrictSlugField(serializers.SlugField):
    """A slug sent as JSON text: a number is refused, not turned into the slug "0" (the schema says string)."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("Text is required.")
        return super().to_internal_value(data)


class NameField(StrictCharField):
    """A name others will read: something visible, no direction-control characters."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.validators.append(validation.validate_name)

    def to_internal_value(self, data):
        """A name is checked as sent, before the trim: its schema (`format: name` and the pattern) refuses a line
        break anywhere, so "E\\n" is refused, not stored as "E" (a free text's line breaks stay its own)."""
        problem = validation.text_problem(data) if isinstance(data, str) else None
        if problem:
            raise serializers.ValidationError(problem)
        return super().to_internal_value(data)


class NameFieldSchema(OpenApiSerializerFieldExtension):
    """A name's rule in the schema: `format: name` (docs/api.md: a letter, digit or sign, no control or
    direction-control character; a JSON Schema pattern cannot name Unicode classes), and the part a pattern can
    say, so a client that knows no `name` format still checks the control characters."""

    target_class = NameField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        schema.update(format="name", pattern=validation.NAME_PATTERN)
        return schema


class StrictDateField(serializers.DateField):
    """An ISO date between 1900 and 2999."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            raise serializers.ValidationError("A date is required, as text: YYYY-MM-DD.")
        value = super().to_internal_value(data)
        validation.validate_date(value)
        return value


class StrictDateFieldSchema(OpenApiSerializerFieldExtension):
    """The dates the site takes, 1900 to 2999, as a pattern beside `format: date`."""

    target_class = StrictDateField
    match_subclasses = True

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        schema["pattern"] = validation.DATE_PATTERN
        return schema


@extend_schema_field(OpenApiTypes.OBJECT)
class StrictJSONField(serializers.JSONField):
    """A JSON object (or any JSON value with `objects_only=False`) that PostgreSQL can store."""

    def __init__(self, *, objects_only: bool = True, **kwargs) -> None:
        self.objects_only = objects_only
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if self.objects_only and not isinstance(data, dict):
            raise serializers.ValidationError("A JSON object is required.")
        problem = validation.json_problem(data, max_depth=MAX_JSON_DEPTH) or validation.json_text_problem(data)
        if problem:
            raise serializers.ValidationError(problem)
        return super().to_internal_value(data)


# The services' errors answered with their sentence (a Conflict adds what the data is now).
ANSWERED_WITH_A_SENTENCE = ((Conflict, 409), (KeyReused, 422), (TooMany, 429), (Unavailable, 503))


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """Every error the API raises, as one problem document (shitenno_site/problems.py, RFC 9457)."""
    answer = _answer(exc, context)
    if answer is None:
        return None
    request = context.get("request")
    renderer = getattr(request, "accepted_renderer", None)
    if renderer is None or getattr(renderer, "format", "json") == "json":  # the browsable API keeps its HTML
        answer.content_type = problems.PROBLEM_CONTENT_TYPE
    return answer


def _answer(exc: Exception, context: dict) -> Response | None:
    answer = _site_answer(exc)
    if answer is not None:
        return answer
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound(_not_found_sentence(exc))
    answer = drf_exception_handler(exc, context)
    if answer is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        errors = answer.data if isinstance(answer.data, dict) else {"non_field_errors": answer.data}
        if set(errors) == {"detail"}:  # a model's own message, not a field's
            errors = {"non_field_errors": errors["detail"]}
        answer.data = problems.problem(
            answer.status_code,
            problems.first_sentence(errors) or _("Bad request."),
            kind="invalid-input",
            errors=errors,
        )
    else:
        data = answer.data if isinstance(answer.data, dict) else {"detail": answer.data}
        detail = data.pop("detail", "") or problems.KINDS[problems.kind_for(answer.status_code)][0]
        answer.data = problems.problem(answer.status_code, detail, **data)
    return answer


def _site_answer(exc: Exception) -> Response | None:
    """The site's own errors (input, a refused move, a service's sentence), or None for DRF's and Django's."""
    if isinstance(exc, validation.InputError):
        errors = {exc.field: [exc.message]}
        return Response(
            problems.problem(400, problems.first_sentence(errors), kind="invalid-input", errors=errors), status=400
        )
    if isinstance(exc, BadRequest):
        return Response(problems.problem(400, str(exc) or _("Bad request.")), status=400)
    if isinstance(exc, MoveError):
        kind = "illegal-move" if type(exc).__name__ == "IllegalMove" else "invalid-move"
        members = {"code": type(exc).__name__}
        if exc.code:  # the rule broken and its values, for a client that says it in its own language
            members.update(rule=exc.code, params=exc.params)
        return Response(problems.problem(400, exc.message, kind=kind, **members), status=400)
    for kind, status in ANSWERED_WITH_A_SENTENCE:
        if isinstance(exc, kind):
            return Response(problems.problem(status, exc.message, **getattr(exc, "payload", {})), status=status)
    if isinstance(exc, RecursionError):  # JSON nested thousands of levels deep: the parser gives up
        return Response(problems.problem(400, _("The JSON is nested too deeply.")), status=400)
    return None


def _not_found_sentence(exc: Http404) -> str:
    """A 404's sentence in the reader's language: Django's get_object_or_404 says "No Club matches the given
    query." in English, naming the model; every such answer says the site's one sentence instead."""
    message = str(exc)
    if not message or message.endswith("matches the given query."):
        return _("No such object, or it is private.")
    return _(message)


@extend_schema_serializer(component_name="Problem")
class ProblemOutput(serializers.Serializer):
    """An error: RFC 9457 problem details (shitenno_site/problems.py). Besides the five members the RFC names,
    `errors` holds field errors by field; a refused move adds `code`, `rule` and `params`; data that moved on adds
    what it is now (`head_seq` for a table, `version` for a season, ...)."""

    type = serializers.CharField(
        help_text="The kind of problem, as a URI reference: GET it for its explanation (/api/problems/ lists them all)."
    )
    title = serializers.CharField(help_text="The kind's short summary, in the reader's language.")
    status = serializers.IntegerField(help_text="The HTTP status, repeated.")
    detail = serializers.CharField(help_text="What is wrong this time, in the reader's language.")
    errors = serializers.DictField(
        required=False, help_text="For malformed input: each field (nested as the body was) with its sentences."
    )
    code = serializers.CharField(required=False, help_text="For a refused move: IllegalMove or InvalidMove.")
    rule = serializers.CharField(
        required=False,
        help_text="For a refused move: the rule broken, as "
        "<game>.<rule> (the site's own sentences for it are in its Dutch catalogue).",
    )
    params = serializers.DictField(required=False, help_text="For a refused move: the values the rule names.")
    head_seq = serializers.IntegerField(required=False, help_text="For a stale move: the table's head_seq now.")


ERROR_BODIES = {
    400: OpenApiResponse(ProblemOutput, description="Malformed (`errors` by field), or a refused move."),
    401: OpenApiResponse(ProblemOutput, description="Log in first."),
    403: OpenApiResponse(ProblemOutput, description="Not allowed to do this."),
    404: OpenApiResponse(ProblemOutput, description="No such object, or it is private."),
    409: OpenApiResponse(ProblemOutput, description="The data moved on: detail, and what it is now."),
    413: OpenApiResponse(ProblemOutput, description="The body is too large."),
    415: OpenApiResponse(ProblemOutput, description="Send application/json."),
    422: OpenApiResponse(ProblemOutput, description="This Idempotency-Key was used for a different request."),
    429: OpenApiResponse(ProblemOutput, description="A budget is used up for now (docs/operations.md): try later."),
    503: OpenApiResponse(ProblemOutput, description="A job failed or could not be queued: detail says why; try again."),
}


def with_errors(responses: dict, *codes: int) -> dict:
    """An operation's documented answers: its own, plus the error answers it really gives."""
    return {**responses, **{code: ERROR_BODIES[code] for code in codes}}


def blank_or_pattern(result: dict, generator, request, public) -> dict:
    """drf-spectacular post-processing hook: a text field that may be blank and has a pattern comes out as
    `oneOf: [{pattern...}, {maxLength: 0}]`; "" matches both, and `oneOf` wants exactly one, so the schema refused
    the blank the server takes and defaults to (issue 48 finding 3; the request-body check of tests/schema_contract.py
    found it in the three fields). Such a `oneOf` becomes `anyOf`: either is fine."""

    def walk(node) -> None:
        if isinstance(node, dict):
            options = node.get("oneOf")
            if isinstance(options, list) and any(isinstance(o, dict) and o.get("maxLength") == 0 for o in options):
                node["anyOf"] = node.pop("oneOf")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(result)
    return result


def document_edge_answers(result: dict, generator, request, public) -> dict:
    """drf-spectacular post-processing hook: every operation may answer 400 (a NUL or an unreadable value in
    the address, refused by InputEdgeMiddleware and the query helpers), 401 (a bad token, sent to any of them:
    a public read's generated client raised "unexpected status" on it), every write 413 (a body too large), and
    every read carries an ETag and may answer 304 (issue 48); every error answer is the one problem document,
    as application/problem+json (shitenno_site/problems.py)."""
    problem = {problems.PROBLEM_CONTENT_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            responses.setdefault("400", {"description": "The address or the body cannot be read."})
            # a token sent is checked on every operation, a public read's too: unknown, revoked or expired is 401
            responses.setdefault("401", {"description": "The token sent is unknown, revoked or expired."})
            if method in ("post", "put", "patch"):
                responses.setdefault("413", {"description": "The body is too large."})
            if method == "get":  # django.middleware.http.ConditionalGetMiddleware: an ETag on every read
                responses.setdefault(
                    "304",
                    {"description": "Not modified: the ETag sent in If-None-Match is still the answer's (no body)."},
                )
                for answer in (r for code, r in responses.items() if str(code).startswith("2")):
                    answer.setdefault("headers", {}).setdefault(
                        "ETag",
                        {
                            "schema": {"type": "string"},
                            "description": "The answer's version: send it back in If-None-Match for a 304.",
                        },
                    )
            for code, answer in responses.items():
                if str(code)[0] in "45":
                    answer["content"] = problem
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    if "Problem" in schemas:
        schemas["Problem"]["additionalProperties"] = True  # the site's own members: version, attempt, ...
    return result


def enum_names(result: dict, generator, request, public) -> dict:
    """drf-spectacular post-processing hook: an enum whose values are not names ("3-2-1-0") gets `x-enum-varnames`
    (OpenAPI Generator's extension, read by openapi-python-client too), so a generated client names its members
    `POINTS_SCHEME_3_2_1_0` rather than `VALUE_0` (issue 48 finding 3)."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        values = schema.get("enum") or []
        if not values or not all(isinstance(v, str) for v in values) or all(v[:1].isalpha() for v in values):
            continue
        stem = re.sub(r"(?<!^)(?=[A-Z])", "_", name.removesuffix("Enum")).upper()
        words = [re.sub(r"\W+", "_", value) for value in values]
        schema["x-enum-varnames"] = [word.upper() if word[:1].isalpha() else f"{stem}_{word}" for word in words]
    return result


class StrictLimitOffsetPagination(LimitOffsetPagination):
    """limit and offset through the one query helper: an unreadable value is a 400, not silently the default."""

    max_limit = 500

    def get_limit(self, request) -> int:
        self._not_blank(request, self.limit_query_param)
        return validation.query_int(
            request.query_params,
            self.limit_query_param,
            default=self.default_limit,
            min_value=1,
            max_value=self.max_limit,
        )

    def get_offset(self, request) -> int:
        self._not_blank(request, self.offset_query_param)
        return validation.query_int(request.query_params, self.offset_query_param, default=0)

    @staticmethod
    def _not_blank(request, name: str) -> None:
        """`?limit=` given blank is refused, as the schema's integer says (schemathesis found `?offset=&limit=`
        answered as if absent); left out, the default applies."""
        if name in request.query_params and not request.query_params[name].strip():
            raise validation.InputError(
                name, _("%(name)s is a whole number; leave it out for the default.") % {"name": name}
            )

    def get_schema_operation_parameters(self, view) -> list[dict]:
        """DRF's two parameters, with the bounds get_limit and get_offset enforce."""
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": self.max_limit},
            self.offset_query_param: {"minimum": 0, "maximum": validation.MAX_INT},
        }
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
