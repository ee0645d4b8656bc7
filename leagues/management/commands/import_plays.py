"""`manage.py import_plays --club SLUG --format bgstats|bgg [--dry-run] [--as USERNAME] [--merge "A=B"] FILE...`

Prints one JSON object (see docs/import.md); bad input exits 2 with the message and writes nothing.
"""

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from leagues.imports.formats import MAX_BYTES, ImportRefused
from leagues.imports.service import FORMATS, club_plan, import_commit, read_files
from leagues.models import Club, League, Membership


class Command(BaseCommand):
    help = "Import a club's plays from a BG Stats export or BoardGameGeek plays XML pages."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--club", required=True, help="The club's slug.")
        parser.add_argument("--format", required=True, choices=FORMATS, dest="kind")
        parser.add_argument("--dry-run", action="store_true", help="Show what would be imported; write nothing.")
        parser.add_argument(
            "--as", dest="username", help="The club manager who imports (and signs); default: the club's first owner."
        )
        parser.add_argument("--merge", action="append", default=[], help='"Name A=Name B": one player.')
        parser.add_argument(
            "--vouch",
            action="store_true",
            help="The importer vouches for the plays: they count in the club's leagues at once.",
        )
        parser.add_argument(
            "--new-seasons-in",
            dest="league",
            metavar="LEAGUE_SLUG",
            help="Make seasons (one per year of plays) in this league for the plays no season takes.",
        )
        parser.add_argument("files", nargs="+")

    def handle(
        self,
        *args,
        club: str,
        kind: str,
        dry_run: bool,
        username: str | None,
        merge: list[str],
        files: list[str],
        **options,
    ) -> None:
        try:
            summary = self._run(club, kind, dry_run, username, merge, files, options)
        except ValidationError as error:
            self.stderr.write(" ".join(error.messages))
            sys.exit(2)
        except (ImportRefused, PermissionDenied, CommandError) as error:
            self.stderr.write(str(error))
            sys.exit(2)
        self.stdout.write(json.dumps(summary, sort_keys=True))

    def _run(self, slug, kind, dry_run, username, merge, files, options) -> dict:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"No club with slug {slug!r}.")
        user = self._importer(club, username)
        contents = []
        for name in files:
            path = Path(name)
            if not path.is_file():
                raise CommandError(f"{name}: no such file.")
            if path.stat().st_size > MAX_BYTES:
                raise ImportRefused(
                    f"{name}: the file is {path.stat().st_size / 1024 / 1024:.0f} MB; "
                    f"at most {MAX_BYTES // 1024 // 1024} MB a file."
                )
            contents.append((path.name, path.read_bytes()))
        source = read_files(kind, contents)
        if dry_run:
            return club_plan(club, source, merges=merge).summary()
        league = None
        if options.get("league"):
            league = League.objects.filter(club=club, slug=options["league"]).values_list("pk", flat=True).first()
            if league is None:
                raise CommandError(f"No league {options['league']!r} in the club.")
        return import_commit(
            club=club, user=user, source=source, merges=merge, vouch=options.get("vouch", False), season_league=league
        )

    def _importer(self, club: Club, username: str | None):
        if username:
            user = get_user_model().objects.filter(username=username).first()
            if user is None:
                raise CommandError(f"No user {username!r}.")
            return user
        owner = (
            Membership.objects.filter(club=club, role=Membership.Role.OWNER, player__user__isnull=False)
            .select_related("player__user")
            .order_by("id")
            .first()
        )
        if owner is None:
            raise CommandError("The club has no owner with an account: name the importer with --as.")
        return owner.player.user
