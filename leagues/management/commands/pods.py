"""`manage.py pods --input FILE.json`: the league-night optimiser from outside the web (issue 25's contract)."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from leagues.nights.pods import PodsError, night_from_json, propose


class Command(BaseCommand):
    help = ("Split players into tables: reads {players, table_sizes, met, seats, forbidden, locked, mix} as JSON "
            "and prints {tables, repeats, seat_cost, bound}. Exit 2 on bad input or a night with no split.")

    def add_arguments(self, parser) -> None:
        parser.add_argument("--input", required=True, help="A JSON file, or - for standard input.")

    def handle(self, *args, input: str, **options) -> None:
        try:
            if input == "-":
                data = json.load(sys.stdin)
            else:
                with open(input, encoding="utf-8") as handle:
                    data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {input}: {error.strerror}.", returncode=2) from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{input} is not valid JSON: {error}.", returncode=2) from None
        try:
            proposal = propose(night_from_json(data))
        except PodsError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(json.dumps(proposal.as_json()))
