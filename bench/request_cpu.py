"""CPU and round trips per request, for the requests bench/load.py times: this process's CPU (Django, in-process
through its WSGI handler as in profile_requests.py) and its PostgreSQL backend's CPU (from /proc), with the
statements sent to PostgreSQL and the commands sent to Redis. CPU time and counts move much less with the machine's
other work than wall time does, so they compare code on a busy machine; closed-loop throughput on this 2-core
machine is bounded by the sum (web + PostgreSQL).

Run: `.venv/bin/python bench/request_cpu.py [--requests 400]` (database shitenno_bench_profile, Redis db 10 unless
BENCH_CACHE_URL says another; the same tables as profile_requests.py).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import profile_requests  # noqa: E402  (sets Django up on its database)
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args()
    import psycopg
    import redis.connection

    sent: list[str] = []
    send_command = redis.connection.AbstractConnection.send_command

    def counted_send(self, *command, **kwargs):
        sent.append("redis")
        return send_command(self, *command, **kwargs)

    redis.connection.AbstractConnection.send_command = counted_send
    cursor_execute, commit = psycopg.Cursor.execute, psycopg.Connection.commit

    def counted_execute(self, *a, **k):  # every statement, the connection's health check (SELECT 1) included
        sent.append("pg")
        return cursor_execute(self, *a, **k)

    def counted_commit(self):
        sent.append("pg")
        return commit(self)

    psycopg.Cursor.execute, psycopg.Connection.commit = counted_execute, counted_commit

    call_command("collectstatic", "--noinput", verbosity=0)
    plan = profile_requests.prepare()
    app = WSGIHandler()

    def call(method, path, headers, body=b""):
        return profile_requests.wsgi_call(app, method, path, headers, body)

    token = {"Authorization": f"Token {plan['token']}", "Content-Type": "application/json"}
    cookie = {"Cookie": f"sessionid={plan['session']}", "HX-Request": "true"}
    site_tables, base_tables = plan["tables"][:20], plan["tables"][20:40]
    polled = plan["tables"][40]["code"]
    position = {t["code"]: 0 for t in plan["tables"]}

    def move(target: str, tables: list):
        return profile_requests.mover(call, token, position, target, tables, game_over=None)  # left out

    kinds = {
        "unrouted 404": lambda i: call("GET", "/no/such/page/", cookie),
        "poll, not modified (204)": lambda i: call("GET", f"/tables/{polled}/live/?seq=0", cookie),
        "poll, changed (200, body cached)": lambda i: call("GET", f"/tables/{polled}/live/?seq=1", cookie),
        "baseline move post (DRF)": move("baseline", base_tables),
        "site move post (API)": move("site", site_tables),
    }
    for one in kinds.values():
        for i in range(20):
            one(i)

    def backend_cpu() -> float:
        if connection.connection is None:
            return 0.0
        fields = Path(f"/proc/{connection.connection.info.backend_pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    web = {name: 0.0 for name in kinds}
    database = {name: 0.0 for name in kinds}
    trips: dict[str, list[tuple[int, int]]] = {name: [] for name in kinds}
    counted = {name: 0 for name in kinds}
    statuses: dict[str, set] = {name: set() for name in kinds}
    for i in range(args.requests):  # interleaved, as in profile_requests.py
        for name, one in kinds.items():
            sent.clear()
            cpu, pg = time.process_time(), backend_cpu()
            status = one(i)
            if status is None:  # a site table's game is over: its posts are not counted
                continue
            database[name] += backend_cpu() - pg
            web[name] += time.process_time() - cpu
            counted[name] += 1
            trips[name].append((sent.count("pg"), sent.count("redis")))
            statuses[name].add(status)
    print(
        f"CPU ms per request (web process + its PostgreSQL backend), {args.requests} interleaved; load average "
        f"{Path('/proc/loadavg').read_text().split()[:3]}"
    )
    for name in kinds:
        n = max(counted[name], 1)
        pg_trips = statistics.median(t[0] for t in trips[name]) if trips[name] else 0
        redis_trips = statistics.median(t[1] for t in trips[name]) if trips[name] else 0
        print(
            f"  {name:<34} web {web[name] / n * 1000:6.3f}  PostgreSQL {database[name] / n * 1000:6.3f}  sum "
            f"{(web[name] + database[name]) / n * 1000:6.3f}  round trips: PostgreSQL {pg_trips:g}, Redis "
            f"{redis_trips:g}  statuses {sorted(statuses[name])}"
        )


if __name__ == "__main__":
    main()
