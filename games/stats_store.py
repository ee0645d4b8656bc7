"""The stored tally of each game's public finished tables, so the statistics page costs the same at 10 and at
100,000 tables (issue 18).

Everyone sees a public table, so its part of the statistics is the same for every reader: it is added to the
game's `GameStatsTally` in the transaction in which the table finishes, and taken out again (as it was added:
`GameStatsCounted`) in the one in which an undo reopens it or it is deleted. The page adds the reader's own
private tables, counted live (selectors.game_stats). A writer locks the table's row first and the game's tally
row second, so two tables finishing at once are added one after the other and neither is lost.

The tally is built from the tables themselves on first read when it is missing, or was built by another
version of the game's count (GameAdapter.stats_version), so the migration that made these tables needs no
frozen copy of the plugins' counts. `tallies_rebuild` builds it again from scratch: the nightly job checks it
(`games.tasks.stats_rebuild`), and writers that bypass the services (bulk imports, raw SQL) are put right by it.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from games.plugins import GameAdapter, TableRow, UnknownGame, all_games, get_game

from .models import GameStatsCounted, GameStatsTally, TableSession

CHUNK = 2000


def _counts(session: TableSession) -> bool:
    return (
        session.is_public
        and session.entry == TableSession.Entry.MOVES
        and session.status == TableSession.Status.FINISHED
    )


def _locked(adapter: GameAdapter) -> GameStatsTally:
    """The game's tally row, locked (made, not built, if missing)."""
    store = GameStatsTally.objects.select_for_update().filter(game=adapter.slug).first()
    if store is None:
        GameStatsTally.objects.bulk_create([GameStatsTally(game=adapter.slug)], ignore_conflicts=True)
        store = GameStatsTally.objects.select_for_update().get(game=adapter.slug)
    return store


def table_changed(session: TableSession) -> None:
    """Bring the game's tally up to date with this table, in the writer's transaction after its write (the
    table's row locked): its part goes in when it is a public finished move-by-move table, and what it put in
    before comes out. Safe to call after any write, and twice."""
    try:
        adapter = get_game(session.game)
    except UnknownGame:
        return
    if adapter.stats_template is None:
        return  # a game without a statistics page keeps no tally
    with transaction.atomic():
        store = _locked(adapter)
        if store.version != adapter.stats_version:
            return  # not built yet: the first read builds it from the tables, this one included
        counted = GameStatsCounted.objects.filter(session_id=session.pk).first()
        new = adapter.stats_table(TableRow(session.setup, session.outcome)) if _counts(session) else None
        old = counted.tally if counted else None
        if new == old:
            return
        tally = store.tally
        if old is not None:
            tally = adapter.stats_subtract(tally, old)
        if new is not None:
            tally = adapter.stats_merge(tally, new)
        store.tally = tally
        store.save(update_fields=["tally", "updated_at"])
        if new is None:
            counted.delete()
        elif counted is None:
            GameStatsCounted.objects.create(session_id=session.pk, game=session.game, tally=new)
        else:
            counted.tally = new
            counted.save(update_fields=["tally"])


def tables_changed(sessions: Iterable[TableSession]) -> None:
    """table_changed for each of `sessions` (a bulk import's tables)."""
    for session in sorted(sessions, key=lambda s: s.pk):
        table_changed(session)


def table_deleted(session: TableSession) -> None:
    """Take a table's part out before its row goes (the models' pre_delete signal, so the admin's and any
    other delete keep the tally right)."""
    try:
        adapter = get_game(session.game)
    except UnknownGame:
        return
    with transaction.atomic():
        TableSession.objects.select_for_update().filter(pk=session.pk).first()  # the writers' lock order
        store = _locked(adapter)
        counted = GameStatsCounted.objects.filter(session_id=session.pk).first()
        if counted is None or store.version != adapter.stats_version:
            return
        store.tally = adapter.stats_subtract(store.tally, counted.tally)
        store.save(update_fields=["tally", "updated_at"])
        counted.delete()


@transaction.atomic
def tally_rebuild(adapter: GameAdapter, *, only_if_unbuilt: bool = False) -> dict:
    """The game's tally counted again from its public finished tables (each table's part stored with it).

    The tally row is locked first, so a table finishing meanwhile waits and is then added to the new tally,
    and each statement after the lock sees every table committed before it."""
    store = _locked(adapter)
    if only_if_unbuilt and store.version == adapter.stats_version:
        return store.tally  # another reader built it while this one waited
    GameStatsCounted.objects.filter(game=adapter.slug).delete()
    tables = (
        TableSession.objects.filter(
            game=adapter.slug, entry=TableSession.Entry.MOVES, status=TableSession.Status.FINISHED, is_public=True
        )
        .order_by()
        .values_list("pk", "setup", "outcome")
    )
    tally: dict = {}
    batch: list[GameStatsCounted] = []
    for pk, setup, outcome in tables.iterator(chunk_size=CHUNK):
        part = adapter.stats_table(TableRow(setup, outcome))
        tally = adapter.stats_merge(tally, part)
        batch.append(GameStatsCounted(session_id=pk, game=adapter.slug, tally=part))
        if len(batch) >= CHUNK:
            GameStatsCounted.objects.bulk_create(batch)
            batch = []
    GameStatsCounted.objects.bulk_create(batch)
    store.tally, store.version = tally, adapter.stats_version
    store.save(update_fields=["tally", "version", "updated_at"])
    return tally


def tallies_rebuild() -> dict[str, bool]:
    """Every game's tally counted again from scratch; for each game, whether the stored one was right."""
    right = {}
    for adapter in all_games():
        if adapter.stats_template is None:
            continue
        before = GameStatsTally.objects.filter(game=adapter.slug).values_list("version", "tally").first()
        after = tally_rebuild(adapter)
        right[adapter.slug] = (
            before is not None
            and before[0] == adapter.stats_version
            and (adapter.stats_present(before[1]) == adapter.stats_present(after))
        )
    return right


def public_tally(adapter: GameAdapter) -> dict:
    """The stored tally of the game's public finished tables (one query), built first if it is missing."""
    row = GameStatsTally.objects.filter(game=adapter.slug).values_list("version", "tally").first()
    if row is None or row[0] != adapter.stats_version:
        return tally_rebuild(adapter, only_if_unbuilt=True)
    return row[1]
