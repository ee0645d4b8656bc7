"""People and clubs: a Player sits at tables, with or without an account; a Club gathers players."""

import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from leagues.models.fields import FractionField
from leagues.standings import DEFAULT_TIE_BREAKERS, season_tie_breakers, validate_rules


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Player(models.Model):
    """A person at a table. A guest has no user until someone claims it with its invite link."""

    name = models.CharField(_("name"), max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    claim_token = models.CharField(max_length=64, unique=True, null=True, blank=True)  # noqa: DJ001 (unique when set)
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="merged_guests",
        help_text="A claimed guest whose games moved to this player; kept for the record.",
    )
    created_in = models.ForeignKey(
        "Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_guests",
        help_text="The club a manager added this guest for: its managers, like the guest's creator, may make the "
        "guest's claim link. Empty for guests added outside a club.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [  # the players list, a page at a time in name order: read off the index, not sorted whole
            models.Index(fields=["name", "id"], name="player_list_order", condition=Q(merged_into__isnull=True)),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("player_detail", args=[self.pk])

    @property
    def is_guest(self) -> bool:
        return self.user_id is None


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(unique=True, max_length=100)
    description = models.TextField(_("description"), blank=True)
    members_public = models.BooleanField(
        _("public club"),
        default=False,
        help_text=_(
            "When off, the club is private: only members see who is in it, its leagues, standings and "
            "results, and its results count in its leagues' ratings only, not in the site-wide rankings."
        ),
    )
    invite_token = models.CharField(max_length=64, unique=True, default=new_token)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club_detail", args=[self.slug])

    @property
    def is_private(self) -> bool:
        return not self.members_public


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        ADMIN = "admin", _("admin")
        MEMBER = "member", _("member")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="one_membership_per_club")]
        ordering = ["club", "player__name"]

    def __str__(self) -> str:
        return f"{self.player} in {self.club} ({self.role})"

    @property
    def manages(self) -> bool:
        return self.role in (self.Role.OWNER, self.Role.ADMIN)


class ClubInvite(models.Model):
    """A manager asked a player into the club; nobody becomes a member without consent. The player's own
    account answers, or, for a guest, whoever added the guest (the guest has no account to answer with)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invites")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_invites")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], name="one_invite_per_club_and_player")]

    def __str__(self) -> str:
        return f"{self.player} invited to {self.club}"


# --- Leagues, seasons, results, ratings and standings (issue 5) ---


class League(models.Model):
    """A club's league: one game or several, by engine slug or free-text name for games without an engine."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(max_length=100)
    games = models.JSONField(default=list, help_text="Game slugs (or free-text names) this league counts.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [models.UniqueConstraint(fields=["club", "slug"], name="one_league_slug_per_club")]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"

    def get_absolute_url(self) -> str:
        return reverse("league_detail", args=[self.pk])


def default_tie_breakers() -> list[str]:
    """A new season's tie-breakers: all six, points first (see leagues.standings)."""
    return list(DEFAULT_TIE_BREAKERS)


class Season(models.Model):
    class Scheme(models.TextChoices):
        SCORE_3210 = "3-2-1-0", _("3-2-1-0 (3-1.5-0 at three players)")
        SCORE_7531 = "7-5-3-1", _("7-5-3-1 (7-4-1 at three players)")
        PERCENT = "percent", _("percentage of opponents beaten")
        CUSTOM = "custom", _("custom")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    points_scheme = models.CharField(max_length=10, choices=Scheme.choices, default=Scheme.SCORE_3210)
    custom_points = models.JSONField(
        default=dict, blank=True, help_text='Points by place for each player count, e.g. {"4": [4, 2, 1, 0]}.'
    )
    min_games = models.PositiveIntegerField(_("minimum games to be ranked"), default=0)
    tie_breakers = models.JSONField(
        default=default_tie_breakers,
        help_text="Ordered tie-breaker names, exactly as the table applies them (points first unless placed); "
        "see leagues.standings.",
    )
    standings_results = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="Results folded into the stored table; empty until a full recompute (no incremental update).",
    )
    standings_rules = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The rules the stored table was made with; other rules now, and the next update recomputes it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-starts_on"]

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"

    def clean(self) -> None:
        """The admin's edits keep the rules the services keep: known names, once each, points first unless
        placed, so that the stored order is the one the table applies."""
        names = self.tie_breakers if isinstance(self.tie_breakers, list) else [self.tie_breakers]
        if not all(isinstance(name, str) for name in names):
            raise ValidationError({"tie_breakers": "A list of tie-breaker names."})
        errors = validate_rules(scheme=self.points_scheme, custom=self.custom_points, tie_breakers=names)
        stored = Season.objects.filter(pk=self.pk).values_list("tie_breakers", flat=True).first() if self.pk else None
        if self.league_id and season_tie_breakers(names) != stored:  # issue 50: like with like, as the services
            from leagues.common.tie_breaks import tie_breaker_refusal

            errors.update(tie_breaker_refusal(self.league.games, names))
        if errors:
            raise ValidationError(errors)
        self.tie_breakers = season_tie_breakers(names)


