"""`manage.py export_club <slug> [-o file]`: a club's whole history as versioned JSON (leagues.imports.portability)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues.imports.portability import club_export
from leagues.models import Club


class Command(BaseCommand):
    help = "Write a club's players, tables with their move logs, leagues and results as JSON (stdout by default)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="The club's slug, as in its address /clubs/<slug>/.")
        parser.add_argument("-o", "--output", help="Write to this file instead of stdout.")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club with slug {slug!r}.")
        text = json.dumps(club_export(club), indent=1, ensure_ascii=False) + "\n"
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {club.name} to {output}.")
        else:
            self.stdout.write(text, ending="")
