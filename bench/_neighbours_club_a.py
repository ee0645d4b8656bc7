"""bench/neighbours.py's club A: its worst case (the import, two proposals, the export), each through the entry
point a person uses, timed step by step (`Steps`) while club B plays."""

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
        answer = browser.post(
            f"/clubs/{slug}/import/", {"kind": "bgstats"}, files={"files": ("a-bgstats.json", data, "application/json")}
        )
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
        steps.end(
            "A: import preview (the preview job on the heavy queue, the page polled)",
            f"{answer.status_code} after {looks} looks",
        )
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
    """A's export as a member gets it: a small club's file is streamed by the page; a large club's is made by the
    heavy queue's job (issue 46 finding 6): the page's button asks, the file's page is polled until it is ready,
    then the file is downloaded (gzip, as a browser takes it)."""
    name = f"A: {kind} export"
    steps.begin(name)
    try:
        browser = Browser(port, "a-owner")
        address = f"/clubs/{plan['club_a'].slug}/export/{kind}/"
        start = time.monotonic()
        page = browser.get(address, stream=True)
        if page.status_code == 200 and "attachment" in page.headers.get("Content-Disposition", ""):
            size = sum(len(piece) for piece in page.iter_content(1 << 16))
            steps.end(name, f"streamed by the web: {size / 2**20:.1f} MiB in {time.monotonic() - start:.1f} s")
            return
        asked = browser.post(address, {})
        if asked.status_code != 302:
            raise RuntimeError(f"the ask answered {asked.status_code}: {asked.text[:200]}")
        looks = 0
        while "data-hx-get" in browser.get(asked.headers["Location"]).text and looks < 600:
            looks += 1
            time.sleep(0.5)
        made = time.monotonic() - start
        download = browser.get(
            asked.headers["Location"] + "download/", headers={"Accept-Encoding": "gzip"}, stream=True
        )
        size = sum(len(piece) for piece in download.raw.stream(1 << 16, decode_content=False))
        steps.end(
            name,
            f"{download.status_code}: made by the job in {made:.1f} s ({looks} looks), "
            f"downloaded {size / 2**20:.2f} MiB gzip in {time.monotonic() - start - made:.2f} s",
        )
    except Exception as error:  # noqa: BLE001
        steps.end(name, f"FAILED: {error!r}"[:200])
