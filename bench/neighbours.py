"""Issue 46, "Done means": no club can slow another. Club A's worst-case work against club B's table and result, on
the site as the README's production section runs it, and B's figures beside B alone in the same run.

Run: `.venv/bin/python bench/neighbours.py [--quick] [--database NAME] [--broker URL] [--cache URL] [--port N]`

It drops and makes its database afresh (`--database`, default NEIGHBOURS_DATABASE or
shitenno_bench_neighbours_site), flushes the two Redis databases it is given (`--broker`, default
NEIGHBOURS_BROKER_URL or redis://127.0.0.1:6379/2, and `--cache`, NEIGHBOURS_CACHE_URL or .../3: name others when
those are in use; nothing else is flushed), and starts in a temporary directory, each in its own
process group, stopped at the end: gunicorn with the site's production configuration (`shitenno_site.gunicorn`:
gthread, `--web-workers` workers x 8 threads, DEBUG=0) on `--port`, the default queue's Celery worker
(`-Q celery --concurrency 2 -n default@%h`), the heavy queue's (`-Q heavy --concurrency 1 -n heavy@%h`) and one
beat, as the README starts them (docs/operations.md, "Workers, queues and a supervisor").

The data, made before the site starts (ORM): club A ("Bench Club") with 100 guests and the attack's season
(`neighbours_pairs.build`: `--season-plays` results of all 100 players, 100,000 entries at full size: what A's
nights read and its export writes), an owner with a token and a second season for the import; two nights of that
season with 12 of the guests checked in each (through the API, once the site answers); club B, private, four
accounts with tokens, a league and a season of today, and one Shitennō table per phase.

1. B alone: B's first phone posts `--moves` moves of a legal game through the API (`POST /api/tables/<code>/moves/`,
   `--pause` s apart, as players tap); the p50 and p95 of those answers. Then a result of B's four players is
   entered (`POST /api/results/`) and signed off by the other three; the time from the last sign-off's answer until
   the worker has rated it (one rating-history row per player in the league's scope: B's club is
   private, as the issue's was, so its results move no site-wide game rating).
2. B beside A: the same for B (a new table, a new result) while A, through the entry points a person uses, uploads
   a BG Stats file of `--import-plays` plays on the import page, opens its preview and commits it (a job on the
   heavy queue, then the re-rate it asks for), asks both nights for tables at once (`POST /api/nights/<id>/rounds/`)
   and asks for its export (`/clubs/<slug>/export/<kind>/`: the heavy queue makes the file, then it is
   downloaded). B's result is signed once A's import job is running (or over). Each of A's steps is printed with
   its start and end in the phase.
3. The chances read at 80 and at 1,080 scopes (`neighbours_partitions.measure`, in the same database, the site
   stopped): a table's chances query as the site reads it (a literal scope), and beside it the old form (the scope
   from OuterRef, which PostgreSQL plans over every partition).

The import: the issue's attack imported 1,000 plays x 100 players. Since issue 50 a play with more players than its
game allows is skipped at the preview (Shitennō seats 2-4), so that file writes nothing today; the benchmark
imports the same 100,000 players' places as Shitennō plays of 4 (`--import-plays` 25,000 among 100 players, dated
2021-2024): an import the page accepts today, with as many places. The attack's 100-player results
are in the season the nights read (made by the ORM, as they were before issue 50).

Targets (issue 46): B's move p95 beside A <= 1.5x B alone; B's result rated within 30 s beside A; the chances read
at 1,080 scopes <= 1.3x at 80. Printed in one table with whether each is met; exit 0 whether they are met or not,
2 when the run does not count (one of A's steps failed, A's import job did not end done, or B's result was never
rated).
"""

import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _django  # noqa: E402
import imports as import_bench  # noqa: E402
import neighbours_pairs  # noqa: E402
import neighbours_partitions  # noqa: E402
from _neighbours_club_a import Steps, a_export, a_import, a_proposal  # noqa: E402
from _neighbours_site import PASSWORD, LockWaits, Site, load, say  # noqa: E402
from _scale_stack import call  # noqa: E402

MOVE_P95_TARGET = 1.5  # x B alone
RATED_TARGET = 30.0  # s
CHANCES_TARGET = 1.3  # x at 80 scopes
STARTED = time.monotonic()


# --- the data ---------------------------------------------------------------------------------------------------


def account(username: str):
    from rest_framework.authtoken.models import Token

    from leagues.people.players import player_for_user, user_sign_up

    user = user_sign_up(username=username, email=f"{username}@example.org", password=PASSWORD)
    return user, player_for_user(user), Token.objects.create(user=user).key


