"""One place that turns service errors into API answers (HackSoft styleguide's exception handler)."""

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines.base import MoveError
from shitenno_site.errors import Conflict


def exception_handler(exc: Exception, context: dict) -> Response | None:
    if isinstance(exc, MoveError):
        return Response({"detail": exc.message, "code": type(exc).__name__}, status=400)
    if isinstance(exc, Conflict):
        return Response({"detail": exc.message, **exc.payload}, status=409)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    return drf_exception_handler(exc, context)
