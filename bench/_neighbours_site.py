"""bench/neighbours.py's site: gunicorn and the README's two Celery workers and beat (`Site`, on _scale_stack's
processes), and a signed-in person's browser on its pages (`Browser`)."""

import os
import threading
from pathlib import Path
from types import SimpleNamespace

import _django
import requests
from _scale_stack import ROOT, Stack, call, cpu_seconds, wait_for

PASSWORD = "neighbours passphrase 46"


def say(text: str) -> None:
    print(text, flush=True)


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- the site, as the README's production section runs it ---------------------------------------------------


class Site(Stack):
    """One gunicorn instance straight on the loopback address (no nginx: no slow client here), the two Celery
    workers of the README (one per queue) and one beat: `Stack`'s processes, with the README's worker commands."""

    WORKERS = (("default", "celery", 2), ("heavy", "heavy", 1))  # name, queue, concurrency (README)

    def __init__(self, args, tmp: Path) -> None:
        super().__init__(SimpleNamespace(direct=True, web_workers=args.web_workers, port_base=args.port - 1), tmp)
        self.options = args
        self.web_ports = [args.port]

    def database_url(self) -> str:
        return f"{_django.SERVER}/{self.options.database}{os.environ.get('BENCH_DATABASE_SUFFIX', '')}"

    def site_env(self) -> dict:
        return dict(super().site_env(), CELERY_BROKER_URL=self.options.broker, CACHE_URL=self.options.cache)

    def start(self) -> None:
        self.start_web(0)
        celery = str(ROOT / ".venv/bin/celery")
        for name, queue, concurrency in self.WORKERS:
            # --heavy-nice: the heavy queue's worker at a lower CPU priority, to compare (the README runs it at 0)
            nice = ["nice", "-n", str(self.options.heavy_nice)] if name == "heavy" and self.options.heavy_nice else []
            self._start(
                name,
                [
                    *nice,
                    celery,
                    "-A",
                    "shitenno_site",
                    "worker",
                    "--loglevel",
                    "INFO",
                    "--concurrency",
                    str(concurrency),
                    "-Q",
                    queue,
                    "-n",
                    f"{name}@%h",
                ],
                self.site_env(),
            )
        self._start(
            "beat",
            [
                celery,
                "-A",
                "shitenno_site",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(self.tmp / "beat-schedule"),
            ],
            self.site_env(),
        )

    def cpu(self) -> dict[str, float]:
        """CPU seconds each of the site's processes (with its children) has used so far; PostgreSQL's not."""
        return {name: cpu_seconds(self.pids(name)) for name in ("web1", "default", "heavy")}

    def ready(self) -> None:
        port = self.web_ports[0]
        wait_for(lambda: call(port, "GET", "/healthz", timeout=3).status == 200, 90, f"the site on port {port}")
        for name, _queue, _concurrency in self.WORKERS:
            wait_for(lambda name=name: " ready." in (self.tmp / f"{name}.log").read_text(), 90, f"worker {name}")
        wait_for(lambda: "beat: Starting" in (self.tmp / "beat.log").read_text(), 60, "beat")


class Browser:
    """A signed-in person's browser on the site's pages. Its cookies are sent by hand: under DEBUG=0 they are
    Secure, which requests would not send over the loopback's plain http."""

    def __init__(self, port: int, username: str) -> None:
        self.base, self.cookies = f"http://127.0.0.1:{port}", {}
        self.get("/accounts/login/")
        answer = self.post("/accounts/login/", {"username": username, "password": PASSWORD})
        if answer.status_code != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"{username} could not log in: {answer.status_code}")

    def _kept(self, answer: requests.Response) -> requests.Response:
        self.cookies.update(answer.cookies.get_dict())
        return answer

    def get(self, path: str, **kwargs) -> requests.Response:
        return self._kept(
            requests.get(self.base + path, cookies=self.cookies, allow_redirects=False, timeout=120, **kwargs)
        )

    def post(self, path: str, data: dict, files=None) -> requests.Response:
        data = dict(data, csrfmiddlewaretoken=self.cookies.get("csrftoken", ""))
        return self._kept(
            requests.post(
                self.base + path, data=data, files=files, cookies=self.cookies, allow_redirects=False, timeout=120
            )
        )


class LockWaits:
    """PostgreSQL's lock waits in the benchmark's database, sampled every `every` s from pg_stat_activity while a
    phase runs (issue 46: a slow move could be a wait on a row or a table another club's job holds, not CPU): how
    many samples saw a backend waiting on a lock, the most at once, and what they waited on most."""

    QUERY = (
        "SELECT wait_event, left(query, 60) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
    )

    def __init__(self, every: float = 0.1) -> None:
        self.every, self.samples, self.waiting, self.most = every, 0, 0, 0
        self.seen: dict[tuple[str, str], int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "LockWaits":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as conn:
            while not self.stop.wait(self.every):
                rows = conn.execute(self.QUERY).fetchall()
                self.samples += 1
                if rows:
                    self.waiting += 1
                    self.most = max(self.most, len(rows))
                    for event, query in rows:
                        self.seen[(event, query)] = self.seen.get((event, query), 0) + 1

    def said(self) -> str:
        if not self.samples:
            return "lock waits: not sampled"
        head = f"lock waits: {self.waiting} of {self.samples} samples ({self.every * 1000:.0f} ms apart) saw one"
        if not self.waiting:
            return head
        top = sorted(self.seen.items(), key=lambda kv: -kv[1])[:3]
        return (
            head
            + f", at most {self.most} at once; most: "
            + "; ".join(f"{event} x{n} ({query!r})" for (event, query), n in top)
        )
