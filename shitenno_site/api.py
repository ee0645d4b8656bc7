"""One place that turns service errors into API answers (HackSoft styleguide's exception handler)."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import MoveError
from shitenno_site.errors import Conflict, KeyReused


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, MoveError):
        return Response({"detail": exc.message, "code": type(exc).__name__}, status=400)
    if isinstance(exc, Conflict):
        return Response({"detail": exc.message, **exc.payload}, status=409)
    if isinstance(exc, KeyReused):
        return Response({"detail": exc.message}, status=422)
    if isinstance(exc, RecursionError):  # JSON nested thousands of levels deep: the parser gives up
        return Response({"detail": _("The JSON is nested too deeply.")}, status=400)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)


class ErrorOutput(serializers.Serializer):
    detail = serializers.CharField()
    code = serializers.CharField(required=False, help_text="For a refused move: IllegalMove or InvalidMove.")


ERROR_BODIES = {
    400: OpenApiResponse(OpenApiTypes.OBJECT, description="Malformed: field errors, or a refused move's detail."),
    401: OpenApiResponse(ErrorOutput, description="Log in first."),
    403: OpenApiResponse(ErrorOutput, description="Not logged in, or not allowed to do this."),
    404: OpenApiResponse(ErrorOutput, description="No such object, or it is private."),
    409: OpenApiResponse(OpenApiTypes.OBJECT, description="The data moved on: detail, and what it is now."),
    415: OpenApiResponse(ErrorOutput, description="Send application/json."),
    422: OpenApiResponse(ErrorOutput, description="This Idempotency-Key was used for a different request."),
}


def with_errors(responses: dict, *codes: int) -> dict:
    """An operation's documented answers: its own, plus the error answers it really gives."""
    return {**responses, **{code: ERROR_BODIES[code] for code in codes}}
