"""The rating history's partitions on PostgreSQL: a full recompute of a scope without rows fills a fresh table
and swaps it in for the scope's partition; every other path writes through the partitioned table."""

import datetime

import psycopg
import pytest
from django.db import connection

from leagues.models import Player, RatingEvent, Result, ResultEntry
from leagues.people import players
from leagues.rating import partitions as rating_partitions
from leagues.rating import store as rating_store
from leagues.rating.maths import RatedResult

from .league_helpers import snapshot
from .test_rating_store import DAY, assert_equals_fold, make_results

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="partitions are PostgreSQL's"),
]

SHITENNO = rating_partitions.partition_name("shitenno")


@pytest.fixture
def swaps(monkeypatch) -> list[rating_partitions.Swap]:
    """The swaps this test's recomputes made, as swap_partition returned them (none before the test)."""
    made, swap = [], rating_partitions.swap_partition

    def recorded(key, table):
        made.append(swap(key, table))
        return made[-1]

    monkeypatch.setattr(rating_partitions, "swap_partition", recorded)
    return made


def rows_in(table: str, key: str | None = None) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}" + (" WHERE key = %s" if key else ""), [key] if key else [])
        return cursor.fetchone()[0]


def partition_of(key: str) -> tuple[int, str] | None:
    """(oid, name) of the table attached for `key`, or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.oid, c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = 'leagues_ratingevent'::regclass AND c.relname = %s",
            [rating_partitions.partition_name(key)],
        )
        return cursor.fetchone()


def scope_rows(kind: str, key: str) -> list[tuple]:
    return sorted(
        RatingEvent.objects.filter(kind=kind, key=key).values_list(
            "pk", "result_id", "player_id", "played_on", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )


def test_a_full_recompute_fills_the_scopes_own_partition_with_the_folds_rows_and_indexes_it_like_the_table(swaps):
    rated, _rows = make_results(40)
    assert rating_store.ratings_recompute(kind="game", key="shitenno") == 40
    assert_equals_fold(rated)
    assert [(s.swapped, s.tries) for s in swaps] == [(True, 1)]
    assert partition_of("shitenno")
    assert rows_in(SHITENNO) == RatingEvent.objects.count() > 0
    with connection.cursor() as cursor:  # each of the table's indexes adopted one built on the partition
        cursor.execute(
            "SELECT x.indexrelid, i.inhparent FROM pg_index x LEFT JOIN pg_inherits i "
            "ON i.inhrelid = x.indexrelid WHERE x.indrelid = %s::regclass",
            [SHITENNO],
        )
        built = cursor.fetchall()
        cursor.execute("SELECT indexrelid FROM pg_index WHERE indrelid = 'leagues_ratingevent'::regclass")
        parents = {oid for (oid,) in cursor.fetchall()}
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [SHITENNO])
        assert cursor.fetchone()[0] == ["fillfactor=50"]
    assert len(built) == len(parents) == 4 and {parent for _, parent in built} == parents


def test_nothing_before_the_swap_locks_the_partitioned_table(swaps, monkeypatch):
    """What other scopes' readers and writers could wait for: this transaction's locks on the table."""
    make_results(10)
    swap, held = rating_partitions.swap_partition, []

    def look_then_swap(key, table):
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT mode FROM pg_locks WHERE pid = pg_backend_pid() AND relation IN "
                "('leagues_ratingevent'::regclass, 'leagues_ratingevent_default'::regclass)"
            )
            held.extend(mode for (mode,) in cursor.fetchall())
        swap(key, table)

    monkeypatch.setattr(rating_partitions, "swap_partition", look_then_swap)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert held == [] and [s.swapped for s in swaps] == [True]


def test_a_second_scope_keeps_its_rows_and_ids_while_another_is_swapped_in_twice(swaps):
    teikoku, _ = make_results(12, game="teikoku", seed=5)
    rating_store.ratings_recompute(kind="game", key="teikoku")
    kept = scope_rows("game", "teikoku")
    rated, _rows = make_results(30)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    first = partition_of("shitenno")
    RatingEvent.objects.filter(key="shitenno").delete()  # an emptied scope is swapped in again
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert partition_of("shitenno")[0] != first[0]
    assert swaps[-1].swapped and swaps[-1].key == "shitenno"
    assert_equals_fold(rated)
    assert scope_rows("game", "teikoku") == kept
    assert_equals_fold(teikoku, key="teikoku")


def test_a_scope_holding_rows_is_rerated_in_place_keeping_its_ids(swaps):
    rated, _rows = make_results(20)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    before, partition = scope_rows("game", "shitenno"), partition_of("shitenno")
    swaps.clear()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert (scope_rows("game", "shitenno"), partition_of("shitenno")) == (before, partition)
    assert swaps == []  # no swap, no exclusive lock


def test_rows_written_by_the_orm_land_in_the_default_partition_and_leave_it_at_the_scopes_first_store_write():
    rated, rows = make_results(16, per_day=2)
    player = Player.objects.create(name="stray")
    RatingEvent.objects.create(
        kind="game",
        key="shitenno",
        result=rows[0],
        player=player,
        played_on=DAY,
        mu_before=25,
        sigma_before=8,
        mu_after=26,
        sigma_after=7,
    )
    assert rows_in(rating_partitions.DEFAULT, "shitenno") == 1 and partition_of("shitenno") is None
    rating_store.ratings_recompute(kind="game", key="shitenno", since=rows[8].played_on)  # an incremental write
    assert rows_in(rating_partitions.DEFAULT, "shitenno") == 0
    assert RatingEvent.objects.filter(player=player).exists()  # moved, not lost: the re-rate from a date keeps it
    assert rows_in(SHITENNO) == RatingEvent.objects.filter(key="shitenno").count()


def test_a_full_recompute_replaces_the_scopes_rows_left_in_the_default_partition():
    rated, rows = make_results(10)
    RatingEvent.objects.create(
        kind="game",
        key="shitenno",
        result=rows[0],
        player=Player.objects.create(name="x"),
        played_on=DAY,
        mu_before=25,
        sigma_before=8,
        mu_after=26,
        sigma_after=7,
    )
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert rows_in(rating_partitions.DEFAULT, "shitenno") == 0
    assert_equals_fold(rated)


def test_a_result_counted_after_a_full_recompute_is_rated_incrementally_into_the_partition():
    rated, rows = make_results(20)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    people = list(Player.objects.order_by("pk")[:3])
    late = Result.objects.create(
        game="shitenno", played_on=DAY + datetime.timedelta(days=30), status=Result.Status.COUNTED, ranked_publicly=True
    )
    ResultEntry.objects.bulk_create(
        ResultEntry(result=late, player=p, rank=r) for p, r in zip(people, (2, 1, 3), strict=True)
    )
    rating_store.ratings_apply_result(result=late)
    rated.append(RatedResult(late.pk, tuple((p.pk, r) for p, r in zip(people, (2, 1, 3), strict=True))))
    assert_equals_fold(rated)
    assert rows_in(SHITENNO) == RatingEvent.objects.count()


def test_deleting_a_result_or_a_player_deletes_their_rows_in_the_partition():
    _rated, rows = make_results(8, players=4)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    rows[3].delete()
    assert not RatingEvent.objects.filter(result_id=rows[3].pk).exists()
    player = Player.objects.filter(rating_events__isnull=False).first()
    ResultEntry.objects.filter(player=player).delete()  # a player's seats protect them; their history does not
    player.delete()
    assert not RatingEvent.objects.filter(player_id=player.pk).exists()
    assert rows_in(SHITENNO) == RatingEvent.objects.count() > 0


def test_a_league_key_must_be_digits_and_a_game_key_must_not():
    with pytest.raises(ValueError):
        rating_store.ratings_recompute(kind="game", key="123")
    with pytest.raises(ValueError):
        rating_store.ratings_recompute(kind="league", key="shitenno")


class Reader:
    """A second connection reading the history in an open transaction: it holds ACCESS SHARE on the table until
    `done()`, as a player's page does for the length of its query."""

    def __init__(self):
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.pop("prepare_threshold", None)
        self.conn = psycopg.connect(**params)
        self.conn.execute("SELECT count(*) FROM leagues_ratingevent WHERE key = 'shitenno'")

    def done(self):
        if not self.conn.closed:
            self.conn.commit()
            self.conn.close()


