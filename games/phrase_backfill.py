"""Say the move logs of tables played before the log kept phrases (games migration 0005) in every language.

Those entries hold only their English `description`, so a Dutch reader sees English lines. The log's payloads are
the truth: replaying them through the game's engine gives each move's phrase exactly as it was said when it was
entered, so this fills in `phrase` and changes nothing else (the move, its order and its English text stay).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from .engines import get_engine
from .engines.base import IllegalMove, InvalidMove, Phrase
from .models import MoveEvent, TableSession


@dataclass
class Backfilled:
    tables: int = 0
    entries: int = 0
    refused: dict[str, str] = field(default_factory=dict)  # table code -> why its log could not be replayed


def _phrases_of(session: TableSession, events: list[MoveEvent]) -> dict[int, dict]:
    """Each entry's phrase (by seq) from a replay of the log, as `services` would have stored it."""
    engine = get_engine(session.game)
    described = getattr(engine, "describe_phrase", None)
    state = engine.initial_state(session.setup)
    standing: list[tuple[MoveEvent, dict, dict]] = []  # (event, the state before it, its phrase)
    phrases: dict[int, dict] = {}
    for event in events:
        if event.kind == MoveEvent.Kind.UNDO:
            undone, state, undone_phrase = standing.pop()
            phrases[event.seq] = {"code": "site.undo", "params": {"move": undone_phrase or undone.description}}
            continue
        phrase = described(state, event.payload, checked=True) if described else None
        said = phrase.to_json() if isinstance(phrase, Phrase) else {}
        standing.append((event, state, said))
        phrases[event.seq] = said
        state = engine.apply(state, event.payload)
    return phrases


def phrases_backfill(*, batch: int = 200) -> Backfilled:
    """Fill in the phrase of every log entry that lacks one, a table at a time (each in its own transaction,
    so a long run holds no lock for long and can be stopped and run again: it skips what is done)."""
    done = Backfilled()
    codes = TableSession.objects.filter(events__phrase={}).order_by("pk").values_list("code", flat=True).distinct()
    for code in list(codes):
        with transaction.atomic():
            session = TableSession.objects.select_for_update().get(code=code)
            events = list(session.events.order_by("seq"))
            try:
                phrases = _phrases_of(session, events)
            except (IllegalMove, InvalidMove, IndexError, KeyError, TypeError, ValueError) as exc:
                done.refused[code] = f"{type(exc).__name__}: {exc}"
                continue
            missing = [event for event in events if not event.phrase and phrases.get(event.seq)]
            for event in missing:
                event.phrase = phrases[event.seq]
            MoveEvent.objects.bulk_update(missing, ["phrase"], batch_size=batch)
        done.tables += 1
        done.entries += len(missing)
    return done
