"""Issue 3's benchmark: replaying a 4-player game, and posting the 150th log entry vs the 1st, for Shitennō and
beside it Teikoku (a random legal 4-player game long enough for 150 entries).

Run: `bash .ci/services && .venv/bin/python bench/table_moves.py` (uses the database shitenno_bench).
The 150-entry log is a real 4-player game whose first 25 moves were each undone and entered again
(move, undo, move), as happens at a table; the 1st and the 150th entries are both moves.
"""

import argparse
import random
import statistics
import time

import _django

_django.setup()

from django.test import Client  # noqa: E402

from games.engines import get_engine  # noqa: E402
from games.engines.base import replay  # noqa: E402
from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from games.engines.teikoku.random_game import random_legal_game as random_teikoku_game  # noqa: E402
from leagues.people.players import player_for_user, user_sign_up  # noqa: E402

RUNS = 30


def replay_ms(setup: dict, moves: list[dict], game: str = "shitenno") -> float:
    engine = get_engine(game)
    start = time.perf_counter()
    for _ in range(RUNS):
        replay(engine, setup, moves)
    return (time.perf_counter() - start) / RUNS * 1000


def post_times(setup: dict, moves: list[dict], game: str = "shitenno") -> dict[int, float]:
    """ms per log entry, keyed by its sequence number, for one table played through the API."""
    users = [
        user_sign_up(username=f"u{time.monotonic_ns()}{i}", email="b@example.org", password="bench passphrase 42")
        for i in range(4)
    ]
    players = [player_for_user(u).pk for u in users]
    client = Client()
    client.force_login(users[0])
    body = {"game": game, "players": players, "setup": setup}
    code = client.post("/api/tables/", body, content_type="application/json").json()["code"]
    times: dict[int, float] = {}
    seq = 0

    def post(path: str, body: dict) -> None:
        nonlocal seq
        start = time.perf_counter()
        response = client.post(path, body, content_type="application/json")
        times[seq + 1] = (time.perf_counter() - start) * 1000
        assert response.status_code == 201, response.content
        seq += 1

    for i, move in enumerate(moves):
        post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move})
        if i < 25:
            post(f"/api/tables/{code}/undo/", {"seq": seq})
            post(f"/api/tables/{code}/moves/", {"seq": seq, "move": move})
        if seq >= 150:
            break
    return times


def teikoku_game() -> tuple[dict, list[dict]]:
    """The first seeded 4-player Teikoku game with moves enough for 150 log entries (25 of them undone)."""
    for seed in range(100):
        setup, moves = random_teikoku_game(random.Random(seed), 4)
        if len(moves) >= 100:
            return setup, moves
    raise SystemExit("no long enough Teikoku game")


def measure(game: str, name: str, setup: dict, moves: list[dict], tables: int) -> None:
    print(f"{name}, 4-player game: {len(moves)} moves")
    print(f"{name}: replay of the whole game in the engine: {replay_ms(setup, moves, game):.2f} ms")
    firsts, lasts = [], []
    for _table in range(tables):
        times = post_times(setup, moves, game)
        firsts.append(times[1])
        lasts.append(times[150])
    first, last = statistics.median(firsts), statistics.median(lasts)
    print(f"{name}: POST of the 1st log entry (median of {tables} tables): {first:.2f} ms")
    print(f"{name}: POST of the 150th log entry (median of {tables} tables): {last:.2f} ms")
    print(f"{name}: ratio 150th / 1st: {last / first:.2f} (target <= 1.5)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5, help="tables played per game (the median is printed)")
    tables = parser.parse_args().tables
    measure("shitenno", "Shitennō", *random_legal_game(2, 4), tables)
    measure("teikoku", "Teikoku", *teikoku_game(), tables)


if __name__ == "__main__":
    main()
