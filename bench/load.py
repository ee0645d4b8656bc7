"""Issue 6's load benchmark: phones posting legal Shitennō moves on many tables while other phones poll
their table, against gunicorn (4 sync workers, DEBUG=0) on PostgreSQL, with a minimal DRF endpoint (one
locked row update + one insert, bench/baseline_urls.py) measured at the same loads as the floor.

Run: `bash .ci/services && .venv/bin/python bench/load.py` (needs gevent: `pip install -e ".[bench]"`).
It uses the database shitenno_bench_load (dropped and made afresh) and Redis db 9, listens on 127.0.0.1 only and
stops by itself (about 6 minutes). Phases, each 60 s measured after a short warm-up:
  (a) open loop: POSTERS phones each post a move every POSTERS/RATE s (RATE moves/s in all), one per table,
      while POLLERS other phones poll their table every 1.5 s (as the page's htmx does);
  (b) closed loop: 50 connections posting as fast as they can, each on its own table;
  (c) both again against the baseline endpoint, and the ratios; each target's open loop starts on a server just
      started, and its first 10 s (what a deploy pays: imports, templates, connections) are judged on their own;
  (d) one connection at a time on an idle server: a not-modified poll (204) vs a 404, and reading a table
      (the live fragment, the full page) with 1 entry vs 150 entries in its log.
"""

import argparse
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import _django

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("BENCH_PORT", "8765"))
REDIS = os.environ.get("BENCH_BROKER_URL", "redis://127.0.0.1:6379/9")
CACHE = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/8")  # shared by the web workers, as in production
DATABASE = "shitenno_bench_load"  # its own, so another benchmark may run beside it


def prepare(args) -> dict:
    """Users with API tokens and logged-in sessions, and tables with their pre-generated legal moves.

    Made with the server's cache (CACHE), as every process that writes to the tables shares it in production;
    with this process's own memory the server would see tables whose moves no site process had made."""
    os.environ["CACHE_URL"] = CACHE
    _django.setup(DATABASE)
    import redis
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from rest_framework.authtoken.models import Token

    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues.people.players import player_for_user, user_sign_up

    redis.Redis.from_url(CACHE).flushdb()  # no table body left from an earlier run
    games = [random_legal_game(seed, 4) for seed in range(8)]
    users = [
        user_sign_up(username=f"phone{i}", email=f"phone{i}@example.org", password="bench passphrase 42")
        for i in range(4)
    ]
    players = [player_for_user(u) for u in users]
    token = Token.objects.create(user=users[0]).key
    store = SessionStore()
    store.update(
        {
            SESSION_KEY: str(users[1].pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: users[1].get_session_auth_hash(),
        }
    )
    store.create()

    def tables(n: int) -> list[dict]:
        made = []
        for i in range(n):
            setup, moves = games[i % len(games)]
            session = services.session_create(game="shitenno", created_by=users[0], players=players, setup=setup)
            made.append({"code": session.code, "token": token, "session": store.session_key, "moves": moves})
        return made

    plan = {
        "host": f"http://127.0.0.1:{PORT}",
        "tables": {
            "open_site": tables(args.posters),
            "open_baseline": tables(args.posters),
            "closed_site": tables(50 * 8),
            "closed_baseline": tables(50),
        },
    }
    # (d): a table with 1 log entry, one with 150 (a real game whose first moves were undone and entered again)
    setup, moves = games[2]  # 105 moves: with 25 of them undone and entered again, the log reaches 150
    short = services.session_create(game="shitenno", created_by=users[0], players=players, setup=setup)
    services.move_record(session=short, seq=0, move=moves[0], user=users[0])
    long = services.session_create(game="shitenno", created_by=users[0], players=players, setup=setup)
    seq, i = 0, 0
    while seq < 150:
        services.move_record(session=long, seq=seq, move=moves[i], user=users[0])
        seq += 1
        if i < 25 and seq < 150:
            services.move_undo(session=long, seq=seq, user=users[0])
            services.move_record(session=long, seq=seq + 1, move=moves[i], user=users[0])
            seq += 2
        i += 1
    plan["probe"] = {"short": short.code, "long": long.code, "long_seq": seq, "session": store.session_key}
    return plan


def start_gunicorn(workers: int) -> subprocess.Popen:
    env = dict(
        os.environ,
        DEBUG="0",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=os.environ["DATABASE_URL"],
        CELERY_BROKER_URL=REDIS,
        CACHE_URL=CACHE,
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="bench_settings",
        PYTHONPATH=f"{ROOT / 'bench'}:{ROOT}",
    )
    env["BENCH_STATIC_ROOT"] = str(Path(tempfile.gettempdir()) / "bench_load_static")
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    log = open(Path(tempfile.gettempdir()) / f"bench_load_gunicorn_{PORT}.log", "w")
    process = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "shitenno_site.wsgi",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{PORT}",
            "--backlog",
            "2048",
            "--timeout",
            "30",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if get("/healthz")[0] < 500:
                return process
        except OSError:
            time.sleep(0.3)
    stop(process)
    raise SystemExit("gunicorn did not answer in 30 s; see " + log.name)


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def get(path: str, headers: dict | None = None, conn: http.client.HTTPConnection | None = None) -> tuple[int, float]:
    conn = conn or http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
    start = time.perf_counter()
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    response.read()
    return response.status, (time.perf_counter() - start) * 1000


def run_phase(plan_file: str, phase: dict) -> tuple[list[list], float]:
    """The phase's records, and the share of one core the generator itself used."""
    env = dict(os.environ, LOAD_PLAN=plan_file, LOAD_PHASE=json.dumps(phase))
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench/_load_users.py")],
        env=env,
        capture_output=True,
        text=True,
        timeout=phase["seconds"] + 120,
        check=True,
    )
    answer = json.loads(out.stdout)
    return answer["records"], answer["cpu_seconds"] / answer["wall_seconds"]