def build(args) -> dict:
    """Club A (the attack's season, its guests, an owner, a season for the import) and club B (four accounts, a
    league and a season of today, a table per phase)."""
    from django.utils import timezone

    from games import services
    from games.engines.shitenno.simulation import random_legal_game
    from leagues.club import clubs, seasons
    from leagues.models import Membership

    night, guests, _strangers = neighbours_pairs.build(
        SimpleNamespace(plays=args.season_plays, players=100, at_play=100, guests=12)
    )
    season_a = night.season
    club_a = season_a.league.club
    owner, owner_player, owner_token = account("a-owner")
    Membership.objects.create(club=club_a, player=owner_player, role=Membership.Role.OWNER)
    seasons.season_create(
        league=season_a.league,
        name="Imported",
        starts_on=datetime.date(2021, 1, 1),
        ends_on=datetime.date(2024, 12, 31),
        user=owner,
    )

    b_accounts = [account(f"b-phone{i}") for i in range(4)]
    club_b = clubs.club_create(name="Neighbour B", owner=b_accounts[0][0])
    for user, _player, _token in b_accounts[1:]:
        clubs.club_join(token=club_b.invite_token, user=user)
    league_b = seasons.league_create(club=club_b, name="B League", games=["shitenno"], user=b_accounts[0][0])
    today = timezone.localdate()
    season_b = seasons.season_create(
        league=league_b,
        name="Now",
        starts_on=today - datetime.timedelta(days=30),
        ends_on=today + datetime.timedelta(days=30),
        user=b_accounts[0][0],
    )
    players_b = [p for _u, p, _t in b_accounts]
    tables = []
    for seed in (1, 2):
        setup, moves = random_legal_game(seed, 4)
        if len(moves) < args.moves:
            raise SystemExit(f"the game of seed {seed} has {len(moves)} moves, fewer than --moves {args.moves}")
        session = services.session_create(
            game="shitenno", created_by=b_accounts[0][0], players=players_b, setup=setup, is_public=False
        )
        tables.append({"code": session.code, "moves": moves})
    return {
        "club_a": club_a,
        "season_a": season_a,
        "guests": guests,
        "owner_token": owner_token,
        "b_tokens": [t for _u, _p, t in b_accounts],
        "b_players": [p.pk for p in players_b],
        "season_b": season_b.pk,
        "tables": tables,
    }


def open_nights(port: int, plan: dict) -> list[int]:
    """Two nights of A's season, 12 guests checked in to each by the owner, through the API."""
    nights = []
    for n, date in enumerate(("2020-06-01", "2020-06-02")):
        answer = call(
            port,
            "POST",
            f"/api/seasons/{plan['season_a'].pk}/nights/",
            token=plan["owner_token"],
            body={"date": date, "games": ["shitenno"], "table_sizes": [3, 4]},
        )
        if answer.status != 201:
            raise SystemExit(f"night not opened: {answer.status} {answer.body[:300]!r}")
        night = answer.json()["id"]
        for player in plan["guests"][n * 12 : (n + 1) * 12]:
            checked = call(
                port, "POST", f"/api/nights/{night}/check-in/", token=plan["owner_token"], body={"player": player}
            )
            if checked.status not in (200, 201):
                raise SystemExit(f"check-in refused: {checked.status} {checked.body[:300]!r}")
        nights.append(night)
    return nights


# --- club B: moves and a result --------------------------------------------------------------------------------


def b_moves(
    port: int, plan: dict, table: dict, moves: int, pause: float, overlap=None
) -> tuple[list[float], int, list[tuple[float, float]]]:
    """Seconds each of `moves` move posts took, one phone, `pause` s apart; how many of them were sent while
    `overlap()` said A's work was under way; and each one's (sent, answered) on the monotonic clock."""
    times, during, spans = [], 0, []
    for seq in range(moves):
        during += bool(overlap and overlap())
        sent, start = time.monotonic(), time.perf_counter()
        answer = call(
            port,
            "POST",
            f"/api/tables/{table['code']}/moves/",
            token=plan["b_tokens"][0],
            body={"seq": seq, "move": table["moves"][seq]},
            key=uuid.uuid4().hex,
        )
        times.append(time.perf_counter() - start)
        spans.append((sent, time.monotonic()))
        if answer.status != 201:
            raise SystemExit(f"B's move {seq + 1} answered {answer.status}: {answer.body[:300]!r}")
        time.sleep(pause)
    return times, during, spans


