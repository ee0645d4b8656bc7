"""Issue 18's benchmark: does each page of the site cost the same with 10 and with 1,000 games or players?

Run: `bash .ci/services && .venv/bin/python bench/pages.py [--big 1000] [--small 10] [--runs 7]`
(database shitenno_bench_pages, dropped and re-made each run).

One public club is built at the small size (`--small` members, counted four-player results of one player, rated
players, standings rows, finished Shitennō tables of that player, entries in one table's log), every page is
timed, then everything grows to the big size and every page is timed again: each page's median time (of
`--runs`, after one warm-up request that also fills the caches) and its query count at both sizes, and the
ratio big / small (target <= 1.5). Pages are read by a visitor who is not signed in, through Django's test
client (every middleware, no network), on PostgreSQL with the site's cache.
"""

import argparse
import datetime
import random
import statistics
import sys
import time

import _django

DATABASE = "shitenno_bench_pages"
_django.setup(DATABASE)

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from games import stats_store  # noqa: E402
from games.engines import get_engine  # noqa: E402
from games.engines.base import replay  # noqa: E402
from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from games.models import MoveEvent, Seat, TableSession  # noqa: E402
from leagues.models import Membership, Player, Result, ResultEntry  # noqa: E402
from leagues.rating import store as rating_store  # noqa: E402
from leagues.standings import store as standings_store  # noqa: E402
from leagues.standings import tally as tally_store  # noqa: E402

RNG = random.Random(18)


class World:
    """The club and what grows in it; `grow_to(n)` adds rows until there are n of each."""

    def __init__(self) -> None:
        self.season, _ids = _django.club_season(0, "All time", 4000)
        self.club = self.season.league.club
        self.owner = get_user_model().objects.create_user("bench-owner", "o@example.org", "bench passphrase 42")
        self.hero = Player.objects.create(name="hero")  # the player whose page is read
        Membership.objects.create(club=self.club, player=self.hero)
        self.members: list[int] = []
        self.results = 0
        self.tables = 0
        setup, moves = random_legal_game(5, 4)
        engine = get_engine("shitenno")
        self.setup, self.moves = setup, moves
        self.final = replay(engine, setup, moves)
        self.outcome = engine.outcome(self.final).to_json()
        self.log_table = TableSession.objects.create(
            game="shitenno",
            rules_version=engine.rules_version,
            setup=setup,
            state=engine.initial_state(setup),
            created_by=self.owner,
        )
        self.log_entries = 0

    def grow_to(self, n: int) -> None:
        self._members(n)
        self._results(n)
        self._tables(n)
        self._log(n)
        rating_store.ratings_recompute(kind="game", key="shitenno")
        rating_store.ratings_recompute(kind="league", key=str(self.season.league_id))
        standings_store.standings_compute(season=self.season)
        tally_store.tallies_recount(players=[self.hero.pk, *self.members])
        stats_store.tallies_rebuild()  # the tables above were entered in bulk, around the services
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        cache.clear()

    def _members(self, n: int) -> None:
        made = Player.objects.bulk_create(Player(name=f"player {i:04d}") for i in range(len(self.members), n))
        Membership.objects.bulk_create(Membership(club=self.club, player=p) for p in made)
        self.members += [p.pk for p in made]

    def _results(self, n: int) -> None:
        """Counted four-player results of the hero with three members each (the hero's n games)."""
        first = self.season.starts_on
        new = Result.objects.bulk_create(
            Result(
                game="shitenno",
                played_on=first + datetime.timedelta(days=i),
                club=self.club,
                season=self.season,
                status=Result.Status.COUNTED,
                ranked_publicly=True,
            )
            for i in range(self.results, n)
        )
        entries = []
        for result in new:
            table = [self.hero.pk, *RNG.sample(self.members, 3)]
            RNG.shuffle(table)
            entries += [
                ResultEntry(result=result, player_id=pid, rank=rank, score=score)
                for pid, rank, score in _django.placings(RNG, table)
            ]
        ResultEntry.objects.bulk_create(entries)
        self.results = n

    def _tables(self, n: int) -> None:
        """Finished move-by-move Shitennō tables with the hero seated (game statistics, his favourite general)."""
        engine = get_engine("shitenno")
        made = TableSession.objects.bulk_create(
            TableSession(
                game="shitenno",
                rules_version=engine.rules_version,
                setup=self.setup,
                state=self.final,
                outcome=self.outcome,
                status=TableSession.Status.FINISHED,
                created_by=self.owner,
                head_seq=len(self.moves),
                finished_at=datetime.datetime.now(datetime.UTC),
            )
            for _ in range(self.tables, n)
        )
        seats = []
        for session in made:
            others = RNG.sample(self.members, 3)
            position = RNG.randrange(4)
            players = others[:position] + [self.hero.pk] + others[position:]
            seats += [Seat(session=session, position=i, player_id=pid) for i, pid in enumerate(players)]
        Seat.objects.bulk_create(seats)
        self.tables = n

    def _log(self, n: int) -> None:
        """One table whose log holds n entries (its history page)."""
        if not self.log_entries:
            Seat.objects.bulk_create(
                Seat(session=self.log_table, position=i, player_id=pid)
                for i, pid in enumerate([self.hero.pk, *self.members[:3]])
            )
        MoveEvent.objects.bulk_create(
            MoveEvent(
                session=self.log_table,
                seq=seq,
                payload=self.moves[(seq - 1) % len(self.moves)],
                description=f"move {seq}",
                entered_by=self.owner,
            )
            for seq in range(self.log_entries + 1, n + 1)
        )
        TableSession.objects.filter(pk=self.log_table.pk).update(head_seq=n)
        self.log_entries = n

    def pages(self) -> dict[str, str]:
        return {
            "player": f"/players/{self.hero.pk}/",
            "rankings (game)": "/rankings/",
            "rankings (league)": f"/rankings/?scope=league:{self.season.league_id}",
            "league": f"/leagues/{self.season.league_id}/",
            "club": f"/clubs/{self.club.slug}/",
            "game statistics": "/games/shitenno/",
            "table": f"/tables/{self.log_table.code}/",
            "history": f"/tables/{self.log_table.code}/history/",
            "players list*": "/players/",
        }


