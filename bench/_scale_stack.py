"""The machines of bench/scale_out.py: nginx in front of two gunicorn instances, PgBouncer in transaction mode,
two Celery workers and one beat, each process in its own process group; and HTTP as a phone speaks it."""

import http.client
import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import _django

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "shitenno_bench_scale"
BROKER = os.environ.get("SCALE_BROKER_URL", "redis://127.0.0.1:6379/6")
CACHE = os.environ.get("SCALE_CACHE_URL", "redis://127.0.0.1:6379/7")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"


# --- HTTP, as a phone does it ---------------------------------------------------------------------------------


class Answer:
    def __init__(self, status: int, body: bytes = b"", upstream: str = "") -> None:
        self.status, self.body, self.upstream = status, body, upstream

    def json(self):
        return json.loads(self.body)


def call(
    port: int,
    method: str,
    path: str,
    *,
    token: str = "",
    body=None,
    key: str = "",
    timeout: float = 30,
    headers: dict | None = None,
) -> Answer:
    """One request on its own connection; status 0 when the connection failed or broke."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Token {token}"
    if key:
        sent["Idempotency-Key"] = key
    data = None
    if body is not None:
        data, sent["Content-Type"] = json.dumps(body).encode(), "application/json"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        # nginx lists every instance it tried ("a, b" when the first refused): the last one answered
        upstream = response.getheader("X-Upstream", "").split(",")[-1].strip()
        return Answer(response.status, response.read(), upstream)
    except (OSError, http.client.HTTPException):
        return Answer(0)
    finally:
        conn.close()


# --- the machines --------------------------------------------------------------------------------------------


class Stack:
    """Everything the site runs on, each process in its own process group so it can be stopped (or killed) whole."""

    def __init__(self, args, tmp: Path) -> None:
        self.args, self.tmp = args, tmp
        self.nginx_port = args.port_base
        self.web_ports = [args.port_base + 1, args.port_base + 2]
        self.pgbouncer_port = args.port_base + 3
        self.processes: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, command: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "w")
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env or os.environ.copy(),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes[name] = process
        return process

    def database_url(self) -> str:
        if self.args.direct:
            return f"{_django.SERVER}/{DATABASE}{os.environ.get('BENCH_DATABASE_SUFFIX', '')}"
        return f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{DATABASE}" + os.environ.get(
            "BENCH_DATABASE_SUFFIX", ""
        )

    def site_env(self) -> dict:
        return dict(
            os.environ,
            DEBUG="0",
            SECRET_KEY="scale-out-bench-only-" + "k" * 40,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=self.database_url(),
            DATABASE_TRANSACTION_POOLING="0" if self.args.direct else "1",
            CELERY_BROKER_URL=BROKER,
            CACHE_URL=CACHE,
            SECURE_SSL_REDIRECT="0",
            TRUSTED_PROXIES="1",
            STATIC_ROOT=str(self.tmp / "static"),
            DJANGO_SETTINGS_MODULE="shitenno_site.settings",
            PYTHONPATH=str(ROOT),
        )

    def start_pgbouncer(self) -> None:
        (self.tmp / "userlist.txt").write_text('"postgres" ""\n')
        (self.tmp / "pgbouncer.ini").write_text(f"""[databases]
* = host=127.0.0.1 port=5432
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.pgbouncer_port}
unix_socket_dir =
auth_type = trust
auth_file = {self.tmp / "userlist.txt"}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = {self.args.pool_size}
ignore_startup_parameters = extra_float_digits
pidfile = {self.tmp / "pgbouncer.pid"}
""")
        command = [PGBOUNCER, str(self.tmp / "pgbouncer.ini")]
        if os.geteuid() == 0:  # pgbouncer will not run as root
            command[1:1] = ["-u", "postgres"]
            shutil.chown(self.tmp, "postgres")
        self._start("pgbouncer", command)
        wait_for(lambda: port_open(self.pgbouncer_port), 15, "pgbouncer to listen")

    def start_web(self, index: int) -> None:
        env = dict(
            self.site_env(),
            GUNICORN_BIND=f"127.0.0.1:{self.web_ports[index]}",
            WEB_CONCURRENCY=str(self.args.web_workers),
        )
        self._start(
            f"web{index + 1}",
            [
                str(ROOT / ".venv/bin/gunicorn"),
                "--config",
                "python:shitenno_site.gunicorn",
                "--access-logfile",
                str(self.tmp / f"web{index + 1}-access.log"),
                "shitenno_site.wsgi",
            ],
            env,
        )

    def start_nginx(self) -> None:
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        temp = "\n".join(
            f"  {kind}_temp_path {self.tmp / ('nginx-' + kind)};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        servers = "\n".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in self.web_ports)
        (self.tmp / "nginx.conf").write_text(f"""{user}