def b_result(port: int, plan: dict, before_last=None, rated_timeout: float = 300) -> tuple[float | None, int]:
    """Enter a result of B's four players, sign it off by the other three; seconds from the last sign-off's answer
    until the worker has rated it (None: not within `rated_timeout`), and its id. `before_last` runs (waits)
    before the last sign-off."""
    from django.utils import timezone

    from leagues.models import RatingEvent

    tokens, players = plan["b_tokens"], plan["b_players"]
    entered = call(
        port,
        "POST",
        "/api/results/",
        token=tokens[0],
        body={
            "game": "shitenno",
            "played_on": timezone.localdate().isoformat(),
            "season": plan["season_b"],
            "entries": [{"player": p, "rank": r + 1, "score": 80 - 10 * r} for r, p in enumerate(players)],
        },
    )
    if entered.status != 201:
        raise SystemExit(f"B's result answered {entered.status}: {entered.body[:300]!r}")
    result = entered.json()["id"]
    for signer in (1, 2):
        call(port, "POST", f"/api/results/{result}/sign-off/", token=tokens[signer], body={"agreed": True})
    if before_last:
        before_last()
    signed = call(port, "POST", f"/api/results/{result}/sign-off/", token=tokens[3], body={"agreed": True})
    signed_at = time.monotonic()
    if signed.status not in (200, 201):
        raise SystemExit(f"B's last sign-off answered {signed.status}: {signed.body[:300]!r}")
    # one history row per player in the league's scope (B's club is private, as the issue's: its results do not
    # move the site-wide game ratings)
    while time.monotonic() - signed_at < rated_timeout:
        if RatingEvent.objects.filter(result_id=result, kind="league").count() >= len(players):
            return time.monotonic() - signed_at, result
        time.sleep(0.1)
    return None, result


def quantile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[round(q * 100) - 1] if len(values) > 1 else values[0]


# --- the run --------------------------------------------------------------------------------------------------


def phase_b(port: int, plan: dict, table: dict, args, overlap=None, before_last=None) -> dict:
    times, during, spans = b_moves(port, plan, table, args.moves, args.pause, overlap)
    rated, result = b_result(port, plan, before_last, args.rated_timeout)
    return {
        "p50": statistics.median(times),
        "p95": quantile(times, 0.95),
        "max": max(times),
        "during": during,
        "rated": rated,
        "result": result,
        "spans": spans,
    }


def show_b(name: str, figures: dict, moves: int) -> None:
    rated = "NOT rated" if figures["rated"] is None else f"rated {figures['rated']:.2f} s after its last sign-off"
    say(
        f"  {name}: {moves} moves p50 {figures['p50'] * 1000:.1f} ms, p95 {figures['p95'] * 1000:.1f} ms, max "
        f"{figures['max'] * 1000:.1f} ms ({figures['during']} sent while A's work ran); result {figures['result']} "
        f"{rated}; load {load()}"
    )