def test_the_swap_waits_at_most_the_lock_timeout_a_try_while_a_reader_holds_the_table_then_swaps(swaps, monkeypatch):
    rated, _rows = make_results(12)
    reader = Reader()
    tries = []

    def between_tries(attempt):
        tries.append(rating_partitions.time.monotonic())
        if attempt == 1:  # two tries timed out: the reader finishes
            reader.done()

    monkeypatch.setattr(rating_partitions, "_wait_before_retry", between_tries)
    try:
        rating_store.ratings_recompute(kind="game", key="shitenno")
    finally:
        reader.done()
    [swap] = swaps
    assert (swap.swapped, swap.tries, len(tries)) == (True, 3, 2)
    timeout = rating_partitions.LOCK_TIMEOUT_MS / 1000
    assert 2 * timeout <= swap.waited < 2 * timeout + 2  # two tries of one lock_timeout, then at once
    assert_equals_fold(rated)
    assert partition_of("shitenno")


def test_a_swap_that_never_gets_the_lock_writes_the_rows_in_place(swaps, monkeypatch):
    rated, _rows = make_results(12)
    monkeypatch.setattr(rating_partitions, "_wait_before_retry", lambda attempt: None)
    reader = Reader()
    try:
        rating_store.ratings_recompute(kind="game", key="shitenno")
    finally:
        reader.done()
    [swap] = swaps
    assert (swap.swapped, swap.tries) == (False, rating_partitions.SWAP_TRIES)
    assert_equals_fold(rated)
    assert rows_in(rating_partitions.DEFAULT, "shitenno") == RatingEvent.objects.count()  # no partition yet
    stored = snapshot()
    rating_store.ratings_recompute(kind="game", key="shitenno")  # no partition holds its rows: swapped in now
    assert rows_in(rating_partitions.DEFAULT, "shitenno") == 0 and rows_in(SHITENNO) == RatingEvent.objects.count()
    assert snapshot() == stored


