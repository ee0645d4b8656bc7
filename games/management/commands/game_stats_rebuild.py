"""Count every game's statistics again from its tables and store the tallies (games/stats_store.py).

    python manage.py game_stats_rebuild

The stored tallies follow each table as it finishes or is reopened; this is the repair path, for tables written
around the site's services (a bulk load, raw SQL). The nightly job (games.tasks.stats_rebuild) runs it too. Safe
while the site runs: a table finishing meanwhile waits for the game's tally and is added to the new one.
"""

from django.core.management.base import BaseCommand

from games.stats_store import tallies_rebuild


class Command(BaseCommand):
    help = "Rebuild each game's stored statistics from its public finished tables."

    def handle(self, *args, **options) -> None:
        for game, right in tallies_rebuild().items():
            said = "was right" if right else "was missing or differed from the full count"
            self.stdout.write(f"{game}: rebuilt; the stored tally {said}.")
