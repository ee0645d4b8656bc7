"""`manage.py export_results_csv <slug> [-o file]`: a club's results for spreadsheets, one row per player."""

import contextlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db.models import Q

from leagues.models import Club, ResultEntry
from shitenno_site.spreadsheets import csv_writer

HEADER = ["date", "game", "league", "season", "result id", "status", "player", "rank", "score"]


class Command(BaseCommand):
    help = "Write one CSV row per player per result of the club: " + ", ".join(HEADER) + "."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug", help="The club's slug.")
        parser.add_argument("-o", "--output", help="Write to this file instead of stdout.")

    def handle(self, *args, slug: str, output: str | None, **options) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club with slug {slug!r}.")
        entries = (
            ResultEntry.objects.filter(Q(result__club=club) | Q(result__season__league__club=club))
            .select_related("result__season__league", "player")
            .order_by("result__played_on", "result_id", "rank", "player__name")
        )
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(Path(output).open("w", newline="", encoding="utf-8")) if output else _Lines(self)
            writer = csv_writer(out)  # text cells that start like a formula are quoted (OWASP)
            writer.writerow(HEADER)
            for e in entries.iterator(chunk_size=2000):
                season = e.result.season
                writer.writerow([
                    e.result.played_on.isoformat(), e.result.game, season.league.name if season else "",
                    season.name if season else "", e.result.pk, e.result.status, e.player.name, e.rank,
                    "" if e.score is None else e.score,
                ])


class _Lines:
    """The command's stdout as a file for the CSV writer (which ends its own lines)."""

    def __init__(self, command: BaseCommand) -> None:
        self.command = command

    def write(self, text: str) -> None:
        self.command.stdout.write(text, ending="")
