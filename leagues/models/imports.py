"""An upload waiting between its preview and its commit (issue 34): in the database, not the cache, so the
preview on one process and the commit on another find it, a cache flush loses nothing, and the commit job's
outcome (success, refusal, failure with its reason) is kept where the progress page reads it."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PendingImport(models.Model):
    class State(models.TextChoices):
        WAITING = "waiting"  # previewed, not committed
        RUNNING = "running"  # a commit (in the page or the job) is under way
        DONE = "done"
        REFUSED = "refused"  # the commit refused it (the reason in `error`): nothing written
        FAILED = "failed"  # the commit failed (the reason in `error`): nothing written

    token = models.CharField(max_length=40, unique=True)
    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=10)
    files = models.JSONField(default=list, help_text="The uploaded files' names, in order (bytes in `data`).")
    data = models.BinaryField(help_text="The files' bytes, one after another (their lengths in `sizes`).")
    sizes = models.JSONField(default=list)
    choices = models.JSONField(default=dict, help_text="The preview's merges, game matches, seasons and vouch.")
    preview = models.JSONField(
        default=dict,
        blank=True,
        help_text=("What the preview shows for the choices last asked, built once (leagues/imports/preview.py)."),
    )
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    outcome = models.JSONField(default=dict, blank=True, help_text="The summary, or the error, once it ends.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True, help_text="When the commit was last asked for.")
    expires_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"import {self.token} ({self.state})"

    def file_list(self) -> list[tuple[str, bytes]]:
        data, at, out = bytes(self.data), 0, []
        for name, size in zip(self.files, self.sizes, strict=True):
            out.append((name, data[at : at + size]))
            at += size
        return out


class ClubExport(models.Model):
    """A large club's export file, built once by the heavy queue's job and downloaded from its page (issue 46
    finding 6: a club of 100,000 entries held a web worker 7-11 s per download, and any member may ask). The bytes
    are kept gzip-compressed in the row, so any web process serves them; one build per club and kind runs at a
    time (`one_export_building`), so a member who taps again, or a second member, joins it."""

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        READY = "ready"
        FAILED = "failed"

    token = models.CharField(max_length=40, unique=True)
    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who asked for it (any member of the club may download it).",
    )
    kind = models.CharField(max_length=10)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    fingerprint = models.JSONField(
        default=dict,
        help_text=("The club's results when it was asked (count, last change): an unchanged club reuses a fresh file."),
    )
    data = models.BinaryField(default=b"", help_text="The file, gzip-compressed (empty until ready).")
    size = models.PositiveBigIntegerField(default=0, help_text="The file's size in bytes, uncompressed.")
    error = models.CharField(
        max_length=20,
        blank=True,
        default="",
        help_text=(
            "Why it failed, as a code (leagues.imports.export_job.failure_text says it in the reader's language)."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "kind"], condition=models.Q(state__in=["queued", "running"]), name="one_export_building"
            ),
        ]

    def __str__(self) -> str:
        return f"export {self.kind} of club {self.club_id} ({self.state})"
