"""`manage.py export_results_csv <slug> [-o file]`: a club's results for spreadsheets, one row per player."""

import contextlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues.imports.export import RESULTS_CSV_HEADER, export_results_csv
from leagues.models import Club

HEADER = RESULTS_CSV_HEADER


class Command(BaseCommand):
    help = "Write one CSV row per player per result of the club: " + ", ".join(HEADER) + "."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("-o", "--output", help="Write to this file instead of stdout.")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club with slug {slug!r}.")
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(Path(output).open("w", newline="", encoding="utf-8")) if output else _Lines(self)
            export_results_csv(club, out)


class _Lines:
    """The command's stdout as a file for the CSV writer (which ends its own lines)."""

    def __init__(self, command: BaseCommand) -> None:
        self.command = command

    def write(self, text: str) -> None:
        self.command.stdout.write(text, ending="")
