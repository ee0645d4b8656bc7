"""`manage.py export_plays --club SLUG --format bgstats|bgg [--out FILE]`: the club's results, to import elsewhere."""

import contextlib
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from leagues.imports.export import bgg_pieces, bgstats_pieces
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
        pieces = bgstats_pieces(found) if kind == "bgstats" else bgg_pieces(found)
        with Path(out).open("wb") if out else contextlib.nullcontext(sys.stdout.buffer) as stream:
            for piece in pieces:  # written as read: a large club's file is never held whole
                stream.write(piece)
            stream.flush()
