"""Locust users for bench/load.py, run in a child process (Locust patches sockets with gevent, so it is kept
apart from the Django set-up). Reads the plan from LOAD_PLAN, the phase from LOAD_PHASE; prints one JSON
line: every request as [start offset s, kind, ms, status], and the generator's CPU and wall seconds."""

import json
import os
import random
import re
import resource
import sys
import time

import gevent
from locust import FastHttpUser, constant, constant_pacing, events, task
from locust.env import Environment

PLAN = json.load(open(os.environ["LOAD_PLAN"]))
PHASE = json.loads(os.environ["LOAD_PHASE"])  # {"target": "site"|"baseline", "mode": "open"|"closed", ...}
HOST = PLAN["host"]
TABLES = list(PLAN["tables"][PHASE["tables"]])  # each {"code", "token", "session", "moves"}
SEQ_IN_PAGE = re.compile(rb"live/\?seq=(\d+)")
RECORDS: list[list] = []
T0 = [0.0]


@events.request.add_listener
def _record(request_type, name, response_time, response_length, response=None, exception=None, **kw):
    status = getattr(response, "status_code", 0) or 0
    RECORDS.append([round(time.monotonic() - T0[0], 4), name, round(response_time, 3), status])


def _move_url(code: str) -> str:
    return f"/bench/baseline/{code}/" if PHASE["target"] == "baseline" else f"/api/tables/{code}/moves/"


class Poster(FastHttpUser):
    """One phone per table enters its moves; in the closed phase it goes on to a fresh table when one ends."""

    host = HOST
    fixed_count = PHASE["posters"]
    wait_time = constant_pacing(PHASE["pace"]) if PHASE["mode"] == "open" else constant(0)

    def on_start(self):
        self._next_table()
        if PHASE["mode"] == "open":
            gevent.sleep(random.uniform(0, PHASE["pace"]))  # spread the first posts over one period

    def _next_table(self):
        self.table = TABLES.pop(0) if TABLES else None
        self.seq = 0

    @task
    def post_move(self):
        if self.table is None:
            gevent.sleep(1)
            return
        move = self.table["moves"][self.seq % len(self.table["moves"])]
        with self.client.post(_move_url(self.table["code"]), json={"seq": self.seq, "move": move},
                              headers={"Authorization": f"Token {self.table['token']}"}, name="move",
                              catch_response=True) as response:
            if response.status_code == 201:
                self.seq += 1
                response.success()
            else:
                response.failure(f"{response.status_code} {response.text[:200]}")
        if PHASE["target"] == "site" and self.seq >= len(self.table["moves"]):
            self._next_table()


class Poller(FastHttpUser):
    """Another phone at a table asks every `poll_pace` s whether it moved, as the page's htmx does."""

    host = HOST
    fixed_count = PHASE.get("pollers", 0)
    wait_time = constant_pacing(PHASE.get("poll_pace", 1.5))

    def on_start(self):
        index = getattr(Poller, "_n", 0)
        Poller._n = index + 1
        self.table = PLAN["tables"][PHASE["tables"]][index % len(PLAN["tables"][PHASE["tables"]])]
        self.seq = -1
        gevent.sleep(random.uniform(0, PHASE.get("poll_pace", 1.5)))

    @task
    def poll(self):
        with self.client.get(f"/tables/{self.table['code']}/live/?seq={self.seq}",
                             headers={"HX-Request": "true", "Cookie": f"sessionid={self.table['session']}"},
                             name="poll", catch_response=True) as response:
            if response.status_code == 200:
                found = SEQ_IN_PAGE.search(response.content)
                self.seq = int(found.group(1)) if found else self.seq
                response.success()
            elif response.status_code == 204:
                response.success()
            else:
                response.failure(str(response.status_code))


def main() -> None:
    classes = [Poster] + ([Poller] if PHASE.get("pollers") else [])
    env = Environment(user_classes=classes, events=events)
    runner = env.create_local_runner()
    users = PHASE["posters"] + PHASE.get("pollers", 0)
    T0[0] = time.monotonic()
    runner.start(users, spawn_rate=users)
    gevent.sleep(PHASE["seconds"])
    runner.quit()
    usage = resource.getrusage(resource.RUSAGE_SELF)  # the generator's own CPU: is it a bottleneck itself?
    json.dump({"records": RECORDS, "cpu_seconds": usage.ru_utime + usage.ru_stime,
               "wall_seconds": time.monotonic() - T0[0]}, sys.stdout)


if __name__ == "__main__":
    main()
