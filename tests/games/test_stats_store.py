"""A game's statistics from the stored tally of its public tables plus the reader's private ones (issue 18): the
same figures as the full count over every table the reader sees, through finishing, undoing, finishing again,
visibility changes and deletes; each game's count adds up; two tables finishing at once both count."""

import functools
import json
import random
import threading

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.management import call_command
from django.db import connection, transaction
from hypothesis import given, settings
from hypothesis import strategies as st

from games import selectors, services, stats_store
from games.engines import get_engine
from games.engines.base import replay
from games.models import GameStatsCounted, GameStatsTally, MoveEvent, TableSession
from games.plugins import TableRow, get_game
from leagues.models import Club, Membership
from leagues.people.players import player_for_user
from tests.games import stats_before

# --- each game's count adds up ---------------------------------------------------------------------------------


@functools.cache
def finished_games(slug: str) -> tuple[tuple[dict, list[dict]], ...]:
    """A few complete legal games (set-up, moves) of a game, played at random."""
    adapter = get_game(slug)
    return tuple(adapter.demo_game(seed, players) for seed, players in ((1, 2), (2, 3), (3, 4), (4, 4), (5, 2)))


@functools.cache
def shitenno_rows() -> tuple[TableRow, ...]:
    engine = get_engine("shitenno")
    rows = tuple(
        TableRow(setup, engine.outcome(replay(engine, setup, moves)).to_json())
        for setup, moves in finished_games("shitenno")
    )
    return (*rows, TableRow(rows[0].setup, None), TableRow({"players": []}, rows[1].outcome))  # counted as nothing


@functools.cache
def teikoku_rows() -> tuple[TableRow, ...]:
    engine = get_engine("teikoku")
    rows = []
    for setup, moves in finished_games("teikoku"):
        outcome = engine.outcome(replay(engine, setup, moves))
        rows.append(TableRow(setup, outcome.to_json() if outcome else None))
    shared = dict(rows[0].outcome, details={**rows[0].outcome.get("details", {}), "shared": True})
    return (*rows, TableRow(rows[0].setup, shared), TableRow({"clans": []}, rows[0].outcome))


def samurai_rows() -> tuple[TableRow, ...]:
    """Solo tables (won and lost, ahead of the AIs after different eras, or never) and multiplayer tables."""

    def solo(won, player, ais, eras):
        breakdown = [{"party": 0, "eras": eras[0]}, {"party": 1, "eras": eras[1]}, {"party": 2, "eras": eras[2]}]
        return TableRow(
            {},
            {
                "termination": "solo_victory" if won else "solo_defeat",
                "placings": [{"seat": 0, "rank": 1 if won else 2, "score": player}],
                "details": {"won": won, "player": player, "ais": ais, "breakdown": breakdown},
            },
        )

    def multi(ranks):
        return TableRow(
            {},
            {"termination": "end", "placings": [{"seat": s, "rank": r, "score": 10 - r} for s, r in enumerate(ranks)]},
        )

    return (
        solo(True, 40, 30, [[10, 10, 20], [2, 2, 2], [1, 1, 1]]),
        solo(False, 20, 35, [[1, 1, 1], [5, 5, 5], [5, 5, 5]]),
        solo(True, 31, 30, [[1, 10, 20], [3, 2, 2], [1, 5, 1]]),
        solo(False, 29, 30, [[5, 1, 1], [1, 1, 20], [1, 1, 10]]),
        multi([1, 2]),
        multi([2, 1, 3]),
        multi([1, 1, 3, 4]),
        TableRow({}, None),
    )


POOLS = {
    "shitenno": (shitenno_rows, stats_before.game_stats_shitenno),
    "teikoku": (teikoku_rows, stats_before.game_stats_teikoku),
    "samurai_empires": (samurai_rows, stats_before.game_stats_samurai_empires),
}
picks = st.lists(st.integers(min_value=0, max_value=20), max_size=12)


@pytest.mark.parametrize("slug", POOLS)
@settings(max_examples=60, deadline=None)
@given(a=picks, b=picks)
def test_a_games_count_adds_up_and_gives_the_full_counts_figures(slug, a, b):
    pool_of, before = POOLS[slug]
    adapter, pool = get_game(slug), pool_of()
    rows_a, rows_b = [pool[i % len(pool)] for i in a], [pool[i % len(pool)] for i in b]
    both = adapter.stats_tally(rows_a + rows_b)
    assert both == adapter.stats_merge(adapter.stats_tally(rows_a), adapter.stats_tally(rows_b))
    assert adapter.stats_present(adapter.stats_subtract(both, adapter.stats_tally(rows_b))) == adapter.stats(rows_a)
    assert adapter.stats(rows_a + rows_b) == before(rows_a + rows_b)  # today's figures, exactly