class Result(models.Model):
    """A finished game, from a table session or entered directly. Counts for ratings once signed off."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for sign-off")
        COUNTED = "counted", _("counted")
        DISPUTED = "disputed", _("disputed")

    game = models.CharField(_("game"), max_length=80)
    played_on = models.DateField(_("played on"))
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="results")
    season = models.ForeignKey(Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="results")
    session = models.OneToOneField(
        "games.TableSession", null=True, blank=True, on_delete=models.SET_NULL, related_name="result"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    version = models.PositiveIntegerField(default=1, help_text="Editors send the version they saw; stale is refused.")
    in_standings = models.BooleanField(
        default=False, help_text="Folded into its season's stored table (set with it, under the season's lock)."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    ranked_publicly = models.BooleanField(
        default=False,
        db_default=False,
        help_text="Counted and signed by at least two different accounts (access.result_signed_publicly): only "
        "then does it move the site-wide game ratings.",
    )
    flagged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="A player disputed this result after it counted: it keeps counting until a manager acts.",
    )
    flag_note = models.CharField(max_length=300, blank=True, default="", db_default="")
    source = models.CharField(
        max_length=10,
        blank=True,
        default="",
        db_default="",
        help_text='Where an imported result came from ("bgstats", "bgg"); empty for results entered here.',
    )
    external_id = models.CharField(
        max_length=100,
        blank=True,
        default="",
        db_default="",
        help_text="The play's id in its source (a BG Stats uuid, a BGG play id, with #n for a quantity): "
        "a re-import finds it and writes nothing twice.",
    )
    vouched_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="An imported play whose importing manager confirmed it in the preview: he answers for every "
        "player of it (access.result_signers), so it counts in the club's leagues at once; a player "
        "may still dispute it (issue 34).",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "source", "external_id"],
                name="one_result_per_imported_play",
                condition=~Q(external_id=""),
            ),
        ]
        indexes = [
            models.Index(fields=["game", "status", "played_on"]),
            # A player's latest counted games (the bars of his page): walked latest first, each result's entry for
            # the player looked up, instead of sorting all his games (issue 18).
            models.Index(fields=["-played_on", "-id"], name="result_counted_latest", condition=Q(status="counted")),
            # What waits for a signature (leagues.common.selectors.results_to_sign, the header's badge on every page):
            # read from the results not counted yet, a few, not from the whole table.
            models.Index(fields=["id"], name="result_waiting", condition=Q(status__in=["pending", "disputed"])),
        ]

    def __str__(self) -> str:
        return f"{self.game} on {self.played_on} (#{self.pk})"


class ResultEntry(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="result_entries")
    rank = models.PositiveSmallIntegerField(help_text="1 is first; tied players share a rank.")
    score = models.FloatField(null=True, blank=True)
    score_text = models.CharField(
        max_length=60,
        blank=True,
        default="",
        db_default="",
        help_text='An imported score that is not a number ("3+20+5"): kept as written, it decides no rank.',
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Seat or start order, 1 first.")
    win_before = models.FloatField(
        null=True, blank=True, help_text="A table's result: the chance to win its page showed when the game ended."
    )
    place_before = models.FloatField(null=True, blank=True, help_text="The expected place shown then.")

    class Meta:
        ordering = ["result", "rank", "player__name"]
        constraints = [models.UniqueConstraint(fields=["result", "player"], name="one_entry_per_player")]

    def __str__(self) -> str:
        return f"{self.player} #{self.rank} in {self.result}"


class SignOff(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="sign_offs")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sign_offs")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    agreed = models.BooleanField(default=True)
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["result", "created_at"]
        constraints = [models.UniqueConstraint(fields=["result", "player"], name="one_sign_off_per_player")]

    def __str__(self) -> str:
        return f"{self.player} {'agrees' if self.agreed else 'disputes'} {self.result}"


class AuditEntry(models.Model):
    """One correction or membership change: who did it, when, to what. Rows are only ever appended."""

    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
        help_text="The club whose trail shows this entry; empty for tables and results of no club.",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    action = models.CharField(max_length=40)
    object_type = models.CharField(max_length=60, help_text="app_label.model of the object changed.")
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    details = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["club", "-created_at"])]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} {self.object_type}#{self.object_id} by {self.user_id} at {self.created_at}"


class LeagueJob(models.Model):
    """A rating or standings job still to run, written in the same transaction as the change that asks for it
    (the outbox): the broker only carries a hint to run it now, and the sweep (beat, worker start) runs what the
    broker lost. One row per (job, target): asking again coalesces, a re-rate keeping the earliest `since`."""

    class Job(models.TextChoices):
        RATE_RESULT = "rate_result", "rate a counted result"
        RATE_SCOPE = "rate_scope", "re-rate a scope"
        FOLD_RESULT = "fold_result", "fold a counted result into its season's table"
        COMPUTE_STANDINGS = "compute_standings", "recompute a season's table"
        TALLY_PLAYER = "tally_player", "recount a player's tallies"
        NOTIFY = "notify", "push a person's waiting notifications"  # issue 39 (leagues/notifications)
        PASSWORD_RESET = "password_reset", "mail a password-reset link"  # issue 47 (leagues/people/password_reset.py)

    job = models.CharField(max_length=20, choices=Job.choices)
    target = models.CharField(
        max_length=300,
        help_text='A result id, a season id, a player id, a scope ("league:7"), or a '
        "password reset's language, key and address.",
    )
    since = models.DateField(null=True, blank=True, help_text="rate_scope: re-rate from this date; empty: all.")
    generation = models.PositiveIntegerField(
        default=1, help_text="Bumped by each new ask: a run deletes the row only if nobody asked again meanwhile."
    )
    marked_at = models.DateTimeField(help_text="The last ask; the sweep leaves rows this recent to their message.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "target"], name="league_job_once_per_target")]

    def __str__(self) -> str:
        return f"{self.job} {self.target}" + (f" since {self.since}" if self.since else "")


from leagues.nights.models import Night, NightCheckIn, NightProposal, NightRound, NightTable  # noqa: E402 (issue 25)
from leagues.tournaments.models import (  # noqa: E402 (issue 51)
    Tournament,
    TournamentEntry,
    TournamentPod,
    TournamentRound,
)

from .accounts import VerifiedAddress  # noqa: E402 (issue 47: an account's address, verified)

# The derived rows (ratings, standings, tallies) in a module of their own (they name the models above by string);
# imported here so `leagues.models` names every model as before.
from .derived import PlayerTally, Rating, RatingEvent, RatingFit, RatingScope, RivalTally, Standing  # noqa: E402
from .imports import ClubExport, PendingImport  # noqa: E402 (issue 34: an upload between preview and commit)

__all__ = [
    "AuditEntry",
    "Club",
    "ClubInvite",
    "FractionField",
    "League",
    "LeagueJob",
    "Membership",
    "Player",
    "PlayerTally",
    "Rating",
    "RatingEvent",
    "RatingScope",
    "Result",
    "ResultEntry",
    "RivalTally",
    "Season",
    "SignOff",
    "Standing",
    "default_tie_breakers",
    "new_token",
    "Night",
    "NightCheckIn",
    "NightProposal",
    "NightRound",
    "NightTable",
    "PendingImport",
    "ClubExport",
    "RatingFit",
    "Tournament",
    "TournamentEntry",
    "TournamentPod",
    "TournamentRound",
    "VerifiedAddress",
]
