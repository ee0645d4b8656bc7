"""Issue 46, finding 6: a club's exports (CSV, BG Stats, BGG) of 100,000 entries, first byte and peak memory.

`python bench/exports.py [entries] [--module PATH]` on a fresh database (bench/_django.py): a club of 100 members
with `entries` result entries (4 a result, no seasons). For each export it prints the time to
the first byte the view can send, the time to the last, the queries, and the peak of Python's allocations
(tracemalloc, in a second pass: it slows the code it watches). `--module` measures another version of
`leagues/imports/export.py` instead (e.g. `git show REV:leagues/imports/export.py > /tmp/old.py`, its relative
import made absolute), whose functions that return the whole file have it all before the first byte.

Then, for the site's own module, a large club's export as it is now made (issue 46): the heavy queue's job
(`export_job.export_build`: the file read and gzip-compressed into its row) and the download a web process then
answers, through Django's test client, once gzip as a browser takes it and once unpacked; beside them the
streamed download the web used to answer for the same club (`club_export` with the in-page bound lifted).
"""

import argparse
import datetime
import importlib.util
import io
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402


def build(entries: int):
    from leagues.models import Club, Membership, Player, Result, ResultEntry

    club = Club.objects.create(name="Export Club", slug="export-club")
    people = Player.objects.bulk_create(Player(name=f"player {i:03d}") for i in range(100))
    Membership.objects.bulk_create(Membership(club=club, player=p) for p in people)
    results = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=datetime.date(2020, 1, 1) + datetime.timedelta(days=n // 20),
            club=club,
            status=Result.Status.COUNTED,
        )
        for n in range(entries // 4)
    )
    ResultEntry.objects.bulk_create(
        (
            ResultEntry(
                result=r,
                player=people[(n * 7 + k * 13) % 100],
                rank=k + 1,
                score=float(40 - k * 3) + (n % 2) / 2,
                seat=k + 1,
            )
            for n, r in enumerate(results)
            for k in range(4)
        ),
        batch_size=5000,
    )
    return club


def kinds(module):
    """(name, the first byte's callable, the whole file's callable) for each export of `module`."""
    if hasattr(module, "bgstats_pieces"):
        return [("csv", module.results_csv_pieces), ("bgstats", module.bgstats_pieces), ("bgg", module.bgg_pieces)]

    def csv_whole(club):
        out = io.StringIO()
        module.export_results_csv(club, out)
        return iter([out.getvalue().encode()])

    return [
        ("csv", csv_whole),
        ("bgstats", lambda club: iter([module.export_bgstats(club)])),
        ("bgg", lambda club: iter([module.export_bgg(club)])),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("entries", nargs="?", type=int, default=100_000)
    parser.add_argument("--module", help="another version of leagues/imports/export.py to measure")
    args = parser.parse_args()
    _django.setup("shitenno_bench_exports")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if args.module:
        spec = importlib.util.spec_from_file_location("export_under_test", args.module)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        from leagues.imports import export as module
    started = time.monotonic()
    club = build(args.entries)
    print(f"{args.entries:,} entries written in {time.monotonic() - started:.1f} s; measuring {module.__file__}")
    for name, pieces_of in kinds(module):
        started = time.monotonic()
        with CaptureQueriesContext(connection) as queries:
            pieces = pieces_of(club)
            size = len(next(pieces))
            first = time.monotonic() - started
            size += sum(len(piece) for piece in pieces)
        last = time.monotonic() - started
        tracemalloc.start()
        for _piece in pieces_of(club):
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"{name:8} first byte {first * 1000:8.0f} ms  last {last:6.1f} s  {size / 2**20:6.1f} MiB  "
            f"{len(queries.captured_queries)} queries  peak {peak / 2**20:7.1f} MiB"
        )
    if not args.module:
        jobs(club)


def jobs(club) -> None:
    """The job's build and the web's part of a download, beside the web's old streamed answer."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from leagues.imports import export_job
    from leagues.models import Membership
    from leagues.people import players

    owner = get_user_model().objects.create_user("export-owner", password="x")
    Membership.objects.create(club=club, player=players.player_for_user(owner), role=Membership.Role.OWNER)
    client = Client()
    client.force_login(owner)
    for kind in export_job.KINDS:
        made, _queue = export_job.export_ask(club, owner, kind)
        started = time.monotonic()
        export_job.export_build(made.token)
        built = time.monotonic() - started
        made.refresh_from_db()
        url = reverse("export_download", args=[club.slug, made.token])
        started = time.monotonic()
        packed = client.get(url, headers={"accept-encoding": "gzip"})
        gzipped = time.monotonic() - started
        started = time.monotonic()
        plain = sum(len(piece) for piece in client.get(url, headers={"accept-encoding": "identity"}).streaming_content)
        unpacked = time.monotonic() - started
        bound, export_job.IN_PAGE_ENTRIES = export_job.IN_PAGE_ENTRIES, 10**9
        started = time.monotonic()
        old = client.get(reverse("club_export", args=[club.slug, kind]))
        streamed = sum(len(piece) for piece in old.streaming_content)
        web = time.monotonic() - started
        export_job.IN_PAGE_ENTRIES = bound
        assert streamed == plain == made.size, (streamed, plain, made.size)
        print(
            f"{kind:8} job {built:5.1f} s ({made.size / 2**20:5.1f} MiB kept as {len(packed.content) / 2**20:4.2f} "
            f"MiB gzip)  download: gzip {gzipped * 1000:5.0f} ms, unpacked {unpacked:4.2f} s  "
            f"(the web streamed it in {web:4.1f} s before)"
        )


if __name__ == "__main__":
    main()
