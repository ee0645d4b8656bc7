"""Issue 18, "past one machine", in simulation: two gunicorn instances behind nginx, sharing PostgreSQL (through
PgBouncer in transaction mode) and Redis, two Celery workers and one beat, and phones using the API with tokens.

Run: `bash .ci/services && .venv/bin/python bench/scale_out.py` (`--quick` for the reduced run the test suite makes,
`--direct` to skip PgBouncer). Needs Debian's nginx (/usr/sbin/nginx) and pgbouncer. It uses the database
shitenno_bench_scale (dropped and made afresh), Redis dbs 6 (broker) and 7 (cache), which it flushes
(SCALE_BROKER_URL, SCALE_CACHE_URL name others), ports 18180-18183 (--port-base), and a temporary directory for the
generated configurations and logs; it stops everything it started. What it checks, in order:

  1. visibility: at each (private) table two phones (two accounts) take turns, each through nginx, each polling
     the live address with its token every 1.5 s as the page does; no poll begun after a move was answered may
     show an older version, every move must reach the other phone within 2 s (not judged with --quick), and some
     of them must have been written through one instance and seen through the other;
  2. a lost answer: a move posted to one instance whose answer is thrown away, posted again with the same
     Idempotency-Key to the other instance, gets the first answer (200, the same entry) and writes nothing;
  3. a league: results entered through one instance, signed off through the other, the last sign-off sent through
     both at once; the workers must rate each result exactly once (one history row per player and scope, each
     player's games = the results they played, and the stored ratings equal a full recompute);
  4. capacity (not with --quick): moves/s and polls/s through nginx, and the CPU each part used for them;
  5. kill: phones post moves as fast as they can through nginx while one instance is killed (SIGKILL, master and
     workers); a phone whose request failed sends it again with the same Idempotency-Key until it has an answer.
     No accepted move may be lost or doubled: each table's log must be exactly the moves its phone was answered
     for, in order, and each replayed answer (200) must be the entry first written.

It prints each check and exits 1 when one fails.
"""

import argparse
import http.client
import json
import os
import pwd
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

import _django

ROOT = Path(__file__).resolve().parent.parent
DATABASE = "shitenno_bench_scale"
BROKER = os.environ.get("SCALE_BROKER_URL", "redis://127.0.0.1:6379/6")
CACHE = os.environ.get("SCALE_CACHE_URL", "redis://127.0.0.1:6379/7")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PGBOUNCER = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
POLL_EVERY = 1.5  # s, as templates/games/partials/table_body.html's hx-trigger
SEQ_IN_PAGE = re.compile(rb"live/\?seq=(\d+)")
FAILURES: list[str] = []


STARTED = time.monotonic()


def check(ok: bool, what: str) -> bool:
    print(f"  [{'ok' if ok else 'FAILED'}] {what}", flush=True)
    if not ok:
        FAILURES.append(what)
    return ok


# --- HTTP, as a phone does it ---------------------------------------------------------------------------------


class Answer:
    def __init__(self, status: int, body: bytes = b"", upstream: str = "") -> None:
        self.status, self.body, self.upstream = status, body, upstream

    def json(self):
        return json.loads(self.body)


