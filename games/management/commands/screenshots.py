"""Regenerate docs/screenshots/: run the browser tests with screenshots on.

DATABASE_URL=... python manage.py screenshots [--out docs/screenshots]
"""

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Play the browser tests in Chromium and save a screenshot of each main page under docs/screenshots/."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--out", default=str(Path(settings.BASE_DIR) / "docs" / "screenshots"))

    def handle(self, *args, out: str, **options) -> None:
        os.environ["SHITENNO_SCREENSHOTS"] = str(Path(out).resolve())
        tests = str(Path(settings.BASE_DIR) / "tests" / "browser")
        code = pytest.main(["-q", "-m", "browser", "-p", "no:cacheprovider", tests])
        if code != 0:
            raise CommandError(f"The browser tests failed (exit {code}); screenshots may be incomplete.")
        self.stdout.write(self.style.SUCCESS(f"Screenshots saved in {out}"))
