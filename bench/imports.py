"""Issues 27, 34, 36: import 5,000 BG Stats plays into a club in at most 10 s on this machine.

`python bench/imports.py [plays]` on a fresh database (bench/_django.py). Prints, from one run:
- baseline: the same results written straight with bulk_create (no parsing, matching, sign-off or jobs): the
  floor of what storing them costs on this machine now;
- import: parse + plan + commit (guests, results, entries, the season's adoption, sign-offs, the audit line),
  vouched for by the manager so every play counts, and the rating and standings jobs it asks for, run at once
  (tasks are eager in benchmarks);
- re-import: the same file again, every play a duplicate.

`python bench/imports.py [plays] --job` times the import's commit job alone (issue 36), as the worker runs it:
`leagues.imports.job.run_import` on an upload kept in the database (read the files, parse, plan, commit, write the
outcome), with the rating and standings jobs it asks for left in the outbox (a worker runs them as jobs of their
own afterwards); it prints each progress step's time and the job's time limit for that many results.
"""

import datetime
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402

PLAYERS = 20
TARGET = 10.0


def backup(
    plays: int,
    players: int = PLAYERS,
    at_play: int = 4,
    start: datetime.date = datetime.date(2020, 1, 1),
    game: str = "Shitennō",
) -> bytes:
    """A BG Stats backup of `plays` plays over four years from `start`, each of `at_play` of `players` players."""
    rng = random.Random(27)
    return json.dumps(
        {
            "players": [
                {"id": i, "uuid": f"p-{i}", "name": f"Imported {i:02d}", "bggUsername": ""}
                for i in range(1, players + 1)
            ],
            "games": [{"id": 1, "name": game, "bggId": 0, "highestWins": True}],
            "plays": [
                {
                    "uuid": f"play-{n}",
                    "playDate": f"{start + datetime.timedelta(days=n * 1461 // plays)} 20:00:00",
                    "gameRefId": 1,
                    "playerScores": [
                        {
                            "playerRefId": p,
                            "score": str(rng.randint(20, 80)),
                            "rank": rank,
                            "seatOrder": rank,
                            "winner": rank == 1,
                        }
                        for rank, p in enumerate(rng.sample(range(1, players + 1), at_play), start=1)
                    ],
                }
                for n in range(plays)
            ],
        }
    ).encode()


PAGE = 10_000  # plays a BGG page of the large run holds (a file stays under the 20 MB limit)


def bgg_pages(plays: int) -> list[tuple[str, bytes]]:
    """The same plays as `backup`, as BGG XML pages: a BG Stats file of 100,000 plays is past the 20 MB limit."""
    rng = random.Random(27)
    start = datetime.date(2020, 1, 1)
    pages = []
    for first in range(0, plays, PAGE):
        rows = []
        for n in range(first, min(first + PAGE, plays)):
            seated = rng.sample(range(1, PLAYERS + 1), 4)
            rows.append(
                f'<play id="{n + 1}" date="{start + datetime.timedelta(days=n * 1461 // plays)}" quantity="1" '
                f'incomplete="0"><item name="Shitennō" objectid="0"/><players>'
                + "".join(
                    f'<player username="" name="Imported {p:02d}" startposition="{seat}" '
                    f'score="{rng.randint(20, 80)}" win="{int(seat == 1)}"/>'
                    for seat, p in enumerate(seated, start=1)
                )
                + "</players></play>"
            )
        pages.append(
            (
                f"page{first // PAGE + 1}.xml",
                ('<?xml version="1.0" encoding="utf-8"?><plays>' + "".join(rows) + "</plays>").encode(),
            )
        )
    return pages