def call(port: int, method: str, path: str, *, token: str = "", body=None, key: str = "", timeout: float = 30,
         headers: dict | None = None) -> Answer:
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
        process = subprocess.Popen(command, cwd=ROOT, env=env or os.environ.copy(), stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        self.processes[name] = process
        return process

    def database_url(self) -> str:
        if self.args.direct:
            return f"{_django.SERVER}/{DATABASE}{os.environ.get('BENCH_DATABASE_SUFFIX', '')}"
        return f"postgres://postgres@127.0.0.1:{self.pgbouncer_port}/{DATABASE}" + os.environ.get(
            "BENCH_DATABASE_SUFFIX", "")

    def site_env(self) -> dict:
        return dict(
            os.environ, DEBUG="0", SECRET_KEY="scale-out-bench-only-" + "k" * 40, ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=self.database_url(), DATABASE_TRANSACTION_POOLING="0" if self.args.direct else "1",
            CELERY_BROKER_URL=BROKER, CACHE_URL=CACHE, SECURE_SSL_REDIRECT="0", TRUSTED_PROXIES="1",
            STATIC_ROOT=str(self.tmp / "static"), DJANGO_SETTINGS_MODULE="shitenno_site.settings", PYTHONPATH=str(ROOT),
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
auth_file = {self.tmp / 'userlist.txt'}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = {self.args.pool_size}
ignore_startup_parameters = extra_float_digits
pidfile = {self.tmp / 'pgbouncer.pid'}
""")
        command = [PGBOUNCER, str(self.tmp / "pgbouncer.ini")]
        if os.geteuid() == 0:  # pgbouncer will not run as root
            command[1:1] = ["-u", "postgres"]
            shutil.chown(self.tmp, "postgres")
        self._start("pgbouncer", command)
        wait_for(lambda: port_open(self.pgbouncer_port), 15, "pgbouncer to listen")

    def start_web(self, index: int) -> None:
        env = dict(self.site_env(), GUNICORN_BIND=f"127.0.0.1:{self.web_ports[index]}",
                   WEB_CONCURRENCY=str(self.args.web_workers))
        self._start(f"web{index + 1}", [str(ROOT / ".venv/bin/gunicorn"), "--config", "python:shitenno_site.gunicorn",
                                        "--access-logfile", str(self.tmp / f"web{index + 1}-access.log"),
                                        "shitenno_site.wsgi"], env)

    def start_nginx(self) -> None:
        user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
        temp = "\n".join(f"  {kind}_temp_path {self.tmp / ('nginx-' + kind)};"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        servers = "\n".join(f"    server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in self.web_ports)
        (self.tmp / "nginx.conf").write_text(f"""{user}
daemon off;
worker_processes 1;
pid {self.tmp / 'nginx.pid'};
error_log {self.tmp / 'nginx-error.log'} warn;
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
        self._start("nginx", [NGINX, "-p", str(self.tmp), "-e", str(self.tmp / "nginx-error.log"),
                              "-c", str(self.tmp / "nginx.conf")])

    def start_workers(self) -> None:
        celery = str(ROOT / ".venv/bin/celery")
        for i in (1, 2):
            self._start(f"worker{i}", [celery, "-A", "shitenno_site", "worker", "-n", f"scale{i}@%h",
                                       "--concurrency", "1", "--loglevel", "INFO", "--without-gossip",
                                       "--without-mingle"], self.site_env())
        # One beat for the whole site (two would send each scheduled job twice); its schedule file is its own.
        self._start("beat", [celery, "-A", "shitenno_site", "beat", "--loglevel", "INFO",
                             "--schedule", str(self.tmp / "beat-schedule")], self.site_env())

    def collect_static(self) -> subprocess.Popen:
        """DEBUG=0 serves the collected, hashed static files (as in production); collected while the database
        is made."""
        return subprocess.Popen([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT,
                                env=self.site_env())

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
            wait_for(lambda port=port: call(port, "GET", "/healthz", timeout=3).status == 200, 60,
                     f"the site on port {port} to answer /healthz")
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


# --- the data ------------------------------------------------------------------------------------------------


def prepare(tables: int) -> dict:
    """Four accounts with API tokens, a public club with a league and a season, and tables with legal games."""
    import datetime

    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues import league_services
    from leagues import services as player_services

    users = [player_services.user_sign_up(username=f"phone{i}", email=f"phone{i}@example.org",
                                          password="scale passphrase 42") for i in range(4)]
    players = [player_services.player_for_user(u) for u in users]
    club = player_services.club_create(name="Scale Club", owner=users[0], members_public=True)
    for user in users[1:]:
        player_services.club_join(token=club.invite_token, user=user)
    league = league_services.league_create(club=club, name="Scale League", games=["shitenno"], user=users[0])
    today = timezone.localdate()
    season = league_services.season_create(league=league, name="Now", starts_on=today - datetime.timedelta(days=30),
                                           ends_on=today + datetime.timedelta(days=30), user=users[0])
    games = [random_legal_game(seed, 4) for seed in range(6)]

    def table(i: int) -> dict:
        setup, moves = games[i % len(games)]
        session = services.session_create(game="shitenno", created_by=users[0], players=players, setup=setup,
                                          is_public=False)  # the phones follow them with their tokens
        return {"code": session.code, "moves": moves}

    return {
        "tokens": [Token.objects.create(user=u).key for u in users], "players": [p.pk for p in players],
        "season": season.pk, "league": league.pk, "tables": [table(i) for i in range(tables)],
    }


# --- 1. phones at the same table see each other's moves --------------------------------------------------------


def visibility(stack: Stack, plan: dict, tables: list[dict], moves: int, *, judge_time: bool) -> None:
    """`judge_time`: fail when a move took over 2 s to reach the other phone (not in the quick run the test suite
    makes: its machine may be loaded past that; the stale-answer check is what proves the instances agree)."""
    print(f"\n1. Visibility: {len(tables)} tables, two phones each taking turns through nginx, {moves} moves a table")
    seen: list[tuple[float, str, str]] = []  # (seconds from the 201 to the other phone's poll seeing it, wrote, saw)
    stale: list[str] = []  # polls begun after a move was answered 201 that did not show it
    errors: list[str] = []
    lock = threading.Lock()

    def phone(table: dict, me: int, posted: dict) -> None:
        token, seq, last_poll = plan["tokens"][me], -1, 0.0
        while True:
            due = last_poll + POLL_EVERY
            time.sleep(max(0.0, due - time.monotonic()))
            last_poll = time.monotonic()
            with lock:
                acknowledged = max((s for s, (at, _, _) in posted.items() if at < last_poll), default=0)
            answer = call(stack.nginx_port, "GET", f"/tables/{table['code']}/live/?seq={seq}", token=token,
                          headers={"HX-Request": "true"})
            if answer.status == 200 and (found := SEQ_IN_PAGE.search(answer.body)):
                seq = int(found.group(1))
                with lock:
                    if seq in posted and posted[seq][1] != me:
                        seen.append((time.monotonic() - posted[seq][0], posted[seq][2], answer.upstream))
            elif answer.status not in (200, 204):
                errors.append(f"poll answered {answer.status}")
            if answer.status in (200, 204) and seq < acknowledged:
                stale.append(f"{table['code']}: saw {seq} after {acknowledged} was answered, from {answer.upstream}")
            if seq >= moves:
                return
            if seq >= 0 and seq % 2 == me:  # my turn: enter the next move at once, as a player would
                move = call(stack.nginx_port, "POST", f"/api/tables/{table['code']}/moves/", token=token,
                            body={"seq": seq, "move": table["moves"][seq]}, key=uuid.uuid4().hex)
                if move.status != 201:
                    errors.append(f"move answered {move.status}: {move.body[:200]!r}")
                    return
                with lock:
                    posted[seq + 1] = (time.monotonic(), me, move.upstream)
                seq += 1

    threads = []
    for table in tables:
        posted: dict = {}
        threads += [threading.Thread(target=phone, args=(table, me, posted)) for me in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=moves * 4 + 60)
    delays = sorted(d for d, _, _ in seen)
    crossed = sum(1 for _, wrote, saw in seen if wrote and saw and wrote != saw)
    check(not errors, f"every poll and move answered (problems: {errors[:3]})")
    check(len(seen) == len(tables) * moves, f"each move seen by the other phone: {len(seen)} of {len(tables) * moves}")
    if delays:
        print(f"  from a move's 201 to the other phone seeing it: median {delays[len(delays) // 2]:.2f} s,"
              f" max {delays[-1]:.2f} s (polls every {POLL_EVERY} s)")
    check(not stale, f"no poll begun after a move's 201 answered an older version ({len(stale)}: {stale[:2]})")
    within = bool(delays) and delays[-1] <= 2.0
    if judge_time:
        check(within, "every move reached the other phone within 2 s")
    else:
        print(f"  every move reached the other phone within 2 s: {within} (timing not judged in the quick run)")
    check(crossed > 0, f"{crossed} of {len(seen)} moves were written through one instance and seen through the other")
    cache_memory(len(tables))


def cache_memory(tables: int) -> None:
    """What the shared cache holds for the tables in play: the rendered table bodies (per version, language and
    writer-or-reader, kept a minute), measured with Redis's MEMORY USAGE."""
    import redis

    cache = redis.Redis.from_url(CACHE)
    keys = list(cache.scan_iter(match="*table-body:*", count=1000))
    sizes = [cache.memory_usage(key) or 0 for key in keys]
    if sizes:
        print(f"  the shared cache holds {len(keys)} table bodies for {tables} tables,"
              f" {sum(sizes) / len(sizes) / 1024:.1f} KiB each (MEMORY USAGE), {sum(sizes) / 1024:.0f} KiB in all")


# --- 2. a lost answer is given again by the other instance -----------------------------------------------------


def lost_answer(stack: Stack, plan: dict, table: dict) -> None:
    from games.models import MoveEvent

    print("\n2. A lost answer: the move posted to one instance, the answer dropped, the same key sent to the other")
    a, b = stack.web_ports
    key, token, path = uuid.uuid4().hex, plan["tokens"][0], f"/api/tables/{table['code']}/moves/"
    body = {"seq": 0, "move": table["moves"][0]}
    first = call(a, "POST", path, token=token, body=body, key=key)
    again = call(b, "POST", path, token=token, body=body, key=key)
    check(first.status == 201 and again.status == 200, f"first answer {first.status}, the retry {again.status}")
    same = first.status == 201 and again.status == 200 and first.json() == again.json()
    check(same, "the retry's body is the first answer's (the same entry, created_at included, and the same state)")
    check(MoveEvent.objects.filter(session__code=table["code"]).count() == 1, "one entry in the log")


# --- 3. a league result signed off through the two instances is rated once -----------------------------------


def league(stack: Stack, plan: dict, results: int) -> None:
    from django.utils import timezone

    from leagues import league_services
    from leagues.models import Rating, RatingEvent, Result, Standing

    print(f"\n3. League: {results} results entered through one instance, signed off through the other, the last"
          " sign-off through both at once")
    a, b = stack.web_ports
    tokens, players = plan["tokens"], plan["players"]
    ids = []
    for n in range(results):
        order = players[n % 4:] + players[:n % 4]
        entered = call(a, "POST", "/api/results/", token=tokens[0], body={
            "game": "shitenno", "played_on": timezone.localdate().isoformat(), "season": plan["season"],
            "entries": [{"player": p, "rank": r + 1, "score": 80 - 10 * r} for r, p in enumerate(order)]})
        if not check(entered.status == 201, f"result {n + 1} entered through instance 1: {entered.status}"):
            return
        ids.append(entered.json()["id"])
        for signer in (1, 2):
            call(b, "POST", f"/api/results/{ids[-1]}/sign-off/", token=tokens[signer], body={"agreed": True})
        last = [threading.Thread(target=call, args=(port, "POST", f"/api/results/{ids[-1]}/sign-off/"),
                                 kwargs={"token": tokens[3], "body": {"agreed": True}}) for port in (a, b)]
        for thread in last:
            thread.start()
        for thread in last:
            thread.join()
    counted = Result.objects.filter(pk__in=ids, status=Result.Status.COUNTED).count()
    check(counted == results, f"{counted} of {results} results count")
    expected = results * 4 * 2  # four players, two scopes (the game site-wide, the league)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and (RatingEvent.objects.filter(result_id__in=ids).count() < expected
                                           or Standing.objects.filter(season_id=plan["season"]).count() < 4):
        time.sleep(0.5)
    time.sleep(2)  # a second rating of the same result, if any, would land now
    rows = RatingEvent.objects.filter(result_id__in=ids).count()
    check(rows == expected, f"rating history rows: {rows} (one per player, result and scope: {expected})")
    games = sorted(set(Rating.objects.filter(player_id__in=players).values_list("kind", "games")))
    check(games == [("game", results), ("league", results)], f"each player's games per scope: {games}")
    played = sorted(Standing.objects.filter(season_id=plan["season"]).values_list("games", flat=True))
    check(played == [results] * 4, f"the season's table counts each result once: games {played}")
    stored = sorted(Rating.objects.values_list("kind", "key", "player_id", "mu", "sigma", "games"))
    for kind, key in sorted(league_services.rating_scopes()):
        league_services.ratings_recompute(kind=kind, key=key)
    recomputed = sorted(Rating.objects.values_list("kind", "key", "player_id", "mu", "sigma", "games"))
    check(stored == recomputed, "the stored ratings equal a full recompute from the results")


# --- 4. capacity -----------------------------------------------------------------------------------------------


def capacity(stack: Stack, plan: dict, seconds: float, phones: int) -> dict:
    """Closed loops through nginx: moves, then not-modified polls, then polls that find a change each time."""
    import psycopg

    print(f"\n4. Capacity through nginx, {phones} phones in closed loops, {seconds:.0f} s each")
    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from games.models import TableSession

    setup, moves = random_legal_game(99, 4)
    owner = TableSession.objects.get(code=plan["tables"][0]["code"]).created_by
    players = list(TableSession.objects.get(code=plan["tables"][0]["code"]).seats.order_by("position")
                   .values_list("player", flat=True))
    from leagues.models import Player

    seated = [Player.objects.get(pk=pk) for pk in players]
    tables = [services.session_create(game="shitenno", created_by=owner, players=seated, setup=setup).code
              for _ in range(phones * 3)]
    suffix = os.environ.get("BENCH_DATABASE_SUFFIX", "")

    def backend_pids() -> list[int]:
        with psycopg.connect(f"{_django.SERVER}/postgres", autocommit=True) as conn:
            return [r[0] for r in conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s",
                                               [DATABASE + suffix])]

    def parts() -> dict[str, list[int]]:
        named = {"web": stack.pids("web1") + stack.pids("web2"), "nginx": stack.pids("nginx"),
                 "PostgreSQL": backend_pids()}
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
                answer = call(stack.nginx_port, "POST", f"/api/tables/{code}/moves/", token=plan["tokens"][0],
                              body={"seq": seq, "move": moves[seq]}, key=uuid.uuid4().hex)
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
                answer = call(stack.nginx_port, "GET", f"/tables/{code}/live/?seq={-1 if changed else seq_now}",
                              headers={"HX-Request": "true"})
                if answer.status in (200, 204):
                    with lock:
                        count[0] += 1
                else:
                    errors[0] += 1

        seq_now = TableSession.objects.get(code=tables[0]).head_seq
        target = {"moves": mover, "polls, not modified (204)": lambda: poller(False),
                  "polls, changed (200, body from the cache)": lambda: poller(True)}[kind]
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
        print(f"  {kind}: {rate:.0f}/s ({errors[0]} errors); CPU seconds per 1,000: "
              + ", ".join(f"{name} {cpu / max(count[0], 1) * 1000:.2f}" for name, cpu in used.items()))
        web = used["web"] / max(count[0], 1)
        database = used["PostgreSQL"] / max(count[0], 1)
        print(f"    per core of the web tier {1 / web if web else 0:.0f}/s; per core of PostgreSQL"
              f" {1 / database if database else 0:.0f}/s")

    run("moves")
    run("polls, not modified (204)")
    run("polls, changed (200, body from the cache)")
    with psycopg.connect(f"{_django.SERVER}/postgres", autocommit=True) as conn:
        backends = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE + suffix])
        print(f"  PostgreSQL connections to the site's database now: {backends.fetchone()[0]}"
              f" ({'through PgBouncer, pool size ' + str(stack.args.pool_size) if not stack.args.direct else 'direct'};"
              f" {2 * stack.args.web_workers} web processes, 2 workers, 1 beat)")
    return figures


