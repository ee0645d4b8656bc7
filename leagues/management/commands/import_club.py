"""`manage.py import_club <file>`: load a club export into an empty database, then recompute ratings and standings."""

import json
import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from leagues.portability import club_import


class Command(BaseCommand):
    help = "Load a club written by export_club into an empty database (one transaction: all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The JSON file written by export_club ('-' reads stdin).")

    def handle(self, *args, file: str, **options):
        try:
            text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{file} is not JSON: {exc}.") from exc
        try:
            club = club_import(data)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(
            f"Imported {club.name} ({club.slug}): {club.memberships.count()} members, {club.sessions.count()} tables, "
            f"{club.results.count()} results. Accounts have no password: people set one through password reset."
        )
