"""A league night's rows (issue 25): the night, who checked in, its rounds and their tables.

Kept beside the optimiser and imported by leagues.models, so the app's models module does not grow further.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def default_sizes() -> list[int]:
    return [3, 4]


MIX_CHOICES = [("fill", _("Full tables first")), ("free", _("Fewest repeats first"))]


class Night(models.Model):
    season = models.ForeignKey("leagues.Season", on_delete=models.CASCADE, related_name="nights")
    date = models.DateField(_("date"))
    games = models.JSONField(default=list, help_text="The games on offer tonight (slugs of the league's games).")
    table_sizes = models.JSONField(default=default_sizes, help_text="Table sizes allowed, within each game's own.")
    forbidden = models.JSONField(default=list, blank=True, help_text="Pairs of player ids never seated together.")
    boxes = models.JSONField(
        default=dict,
        blank=True,
        help_text="Boxes of a game the club has tonight (slug -> number): at most that many "
        "tables of it. A game not named has no limit.",
    )
    mix = models.CharField(
        _("table mix"),
        max_length=4,
        choices=MIX_CHOICES,
        default="fill",
        help_text="The optimiser's objective (leagues.nights.pods): fill or free.",
    )
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "leagues"
        ordering = ["season", "date", "pk"]

    def __str__(self) -> str:
        return f"{self.season}: {self.date}"


class NightCheckIn(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="night_check_ins")
    only_game = models.CharField(max_length=100, blank=True, help_text="Set when the player plays only this game.")
    checked_in_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True, help_text="Leaving early: not seated in later rounds.")

    class Meta:
        app_label = "leagues"
        constraints = [models.UniqueConstraint(fields=["night", "player"], name="one_check_in_per_night")]
        ordering = ["night", "checked_in_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player_id} at {self.night}"


class NightRound(models.Model):
    night = models.ForeignKey(Night, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    opened_at = models.DateTimeField(null=True, blank=True, help_text="When its tables were opened; then fixed.")

    class Meta:
        app_label = "leagues"
        constraints = [models.UniqueConstraint(fields=["night", "number"], name="one_round_number_per_night")]
        ordering = ["night", "number"]

    def __str__(self) -> str:
        return f"{self.night}, round {self.number}"


class NightTable(models.Model):
    round = models.ForeignKey(NightRound, on_delete=models.CASCADE, related_name="tables")
    position = models.PositiveIntegerField()
    game = models.CharField(max_length=100)
    players = models.JSONField(help_text="Player ids in seat order, seat 0 (the first player) first.")
    locked = models.BooleanField(default=False)
    session = models.ForeignKey(
        "games.TableSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        app_label = "leagues"
        ordering = ["round", "position"]

    def __str__(self) -> str:
        return f"{self.round}, table {self.position + 1}: {self.game}"


class NightProposal(models.Model):
    """A night's latest proposal of its round (issue 36): one row per night, claimed by the proposal that runs, so
    a second "propose" while one runs answers at once instead of waiting, and kept with its outcome (the round
    proposed, a refusal and its reason, a failure) for the organiser's page and the API to poll
    (leagues.nights.proposing). `attempt` counts the claims: a job runs only the attempt it was queued for."""

    class State(models.TextChoices):
        QUEUED = "queued", _("waiting for the optimiser")
        RUNNING = "running", _("proposing")
        DONE = "done", _("proposed")
        REFUSED = "refused", _("refused")
        FAILED = "failed", _("failed")

    night = models.OneToOneField(Night, on_delete=models.CASCADE, related_name="proposal")
    state = models.CharField(max_length=8, choices=State.choices, default=State.DONE)
    attempt = models.PositiveIntegerField(default=0)
    outcome = models.JSONField(
        default=dict, blank=True, help_text='{"round": number} once proposed; {"error": reason, "code": ...} else.'
    )
    language = models.CharField(max_length=16, blank=True, help_text="The organiser's, for the outcome's words.")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "leagues"

    def __str__(self) -> str:
        return f"{self.night}: {self.state}"
