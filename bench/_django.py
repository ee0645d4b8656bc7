"""Set Django up for a benchmark against a dedicated PostgreSQL database, migrated fresh each run."""

import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def server_of(url: str) -> str:
    """The server part of a database URL (scheme, credentials, host and port), without the database name."""
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        raise SystemExit(f"The benchmarks need PostgreSQL, not {parts.scheme or url!r}.")
    return urlunsplit((parts.scheme, parts.netloc, "", "", ""))


# The configured server: BENCH_POSTGRES, else the one DATABASE_URL names, else the local default. The benchmark
# drops and creates its own database there, never on a server nobody configured.
_CONFIGURED = os.environ.get("DATABASE_URL", "")
SERVER = server_of(
    os.environ.get("BENCH_POSTGRES")
    or (_CONFIGURED if _CONFIGURED.startswith("postgres") else "")
    or "postgres://postgres@127.0.0.1:5432"
)


def setup(name: str = "shitenno_bench", *, fresh: bool = True) -> None:
    """Each benchmark names its own database, so two can run side by side. `fresh=False` reuses it as it is
    (for a benchmark's child process working on the data its parent made)."""
    import psycopg

    name += os.environ.get("BENCH_DATABASE_SUFFIX", "")  # the test suite's smoke runs use databases of their own
    sys.path.insert(0, str(ROOT))
    if fresh:
        with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = f"{SERVER}/{name}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shitenno_site.settings")
    os.environ.pop("CELERY_BROKER_URL", None)  # tasks run eagerly: the benchmark times the site, not a queue
    import django

    django.setup()
    from django.core.management import call_command

    if fresh:
        call_command("migrate", verbosity=0)


def club_season(players: int, season_name: str, days: int):
    """A club of `players` members (ids in creation order) with one Shitennō league and a season of `days` days
    from 2020-01-01; returns (season, player ids). Call after setup()."""
    import datetime

    from leagues.models import Club, League, Membership, Player, Season

    club = Club.objects.create(name="Bench Club", slug="bench-club", members_public=True)  # rated site-wide too
    Player.objects.bulk_create(Player(name=f"player {i:04d}") for i in range(players))
    ids = list(Player.objects.order_by("id").values_list("id", flat=True))
    Membership.objects.bulk_create(Membership(club=club, player_id=pid) for pid in ids)
    league = League.objects.create(club=club, name="Bench League", slug="bench", games=["shitenno"])
    first = datetime.date(2020, 1, 1)
    season = Season.objects.create(
        league=league, name=season_name, starts_on=first, ends_on=first + datetime.timedelta(days=days)
    )
    return season, ids


def placings(rng, table: list[int]) -> list[tuple[int, int, int]]:
    """(player, rank, score) for the players of `table` in seat order, with random scores from 40 to 120 given
    best first: equal scores share a rank (ties)."""
    scores = sorted((rng.randint(40, 120) for _ in table), reverse=True)
    ranked, rank = [], 0
    for place, (player, score) in enumerate(zip(table, scores, strict=True)):
        rank = rank if place and score == scores[place - 1] else place + 1
        ranked.append((player, rank, score))
    return ranked


def timed(work) -> float:
    """Seconds one call of `work` took."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"
