"""`manage.py import_club <file>`: load a club export into an empty database, then recompute ratings and standings."""

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from leagues.imports.portability import MAX_EXPORT_BYTES, club_export_parse, club_export_too_large, club_import


class Command(BaseCommand):
    help = "Load a club written by export_club into an empty database (one transaction: all or nothing)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The JSON file written by export_club ('-' reads stdin).")

    def handle(self, *args, file: str, **options) -> None:
        try:
            if file == "-":
                raw = sys.stdin.buffer.read(MAX_EXPORT_BYTES + 1)
            else:
                path = Path(file)
                if path.stat().st_size > MAX_EXPORT_BYTES:  # refused before a byte is read
                    raise CommandError(club_export_too_large(file))
                raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        try:
            club = club_import(club_export_parse(raw, name=file))
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        self.stdout.write(
            f"Imported {club.name} ({club.slug}): {club.memberships.count()} members, {club.sessions.count()} tables, "
            f"{club.results.count()} results. Accounts have no password: people set one through password reset."
        )
