"""A tournament day's rows (issue 51, docs/tournaments.md): the tournament in a club, who entered, its rounds and
their pods. Kept beside the pairing and imported by leagues.models, as the nights' rows are.

A pod keeps its players in seat order and, once played, each one's place: the standings are computed from those
(leagues.tournaments.ranking), never stored, so a corrected place cannot leave a stale table behind.
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def default_sizes() -> list[int]:
    return [3, 4]


def default_scheme() -> dict[str, list[int]]:
    """Points per place by pod size (JSON keys are text): 4/2/1/0, a pod of three its first three places."""
    return {"4": [4, 2, 1, 0], "3": [4, 2, 0]}


def new_seed() -> str:
    return secrets.token_hex(8)


class Tournament(models.Model):
    class Cut(models.TextChoices):
        NONE = "none", _("no cut")
        FINAL = "final", _("a final table of the top players")
        SEMI_FINALS = "semi", _("semi-final pods, then a final")

    class FirstRound(models.TextChoices):
        RANDOM = "random", _("random pods from the recorded seed")
        RATINGS = "ratings", _("seeded by the club's ratings")

    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="tournaments")
    season = models.ForeignKey(
        "leagues.Season",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        help_text="Counted in this season, if any.",
    )
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    games = models.JSONField(default=list, blank=True, help_text="The games played (engine slugs or names).")
    table_sizes = models.JSONField(default=default_sizes, help_text="Pod sizes allowed, as a night's table sizes.")
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), default=4)
    scheme = models.JSONField(default=default_scheme, help_text='Points per place by pod size: {"4": [4, 2, 1, 0]}.')
    bye_points = models.PositiveSmallIntegerField(default=0, help_text="What a bye scores.")
    cut = models.CharField(_("cut"), max_length=5, choices=Cut.choices, default=Cut.FINAL)
    cut_size = models.PositiveSmallIntegerField(default=4, help_text="How many go to the cut (the top N).")
    first_round = models.CharField(max_length=7, choices=FirstRound.choices, default=FirstRound.RANDOM)
    round_minutes = models.PositiveSmallIntegerField(_("round clock (minutes)"), default=60)
    seed = models.CharField(
        max_length=32,
        default=new_seed,
        help_text="Recorded: the first round's draw and the tie-breaking lots come from it.",
    )
    judges = models.ManyToManyField(
        "leagues.Player",
        blank=True,
        related_name="judged_tournaments",
        help_text="Members of the club who may settle a pod's places, as its managers do.",
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "leagues"
        ordering = ["club", "-date", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club}, {self.date})"

    def scheme_by_size(self) -> dict[int, list]:
        return {int(size): points for size, points in self.scheme.items()}


class TournamentEntry(models.Model):
    """A registered player; checked in on the day; `entered_round` > 1 for a late entry (he starts at 0 points),
    `dropped_after` the last round he played when he left (he keeps his results)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="tournament_entries")
    checked_in_at = models.DateTimeField(null=True, blank=True)
    entered_round = models.PositiveSmallIntegerField(default=1)
    dropped_after = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "leagues"
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_tournament")]
        ordering = ["tournament", "created_at", "pk"]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.tournament}"


class TournamentRound(models.Model):
    """A round: a Swiss round, the semi-final pods of a "semi" cut, or the final table.

    Why a kind of its own for the semi-finals ("semi") rather than reading the round's role from its number: the
    final table keeps the kind "cut" it has always had (after the Swiss rounds of a "final" cut, or after the
    semi-finals), so every page, the API and the push that say "final" for a "cut" round stay right, and a
    client tells the semi-finals from the final by the round alone (leagues.tournaments.cut)."""

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss round")
        SEMI = "semi", _("semi-finals")
        CUT = "cut", _("cut")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.SWISS)
    pairing = models.JSONField(
        default=dict, blank=True, help_text="The pairing's figures: repeats, spread, bound, exact; byes; the lots."
    )
    clock_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "leagues"
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="one_round_number_per_tournament")]
        ordering = ["tournament", "number"]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


class TournamentPod(models.Model):
    class PlacesFrom(models.TextChoices):
        NONE = "", _("not yet")
        TABLE = "table", _("the table's result, counted by its players")
        JUDGE = "judge", _("the table's result, settled by a judge")
        HAND = "hand", _("entered by hand")

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="pods")
    position = models.PositiveSmallIntegerField(help_text="0 for the leaders' pod.")
    players = models.JSONField(help_text="Player ids in seat order, seat 0 (the first player) first.")
    places = models.JSONField(default=dict, blank=True, help_text='Once played: {"<player id>": place}, 1 for first.')
    places_from = models.CharField(
        max_length=5,
        choices=PlacesFrom.choices,
        default="",
        blank=True,
        help_text="Where the places came from: the table's counted result, or by hand.",
    )
    session = models.ForeignKey(
        "games.TableSession",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="The site table opened for the pod, if any.",
    )

    class Meta:
        app_label = "leagues"
        constraints = [models.UniqueConstraint(fields=["round", "position"], name="one_pod_position_per_round")]
        ordering = ["round", "position"]

    def __str__(self) -> str:
        return f"{self.round}, pod {self.position + 1}"
