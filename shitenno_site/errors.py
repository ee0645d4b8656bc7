"""Errors the services raise; views and the API translate them to HTTP in one place each."""

from django.core.exceptions import ValidationError


class Conflict(Exception):
    """The request was sound but the data moved on (a stale sequence number, a claimed link)."""

    def __init__(self, message: str, *, payload: dict | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.payload = payload or {}


class KeyReused(Exception):
    """An Idempotency-Key came back with a different request than the one it first answered (HTTP 422)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Unavailable(Exception):
    """A job the request needs failed or could not be queued (HTTP 503): nothing was written; try again."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TooMany(ValidationError):
    """A stated budget is used up for now (HTTP 429 on the API; docs/operations.md lists the budgets). A
    ValidationError, so every form that shows a service's refusal shows this sentence too."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="too_many")
        self.message = message