def timeline(records: list[list], kind: str, warmup: float, seconds: float, step: float = 10) -> str:
    """p95 per `step` seconds: shows whether a high percentile is steady queueing or a few bursts."""
    windows = []
    start = warmup
    while start < warmup + seconds:
        ms = sorted(r[2] for r in records if r[1] == kind and start <= r[0] < start + step)
        windows.append(f"{ms[int(0.95 * len(ms))]:.0f}" if ms else "-")
        start += step
    return " ".join(windows)


def summary(records: list[list], kind: str, warmup: float, seconds: float) -> dict:
    rows = [r for r in records if r[1] == kind and warmup <= r[0] < warmup + seconds]
    ms = sorted(r[2] for r in rows)

    def pct(p: float) -> float:
        return ms[min(len(ms) - 1, int(p / 100 * len(ms)))] if ms else float("nan")

    return {
        "n": len(rows),
        "ok": sum(r[3] in (200, 201, 204) for r in rows),
        "5xx": sum(r[3] >= 500 for r in rows),
        "other": sum(r[3] not in (200, 201, 204) and r[3] < 500 for r in rows),
        "per_s": sum(r[3] == 201 for r in rows) / seconds,
        "p50": pct(50),
        "p95": pct(95),
        "p99": pct(99),
    }


def probe(plan: dict, n: int) -> dict[str, dict]:
    """Sequential requests on one kept-alive connection each, interleaved, on an idle server."""
    p = plan["probe"]
    cookie = {"Cookie": f"sessionid={p['session']}", "HX-Request": "true"}
    cases = {
        "poll, not modified (204)": (f"/tables/{p['long']}/live/?seq={p['long_seq']}", cookie),
        "poll, unknown table (404)": ("/tables/no-such-table/live/?seq=1", cookie),
        "unrouted address (404)": ("/no/such/page/", cookie),
        "live fragment, 1-entry log": (f"/tables/{p['short']}/live/?seq=0", cookie),
        "live fragment, 150-entry log": (f"/tables/{p['long']}/live/?seq=0", cookie),
        "table page, 1-entry log": (f"/tables/{p['short']}/", {"Cookie": cookie["Cookie"]}),
        "table page, 150-entry log": (f"/tables/{p['long']}/", {"Cookie": cookie["Cookie"]}),
    }
    conns = {name: http.client.HTTPConnection("127.0.0.1", PORT, timeout=10) for name in cases}
    times: dict[str, list[float]] = {name: [] for name in cases}
    statuses: dict[str, set] = {name: set() for name in cases}
    # A new order each round: a request right after the 14 ms table page costs more (that page's worker is still
    # finishing on one of the 2 cores): the same 204 measured 2.21 ms there, 1.88 ms after a 404. In a fixed order
    # the not-modified poll always came right after the page, and its ratio to the 404 carried that (2026-11-26).
    order, shuffled = list(cases), random.Random(18)
    for _ in range(n):
        shuffled.shuffle(order)
        for name in order:
            path, headers = cases[name]
            try:
                status, ms = get(path, headers, conns[name])
            except (http.client.HTTPException, OSError):  # gunicorn's sync workers close kept-alive sockets
                conns[name] = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
                status, ms = get(path, headers, conns[name])
            times[name].append(ms)
            statuses[name].add(status)
    return {
        name: {"median": statistics.median(t), "mean": statistics.fmean(t), "status": sorted(statuses[name])}
        for name, t in times.items()
    }


