"""Lighthouse (mobile) on the main pages of a local production-like server; prints the four category scores.

    .venv/bin/python bench/lighthouse.py [--keep] [--only /rankings/]

Not part of the suite (a page takes ~15 s). It installs Lighthouse from bench/lighthouse/package.json with
`npm ci` on first use (12.2.3: Lighthouse 13 wants Node 22), serves the site with gunicorn, DEBUG=0 and
whitenoise's compressed static files on a fresh SQLite database with the demo data (in a temporary folder),
and drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) with the browser tests' flags. The pages
are read as a visitor who is not logged in, as a search engine or a newcomer sees them.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "bench" / "lighthouse"
LIGHTHOUSE = TOOL / "node_modules" / ".bin" / "lighthouse"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
    "--disable-sync --no-first-run"
)
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pages(database: Path) -> list[str]:
    """The main pages, with the ids the demo data got."""
    db = sqlite3.connect(database)
    one = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    playing = one("SELECT code FROM games_tablesession WHERE status='playing' ORDER BY id LIMIT 1")
    finished = one("SELECT code FROM games_tablesession WHERE status='finished' ORDER BY id LIMIT 1")
    club = one("SELECT slug FROM leagues_club ORDER BY id LIMIT 1")
    league = one("SELECT id FROM leagues_league ORDER BY id LIMIT 1")
    player = one("SELECT id FROM leagues_player WHERE user_id IS NOT NULL ORDER BY id LIMIT 1")
    return [
        "/",
        "/accounts/sign-up/",
        "/accounts/login/",
        f"/tables/{playing}/",
        f"/tables/{finished}/",
        f"/tables/{finished}/history/",
        "/tables/final-count/",
        "/rankings/",
        "/games/shitenno/",
        "/clubs/",
        f"/clubs/{club}/",
        f"/leagues/{league}/",
        f"/players/{player}/",
        "/api/docs/",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="a path to audit (repeatable); default: the main pages")
    parser.add_argument("--keep", action="store_true", help="keep the JSON reports in bench/lighthouse/reports/")
    args = parser.parse_args()
    if not LIGHTHOUSE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--silent"], cwd=TOOL, check=True)
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    work = Path(tempfile.mkdtemp(prefix="shitenno-lighthouse-"))
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}",
        "CHROME_PATH": chrome,
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "WEB_CONCURRENCY": "2",
        "PYTHONPATH": str(ROOT),
        "DJANGO_LOG_LEVEL": "ERROR",
    }  # no "Not Found: /robots.txt" between the figures
    for name in ("CELERY_BROKER_URL", "CACHE_URL"):
        env.pop(name, None)
    python = str(Path(sys.executable))
    for command in (["migrate", "--noinput"], ["demo_data"], ["collectstatic", "--noinput"]):
        subprocess.run([python, "manage.py", *command], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    server = subprocess.Popen(
        [
            gunicorn,
            "--config",
            "python:shitenno_site.gunicorn",
            "--access-logfile",
            "/dev/null",
            "--log-level",
            "warning",
            "shitenno_site.wsgi",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        reports = TOOL / "reports" if args.keep else work
        reports.mkdir(exist_ok=True)
        version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True).stdout.strip()
        print(
            f"Lighthouse {version} (mobile), {chrome}; load average before: {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores (the performance score falls on a busy machine: see benchmarkIndex)"
        )
        print(f"{'page':<34} {'perf':>5} {'a11y':>5} {'best':>5} {'seo':>5} {'bench':>6}  audits below 1")
        for path in args.only or pages(work / "db.sqlite3"):
            out = reports / (path.strip("/").replace("/", "_") or "home")
            for _attempt in range(3):  # Lighthouse sometimes loses the trace on a busy machine (NO_NAVSTART)
                run = subprocess.run(
                    [
                        str(LIGHTHOUSE),
                        base + path,
                        "--quiet",
                        "--output=json",
                        f"--output-path={out}.json",
                        f"--chrome-flags={CHROME_FLAGS}",
                        f"--only-categories={','.join(CATEGORIES)}",
                    ],
                    env=env,
                )
                if run.returncode == 0:
                    break
            else:
                print(f"{path:<34} Lighthouse failed three times")
                continue
            report = json.loads(Path(f"{out}.json").read_text())
            scores = [report["categories"][c]["score"] for c in CATEGORIES]
            failed = sorted(
                {
                    ref["id"]
                    for c in CATEGORIES
                    for ref in report["categories"][c]["auditRefs"]
                    if ref.get("weight")
                    and (report["audits"][ref["id"]].get("score") is not None)
                    and report["audits"][ref["id"]]["score"] < 1
                }
            )
            bench = round(report["environment"]["benchmarkIndex"])
            figures = " ".join(f"{round(score * 100):>5}" for score in scores)
            print(f"{path:<34} {figures} {bench:>6}  {', '.join(failed)}")
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
