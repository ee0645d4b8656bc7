"""The phones for bench/load.py, run in a child process (gevent patches the sockets, so it is kept apart from
the Django set-up). Reads the plan from LOAD_PLAN, the phase from LOAD_PHASE; prints one JSON line: every
request as [scheduled offset s, kind, ms, status], and the generator's CPU and wall seconds.

Open loop: each phone has a fixed timetable (every `pace` s from a random start) and its latency is counted
from the time the request was due, not from when it was sent, so a slow answer that delays the phone's next
request is charged to the server (no coordinated omission). Closed loop: each phone posts again as soon as it
has its answer. Every request opens its own connection, as gunicorn's sync workers close each one.

Plain greenlets rather than Locust's users: on this machine Locust's user machinery itself added 50-100 ms at
200 users (200 Locust users fetching a 1.3 ms 404 every 2 s: p50 70 ms; the same timetable from these
greenlets: p50 1.8 ms; from 200 OS threads: p50 1.8 ms), which would have swamped what is measured.
"""

from gevent import monkey

monkey.patch_all()

import http.client  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

import gevent  # noqa: E402

PLAN = json.load(open(os.environ["LOAD_PLAN"]))
PHASE = json.loads(os.environ["LOAD_PHASE"])  # {"target": "site"|"baseline", "mode": "open"|"closed", ...}
HOST = urlsplit(PLAN["host"])
TABLES = list(PLAN["tables"][PHASE["tables"]])  # each {"code", "token", "session", "moves"}
SEQ_IN_PAGE = re.compile(rb"live/\?seq=(\d+)")
RECORDS: list[list] = []
T0 = time.monotonic()
END = T0 + PHASE["seconds"]


def request(method: str, path: str, headers: dict, body: bytes | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST.hostname, HOST.port, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    except (OSError, http.client.HTTPException):
        return 0, b""
    finally:
        conn.close()


def timetable(pace: float):
    """Due times every `pace` s from a random start, until the phase ends; in the closed loop, now."""
    if PHASE["mode"] == "closed" and pace == 0:
        while time.monotonic() < END:
            yield time.monotonic()
        return
    due = T0 + random.uniform(0, pace)
    while due < END:
        gevent.sleep(max(0.0, due - time.monotonic()))
        yield due
        due += pace


def poster(pace: float) -> None:
    """One phone per table enters its moves; on the site it goes on to a fresh table when one ends."""
    table, seq = (TABLES.pop(0) if TABLES else None), 0
    for due in timetable(pace):
        if table is None:
            return
        move = table["moves"][seq % len(table["moves"])]
        path = (
            f"/bench/baseline/{table['code']}/"
            if PHASE["target"] == "baseline"
            else f"/api/tables/{table['code']}/moves/"
        )
        status, _body = request(
            "POST",
            path,
            {"Authorization": f"Token {table['token']}", "Content-Type": "application/json"},
            json.dumps({"seq": seq, "move": move}).encode(),
        )
        RECORDS.append([round(due - T0, 4), "move", round((time.monotonic() - due) * 1000, 3), status])
        if status == 201:
            seq += 1
        if PHASE["target"] == "site" and seq >= len(table["moves"]):
            table, seq = (TABLES.pop(0) if TABLES else None), 0


def poller(table: dict, pace: float) -> None:
    """Another phone at a table asks every `pace` s whether it moved, as the page's htmx does."""
    seq = -1
    headers = {"HX-Request": "true", "Cookie": f"sessionid={table['session']}"}
    for due in timetable(pace):
        status, body = request("GET", f"/tables/{table['code']}/live/?seq={seq}", headers)
        RECORDS.append([round(due - T0, 4), "poll", round((time.monotonic() - due) * 1000, 3), status])
        if status == 200 and (found := SEQ_IN_PAGE.search(body)):
            seq = int(found.group(1))


def main() -> None:
    pace = PHASE.get("pace", 0) if PHASE["mode"] == "open" else 0
    phones = [gevent.spawn(poster, pace) for _ in range(PHASE["posters"])]
    watched = PLAN["tables"][PHASE["tables"]]
    phones += [
        gevent.spawn(poller, watched[i % len(watched)], PHASE.get("poll_pace", 1.5))
        for i in range(PHASE.get("pollers", 0))
    ]
    gevent.joinall(phones, timeout=PHASE["seconds"] + 60)
    usage = resource.getrusage(resource.RUSAGE_SELF)  # the generator's own CPU: is it a bottleneck itself?
    json.dump(
        {"records": RECORDS, "cpu_seconds": usage.ru_utime + usage.ru_stime, "wall_seconds": time.monotonic() - T0},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