def test_the_pools_have_what_the_counts_look_at():
    """The rows above reach each part of each count (so the additivity test is not over empty tallies)."""
    shitenno = get_game("shitenno").stats(shitenno_rows())
    assert shitenno["tables"] == 5 and shitenno["best_winning_score"] and len(shitenno["by_players"]) == 3
    teikoku = get_game("teikoku").stats(teikoku_rows())
    assert teikoku["tables"] >= 4 and teikoku["length"]["histogram"] and any(v["shared"] for v in teikoku["victories"])
    samurai = get_game("samurai_empires").stats(samurai_rows())
    assert samurai["solo"]["plays"] == 4 and len(samurai["solo"]["by_era"]) >= 3
    assert samurai["multiplayer"]["tables"] == 3


# --- the stored tally through finishing, undoing, visibility and deletes ---------------------------------------


def full_count(game: str, viewer) -> dict:
    """Today's count: the game's own statistics over every finished table the viewer may see, from the rows."""
    tables = (
        selectors.sessions_visible(viewer)
        .filter(game=game, entry=TableSession.Entry.MOVES, status=TableSession.Status.FINISHED)
        .order_by()
    )
    return stats_before.game_stats_shitenno(TableRow(s, o) for s, o in tables.values_list("setup", "outcome"))


class Tables:
    """Shitennō tables one move from their end, opened through the services, by `owner`."""

    def __init__(self, owner, players, club):
        self.owner, self.players, self.club = owner, players, club
        self.engine = get_engine("shitenno")

    def open(self, rng: random.Random) -> TableSession:
        setup, moves = finished_games("shitenno")[rng.randrange(5)]
        n = len(setup["players"])
        club = self.club if rng.random() < 0.5 else None
        session = services.session_create(
            game="shitenno",
            created_by=self.owner,
            players=self.players[:n],
            setup=setup,
            club=club,
            is_public=rng.random() < 0.5,
        )
        MoveEvent.objects.bulk_create(
            MoveEvent(session=session, seq=seq, payload=move, description=f"move {seq}", entered_by=self.owner)
            for seq, move in enumerate(moves[:-1], 1)
        )
        TableSession.objects.filter(pk=session.pk).update(
            state=replay(self.engine, setup, moves[:-1]), head_seq=len(moves) - 1
        )
        session.refresh_from_db()
        session.last_move = moves[-1]
        return session

    def finish(self, session: TableSession) -> None:
        session.refresh_from_db()
        services.move_record(session=session, seq=session.head_seq, move=session.last_move, user=self.owner)

    def reopen(self, session: TableSession) -> None:
        session.refresh_from_db()
        services.move_undo(session=session, seq=session.head_seq, user=self.owner)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stored_and_live_statistics_equal_the_full_count_for_every_reader(
    seed, alice, bob, carol, dave, django_user_model
):
    """Random tables finish, are reopened by an undo and finish again, change visibility (as the admin does) and
    are deleted; after each step a visitor, a seated player, a club member and an outsider see the full count."""
    rng = random.Random(seed)
    club = Club.objects.create(name="Dojo", slug="dojo")
    Membership.objects.create(club=club, player=player_for_user(alice))  # alice opens the club's tables
    Membership.objects.create(club=club, player=player_for_user(dave))  # dave only belongs to the club
    tables = Tables(
        alice,
        [player_for_user(u) for u in (alice, bob)]
        + [player_for_user(carol)]
        + [player_for_user(django_user_model.objects.create_user("erin", password="x"))],
        club,
    )
    admin = django_user_model.objects.create_superuser("root", password="x")
    readers = [
        AnonymousUser(),
        alice,
        bob,
        dave,
        django_user_model.objects.create_user("outsider", password="x"),
        admin,
    ]
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 0  # built (empty) on read
    opened: list[TableSession] = []
    for _ in range(14):
        step = rng.choice(["open and finish"] * 3 + ["reopen", "finish again", "visibility", "delete"])
        finished = [s for s in opened if s.status == TableSession.Status.FINISHED]
        playing = [s for s in opened if s.status == TableSession.Status.PLAYING]
        if step == "open and finish" or (step == "reopen" and not finished) or (step == "finish again" and not playing):
            session = tables.open(rng)
            tables.finish(session)
            opened.append(session)
        elif step == "reopen":
            tables.reopen(rng.choice(finished))
        elif step == "finish again":
            tables.finish(rng.choice(playing))
        elif step == "visibility" and opened:
            session = rng.choice(opened)
            session.refresh_from_db()
            session.is_public = not session.is_public
            with transaction.atomic():  # what the admin's save does (games.admin.TableSessionAdmin.save_model)
                session.save(update_fields=["is_public"])
                stats_store.table_changed(session)
        elif step == "delete" and opened:
            session = opened.pop(rng.randrange(len(opened)))
            session.delete()
        for session in opened:
            session.refresh_from_db()
        for reader in readers:
            assert selectors.game_stats(game="shitenno", viewer=reader) == full_count("shitenno", reader), step
    seen = {
        r.pk if r.is_authenticated else 0: selectors.game_stats(game="shitenno", viewer=r)["tables"] for r in readers
    }
    assert seen[admin.pk] == len([s for s in opened if s.status == TableSession.Status.FINISHED])
    assert stats_store.tallies_rebuild()["shitenno"] is True  # the stored tally is what a rebuild counts


