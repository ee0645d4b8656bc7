"""`manage.py swiss --input FILE.json`: pairing a tournament round from outside the web (issue 51's contract)."""

import json

from django.core.management.base import BaseCommand, CommandError

from leagues.management.json_input import read_json_input
from leagues.tournaments.pairing import PairingError, pair
from leagues.tournaments.pairing_json import round_from_json


class Command(BaseCommand):
    help = (
        "Pair a Swiss round (or the cut) into pods by standings: reads {players: [{id, points, opponents, "
        "dropped}], table_sizes, seat_rule} as JSON and prints {pods, repeats, spread, bound}. Exit 2 on bad "
        "input or a round with no split."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--input", required=True, help="A JSON file, or - for standard input.")

    def handle(self, *args, input: str, **options) -> None:
        data = read_json_input(input)
        try:
            pairing = pair(round_from_json(data))
        except PairingError as error:
            raise CommandError(str(error), returncode=2) from None
        self.stdout.write(json.dumps(pairing.as_json()))
