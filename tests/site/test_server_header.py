"""The production server does not name itself: gunicorn, started as the README says, answers `Server: shitenno`."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_gunicorn_answers_without_its_name_and_version(tmp_path):
    port = _free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    env = dict(
        os.environ,
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="1",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    server = subprocess.Popen(
        [gunicorn, "--config", "python:shitenno_site.gunicorn", "shitenno_site.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
                    headers = answer.headers
                break
            except urllib.error.HTTPError as error:  # 503 without a broker is still an answer
                headers = error.headers
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "gunicorn did not start"
                time.sleep(0.2)
        assert headers["Server"] == "shitenno"
    finally:
        server.terminate()
        server.wait(timeout=30)