def test_a_claimed_guests_history_leaves_the_partition_and_the_others_stay():
    _rated, _rows = make_results(10, players=4)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    guest = Player.objects.filter(rating_events__isnull=False).first()
    others = [row for row in scope_rows("game", "shitenno") if row[2] != guest.pk]
    players._drop_derived_rows(guest)
    assert not RatingEvent.objects.filter(player=guest).exists()
    assert scope_rows("game", "shitenno") == others
    assert rows_in(SHITENNO) == len(others)


def many_results(count: int = 300, seated: int = 4) -> list[Result]:
    """`count` counted results of `seated` players each (more history rows than bulk._ANALYZE_FROM), in bulk."""
    people = Player.objects.bulk_create(Player(name=f"n{i}") for i in range(20))
    rows = Result.objects.bulk_create(
        Result(
            game="shitenno",
            played_on=DAY + datetime.timedelta(days=n // 10),
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
        for n in range(count)
    )
    ResultEntry.objects.bulk_create(
        ResultEntry(result=result, player=people[(n + k) % 20], rank=k + 1)
        for n, result in enumerate(rows)
        for k in range(seated)
    )
    return rows


def statistics_of(table: str) -> tuple[float, int]:
    """What the planner knows of `table`: its estimated rows (pg_class.reltuples, which an index build sets too) and
    how many of its columns have statistics (pg_stats: none until an ANALYZE, which is what the test is about).
    Both transactional: no waiting on the stats collector."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [table])
        (reltuples,) = cursor.fetchone()
        cursor.execute("SELECT count(*) FROM pg_stats WHERE tablename = %s", [table])
        return reltuples, cursor.fetchone()[0]


def test_a_partition_swapped_in_by_a_full_recompute_has_statistics_from_its_first_query_on(swaps):
    many_results()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert [s.swapped for s in swaps] == [True]
    rows = rows_in(SHITENNO)
    assert rows == 1200
    reltuples, columns = statistics_of(SHITENNO)
    assert reltuples == rows and columns > 0


def test_a_partition_made_at_a_scopes_first_store_write_is_analysed_with_the_rows_the_re_rate_loads():
    """The scope's rows written by the ORM (the default partition); its first store write, a re-rate from its first
    day, gives it its partition (moving them) and rewrites them through bulk.replace_binary."""
    rows = many_results()
    RatingEvent.objects.bulk_create(
        RatingEvent(
            kind="game",
            key="shitenno",
            result=entry.result,
            player_id=entry.player_id,
            played_on=entry.result.played_on,
            mu_before=25,
            sigma_before=8,
            mu_after=25,
            sigma_after=8,
        )
        for entry in ResultEntry.objects.select_related("result")
    )
    assert partition_of("shitenno") is None
    rating_store.ratings_recompute(kind="game", key="shitenno", since=rows[0].played_on)
    assert rows_in(SHITENNO) == 1200 and rows_in(rating_partitions.DEFAULT, "shitenno") == 0
    reltuples, columns = statistics_of(SHITENNO)
    assert reltuples == 1200 and columns > 0