def cost(client: Client, url: str, runs: int) -> tuple[float, int]:
    """Median milliseconds of `runs` requests after a warm-up, and the queries of one."""
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(times), len(queries)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--small", type=int, default=10)
    parser.add_argument("--big", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not 4 <= args.small <= args.big:
        parser.error("--small must be at least 4 (the tables seat three members beside the player) and <= --big")
    world = World()
    client = Client()
    figures: dict[str, dict[int, tuple[float, int]]] = {}
    for size in (args.small, args.big):
        start = time.perf_counter()
        world.grow_to(size)
        print(
            f"grew to {size:,} (members, the player's results and finished tables, log entries) "
            f"in {time.perf_counter() - start:.1f} s",
            file=sys.stderr,
        )
        for name, url in world.pages().items():
            figures.setdefault(name, {})[size] = cost(client, url, args.runs)
    small, big = args.small, args.big
    print(
        f"\nEach page at {small:,} and at {big:,} games / players / log entries: median of {args.runs} requests "
        "(ms) and queries; target big / small <= 1.5"
    )
    print(f"{'page':<20}{small:>10,} ms{'q':>5}{big:>10,} ms{'q':>5}{'ratio':>8}  verdict")
    worst = 0.0
    for name, by_size in figures.items():
        (ms_small, q_small), (ms_big, q_big) = by_size[small], by_size[big]
        ratio = ms_big / ms_small
        worst = max(worst, ratio) if not name.endswith("*") else worst
        print(
            f"{name:<20}{ms_small:>13.1f}{q_small:>5}{ms_big:>13.1f}{q_big:>5}{ratio:>8.2f}  "
            f"{'met' if ratio <= 1.5 else 'missed'}"
        )
    print(
        f"largest ratio {worst:.2f}: {'all met' if worst <= 1.5 else 'not all met'} "
        "(* not one of issue 18's pages: there since issue 5, 50 a page, shown for comparison)"
    )


if __name__ == "__main__":
    main()
