"""bench/neighbours.py's club A: its worst case (the import, two proposals, the export), each through the entry
point a person uses, timed step by step (`Steps`) while club B plays."""

import http.client
import threading
import time

from _neighbours_site import Browser
from _scale_stack import call


class Steps:
    """When each of A's steps began and ended in the phase, and what it said."""

    def __init__(self) -> None:
        self.t0, self.rows, self.lock = time.monotonic(), {}, threading.Lock()

    def begin(self, name: str) -> None:
        with self.lock:
            self.rows[name] = [time.monotonic() - self.t0, None, ""]

    def end(self, name: str, note: str) -> None:
        with self.lock:
            self.rows[name][1:] = [time.monotonic() - self.t0, note]

    def running(self) -> bool:
        with self.lock:
            return any(end is None for _start, end, _note in self.rows.values())


def a_import(port: int, plan: dict, data: bytes, steps: Steps, state: dict, timeout: float) -> None:
    from django.db import connection

    from leagues.models import LeagueJob, PendingImport

    try:
        browser = Browser(port, "a-owner")
        slug = plan["club_a"].slug
        steps.begin("A: import upload")
        answer = browser.post(f"/clubs/{slug}/import/", {"kind": "bgstats"},
                              files={"files": ("a-bgstats.json", data, "application/json")})
        steps.end("A: import upload", f"{answer.status_code}, {len(data) / 2**20:.1f} MiB")
        if answer.status_code != 302:
            raise RuntimeError(f"upload answered {answer.status_code}: {answer.text[:300]}")
        preview = answer.headers["Location"]
        steps.begin("A: import preview (the preview job on the heavy queue, the page polled)")
        looks, deadline = 0, time.monotonic() + timeout
        while True:  # a large upload is read by the preview job; the page says so until it is kept (issue 46)
            answer = browser.get(preview)
            looks += 1
            if answer.status_code != 200 or "import-reading" not in answer.text or time.monotonic() > deadline:
                break
            time.sleep(1)
        steps.end("A: import preview (the preview job on the heavy queue, the page polled)",
                  f"{answer.status_code} after {looks} looks")
        steps.begin("A: import commit (request)")
        # every play falls in the "Imported" season: no new season to place, so no league for new ones
        answer = browser.post(preview + "commit/", {"merges": "", "vouch": "1", "season_league": ""})
        steps.end("A: import commit (request)", str(answer.status_code))
        if answer.status_code != 302:
            raise RuntimeError(f"commit answered {answer.status_code}: {answer.text[:300]}")
        steps.begin("A: import job (heavy queue)")
        token = preview.rstrip("/").rsplit("/", 1)[1]
        deadline = time.monotonic() + timeout
        pending = PendingImport.objects.get(token=token)
        while pending.state in (PendingImport.State.WAITING, PendingImport.State.RUNNING):
            state["job_running"] = True
            if time.monotonic() > deadline:
                steps.end("A: import job (heavy queue)", f"still {pending.state} after {timeout:.0f} s")
                return
            time.sleep(0.5)
            pending.refresh_from_db()
        state["job_running"] = False
        said = f"{pending.state}: {pending.outcome.get('summary', pending.outcome)}"
        steps.end("A: import job (heavy queue)", said[:200])
        if pending.state != PendingImport.State.DONE:
            state["error"] = said
        steps.begin("A: the re-rate it asked for (outbox empty)")
        while LeagueJob.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        left = LeagueJob.objects.count()
        steps.end("A: the re-rate it asked for (outbox empty)", f"{left} outbox rows left" if left else "done")
    except Exception as error:  # noqa: BLE001 (said in the table, the benchmark goes on)
        state["error"] = repr(error)
        for name, (_start, end, _note) in list(steps.rows.items()):
            if end is None:
                steps.end(name, f"FAILED: {error!r}"[:200])
    finally:
        state["job_running"] = False
        state["job_seen"] = True
        connection.close()


def a_proposal(port: int, plan: dict, night: int, steps: Steps) -> None:
    name = f"A: night {night} proposal (request)"
    steps.begin(name)
    answer = call(port, "POST", f"/api/nights/{night}/rounds/", token=plan["owner_token"], body={}, timeout=120)
    tables = len(answer.json().get("tables", [])) if answer.status == 201 else 0
    steps.end(name, f"{answer.status}" + (f", {tables} tables" if tables else f" {answer.body[:120]!r}"))


def a_export(port: int, plan: dict, kind: str, steps: Steps) -> None:
    name = f"A: {kind} export download"
    steps.begin(name)
    try:
        browser = Browser(port, "a-owner")
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        start = time.monotonic()
        conn.request("GET", f"/clubs/{plan['club_a'].slug}/export/{kind}/", headers={"Cookie": cookie})
        response = conn.getresponse()
        size = len(response.read(1))
        first = time.monotonic() - start
        while piece := response.read(1 << 16):
            size += len(piece)
        conn.close()
        steps.end(name, f"{response.status}, {size / 2**20:.1f} MiB, first byte {first * 1000:.0f} ms")
    except Exception as error:  # noqa: BLE001
        steps.end(name, f"FAILED: {error!r}"[:200])