def ratios(args, results: dict, probes: dict) -> str:
    """Issue 18's ratios, each against a floor measured in the same run, judged only when the floor itself was
    not saturated: the baseline endpoint kept the open loop's rate (>= 97% accepted) with p95 <= 50 ms. When it
    did not, the machine (shared by the site, PostgreSQL and the phones) was past its capacity, and a ratio
    says more about the hour than about the code."""
    base_open = results["open baseline move"]
    offered = args.rate * args.seconds
    kept_up = base_open["per_s"] * args.seconds >= 0.97 * offered and base_open["p95"] <= 50
    site, base = results["closed site move"], results["closed baseline move"]
    floor = probes["unrouted address (404)"]["median"]
    rows = [
        ("closed-loop accepted moves/s, site / baseline", site["per_s"] / base["per_s"], ">=", 0.85),
        (
            "changed poll (live fragment) / unrouted 404",
            probes["live fragment, 1-entry log"]["median"] / floor,
            "<=",
            2.5,
        ),
        ("not-modified poll (204) / unrouted 404", probes["poll, not modified (204)"]["median"] / floor, "<=", 1.2),
    ]
    lines = [
        f"RATIOS (issue 18), same run; floor not saturated: {'yes' if kept_up else 'NO'} (baseline open loop "
        f"{base_open['per_s']:.1f} of {args.rate:.0f} moves/s, p95 {base_open['p95']:.1f} ms)"
    ]
    for label, value, sense, target in rows:
        met = value >= target if sense == ">=" else value <= target
        verdict = ("met" if met else "missed") if kept_up else "not judged: the floor was saturated"
        lines.append(f"  {label:<48} {value:5.2f}  (target {sense} {target}): {verdict}")
    lines.append(f"  (site {site['per_s']:.1f}/s vs baseline {base['per_s']:.1f}/s; unrouted 404 {floor:.2f} ms)")
    return "\n".join(lines)


FIRST_SECONDS = 10  # the start of the open loop on a server just started: what every deploy pays