# --- the log-in lock-out counts failures from every instance ----------------------------------------------------


def lockout(stack: Stack) -> None:
    """django-axes keeps failed log-ins in the database: 10 failures spread over the two instances lock the account
    (for that address) on both."""
    from axes.models import AccessAttempt
    from django.conf import settings

    print(f"\nLog-in lock-out: {settings.AXES_FAILURE_LIMIT} wrong passwords through nginx (both instances), then"
          " the right one")
    cookie = re.compile(r"csrftoken=([^;]+)")
    field = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
    served, answer = set(), None
    for attempt in range(settings.AXES_FAILURE_LIMIT + 1):
        conn = http.client.HTTPConnection("127.0.0.1", stack.nginx_port, timeout=30)
        conn.request("GET", "/accounts/login/")
        page = conn.getresponse()
        body, token = page.read(), cookie.search(page.getheader("Set-Cookie", "")).group(1)
        served.add(page.getheader("X-Upstream", ""))
        password = "scale passphrase 42" if attempt == settings.AXES_FAILURE_LIMIT else f"wrong {attempt}"
        form = urlencode({"username": "phone3", "password": password,
                          "csrfmiddlewaretoken": field.search(body).group(1).decode()})
        conn = http.client.HTTPConnection("127.0.0.1", stack.nginx_port, timeout=30)
        conn.request("POST", "/accounts/login/", body=form, headers={
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={token}"})
        answer = conn.getresponse()
        answer.read()
        served.add(answer.getheader("X-Upstream", ""))
    failures = sum(AccessAttempt.objects.filter(username="phone3").values_list("failures_since_start", flat=True))
    check(len(served) == 2, f"the attempts were answered by both instances: {sorted(served)}")
    check(failures == settings.AXES_FAILURE_LIMIT + 1,
          f"failures recorded for the account in one place: {failures} (the ten, and the refused attempt)")
    check(answer.status == 429, f"the right password after them is refused: {answer.status} (locked out)")


# --- PgBouncer: what transaction pooling forbids -----------------------------------------------------------------

CHUNKED_READ = """
import django, psycopg
django.setup()
from django.contrib.auth.models import Permission
rows = Permission.objects.order_by("pk").iterator(chunk_size=5)
next(rows)  # in autocommit: Django's server-side cursor would be DECLAREd WITH HOLD on one server connection
other = psycopg.connect(%r)
other.execute("SELECT 1")  # another client's open transaction now holds that server connection
print(1 + sum(1 for _ in rows), Permission.objects.count())
"""


def pooler(stack: Stack) -> None:
    """The site's chunked reads (.iterator(), e.g. a game's statistics page) while another client holds the server
    connection they began on; and the statistics page through nginx."""
    if stack.args.direct:
        return
    print("\nPgBouncer (transaction mode): a chunked read goes on while another client holds its first connection")
    env = dict(stack.site_env())
    read = subprocess.run([sys.executable, "-c", CHUNKED_READ % stack.database_url()], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    counts = read.stdout.split()
    check(read.returncode == 0 and len(counts) == 2 and counts[0] == counts[1],
          f"with DATABASE_TRANSACTION_POOLING=1 the read gets every row: {read.stdout.strip() or read.stderr[-300:]}")
    page = call(stack.nginx_port, "GET", "/games/shitenno/")
    check(page.status == 200, f"the statistics page (a chunked read) answers {page.status} through nginx")


# --- 5. one instance dies under load ----------------------------------------------------------------------------


def kill_under_load(stack: Stack, plan: dict, tables: list[dict], seconds: float) -> None:
    from games.models import MoveEvent

    print(f"\n5. Kill: {len(tables)} phones posting through nginx; instance 1 is killed after {seconds / 3:.0f} s,"
          f" the phones go on for {seconds * 2 / 3:.0f} s more")
    end = time.monotonic() + seconds
    answered: dict[str, list[dict]] = {t["code"]: [] for t in tables}
    stats = {"retried": 0, "replayed": 0, "failed": 0, "by": {}}
    lock = threading.Lock()

    def phone(table: dict) -> None:
        seq = 0
        while time.monotonic() < end and seq < len(table["moves"]):
            key, body = uuid.uuid4().hex, {"seq": seq, "move": table["moves"][seq]}
            give_up = time.monotonic() + 60
            tries = 0
            while True:
                answer = call(stack.nginx_port, "POST", f"/api/tables/{table['code']}/moves/",
                              token=plan["tokens"][0], body=body, key=key, timeout=10)
                tries += 1
                if answer.status in (200, 201) or time.monotonic() > give_up:
                    break
                time.sleep(0.2)  # 0 (the connection broke), 502, 504: the same request again
            with lock:
                stats["retried"] += tries > 1
                stats["replayed"] += answer.status == 200
                stats["by"][answer.upstream] = stats["by"].get(answer.upstream, 0) + 1
            if answer.status not in (200, 201):
                with lock:
                    stats["failed"] += 1
                return
            answered[table["code"]].append({"key": key, "status": answer.status, "event": answer.json()["event"]})
            seq += 1

    threads = [threading.Thread(target=phone, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    time.sleep(seconds / 3)
    stack.kill("web1")
    killed_at = time.monotonic()
    print(f"  killed instance 1 (port {stack.web_ports[0]}), master and workers, with SIGKILL")
    for thread in threads:
        thread.join()
    moves = sum(len(a) for a in answered.values())
    print(f"  {moves} moves answered ({time.monotonic() - killed_at:.0f} s after the kill); {stats['retried']}"
          f" needed a retry, {stats['replayed']} of them answered 200 (the move had landed before the answer was"
          f" lost); answered by {stats['by']}")
    check(stats["failed"] == 0, f"every move was answered in the end ({stats['failed']} not)")
    lost, doubled, wrong = 0, 0, 0
    for code, mine in answered.items():
        log = list(MoveEvent.objects.filter(session__code=code).order_by("seq")
                   .values("seq", "idempotency_key", "payload", "created_at"))
        if [e["idempotency_key"] for e in log] != [m["key"] for m in mine]:
            lost += len({m["key"] for m in mine} - {e["idempotency_key"] for e in log})
            doubled += len(log) - len({e["idempotency_key"] for e in log})
            wrong += 1
        for entry, answer in zip(log, mine, strict=False):
            if answer["event"]["seq"] != entry["seq"] or answer["event"]["payload"] != entry["payload"]:
                wrong += 1
    check(lost == 0 and doubled == 0 and wrong == 0,
          f"each table's log is exactly the moves its phone was answered for, in order (lost {lost},"
          f" doubled {doubled}, tables differing {wrong})")
    check(stats["by"].get(f"127.0.0.1:{stack.web_ports[1]}", 0) > 0, "the other instance took over")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="the reduced run (tests/bench/test_scale_out.py)")
    parser.add_argument("--direct", action="store_true", help="connect to PostgreSQL directly, not through PgBouncer")
    parser.add_argument("--port-base", type=int, default=18180, help="nginx; +1, +2 the instances; +3 PgBouncer")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn sync workers per instance (default 2)")
    parser.add_argument("--pool-size", type=int, default=10, help="PgBouncer's server connections (default 10)")
    parser.add_argument("--seconds", type=float, default=20, help="each capacity phase (default 20)")
    parser.add_argument("--phones", type=int, default=16, help="phones in the capacity phases (default 16)")
    args = parser.parse_args()
    quick = args.quick
    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}; "
          f"{'direct to PostgreSQL' if args.direct else 'PostgreSQL through PgBouncer (transaction mode)'}")
    tmp = Path(tempfile.mkdtemp(prefix="scale_out_"))
    tmp.chmod(0o755)
    stack = Stack(args, tmp)
    collecting = stack.collect_static()
    os.environ.pop("CACHE_URL", None)  # this process checks through the database; the site's cache is CACHE
    _django.setup(DATABASE)
    import redis

    for url in (BROKER, CACHE):  # before any worker binds its queue
        redis.Redis.from_url(url).flushdb()
    if collecting.wait() != 0:
        raise SystemExit("collectstatic failed")
    visible, killed = (4, 8) if quick else (12, 24)
    try:
        stack.start()
        plan = prepare(visible + 1 + killed)
        stack.ready()
        print(f"running: nginx :{stack.nginx_port} -> gunicorn :{stack.web_ports[0]} and :{stack.web_ports[1]}"
              f" ({args.web_workers} workers each), 2 Celery workers, 1 beat"
              + ("" if args.direct else f", PgBouncer :{stack.pgbouncer_port}") + f"; logs in {tmp}")
        tables = plan["tables"]
        print(f"(started in {time.monotonic() - STARTED:.0f} s)")
        visibility(stack, plan, tables[:visible], 4 if quick else 16, judge_time=not quick)
        lost_answer(stack, plan, tables[visible])
        league(stack, plan, 2 if quick else 6)
        if not quick:
            capacity(stack, plan, args.seconds, args.phones)
        lockout(stack)
        pooler(stack)
        kill_under_load(stack, plan, tables[visible + 1:], 6 if quick else 30)
    finally:
        stack.stop()
    print(f"\nload average after: {Path('/proc/loadavg').read_text().split()[:3]};"
          f" {time.monotonic() - STARTED:.0f} s in all")
    if FAILURES:
        print(f"FAILED: {len(FAILURES)} check(s)")
        sys.exit(1)
    shutil.rmtree(tmp, ignore_errors=True)
    print("all checks passed")


if __name__ == "__main__":
    main()
