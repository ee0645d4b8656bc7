"""`manage.py pods --input FILE.json`: the league-night optimiser from outside the web (issue 25's contract)."""

import json

from django.core.management.base import BaseCommand, CommandError

from leagues.management.json_input import read_json_input
from leagues.nights.pods import PodsError, night_from_json, propose


class Command(BaseCommand):
    help = (
        "Split players into tables: reads {players, table_sizes, met, seats, forbidden, locked, mix} as JSON "
        "and prints {tables, repeats, seat_cost, bound}. Exit 2 on bad input or a night with no split."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--input", required=True, help="A JSON file, or - for standard input.")

    def handle(self, *args, input: str, **options) -> None:
        data = read_json_input(input)
        try:
            proposal = propose(night_from_json(data))
        except PodsError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(json.dumps(proposal.as_json()))
