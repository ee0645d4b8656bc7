"""Table sessions and their append-only move log.

The log is the truth: `MoveEvent` rows are only ever inserted. `TableSession.state` is a projection
of the log at `head_seq`, kept so a move is validated without replaying the game; it can be thrown
away and rebuilt (`games.services.session_rebuild`).
"""

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_code() -> str:
    return secrets.token_urlsafe(9)


class TableSession(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    class Entry(models.TextChoices):
        MOVES = "moves", _("move by move")
        FINAL_COUNT = "final_count", _("final count only")

    code = models.CharField(max_length=20, unique=True, default=new_code, editable=False)
    game = models.CharField(_("game"), max_length=40)
    rules_version = models.CharField(max_length=40)
    entry = models.CharField(max_length=12, choices=Entry.choices, default=Entry.MOVES)
    setup = models.JSONField(help_text="The engine's set-up, as entered at the table.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_sessions"
    )
    club = models.ForeignKey("leagues.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="sessions")
    is_public = models.BooleanField(_("anyone may watch"), default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    head_seq = models.PositiveIntegerField(default=0, help_text="Sequence number of the last log entry.")
    rebuilds = models.PositiveIntegerField(
        default=0, help_text="Times the state was rebuilt from the log: with head_seq, the version phones poll for."
    )
    state = models.JSONField(help_text="Projection of the log at head_seq; rebuildable.")
    outcome = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            # The statistics page reads the private finished tables a reader may see (the public ones are stored
            # as a tally, games/stats_store.py): this keeps that read off the public tables.
            models.Index(
                fields=["game"],
                name="session_private_finished",
                condition=models.Q(is_public=False, status="finished", entry="moves"),
            ),
            # ... and from the reader's side, those they made: with the seats (by player) and the clubs (by club)
            # the read follows the reader's own tables when the site's private tables are many.
            models.Index(
                fields=["created_by"],
                name="session_private_finished_by",
                condition=models.Q(is_public=False, status="finished", entry="moves"),
            ),
            # A player's latest public tables (his page, 20 of them): walked newest first, each table's seat for
            # the player looked up, instead of sorting all his tables (issue 18).
            models.Index(fields=["-created_at"], name="session_public_latest", condition=models.Q(is_public=True)),
        ]

    def __str__(self) -> str:
        return f"{self.game} table {self.code}"

    def get_absolute_url(self) -> str:
        return reverse("table_detail", args=[self.code])


class Seat(models.Model):
    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="The engine's seat index, 0-based.")
    player = models.ForeignKey("leagues.Player", on_delete=models.PROTECT, related_name="seats")
    colour = models.CharField(max_length=20, blank=True)
    withdrawn_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Set when the seat no longer lets its player read or move at the table (the club that seated him "
        "removed him); the table's other readers and writers are unchanged.",
    )

    class Meta:
        ordering = ["session", "position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["session", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of {self.session}: {self.player}"


class MoveEvent(models.Model):
    class Kind(models.TextChoices):
        MOVE = "move", _("move")
        UNDO = "undo", _("undo")

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MOVE)
    payload = models.JSONField(help_text="The move as the engine reads it; for an undo, {'undoes': seq}.")
    description = models.CharField(max_length=300, blank=True)
    phrase = models.JSONField(
        default=dict, blank=True, help_text="The description as a code with parameters, said in the reader's language."
    )
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    idempotency_key = models.CharField(max_length=80, null=True, blank=True)  # noqa: DJ001 (unique when set)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["session", "seq"], name="one_event_per_seq"),
            models.UniqueConstraint(
                fields=["session", "idempotency_key"],
                condition=models.Q(idempotency_key__isnull=False),
                name="one_event_per_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.kind} at {self.session}"


class BoardSetup(models.Model):
    """A club's board as its players entered it, for a game whose printed values the site does not know (its map's
    values, as the game's set-up form asks them; keyed by the game's slug): later tables pick it and enter only
    counts. The engine checks it again whenever a table opens with it."""

    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="board_setups")
    game = models.CharField(max_length=40)
    name = models.CharField(max_length=80)
    board = models.JSONField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "game", "name"], name="one_board_name_per_club")]

    def __str__(self) -> str:
        return f"{self.name} ({self.game}, {self.club})"


class GameStatsTally(models.Model):
    """The tally (games.plugins.tally) of a game's public finished move-by-move tables: everyone sees those, so
    the statistics page adds only the reader's own private tables to it and costs the same at 10 and at 100,000
    tables. Kept up to date in the transaction in which a table finishes or is reopened (games/stats_store.py)."""

    game = models.CharField(max_length=40, primary_key=True)
    version = models.PositiveIntegerField(
        default=0, help_text="The game's stats_version the tally was built with; 0: not built yet."
    )
    tally = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.game} statistics (v{self.version})"


class GameStatsCounted(models.Model):
    """A table's part in its game's stored tally, as it was added: taken out exactly when an undo reopens the
    table, or it is deleted, even if its outcome has changed since."""

    session = models.OneToOneField(TableSession, primary_key=True, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=40, db_index=True)
    tally = models.JSONField()

    def __str__(self) -> str:
        return f"table {self.session_id}'s part of the {self.game} statistics"
