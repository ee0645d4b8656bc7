"""Issue 18's game statistics page right after one more table finished: does it cost the same at 10, at 1,000 (and
at 100,000) finished tables?

Run: `bash .ci/services && .venv/bin/python bench/game_stats.py [--sizes 10 1000 100000] [--runs 7]`
(database shitenno_bench_game_stats, dropped and re-made each run).

At each size there are that many finished public Shitennō tables (one move-by-move game, entered in bulk) and
ten private tables of the signed-in reader (with `--private-others`, the public tables are strangers' and as many
private tables of strangers are added: the site grows, the reader's own tables stay ten).
Each timed request of /games/shitenno/ follows a table finishing
through the site's own move service (`services.move_record`, timed apart), so whatever the page keeps under a
mark of the tables it sees is cold, as on a busy site where some table finishes all the time: the median of
`--runs` such requests for a visitor who is not signed in and for the signed-in player, their queries, and the
ratio biggest / smallest size (target <= 1.5); then the finishing move's own median time (it keeps the stored
tally). Last, the figures the page shows are checked against the game's own count over every finished table the
reader may see. On the code before games 0006 (no games/stats_store.py) it runs as well, for the comparison.
"""

import argparse
import datetime
import random
import statistics
import sys
import time

import _django

DATABASE = "shitenno_bench_game_stats"
_django.setup(DATABASE)

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Q  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import selectors, services  # noqa: E402
from games.engines import get_engine  # noqa: E402
from games.engines.base import replay  # noqa: E402
from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from games.models import Seat, TableSession  # noqa: E402
from games.plugins import TableRow, get_game  # noqa: E402
from leagues.models import Player  # noqa: E402
from leagues.people.players import player_for_user  # noqa: E402

RNG = random.Random(18)
PRIVATE = 10  # the signed-in reader's own private tables, the same at every size


def stores_rebuilt() -> None:
    """Rows entered in bulk bypass the services, so the stored tallies are rebuilt from scratch (as the nightly job
    does); the code before them kept none."""
    try:
        from games import stats_store
    except ImportError:
        return
    stats_store.tallies_rebuild()


class World:
    def __init__(self) -> None:
        self.engine = get_engine("shitenno")
        self.reader = get_user_model().objects.create_user("reader", "r@example.org", "bench passphrase 42")
        self.stranger = get_user_model().objects.create_user("stranger", "s@example.org", "bench passphrase 42")
        self.private_others = False
        self.strangers: list[int] = []
        self.hero = player_for_user(self.reader)
        self.others = Player.objects.bulk_create(Player(name=f"player {i}") for i in range(3))
        self.games = [random_legal_game(seed, 4) for seed in range(1, 9)]  # a few different finished games
        self.finals = []
        for setup, moves in self.games:
            final = replay(self.engine, setup, moves)
            self.finals.append((setup, self.engine.outcome(final).to_json()))
        self.tables = 0
        self.finishes: list[float] = []  # ms of each finishing move (services.move_record), the tally's writer
        self.bulk(PRIVATE, is_public=False)

    def bulk(self, n: int, *, is_public: bool = True, strangers: bool = False) -> None:
        """n finished tables entered in bulk (the page reads set-ups and outcomes, so the state is left small);
        `strangers`: made by someone else, the reader neither seated nor in their club."""
        made = TableSession.objects.bulk_create(
            (
                TableSession(
                    game="shitenno",
                    rules_version=self.engine.rules_version,
                    setup=setup,
                    state={},
                    outcome=outcome,
                    status=TableSession.Status.FINISHED,
                    created_by=self.stranger if strangers else self.reader,
                    is_public=is_public,
                    head_seq=1,
                    finished_at=datetime.datetime.now(datetime.UTC),
                )
                for setup, outcome in (self.finals[RNG.randrange(len(self.finals))] for _ in range(n))
            ),
            batch_size=2000,
        )
        if strangers:  # four of a thousand strangers at each table, as on a site with many players
            if not self.strangers:
                self.strangers = [
                    p.pk for p in Player.objects.bulk_create(Player(name=f"stranger {i}") for i in range(1000))
                ]
            seated = (RNG.sample(self.strangers, 4) for _ in made)
        else:
            seated = ([self.hero.pk, *(p.pk for p in self.others)] for _ in made)
        Seat.objects.bulk_create(
            (
                Seat(session=s, position=i, player_id=pid)
                for s, players in zip(made, seated, strict=True)
                for i, pid in enumerate(players)
            ),
            batch_size=8000,
        )

    def grow_to(self, n: int) -> None:
        if self.private_others:  # the site grows around the reader: strangers' public and private tables
            self.bulk(n - self.tables, is_public=False, strangers=True)
        self.bulk(n - self.tables, strangers=self.private_others)
        self.tables = n
        stores_rebuilt()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        cache.clear()

    def one_move_from_the_end(self) -> tuple[TableSession, dict]:
        """A public table in play whose next move ends the game."""
        setup, moves = self.games[RNG.randrange(len(self.games))]
        session = services.session_create(
            game="shitenno", created_by=self.reader, players=[self.hero, *self.others], setup=setup
        )
        TableSession.objects.filter(pk=session.pk).update(
            state=replay(self.engine, setup, moves[:-1]), head_seq=len(moves) - 1
        )
        session.refresh_from_db()
        return session, moves[-1]

    def finish_one(self) -> None:
        session, last = self.one_move_from_the_end()
        start = time.perf_counter()
        services.move_record(session=session, seq=session.head_seq, move=last, user=self.reader)
        self.finishes.append((time.perf_counter() - start) * 1000)
        self.tables += 1