@pytest.mark.django_db
def test_a_missing_or_outdated_tally_is_built_on_first_read_and_the_repair_command_rebuilds(
    alice, bob, carol, dave, monkeypatch
):
    tables = Tables(alice, [player_for_user(u) for u in (alice, bob, carol, dave)], None)
    rng = random.Random(7)
    for _ in range(3):
        session = tables.open(rng)
        TableSession.objects.filter(pk=session.pk).update(is_public=True)
        session.refresh_from_db()
        tables.finish(session)  # no tally yet: the finishes leave it to the first read
    assert not GameStatsCounted.objects.exists()
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser()) == full_count("shitenno", AnonymousUser())
    assert GameStatsTally.objects.get(game="shitenno").tally["tables"] == 3 and GameStatsCounted.objects.count() == 3

    TableSession.objects.filter(status=TableSession.Status.FINISHED).update(is_public=False)  # around the services
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 3  # stale until repaired
    call_command("game_stats_rebuild", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 0

    TableSession.objects.filter(status=TableSession.Status.FINISHED).update(is_public=True)
    newer = get_game("shitenno").stats_version + 1
    monkeypatch.setattr(type(get_game("shitenno")), "stats_version", newer)  # the count changed in a new release
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 3
    assert GameStatsTally.objects.get(game="shitenno").version == newer


# --- two tables finishing at once -------------------------------------------------------------------------------


def _waiting_on_a_lock(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pid])
        row = cursor.fetchone()
    return bool(row) and row[0] == "Lock"


@pytest.mark.django_db(transaction=True)
def test_two_tables_finishing_at_once_both_count(alice, bob, carol, dave):
    """The first finish holds the game's tally row until it commits; the second is seen waiting on a lock (in
    PostgreSQL's pg_stat_activity, no clock involved) while the first is open, and after both commit the tally
    holds both tables (without the tally row's lock the second overwrote the first's: 1 table, checked by hand)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    tables = Tables(alice, [player_for_user(u) for u in (alice, bob, carol, dave)], None)
    rng = random.Random(3)
    first, second = tables.open(rng), tables.open(rng)
    TableSession.objects.filter(pk__in=[first.pk, second.pk]).update(is_public=True)
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser())["tables"] == 0  # the tally is built
    holding, release, pids, errors = threading.Event(), threading.Event(), {}, []

    def finish(session, *, hold: bool) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                pids[session.pk] = cursor.fetchone()[0]
            with transaction.atomic():
                tables.finish(session)
                if hold:
                    holding.set()
                    release.wait(60)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    one = threading.Thread(target=finish, args=(first,), kwargs={"hold": True})
    one.start()
    assert holding.wait(60)
    two = threading.Thread(target=finish, args=(second,), kwargs={"hold": False})
    two.start()
    for _ in range(6000):  # until the second finish waits on a lock (or has, wrongly, gone through)
        if not two.is_alive() or (second.pk in pids and _waiting_on_a_lock(pids[second.pk])):
            break
        threading.Event().wait(0.01)
    assert two.is_alive(), "the second finish did not wait for the first one's tally"
    release.set()
    one.join(60)
    two.join(60)
    assert not errors
    assert GameStatsTally.objects.get(game="shitenno").tally["tables"] == 2
    assert selectors.game_stats(game="shitenno", viewer=AnonymousUser()) == full_count("shitenno", AnonymousUser())


@pytest.mark.django_db
def test_a_club_import_brings_its_public_tables_into_the_statistics(alice, bob, carol):
    """The import enters tables in bulk, around the services, and then hands them to the stored tally."""
    from leagues.imports.portability import club_export, club_import
    from tests.leagues.test_portability import build_club_history, wipe

    club = build_club_history(alice, bob, carol)
    games = set(
        TableSession.objects.filter(status=TableSession.Status.FINISHED, is_public=True).values_list("game", flat=True)
    )
    assert games  # the history has public finished tables
    before = {game: selectors.game_stats(game=game, viewer=AnonymousUser()) for game in games}
    assert all(found["tables"] for found in before.values())
    data = json.loads(json.dumps(club_export(club)))
    wipe()  # the tables' parts leave the stored tallies as the rows are deleted
    assert all(selectors.game_stats(game=game, viewer=AnonymousUser())["tables"] == 0 for game in games)
    club_import(data)
    assert {game: selectors.game_stats(game=game, viewer=AnonymousUser()) for game in games} == before
    assert all(stats_store.tallies_rebuild()[game] for game in games)
