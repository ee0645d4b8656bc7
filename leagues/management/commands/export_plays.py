"""`manage.py export_plays --club SLUG --format bgstats|bgg [--out FILE]`: the club's results, to import elsewhere."""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues.imports.export import export_bgg, export_bgstats
from leagues.models import Club


class Command(BaseCommand):
    help = "Write a club's results as a BG Stats JSON backup or BGG plays XML."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--format", required=True, choices=("bgstats", "bgg"), dest="kind")
        parser.add_argument("--out", help="Write to this file instead of stdout.")

    def handle(self, *args, club: str, kind: str, out: str | None, **options) -> None:
        found = Club.objects.filter(slug=club).first()
        if found is None:
            raise CommandError(f"No club with slug {club!r}.")
        data = export_bgstats(found) if kind == "bgstats" else export_bgg(found)
        if out:
            Path(out).write_bytes(data)
        else:
            sys.stdout.buffer.write(data)
            sys.stdout.flush()