def cold(world: World, client: Client, runs: int) -> tuple[float, int]:
    """Median milliseconds of `runs` requests, each right after one more table finished, and the queries of one."""
    times = []
    for _ in range(runs + 1):  # the first one warms the process (imports, templates), not the page's data
        world.finish_one()
        start = time.perf_counter()
        response = client.get("/games/shitenno/")
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.status_code
    world.finish_one()
    with CaptureQueriesContext(connection) as queries:
        client.get("/games/shitenno/")
    return statistics.median(times[1:]), len(queries)


def same_as_a_full_count(viewer) -> bool:
    """The page's figures equal the game's own count over every finished table the viewer may see."""
    cache.clear()
    seen = TableSession.objects.filter(
        game="shitenno", entry=TableSession.Entry.MOVES, status=TableSession.Status.FINISHED
    )
    if not viewer.is_authenticated:
        seen = seen.filter(is_public=True)
    else:
        seen = seen.filter(Q(is_public=True) | Q(created_by=viewer)).distinct()
    full = get_game("shitenno").stats(TableRow(s, o) for s, o in seen.values_list("setup", "outcome"))
    return selectors.game_stats(game="shitenno", viewer=viewer) == full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--private-others",
        action="store_true",
        help="the site grows around the reader: at each size, that many public and that many "
        "private finished tables of strangers (the signed-in reader's page must not grow)",
    )
    args = parser.parse_args()
    sizes = sorted(args.sizes)
    world = World()
    world.private_others = args.private_others
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(world.reader)
    figures: dict[str, dict[int, tuple[float, int]]] = {"not signed in": {}, "signed in (10 private)": {}}
    finishing: dict[int, float] = {}
    for size in sizes:
        start = time.perf_counter()
        world.grow_to(max(size, world.tables))
        print(
            f"grew to {world.tables:,} finished public tables in {time.perf_counter() - start:.1f} s", file=sys.stderr
        )
        world.finishes = []
        figures["not signed in"][size] = cold(world, anonymous, args.runs)
        figures["signed in (10 private)"][size] = cold(world, signed_in, args.runs)
        finishing[size] = statistics.median(world.finishes[2:])  # after each reader's first (warm-up) one
    small, big = sizes[0], sizes[-1]
    print(
        f"\nThe game statistics page right after one more table finished (cold), median of {args.runs} requests "
        f"(ms) and queries; target {big:,} / {small:,} <= 1.5"
    )
    print(f"{'reader':<24}" + "".join(f"{size:>11,} ms{'q':>4}" for size in sizes) + f"{'ratio':>8}  verdict")
    for name, by_size in figures.items():
        ratio = by_size[big][0] / by_size[small][0]
        print(
            f"{name:<24}"
            + "".join(f"{by_size[s][0]:>14.1f}{by_size[s][1]:>4}" for s in sizes)
            + f"{ratio:>8.2f}  {'met' if ratio <= 1.5 else 'missed'}"
        )
    print(
        f"{'finishing move (post)':<24}"
        + "".join(f"{finishing[s]:>14.1f}{'':>4}" for s in sizes)
        + f"{finishing[big] / finishing[small]:>8.2f}  (the move that ends a game, not the page: median)"
    )
    same = same_as_a_full_count(AnonymousUser()) and same_as_a_full_count(world.reader)
    print(f"the page's figures equal the game's own count over every table the reader sees: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
