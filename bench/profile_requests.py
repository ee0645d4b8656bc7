"""Where a request's time goes: cProfile over the requests bench/load.py times, run in this process through
Django's WSGI handler (every middleware, DEBUG=0, PostgreSQL, the Redis cache and cached_db sessions), with no
server or network in between.

Run: `.venv/bin/python bench/profile_requests.py [--requests 400] [--top 25]` (database shitenno_bench_profile,
Redis db 10 unless BENCH_CACHE_URL says another). For each kind of request it prints the mean wall time per
request and the functions with the most cumulative time; bench/README.md summarises what it showed.
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.update(
    DEBUG="0",
    SECRET_KEY="bench-only-secret-key-" + "x" * 40,
    ALLOWED_HOSTS="127.0.0.1",
    SECURE_SSL_REDIRECT="0",
    DJANGO_SETTINGS_MODULE="bench_settings",
    CACHE_URL=os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/10"),
    BENCH_STATIC_ROOT=str(Path(tempfile.gettempdir()) / "bench_profile_static"),
)
sys.path.insert(0, str(ROOT / "bench"))

import _django  # noqa: E402

_django.setup("shitenno_bench_profile")

from django.core.cache import cache  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402


def prepare() -> dict:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.cached_db import SessionStore
    from rest_framework.authtoken.models import Token

    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues.people.players import player_for_user, user_sign_up

    cache.clear()
    user = user_sign_up(username="phone0", email="p0@example.org", password="bench passphrase 42")
    others = [
        user_sign_up(username=f"phone{i}", email=f"p{i}@example.org", password="bench passphrase 42")
        for i in range(1, 4)
    ]
    players = [player_for_user(u) for u in [user, *others]]
    store = SessionStore()
    store.update(
        {
            SESSION_KEY: str(others[0].pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: others[0].get_session_auth_hash(),
        }
    )
    store.create()
    games = [random_legal_game(seed, 4) for seed in range(4)]
    tables = []
    for i in range(41):  # 20 for the site's move posts, 20 for the baseline's, 1 polled
        setup, moves = games[i % len(games)]
        session = services.session_create(game="shitenno", created_by=user, players=players, setup=setup)
        tables.append({"code": session.code, "moves": moves})
    return {"token": Token.objects.create(user=user).key, "session": store.session_key, "tables": tables}


def wsgi_call(app, method: str, path: str, headers: dict, body: bytes = b"") -> int:
    """One request through the WSGI handler in this process, its body read to the end; its status code."""
    answer = {}
    chunks = app(environ(method, path, headers, body), lambda status, hdrs, exc=None: answer.update(s=status))
    b"".join(chunks)
    getattr(chunks, "close", lambda: None)()
    return int(answer["s"].split()[0])


def mover(call, token: dict, position: dict, target: str, tables: list, *, game_over):
    """Request i posts the next move of table i (round the tables) to the site's API or the baseline endpoint, and
    returns its status; `position` keeps each table's next seq. A table whose game is over answers `game_over`
    without a request."""

    def one(i):
        table = tables[i % len(tables)]
        seq = position[table["code"]]
        if seq >= len(table["moves"]):
            return game_over
        path = f"/bench/baseline/{table['code']}/" if target == "baseline" else f"/api/tables/{table['code']}/moves/"
        status = call("POST", path, token, json.dumps({"seq": seq, "move": table["moves"][seq]}).encode())
        if status == 201:
            position[table["code"]] = seq + 1
        return status

    return one


def environ(method: str, path: str, headers: dict, body: bytes = b"") -> dict:
    path, _sep, query = path.partition("?")
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "HTTP_HOST": "127.0.0.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.errors": sys.stderr,
    }
    for name, value in headers.items():
        key = name.upper().replace("-", "_")
        env[key if key == "CONTENT_TYPE" else f"HTTP_{key}"] = value
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--top", type=int, default=25, help="profile lines per kind (0: time only)")
    parser.add_argument("--only", default="", help="profile only the kinds whose name contains this")
    parser.add_argument("--sort", default="cumulative", help="cumulative (default) or tottime")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="profile this process's CPU time (time.process_time) instead of wall time: the waits "
        "for PostgreSQL and Redis drop out, and other work on the machine matters less",
    )
    args = parser.parse_args()
    call_command("collectstatic", "--noinput", verbosity=0)
    plan = prepare()
    app = WSGIHandler()

    def call(method, path, headers, body=b""):
        return wsgi_call(app, method, path, headers, body)

    token = {"Authorization": f"Token {plan['token']}", "Content-Type": "application/json"}
    cookie = {"Cookie": f"sessionid={plan['session']}", "HX-Request": "true"}
    site_tables, base_tables = plan["tables"][:20], plan["tables"][20:40]
    position = {t["code"]: 0 for t in plan["tables"]}

    def move(target: str, tables: list):
        return mover(call, token, position, target, tables, game_over=201)  # the site waits; counted as done

    polled = plan["tables"][40]["code"]  # nobody moves there: its body is rendered once, then cached

    def poll(changed: bool):
        def one(i):
            head = position[polled]
            return call("GET", f"/tables/{polled}/live/?seq={head + 1 if changed else head}", cookie)

        return one

    kinds = {
        "unrouted 404": lambda i: call("GET", "/no/such/page/", cookie),
        "poll, not modified (204)": poll(False),
        "poll, changed (200, body cached)": poll(True),
        "baseline move post (DRF)": move("baseline", base_tables),
        "site move post (API)": move("site", site_tables),
    }
    kinds = {name: one for name, one in kinds.items() if args.only in name}
    for one in kinds.values():
        for i in range(20):  # warm: connections, caches, templates
            one(i)
    times: dict[str, list[float]] = {name: [] for name in kinds}
    statuses: dict[str, set] = {name: set() for name in kinds}
    for i in range(args.requests):  # interleaved, so that the machine's changing speed is shared alike
        for name, one in kinds.items():
            start = time.perf_counter()
            statuses[name].add(one(i))
            times[name].append((time.perf_counter() - start) * 1000)
    print("median ms per request, unprofiled, interleaved:")
    floor = statistics.median(times["unrouted 404"]) if "unrouted 404" in times else None
    for name, ms in times.items():
        ratio = f"  = {statistics.median(ms) / floor:.2f}x the 404" if floor else ""
        print(f"  {name:<36} {statistics.median(ms):6.2f}{ratio}  statuses {sorted(statuses[name])}")
    if args.top:
        for name, one in kinds.items():
            profile = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
            profile.enable()
            for i in range(args.requests):
                one(i)
            profile.disable()
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(args.sort).print_stats(args.top)
            print(f"\n=== {name} (profiled) ===")
            print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


if __name__ == "__main__":
    main()
