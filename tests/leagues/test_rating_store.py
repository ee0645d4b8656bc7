"""How the rating services store what they compute: straight COPY into an empty scope, the set-based
replacement of a scope that holds rows, the start state of a re-rate from a date (same-day ties) and the
results that change nothing. Results are written with the ORM directly, many per day."""

import datetime
import random
from array import array

import pytest
from django.db import connection

from leagues.models import Player, Rating, RatingEvent, Result, ResultEntry, bulk
from leagues.rating import partitions as rating_partitions
from leagues.rating import store as rating_store
from leagues.rating.maths import PlayerRating, RatedResult, fold_columns, rate_results

from .league_helpers import snapshot

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 1)


def make_results(count: int, *, players: int = 7, per_day: int = 4, seed: int = 3, game: str = "shitenno"):
    """`count` counted results of 2 to 4 players, `per_day` on each day, with ties; returns them in rating
    order as RatedResult (players by id) and the Result rows."""
    rng = random.Random(seed)
    people = [Player.objects.create(name=f"p{i}") for i in range(players)]
    rated, rows = [], []
    for n in range(count):
        result = Result.objects.create(
            game=game,
            played_on=DAY + datetime.timedelta(days=n // per_day),
            status=Result.Status.COUNTED,
            ranked_publicly=True,
        )
        seated = rng.sample(people, rng.randint(2, 4))
        ranks = [rng.randint(1, len(seated)) for _ in seated]
        ResultEntry.objects.bulk_create(
            ResultEntry(result=result, player=p, rank=r) for p, r in zip(seated, ranks, strict=True)
        )
        rated.append(RatedResult(result.pk, tuple((p.pk, r) for p, r in zip(seated, ranks, strict=True))))
        rows.append(result)
    return rated, rows


def stored(kind="game", key="shitenno"):
    return {r.player_id: r for r in Rating.objects.filter(kind=kind, key=key)}


def assert_equals_fold(rated, kind="game", key="shitenno"):
    final, history = rate_results(rated)
    ratings = stored(kind, key)
    assert set(ratings) == set(final)
    for player, state in final.items():
        assert (ratings[player].mu, ratings[player].sigma, ratings[player].games) == (
            state.mu,
            state.sigma,
            state.games,
        )
    events = sorted(
        RatingEvent.objects.filter(kind=kind, key=key).values_list(
            "result_id", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    assert events == sorted(
        (c.result_id, c.player, c.mu_before, c.sigma_before, c.mu_after, c.sigma_after) for c in history
    )


def test_fold_columns_is_fold_bit_for_bit_with_ties_and_unsorted_ranks():
    rng = random.Random(7)
    rated = []
    for n in range(400):
        seated = rng.sample(range(9), rng.randint(2, 5))
        rated.append(RatedResult(n, tuple((p, rng.randint(1, len(seated))) for p in seated)))
    final, history = rate_results(rated, start={0: PlayerRating(30.0, 5.0, 4)})
    players, ranks, bounds = array("q"), array("h"), array("q", [0])
    for result in rated:
        for player, rank in result.ranks:
            players.append(player)
            ranks.append(rank)
        bounds.append(len(players))
    state = {0: [30.0, 5.0, 4]}
    out = tuple(array("d") for _ in range(4))
    fold_columns(players, ranks, bounds, state, out)
    assert {p: tuple(s) for p, s in state.items()} == {p: (r.mu, r.sigma, r.games) for p, r in final.items()}
    assert list(zip(*out, strict=True)) == [(c.mu_before, c.sigma_before, c.mu_after, c.sigma_after) for c in history]
    with pytest.raises(ValueError):
        fold_columns(array("q", [1]), array("h", [1]), array("q", [0, 1]), {}, out)


def test_an_empty_scope_is_copied_straight_in_and_a_full_one_replaced_keeping_unchanged_ids(monkeypatch):
    rated, _rows = make_results(40)
    straight, replaced = [], []
    monkeypatch.setattr(
        rating_store, "copy_in_binary", lambda *a, **k: straight.append(a[0]) or bulk.copy_in_binary(*a, **k)
    )
    monkeypatch.setattr(
        rating_store, "replace_binary", lambda *a, **k: replaced.append(a[0]) or bulk.replace_binary(*a, **k)
    )
    assert rating_store.ratings_recompute(kind="game", key="shitenno") == 40
    assert_equals_fold(rated)
    if connection.vendor == "postgresql":
        assert (straight, replaced) == ([rating_partitions.partition_name("shitenno") + "_next"], [])
    ids = sorted(RatingEvent.objects.values_list("pk", flat=True))
    once = snapshot()
    assert rating_store.ratings_recompute(kind="game", key="shitenno") == 40
    assert (snapshot(), sorted(RatingEvent.objects.values_list("pk", flat=True))) == (once, ids)
    if connection.vendor == "postgresql":
        assert replaced == ["leagues_ratingevent"]


def test_the_start_state_of_a_rerate_takes_the_last_result_of_the_day_by_id():
    rated, rows = make_results(24, per_day=6)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    since = rows[12].played_on  # the third day: two full days before it, six results each
    assert rows[11].played_on < since
    before, _ = rate_results(rated[:12])
    start = rating_store._start_state(RatingEvent.objects.filter(kind="game", key="shitenno", played_on__lt=since))
    assert start == {p: [r.mu, r.sigma, r.games] for p, r in before.items()}


def test_a_rerate_from_a_date_after_an_edit_equals_a_full_recompute():
    rated, rows = make_results(36, per_day=5)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    middle = rows[17]  # not the first of its day: results of the same day come before and after it
    assert rows[15].played_on == middle.played_on == rows[19].played_on
    entries = list(middle.entries.order_by("id"))
    entries[0].rank, entries[1].rank = entries[1].rank + 1, entries[0].rank
    ResultEntry.objects.bulk_update(entries, ["rank"])
    untouched = set(RatingEvent.objects.filter(played_on__lt=middle.played_on).values_list("pk", flat=True))
    assert rating_store.ratings_recompute(kind="game", key="shitenno", since=middle.played_on) == 36 - 15
    after_edit = snapshot()
    assert untouched <= set(RatingEvent.objects.values_list("pk", flat=True))
    rated[17] = RatedResult(middle.pk, tuple((e.player_id, e.rank) for e in entries))
    assert_equals_fold(rated)
    RatingEvent.objects.all().delete()
    Rating.objects.all().delete()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert snapshot() == after_edit


def test_a_rerate_from_a_date_updates_kept_rows_in_place_and_replaces_a_swapped_player():
    _rated, rows = make_results(30, per_day=3)
    middle = rows[16]
    once, newcomer = Player.objects.create(name="once"), Player.objects.create(name="newcomer")
    ResultEntry.objects.filter(result=middle, player=middle.entries.order_by("id")[0].player).update(player=once)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    before = {(r, p): pk for r, p, pk in RatingEvent.objects.values_list("result_id", "player_id", "pk")}
    assert Rating.objects.filter(player=once).exists()
    earlier = snapshot()
    ResultEntry.objects.filter(result=middle, player=once).update(player=newcomer)
    entries = list(middle.entries.order_by("id"))
    entries[0].rank, entries[1].rank = entries[1].rank + 1, entries[0].rank  # later numbers change too
    ResultEntry.objects.bulk_update(entries, ["rank"])
    rating_store.ratings_recompute(kind="game", key="shitenno", since=middle.played_on)
    after = snapshot()
    assert len(set(after[1]) - set(earlier[1])) > 10  # later rows changed: updated in place below
    kept = {(r, p): pk for r, p, pk in RatingEvent.objects.values_list("result_id", "player_id", "pk")}
    assert (middle.pk, once.pk) not in kept and (middle.pk, newcomer.pk) in kept
    del before[middle.pk, once.pk]
    assert {key: pk for key, pk in kept.items() if key != (middle.pk, newcomer.pk)} == before  # ids kept
    assert not Rating.objects.filter(player=once).exists() and Rating.objects.filter(player=newcomer).exists()
    RatingEvent.objects.all().delete()
    Rating.objects.all().delete()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert snapshot() == after


def test_a_result_with_one_entry_is_counted_but_changes_nothing():
    rated, rows = make_results(10)
    lone = Result.objects.create(
        game="shitenno", played_on=rows[4].played_on, status=Result.Status.COUNTED, ranked_publicly=True
    )
    ResultEntry.objects.create(result=lone, player=Player.objects.create(name="solo"), rank=1)
    assert rating_store.ratings_recompute(kind="game", key="shitenno") == 11
    assert_equals_fold(rated)
    assert not RatingEvent.objects.filter(result=lone).exists()


def test_deleting_a_result_or_a_player_still_deletes_their_history():
    _rated, rows = make_results(6, players=4)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    gone = rows[2]
    assert RatingEvent.objects.filter(result=gone).exists()
    gone.delete()
    assert not RatingEvent.objects.filter(result_id=gone.pk).exists()
    player = Player.objects.create(name="short-lived")
    RatingEvent.objects.create(
        kind="game",
        key="x",
        result=rows[0],
        player=player,
        played_on=DAY,
        mu_before=25,
        sigma_before=8,
        mu_after=26,
        sigma_after=7,
    )
    player.delete()
    assert not RatingEvent.objects.filter(player_id=player.pk).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="binary COPY is PostgreSQL's")
def test_binary_copy_round_trip():
    body, width, offsets = bulk.copy_out_fixed(
        "SELECT g::bigint, (DATE '2000-01-01' + g)::date, (g * 3)::smallint FROM generate_series(-2, 4) g",
        [],
        (8, 4, 2),
    )
    assert len(body) == 7 * width
    assert list(bulk.to_array(bulk.field_bytes(body, width, offsets[0], 8), "q")) == list(range(-2, 5))
    assert list(bulk.to_array(bulk.field_bytes(body, width, offsets[1], 4, 2, 5), "i")) == [0, 1, 2]
    assert list(bulk.to_array(bulk.field_bytes(body, width, offsets[2], 2), "h")) == [3 * g for g in range(-2, 5)]
    rows = bulk.binary_rows(3, [(4, b"abcd", False), (8, bulk.big_endian(array("d", [0.5, -1.25, 1e300])), True)])
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE round_trip (t text, x float8)")
        bulk.copy_in_binary("round_trip", ["t", "x"], [rows[: len(rows) // 3], rows[len(rows) // 3 :]])
        cursor.execute("SELECT t, x FROM round_trip")
        assert cursor.fetchall() == [("abcd", 0.5), ("abcd", -1.25), ("abcd", 1e300)]


def test_a_rerate_from_a_date_after_a_result_moved_later_replaces_its_old_rows():
    _rated, rows = make_results(12, per_day=2)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    moved = rows[1]
    Result.objects.filter(pk=moved.pk).update(played_on=rows[-1].played_on)
    later = rows[-1].played_on
    rating_store.ratings_recompute(kind="game", key="shitenno", since=later)  # its old rows are on day 1
    assert set(RatingEvent.objects.filter(result=moved).values_list("played_on", flat=True)) == {later}
    rating_store.ratings_recompute(kind="game", key="shitenno", since=DAY)  # what the edit's job does
    after = snapshot()
    RatingEvent.objects.all().delete()
    Rating.objects.all().delete()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert snapshot() == after


@pytest.mark.skipif(connection.vendor != "postgresql", reason="array literals are PostgreSQL's")
@pytest.mark.parametrize(
    ("pg_type", "values"),
    [
        ("float8", [1.5, None, -1e-09, 0.1 + 0.2, 1e300, -0.0, float("inf"), 2 / 3]),
        ("bytea", [b"", None, bytes(range(256)), b'"{},\\']),
        ("bigint", [0, -1, 2**62, None]),
        ("int", [7, None]),
        ("bool", [True, False, None]),
    ],
)
def test_an_array_literal_reads_back_as_the_same_values(pg_type, values):
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT %s::{pg_type}[]", [bulk.array_literal(values, pg_type)])
        (read,) = cursor.fetchone()
    assert [bytes(v) if isinstance(v, memoryview) else v for v in read] == values
    assert [str(v) for v in read] == [str(v) for v in values]  # -0.0 stays -0.0


def _expected_fit(rated) -> float:
    """The scope's performance spread worked out from the fold itself (not from the stored rows): its latest
    `fit_window` results' seats before each and their ranks."""
    from leagues.rating import display as rating_display

    _final, history = rate_results(rated)
    before = {(c.result_id, c.player): (c.mu_before, c.sigma_before) for c in history}
    games = [[(player, *before[(result.result_id, player)], rank) for player, rank in result.ranks] for result in rated]
    return rating_display.fitted_performance_sd(games[len(games) - rating_display.fit_window(len(games)) :])


def test_the_rating_job_stores_the_scope_s_own_spread_and_a_new_result_refits_it():
    """Issue 40: each run of the rating job leaves the scope's own b, fitted on its last 1,000 results, the
    same whether the last result came incrementally or by a full recompute; a scope with nothing left loses it."""
    from leagues.models import RatingFit

    rated, rows = make_results(61, players=9)
    rating_store.ratings_recompute(kind="game", key="shitenno")
    fit = RatingFit.objects.get(kind="game", key="shitenno")
    assert fit.performance_sd == _expected_fit(rated)
    more, more_rows = make_results(1, players=3, seed=8)
    Result.objects.filter(pk=more_rows[0].pk).update(played_on=DAY + datetime.timedelta(days=30))
    rating_store.ratings_apply_result(result=more_rows[0])
    incremental = RatingFit.objects.get(kind="game", key="shitenno").performance_sd
    assert incremental == _expected_fit(rated + more) != fit.performance_sd
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert RatingFit.objects.get(kind="game", key="shitenno").performance_sd == incremental
    Result.objects.all().delete()
    rating_store.ratings_recompute(kind="game", key="shitenno")
    assert not RatingFit.objects.filter(kind="game", key="shitenno").exists()
