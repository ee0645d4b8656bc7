"""A table's version (head_seq and rebuilds) in the shared cache, so that the poll of a public table that has not
moved is answered from one cache read: no database, no session, no user.

Only ever too new, never too old: the version is written by the writer that makes it, while it holds the table's
row lock and before it commits (games.services._append), so writes to it come in the table's own order, and one
that is rolled back leaves a version no phone has seen (its polls then ask the database, which answers as before).
Any other change of the row drops the version, at once and again once committed: a rebuild
(games.services.session_rebuild), a whole-row save such as the admin's (making the table private) and a
deletion (the signals below). Code that saves the version's fields by name keeps this cache itself. A table that
is not public never has one: its poll asks the database, which checks the viewer. A missing version costs the
poll only what it cost before.
"""

from __future__ import annotations

import re

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from .models import TableSession

HEAD_SECONDS = 3600  # a table idle for an hour is asked of the database again
_CODE = re.compile(r"[A-Za-z0-9_-]{1,20}")  # new_code()'s alphabet; anything else is not a table's code


def _name(code: str) -> str:
    return f"table-head:{code}"


def version(head_seq: int, rebuilds: int) -> str:
    return f"{head_seq}.{rebuilds}"


def public_unchanged(code: str, seq: str | None, rebuilds: str | None) -> bool:
    """Whether `code` is a public table whose version is the one the poll names (its `seq` and `v`)."""
    if seq is None or rebuilds is None or not _CODE.fullmatch(code):
        return False
    return cache.get(_name(code)) == f"{seq}.{rebuilds}"


def head_store(session: TableSession) -> None:
    """Called by a writer holding the row's lock, before it commits (see the module's docstring)."""
    if session.is_public:
        cache.set(_name(session.code), version(session.head_seq, session.rebuilds), HEAD_SECONDS)


def head_created(session: TableSession) -> None:
    """A new public table's first version, once its creation is committed. Added only if there is none yet (SET
    NX): a move made in between (the code was out) has stored a newer one, which must stay."""
    if session.is_public:
        name, first = _name(session.code), version(session.head_seq, session.rebuilds)
        transaction.on_commit(lambda: cache.add(name, first, HEAD_SECONDS))


def head_forget(code: str) -> None:
    """Dropped now and again once committed: a poll in between may have no version to read, never an old one."""
    cache.delete(_name(code))
    transaction.on_commit(lambda: cache.delete(_name(code)))


@receiver(post_save, sender=TableSession, dispatch_uid="games.heads.saved")
@receiver(post_delete, sender=TableSession, dispatch_uid="games.heads.deleted")
def _row_changed(sender, instance: TableSession, created: bool = False, update_fields=None, **kwargs) -> None:
    """A whole-row save (the admin's form, a script) or a deletion drops the cached version: it may have changed
    the version or who may watch. A save of named fields is a service's, which keeps the version itself (a
    writer's append stores it, a rebuild forgets it); the signal leaves those alone, so that they pay no cache
    round trip and no read of a deferred code. A new row has none to drop (head_created adds its first)."""
    if not created and update_fields is None and instance.code:
        head_forget(instance.code)
