"""The JSON input of the commands that answer a contract from outside the web (`pods`, `swiss`): one reading, so
both refuse an unreadable file or bad JSON alike, with exit 2 and the reason."""

import json
import sys
from typing import Any

from django.core.management.base import CommandError


def read_json_input(path: str) -> Any:
    """The JSON in `path`, or on standard input for "-"; CommandError (exit 2) saying why it cannot be read."""
    try:
        if path == "-":
            return json.load(sys.stdin)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.", returncode=2) from None
    except json.JSONDecodeError as error:
        raise CommandError(f"{path} is not valid JSON: {error}.", returncode=2) from None