def show_cpu(before: dict[str, float], after: dict[str, float], wall: float) -> None:
    used = ", ".join(f"{name} {after[name] - before[name]:.1f} s" for name in after)
    say(
        f"  CPU of the site's processes over the phase's {wall:.1f} s (to B's result rated; PostgreSQL not counted): "
        f"{used}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="small sizes to try it in a few minutes (season 100 x 100, import 2,500 plays, 20 moves,"
        " 80 and 280 scopes); not the issue's sizes",
    )
    parser.add_argument("--database", default=os.environ.get("NEIGHBOURS_DATABASE", "shitenno_bench_neighbours_site"))
    parser.add_argument(
        "--broker",
        default=os.environ.get("NEIGHBOURS_BROKER_URL", "redis://127.0.0.1:6379/2"),
        help="flushed at the start",
    )
    parser.add_argument(
        "--cache",
        default=os.environ.get("NEIGHBOURS_CACHE_URL", "redis://127.0.0.1:6379/3"),
        help="flushed at the start",
    )
    parser.add_argument("--port", type=int, default=18290)
    parser.add_argument("--web-workers", type=int, default=4, help="gunicorn workers (README: 4, 8 threads each)")
    parser.add_argument(
        "--heavy-nice",
        type=int,
        default=0,
        help="run the heavy queue's worker under nice -n N (the README does not: 0; bench/HISTORY.md, "
        "2026-12-06, found no clear gain from 10)",
    )
    parser.add_argument("--season-plays", type=int, help="results of 100 players in A's season (1,000)")
    parser.add_argument("--import-plays", type=int, help="4-player plays in A's import (25,000)")
    parser.add_argument("--moves", type=int, help="B's moves per phase (60)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between B's moves")
    parser.add_argument("--export", default="csv", choices=["csv", "bgstats", "bgg"])
    parser.add_argument("--scopes", type=int, nargs=2, help="the chances read at these scope counts (80 1080)")
    parser.add_argument("--runs", type=int, default=15, help="reads per chances median")
    parser.add_argument("--rated-timeout", type=float, default=300)
    parser.add_argument("--a-timeout", type=float, default=900, help="how long A's import and re-rate are watched")
    parser.add_argument(
        "--a-wait",
        type=float,
        default=300,
        help="how long A's steps still running are waited for once B is done (then the site stops)",
    )
    args = parser.parse_args()
    quick = args.quick
    args.season_plays = args.season_plays or (100 if quick else 1000)
    args.import_plays = args.import_plays or (2500 if quick else 25000)
    args.moves = args.moves or (20 if quick else 60)
    args.scopes = args.scopes or ([80, 280] if quick else [80, 1080])

    say(
        f"neighbours: {'quick' if quick else 'full'} run; load {load()} on {os.cpu_count()} cores; A's season "
        f"{args.season_plays:,} results x 100 players, A's import {args.import_plays:,} plays x 4, B {args.moves} "
        f"moves a phase {args.pause} s apart, {args.export} export, chances at {args.scopes[0]} and {args.scopes[1]}"
    )
    tmp = Path(tempfile.mkdtemp(prefix="neighbours_"))
    tmp.chmod(0o755)
    site = Site(args, tmp)
    collecting = site.collect_static()
    os.environ.pop("CACHE_URL", None)  # this process reads the database; the site's cache is --cache
    _django.setup(args.database)
    import redis

    for url in (args.broker, args.cache):  # before any worker binds its queue
        redis.Redis.from_url(url).flushdb()
    data = import_bench.backup(args.import_plays, players=100, at_play=4, start=datetime.date(2021, 1, 1))
    built = time.monotonic()
    plan = build(args)
    say(f"data made in {time.monotonic() - built:.0f} s; import file {len(data) / 2**20:.1f} MiB")
    if collecting.wait() != 0:
        raise SystemExit("collectstatic failed")
    figures: dict = {}
    try:
        site.start()
        site.ready()
        port = site.web_ports[0]
        nights = open_nights(port, plan)
        say(
            f"site up ({time.monotonic() - STARTED:.0f} s): gunicorn :{port} ({args.web_workers} gthread workers), "
            f"workers default (celery, 2) and heavy (heavy, 1, nice {args.heavy_nice}), beat; logs in {tmp}"
        )

        say("\n1. B alone")
        cpu, wall = site.cpu(), time.monotonic()
        with LockWaits() as waits:
            alone = phase_b(port, plan, plan["tables"][0], args)
        show_b("B alone", alone, args.moves)
        show_cpu(cpu, site.cpu(), time.monotonic() - wall)
        say(f"  {waits.said()}")

        say("\n2. B beside A's worst case")
        cpu, wall = site.cpu(), time.monotonic()
        steps, state = Steps(), {"job_running": False, "job_seen": False}
        threads = [
            threading.Thread(target=a_import, args=(port, plan, data, steps, state, args.a_timeout), daemon=True),
            *(threading.Thread(target=a_proposal, args=(port, plan, night, steps), daemon=True) for night in nights),
            threading.Thread(target=a_export, args=(port, plan, args.export, steps), daemon=True),
        ]
        for thread in threads:
            thread.start()

        def a_running() -> bool:
            return steps.running()

        def after_import_started() -> None:  # sign while A's import job (or its re-rate) runs, if it ever gets there
            deadline = time.monotonic() + args.a_timeout
            while not (state["job_running"] or state["job_seen"]) and time.monotonic() < deadline:
                time.sleep(0.2)
            state["signed_at"] = time.monotonic() - steps.t0
            state["a_running_at_sign"] = [name for name, (_s, end, _n) in steps.rows.items() if end is None]

        with LockWaits() as waits:
            beside = phase_b(port, plan, plan["tables"][1], args, a_running, after_import_started)
        show_b("B beside A", beside, args.moves)
        show_cpu(cpu, site.cpu(), time.monotonic() - wall)
        say(f"  {waits.said()}")
        say(
            f"  B's last sign-off at {state['signed_at']:.1f} s, while A ran: "
            f"{', '.join(state['a_running_at_sign']) or 'nothing'}"
        )
        waited_until = time.monotonic() + args.a_wait  # A's re-rate may go on long after B is done
        for thread in threads:
            thread.join(timeout=max(0.0, waited_until - time.monotonic()))
        say("  A's steps (s from the phase's start):")
        for name, (start, end, note) in steps.rows.items():
            say(f"    {name:45} {start:7.1f} -> {'running' if end is None else f'{end:7.1f}'}  {note}")
        say("  B's moves answered while each of A's steps ran (a move may fall in several):")
        for name, (start, end, _note) in steps.rows.items():
            stop = steps.t0 + (end if end is not None else float("inf"))
            inside = [(b - a) * 1000 for a, b in beside["spans"] if a < stop and b > steps.t0 + start]
            if inside:
                say(
                    f"    {name:45} {len(inside):3} moves, median {statistics.median(inside):6.1f} ms, "
                    f"max {max(inside):6.1f} ms"
                )
        alone_of_a = [
            (b - a) * 1000
            for a, b in beside["spans"]
            if not any(
                a < steps.t0 + (end if end is not None else float("inf")) and b > steps.t0 + start
                for start, end, _note in steps.rows.values()
            )
        ]
        if alone_of_a:
            say(
                f"    {'(none of them)':45} {len(alone_of_a):3} moves, median {statistics.median(alone_of_a):6.1f} "
                f"ms, max {max(alone_of_a):6.1f} ms"
            )
        figures.update(alone=alone, beside=beside, steps=dict(steps.rows))
    finally:
        site.stop()

    say(f"\n3. The chances read, the site stopped ({args.runs} reads a median)")
    chances = neighbours_partitions.measure(neighbours_partitions.chances_players(), args.scopes, args.runs)

    (few, _old_few, new_few), (many, old_many, new_many) = chances
    alone, beside = figures["alone"], figures["beside"]
    p95_ratio = beside["p95"] / alone["p95"]
    rows = [
        (
            "B's move p50",
            f"{alone['p50'] * 1000:.1f} ms",
            f"{beside['p50'] * 1000:.1f} ms",
            f"{beside['p50'] / alone['p50']:.2f}x",
            "-",
            "-",
        ),
        (
            "B's move p95",
            f"{alone['p95'] * 1000:.1f} ms",
            f"{beside['p95'] * 1000:.1f} ms",
            f"{p95_ratio:.2f}x",
            f"<= {MOVE_P95_TARGET}x",
            "met" if p95_ratio <= MOVE_P95_TARGET else "MISSED",
        ),
        (
            "B's result rated after its last sign-off",
            "not rated" if alone["rated"] is None else f"{alone['rated']:.2f} s",
            "not rated" if beside["rated"] is None else f"{beside['rated']:.2f} s",
            "-",
            f"<= {RATED_TARGET:.0f} s",
            "met" if beside["rated"] is not None and beside["rated"] <= RATED_TARGET else "MISSED",
        ),
        (
            f"chances read, {few} vs {many} partitions",
            _django.ms(new_few),
            _django.ms(new_many),
            f"{new_many / new_few:.2f}x",
            f"<= {CHANCES_TARGET}x",
            "met" if new_many / new_few <= CHANCES_TARGET else "MISSED",
        ),
    ]
    say(f"\nfigures ({'quick' if quick else 'full'} run, {time.monotonic() - STARTED:.0f} s in all, load {load()}):")
    say("| figure | B alone / fewer scopes | B beside A / more scopes | ratio | target | met? |")
    say("|---|---|---|---|---|---|")
    for row in rows:
        say("| " + " | ".join(row) + " |")
    say(
        f"(the chances read with the scope from OuterRef, as before issue 46, at {many} partitions: "
        f"{_django.ms(old_many)})"
    )
    job = "A: import job (heavy queue)"
    unfinished = [
        f"{name}: {note or 'did not end'}"
        for name, (_start, _end, note) in figures["steps"].items()
        if note.startswith("FAILED") or (name == job and not note.startswith("done"))
    ]
    if job not in figures["steps"]:
        unfinished.append(f"{job}: never started")
    if unfinished or alone["rated"] is None or beside["rated"] is None:
        say(f"THE RUN DOES NOT COUNT: {'; '.join(unfinished) or 'a result of B was never rated'}; logs in {tmp}")
        sys.exit(2)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
