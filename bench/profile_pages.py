"""Where a page's time goes at 10 and at 1,000 games: the data of bench/pages.py, each page's queries with their
time and PostgreSQL's plan (EXPLAIN ANALYZE), and a cProfile of its requests, so that what grows with the data
shows up side by side.

Run: `.venv/bin/python bench/profile_pages.py [--only player] [--requests 50] [--top 25] [--explain]`
(database shitenno_bench_pages, as pages.py: run one at a time, under flock /tmp/bench.lock). For each page and
size it prints the median request time split into SQL and the rest, every query with its median time, and, with
--explain, the plan of every query that took longer at the big size than at the small one.
"""

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import time

import pages  # noqa: F401  (sets Django up on pages.py's database)
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext


def queries_of(client: Client, url: str, requests: int) -> list[tuple[str, float]]:
    """Each query of one request with its median time (ms) over `requests` requests."""
    times: list[list[float]] = []
    sqls: list[str] = []
    for _ in range(requests):
        timed: list[float] = []

        def timer(execute, sql, params, many, context, timed=timed):
            start = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                timed.append((time.perf_counter() - start) * 1000)

        with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(timer):
            client.get(url)
        sqls = [q["sql"] for q in captured.captured_queries]
        for i, ms in enumerate(timed):
            if len(times) <= i:
                times.append([])
            times[i].append(ms)
    return [(sql, statistics.median(t)) for sql, t in zip(sqls, times, strict=False)]


def explain(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql)
        return "\n".join(row[0] for row in cursor.fetchall())


def profiled(client: Client, url: str, requests: int, top: int, sort: str) -> str:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(requests):
        client.get(url)
    profile.disable()
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats(sort).print_stats(top)
    return "\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--big", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--top", type=int, default=25, help="profile lines per page and size (0: none)")
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--only", default="", help="only the pages whose name contains this")
    parser.add_argument("--explain", action="store_true")
    args = parser.parse_args()
    world = pages.World()
    client = Client()
    seen: dict[str, dict[int, list[tuple[str, float]]]] = {}
    for size in (args.small, args.big):
        world.grow_to(size)
        for name, url in world.pages().items():
            if args.only not in name:
                continue
            client.get(url)
            wall = []
            for _ in range(args.requests):
                start = time.perf_counter()
                client.get(url)
                wall.append((time.perf_counter() - start) * 1000)
            found = queries_of(client, url, args.requests)
            seen.setdefault(name, {})[size] = found
            sql_ms = sum(t for _sql, t in found)
            print(
                f"\n##### {name} at {size:,}: {url} median {statistics.median(wall):.2f} ms, "
                f"{len(found)} queries, their medians sum to {sql_ms:.2f} ms"
            )
            for sql, ms in found:
                print(f"  {ms:7.3f} ms  {sql[:300]}")
            if args.top:
                print(profiled(client, url, args.requests, args.top, args.sort))
    if args.explain:
        for name, by_size in seen.items():
            small, big = by_size.get(args.small, []), by_size.get(args.big, [])
            for (_sql, ms_small), (big_sql, ms_big) in zip(small, big, strict=False):
                if ms_big > ms_small * 1.3 and ms_big - ms_small > 0.05:
                    print(f"\n##### {name}: {ms_small:.3f} -> {ms_big:.3f} ms\n{big_sql}\n{explain(big_sql)}")
    print(f"\nload average {open('/proc/loadavg').read().split()[:3]}", file=sys.stderr)


if __name__ == "__main__":
    main()
