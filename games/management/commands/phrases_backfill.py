"""Say old tables' move logs in every language: fill in the phrases of entries logged before games migration 0005.

    python manage.py phrases_backfill

Safe to run again (it skips what is done) and while the site runs (a table at a time, each in its own transaction).
"""

from django.core.management.base import BaseCommand

from games.phrase_backfill import phrases_backfill


class Command(BaseCommand):
    help = "Fill in the phrase of every move-log entry that lacks one, by replaying its table's log."

    def handle(self, *args, **options) -> None:
        done = phrases_backfill()
        self.stdout.write(f"{done.entries} log entries of {done.tables} tables now carry their phrase.")
        for code, why in sorted(done.refused.items()):
            self.stdout.write(self.style.WARNING(f"Table {code}: its log no longer replays ({why}); left in English."))