def first_seconds(args, results: dict, starts: dict) -> str:
    """The open loop's first FIRST_SECONDS on a server just started (before the warm-up that summary() leaves out),
    judged against target (a)'s p95 <= 50 ms with the baseline's own first seconds beside it, and only when the
    floor was not saturated (as `ratios`). Before shitenno_site/warmup.py each worker imported the URLconf and
    compiled the templates on its first requests: the site's p95 was 402 and 1,051 ms here (issue 28)."""
    base_open = results["open baseline move"]
    kept_up = base_open["per_s"] * args.seconds >= 0.97 * args.rate * args.seconds and base_open["p95"] <= 50
    site, base = starts["site"], starts["baseline"]
    verdict = ("met" if site["p95"] <= 50 and site["5xx"] == 0 else "missed") if kept_up else "not judged"
    return (
        f"FIRST {FIRST_SECONDS} S after the server starts, open loop moves: site p95 {site['p95']:.1f} ms, "
        f"p99 {site['p99']:.1f} ms, {site['5xx']} 5xx (target p95 <= 50 ms, 0 5xx): {verdict}; baseline's first "
        f"{FIRST_SECONDS} s p95 {base['p95']:.1f} ms, p99 {base['p99']:.1f} ms ({site['n']} and {base['n']} moves)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rate", type=float, default=100, help="open-loop moves/s (default 100)")
    parser.add_argument("--posters", type=int, default=200, help="tables (one posting phone each) in (a)")
    parser.add_argument("--pollers", type=int, default=200, help="polling phones in (a), every 1.5 s")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (default 4)")
    args = parser.parse_args()
    print(
        f"load average before: {Path('/proc/loadavg').read_text().split()[:3]} (PostgreSQL, gunicorn, the load"
        " and anything else running share this machine's cores)"
    )
    plan = prepare(args)
    plan_file = Path(tempfile.gettempdir()) / "bench_load_plan.json"
    plan_file.write_text(json.dumps(plan))
    total = args.warmup + args.seconds
    results: dict[str, dict] = {}
    starts: dict[str, dict] = {}
    generator: dict[str, float] = {}
    timelines: dict[str, str] = {}
    server = None
    try:
        for target in ("site", "baseline"):
            # each target's open loop begins on a server just started, so that both pay a start (a deploy)
            if server is not None:
                stop(server)
            server = start_gunicorn(args.workers)
            records, generator[f"open {target}"] = run_phase(
                str(plan_file),
                {
                    "target": target,
                    "mode": "open",
                    "tables": f"open_{target}",
                    "posters": args.posters,
                    "pace": args.posters / args.rate,
                    "pollers": args.pollers,
                    "poll_pace": 1.5,
                    "seconds": total,
                },
            )
            starts[target] = summary(records, "move", 0, FIRST_SECONDS)
            results[f"open {target} move"] = summary(records, "move", args.warmup, args.seconds)
            results[f"open {target} poll"] = summary(records, "poll", args.warmup, args.seconds)
            timelines[f"open {target} move"] = timeline(records, "move", args.warmup, args.seconds)
            records, generator[f"closed {target}"] = run_phase(
                str(plan_file),
                {"target": target, "mode": "closed", "tables": f"closed_{target}", "posters": 50, "seconds": total},
            )
            results[f"closed {target} move"] = summary(records, "move", args.warmup, args.seconds)
        probes = probe(plan, 300)
    finally:
        if server is not None:
            stop(server)

    print(ratios(args, results, probes))
    print(first_seconds(args, results, starts))
    print(
        f"\nLoad on 127.0.0.1, gunicorn {args.workers} sync workers, DEBUG=0, PostgreSQL;"
        f" {args.seconds:.0f} s measured per phase"
    )
    print(
        f"(a) open loop: {args.rate:.0f} moves/s from {args.posters} tables + {args.pollers} phones polling every 1.5 s"
    )
    print("(b) closed loop: 50 connections posting moves as fast as they can\n")
    print(
        f"{'phase':<24}{'requests':>9}{'2xx':>7}{'5xx':>6}{'other':>7}{'201/s':>8}{'p50 ms':>9}{'p95 ms':>9}"
        f"{'p99 ms':>9}"
    )
    for name, s in results.items():
        print(
            f"{name:<24}{s['n']:>9}{s['ok']:>7}{s['5xx']:>6}{s['other']:>7}{s['per_s']:>8.1f}{s['p50']:>9.1f}"
            f"{s['p95']:>9.1f}{s['p99']:>9.1f}"
        )
    site, base = results["open site move"], results["open baseline move"]
    print(
        f"\nratio site / baseline, open loop: p50 {site['p50'] / base['p50']:.2f},"
        f" p95 {site['p95'] / base['p95']:.2f}, p99 {site['p99'] / base['p99']:.2f}"
    )
    print("targets: (a) p95 <= 50 ms, p99 <= 150 ms, zero 5xx; (b) >= 250 accepted moves/s")
    for name, line in timelines.items():
        print(f"{name}, p95 ms per 10 s: {line}")
    print("the load generator's own CPU, share of one core: " + ", ".join(f"{k} {v:.0%}" for k, v in generator.items()))
    print("\n(d) one request at a time on an idle server (300 each, interleaved)")
    for name, s in probes.items():
        print(f"  {name:<30} median {s['median']:6.2f} ms  mean {s['mean']:6.2f} ms  status {s['status']}")
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    main()
