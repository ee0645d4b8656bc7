"""The measuring parts of bench/scale_out.py: the CPU each part of the site uses per request, and what the shared
cache holds for the tables in play (docs/operations.md, Scale-out)."""

import os
import resource
import threading
import time
import uuid

import _django
from _scale_stack import CACHE, DATABASE, Stack, call, cpu_seconds


def cache_memory(tables: int) -> None:
    """What the shared cache holds for the tables in play: the rendered table bodies (per version, language and
    writer-or-reader, kept a minute), measured with Redis's MEMORY USAGE."""
    import redis

    cache = redis.Redis.from_url(CACHE)
    keys = list(cache.scan_iter(match="*table-body:*", count=1000))
    sizes = [cache.memory_usage(key) or 0 for key in keys]
    if sizes:
        print(
            f"  the shared cache holds {len(keys)} table bodies for {tables} tables,"
            f" {sum(sizes) / len(sizes) / 1024:.1f} KiB each (MEMORY USAGE), {sum(sizes) / 1024:.0f} KiB in all"
        )


def capacity(stack: Stack, plan: dict, seconds: float, phones: int) -> dict:
    """Closed loops through nginx: moves, then not-modified polls, then polls that find a change each time."""
    import psycopg

    print(f"\n4. Capacity through nginx, {phones} phones in closed loops, {seconds:.0f} s each")
    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from games.models import TableSession

    setup, moves = random_legal_game(99, 4)
    owner = TableSession.objects.get(code=plan["tables"][0]["code"]).created_by
    players = list(
        TableSession.objects.get(code=plan["tables"][0]["code"])
        .seats.order_by("position")
        .values_list("player", flat=True)
    )
    from leagues.models import Player

    seated = [Player.objects.get(pk=pk) for pk in players]
    tables = [
        services.session_create(game="shitenno", created_by=owner, players=seated, setup=setup).code
        for _ in range(phones * 3)
    ]
    suffix = os.environ.get("BENCH_DATABASE_SUFFIX", "")

    def backend_pids() -> list[int]:
        with psycopg.connect(f"{_django.SERVER}/postgres", autocommit=True) as conn:
            return [
                r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [DATABASE + suffix])
            ]

    def parts() -> dict[str, list[int]]:
        named = {
            "web": stack.pids("web1") + stack.pids("web2"),
            "nginx": stack.pids("nginx"),
            "PostgreSQL": backend_pids(),
        }
        if "pgbouncer" in stack.processes:
            named["pgbouncer"] = stack.pids("pgbouncer")
        return named

    figures: dict = {}

    def run(kind: str) -> None:
        count = [0]
        errors = [0]
        end = time.monotonic() + seconds
        queue = list(tables)
        lock = threading.Lock()

        def mover() -> None:
            with lock:
                code = queue.pop()
            seq = 0
            while time.monotonic() < end:
                answer = call(
                    stack.nginx_port,
                    "POST",
                    f"/api/tables/{code}/moves/",
                    token=plan["tokens"][0],
                    body={"seq": seq, "move": moves[seq]},
                    key=uuid.uuid4().hex,
                )
                if answer.status == 201:
                    seq += 1
                    with lock:
                        count[0] += 1
                else:
                    errors[0] += 1
                if seq >= len(moves):
                    with lock:
                        if not queue:
                            return
                        code = queue.pop()
                    seq = 0

        def poller(changed: bool) -> None:
            code = tables[0]
            while time.monotonic() < end:
                answer = call(
                    stack.nginx_port,
                    "GET",
                    f"/tables/{code}/live/?seq={-1 if changed else seq_now}",
                    headers={"HX-Request": "true"},
                )
                if answer.status in (200, 204):
                    with lock:
                        count[0] += 1
                else:
                    errors[0] += 1

        seq_now = TableSession.objects.get(code=tables[0]).head_seq
        target = {
            "moves": mover,
            "polls, not modified (204)": lambda: poller(False),
            "polls, changed (200, body from the cache)": lambda: poller(True),
        }[kind]
        named = parts()
        before = {name: cpu_seconds(pids) for name, pids in named.items()}
        mine = resource.getrusage(resource.RUSAGE_SELF)
        started = time.monotonic()
        threads = [threading.Thread(target=target) for _ in range(phones)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.monotonic() - started
        after = {name: cpu_seconds(pids) for name, pids in parts().items() if name in named}
        used = {name: after[name] - before[name] for name in named}
        me = resource.getrusage(resource.RUSAGE_SELF)
        used["the phones (this script)"] = me.ru_utime + me.ru_stime - mine.ru_utime - mine.ru_stime
        rate = count[0] / wall
        figures[kind] = {"per_s": rate, "errors": errors[0], "cpu": used}
        print(
            f"  {kind}: {rate:.0f}/s ({errors[0]} errors); CPU seconds per 1,000: "
            + ", ".join(f"{name} {cpu / max(count[0], 1) * 1000:.2f}" for name, cpu in used.items())
        )
        web = used["web"] / max(count[0], 1)
        database = used["PostgreSQL"] / max(count[0], 1)
        print(
            f"    per core of the web tier {1 / web if web else 0:.0f}/s; per core of PostgreSQL"
            f" {1 / database if database else 0:.0f}/s"
        )

    run("moves")
    run("polls, not modified (204)")
    run("polls, changed (200, body from the cache)")
    with psycopg.connect(f"{_django.SERVER}/postgres", autocommit=True) as conn:
        backends = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE + suffix])
        print(
            f"  PostgreSQL connections to the site's database now: {backends.fetchone()[0]}"
            f" ({'through PgBouncer, pool size ' + str(stack.args.pool_size) if not stack.args.direct else 'direct'};"
            f" {2 * stack.args.web_workers} web processes, 2 workers, 1 beat)"
        )
    return figures