daemon off;
worker_processes 1;
pid {self.tmp / "nginx.pid"};
error_log {self.tmp / "nginx-error.log"} warn;
events {{ worker_connections 2048; }}
http {{
  access_log off;
{temp}
  upstream site {{
{servers}
  }}
  server {{
    listen 127.0.0.1:{self.nginx_port} backlog=2048;
    client_max_body_size 3m;
    location / {{
      proxy_pass http://site;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      # A refused connection is tried on the other instance, also for a POST (nothing was sent yet); a request
      # cut off half-way is not (a POST is not idempotent): the phone sends it again with its Idempotency-Key.
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
      proxy_read_timeout 30s;
      add_header X-Upstream $upstream_addr always;
    }}
  }}
}}
""")
        self._start(
            "nginx",
            [NGINX, "-p", str(self.tmp), "-e", str(self.tmp / "nginx-error.log"), "-c", str(self.tmp / "nginx.conf")],
        )

    def start_workers(self) -> None:
        celery = str(ROOT / ".venv/bin/celery")
        for i in (1, 2):  # both on the default queue, the second on the heavy one too (docs/operations.md)
            queues = "celery" if i == 1 else "celery,heavy"
            self._start(
                f"worker{i}",
                [
                    celery,
                    "-A",
                    "shitenno_site",
                    "worker",
                    "-n",
                    f"scale{i}@%h",
                    "-Q",
                    queues,
                    "--concurrency",
                    "1",
                    "--loglevel",
                    "INFO",
                    "--without-gossip",
                    "--without-mingle",
                ],
                self.site_env(),
            )
        # One beat for the whole site (two would send each scheduled job twice); its schedule file is its own.
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

    def collect_static(self) -> subprocess.Popen:
        """DEBUG=0 serves the collected, hashed static files (as in production); collected while the database
        is made."""
        return subprocess.Popen(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=self.site_env()
        )

    def start(self) -> None:
        """Start everything; the caller makes the data while the processes boot, then calls ready()."""
        if not self.args.direct:
            self.start_pgbouncer()
        for index in (0, 1):
            self.start_web(index)
        self.start_nginx()
        self.start_workers()

    def ready(self) -> None:
        for port in (*self.web_ports, self.nginx_port):
            wait_for(
                lambda port=port: call(port, "GET", "/healthz", timeout=3).status == 200,
                60,
                f"the site on port {port} to answer /healthz",
            )
        for i in (1, 2):
            wait_for(lambda i=i: " ready." in (self.tmp / f"worker{i}.log").read_text(), 60, f"worker {i}")
        wait_for(lambda: "beat: Starting" in (self.tmp / "beat.log").read_text(), 30, "beat")

    def kill(self, name: str) -> None:
        """As if the machine died: SIGKILL to the master and its workers at once."""
        os.killpg(self.processes[name].pid, signal.SIGKILL)
        self.processes[name].wait()

    def stop(self) -> None:
        for process in reversed(self.processes.values()):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def pids(self, name: str) -> list[int]:
        """The process and its descendants."""
        root = self.processes[name].pid
        children: dict[int, list[int]] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError):
                    continue
                children.setdefault(ppid, []).append(int(entry.name))
        found, todo = [], [root]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found


def port_open(port: int) -> bool:
    import socket

    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_for(condition, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise SystemExit(f"timed out waiting for {what}")


def cpu_seconds(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total