def job_only(plays: int, files: list[tuple[str, bytes]], kind: str) -> None:
    """The commit job alone, as the worker runs it, against its time limit and the broker's visibility timeout."""
    from django.conf import settings

    from leagues.club import clubs, seasons
    from leagues.imports import job
    from leagues.imports.pending import pending_create, pending_start
    from leagues.imports.service import CHUNK
    from leagues.imports.tasks import import_job_limits
    from leagues.jobs import outbox
    from leagues.models import LeagueJob, PendingImport
    from leagues.people import players

    owner = players.user_sign_up(username="organiser", email="o@example.org", password="a long bench passphrase")
    club = clubs.club_create(name="Importers", owner=owner)
    league = seasons.league_create(club=club, name="Shitennō league", games=["shitenno"], user=owner)
    seasons.season_create(
        league=league,
        name="2020-2023",
        starts_on=datetime.date(2020, 1, 1),
        ends_on=datetime.date(2023, 12, 31),
        user=owner,
    )
    pending = pending_create(club=club, user=owner, kind=kind, files=files)
    pending_start(pending, {"vouch": True, "language": "en", "seats": plays * 4})
    steps: list[tuple[float, int]] = []
    t0 = time.perf_counter()
    job.pending_step = lambda _token, done, _total: steps.append((time.perf_counter() - t0, done))
    outbox.publish = lambda row_ids: None  # the follow-up jobs stay in the outbox: not part of this job
    job.run_import(pending.pk)
    took = time.perf_counter() - t0
    pending.refresh_from_db()
    soft, _hard = import_job_limits(pending.choices.get("seats", plays * 4))
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    print(
        f"plays: {plays}, {kind} {sum(len(d) for _n, d in files) / 1024:.0f} KB; load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    first, last = (steps[0][0], steps[-1][0]) if steps else (took, took)
    print(f"commit job: {took:6.1f} s, {pending.state} {pending.outcome.get('summary', pending.outcome)}")
    print(
        f"  read the upload, parse, plan, guests, seasons (to the first chunk's end): {first:.1f} s; the other "
        f"{max(len(steps) - 1, 0)} chunks of {CHUNK} results: {last - first:.1f} s; after the last chunk "
        f"(seasons' adoption, sign-offs, audit, outcome): {took - last:.1f} s"
    )
    seats = pending.choices.get("seats", plays * 4)
    print(
        f"its soft time limit for {seats} players' places: {soft} s ({'met' if took <= soft else 'MISSED'}, "
        f"{took / soft:.0%} of it); visibility timeout {visibility} s; outbox rows left for the worker: "
        f"{LeagueJob.objects.count()}"
    )
    assert pending.state == PendingImport.State.DONE, pending.outcome


def main(plays: int) -> None:
    _django.setup("shitenno_bench_imports")
    from leagues.club import clubs, seasons
    from leagues.imports.formats import parse_bgstats
    from leagues.imports.service import import_commit, read_files
    from leagues.models import Player, Result, ResultEntry
    from leagues.people import players

    if "--job" in sys.argv[2:]:
        kind = "bgg" if plays > 20_000 or "bgg" in sys.argv[2:] else "bgstats"
        job_only(plays, bgg_pages(plays) if kind == "bgg" else [("bench.json", backup(plays))], kind)
        return
    owner = players.user_sign_up(username="organiser", email="o@example.org", password="a long bench passphrase")
    # past a BG Stats file's 20 MB: BGG pages, as a club with that many plays would bring
    large = plays > 20_000 or "bgg" in sys.argv[2:]
    if large:
        pages = bgg_pages(plays)
        data = b"".join(page for _name, page in pages)

        def parse():
            return read_files("bgg", pages)
    else:
        data = backup(plays)

        def parse():
            return parse_bgstats(data, "bench.json")

    floor = clubs.club_create(name="Floor", owner=owner)
    t0 = time.perf_counter()
    source = parse()
    names = {key: i for i, key in enumerate(sorted(source.players))}
    guests = Player.objects.bulk_create(Player(name=f"floor {i}") for i in range(PLAYERS))
    results = Result.objects.bulk_create(
        Result(game="shitenno", played_on=p.played_on, club=floor, external_id=p.external_id) for p in source.plays
    )
    ResultEntry.objects.bulk_create(
        (
            ResultEntry(
                result=r, player=guests[names[e.player]], rank=e.rank or 1, score=float(e.score_text), seat=e.seat
            )
            for r, p in zip(results, source.plays, strict=True)
            for e in p.entries
        ),
        batch_size=2000,
    )
    baseline = time.perf_counter() - t0

    club = clubs.club_create(name="Importers", owner=owner)
    league = seasons.league_create(club=club, name="Shitennō league", games=["shitenno"], user=owner)
    seasons.season_create(
        league=league,
        name="2020-2023",
        starts_on=datetime.date(2020, 1, 1),
        ends_on=datetime.date(2023, 12, 31),
        user=owner,
    )
    t0 = time.perf_counter()
    summary = import_commit(club=club, user=owner, source=parse(), vouch=True)
    imported = time.perf_counter() - t0
    t0 = time.perf_counter()
    again = import_commit(club=club, user=owner, source=parse(), vouch=True)
    reimport = time.perf_counter() - t0
    counted = Result.objects.filter(club=club, status=Result.Status.COUNTED).count()

    print(
        f"plays: {plays}, {'BGG pages' if large else 'BG Stats file'} {len(data) / 1024:.0f} KB, "
        f"{PLAYERS} players; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    print(f"baseline  (bulk_create only):          {baseline:6.2f} s")
    print(
        f"import    (parse, plan, commit, jobs): {imported:6.2f} s  = {imported / baseline:.1f}x baseline;"
        f" imported {summary['imported']}, counted {counted}; target <= {TARGET:.0f} s: "
        f"{'met' if imported <= TARGET else 'MISSED'}"
    )
    print(
        f"re-import (all duplicates):            {reimport:6.2f} s; imported {again['imported']}, "
        f"duplicates {again['duplicates']}"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5000)
