"""What the jobs compute from the results, never entered by hand: ratings and their events, standings, and the
player and rival tallies. Apart from the people, clubs and results they are computed from (leagues/models/__init__.py)
so each half reads on its own; all of it can be rebuilt from the results (leagues/jobs/repair.py)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.models.fields import FractionField
from leagues.standings import points_text


class RatingScope(models.TextChoices):
    GAME = "game", _("game")
    LEAGUE = "league", _("league")


class Rating(models.Model):
    """A player's current rating in a scope: a game (key = slug) or a league (key = league id)."""

    kind = models.CharField(max_length=8, choices=RatingScope.choices)
    key = models.CharField(max_length=80)
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    # what the scope's latest games, read together, say of his skill (leagues.rating.posterior, issue 40): the win
    # chances read these, on the performance noise's scale; null for a player outside the scope's latest games
    chance_mean = models.FloatField(null=True, blank=True)
    chance_sd = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["kind", "key", "-mu"]
        constraints = [models.UniqueConstraint(fields=["kind", "key", "player"], name="one_rating_per_scope")]
        # the rankings' order (leagues.common.selectors.ratings_list): a page of 50 read in order, not sorted
        indexes = [
            models.Index(
                models.F("kind"),
                models.F("key"),
                (models.F("mu") - 3 * models.F("sigma")).desc(),
                name="rating_leaderboard",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.kind}:{self.key} {self.mu:.2f}±{self.sigma:.2f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatingFit(models.Model):
    """A scope's own figures for its win chances (issue 40), stored by the rating jobs each time they rate the
    scope, so reading the chances stays one query (a subquery of the ratings' own): the spread of skills its latest
    games give (leagues.rating.posterior; null when no game has two places yet, and then the chances read the
    ratings), and the performance spread b for chances read from the ratings (leagues.rating.display
    .fitted_performance_sd: a finished table's chances before it). No row: the ratings and the fixed b."""

    kind = models.CharField(max_length=8, choices=RatingScope.choices)
    key = models.CharField(max_length=80)
    performance_sd = models.FloatField()
    skill_sd = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["kind", "key"], name="one_rating_fit_per_scope")]

    def __str__(self) -> str:
        return f"{self.kind}:{self.key} b={self.performance_sd:.2f}"


class RatingEvent(models.Model):
    """One result's effect on one player's rating in one scope: the rating history.

    Derived rows, written only by the rating services from the results they read under the scope's lock
    (a full recompute writes millions at once). The foreign keys are therefore not checked by the
    database: a checked key costs a trigger per row and key (half of a 1,000,000-result recompute's time).
    Deleting a result or a player still deletes its rows (Django's CASCADE), and a recompute rewrites the
    scope. The unique constraint leads with the result, so it also serves the lookups by result.
    On PostgreSQL the table's pages keep half their room free (fillfactor 50, migration 0007): a re-rate from
    a date updates the later rows in place, each on its own page, without touching the indexes. Each scope's rows
    are a partition of their own (migration 0016): a full recompute builds a scope's history unindexed and swaps
    it in (leagues/rating/partitions.py).
    """

    kind = models.CharField(max_length=8, choices=RatingScope.choices)
    key = models.CharField(max_length=80)
    result = models.ForeignKey(
        "leagues.Result", on_delete=models.CASCADE, related_name="rating_events", db_constraint=False, db_index=False
    )
    player = models.ForeignKey(
        "leagues.Player", on_delete=models.CASCADE, related_name="rating_events", db_constraint=False
    )
    played_on = models.DateField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["kind", "key", "played_on", "result_id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "kind", "key", "player"], name="one_rating_event_per_result"),
        ]
        indexes = [models.Index(fields=["kind", "key", "played_on", "result"])]

    def __str__(self) -> str:
        return f"{self.player} {self.kind}:{self.key} {self.mu_before:.2f}->{self.mu_after:.2f}"


class Standing(models.Model):
    """A stored row of a season's table, written by the standings jobs. The row's place is its sort key (see
    leagues/standings.py); positions and what separates neighbours are worked out from the keys when the table
    is read, so a new result rewrites only the rows whose tallies it changes, not every row it moves."""

    season = models.ForeignKey("leagues.Season", on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="standings")
    sort_key = models.BinaryField(default=b"", help_text="The row's tie-breaker values, in the season's order.")
    ranked = models.BooleanField(default=True)
    points = FractionField(default="0", help_text="Exact: see leagues.standings.place_points.")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    seconds = models.PositiveIntegerField(default=0)
    opponents_points = FractionField(default="0")
    margin = models.FloatField(null=True, blank=True)
    margin_sum = models.FloatField(default=0, help_text="Sum of the margins of the games with scores.")
    margin_games = models.PositiveIntegerField(default=0, help_text="Games with scores: margin = margin_sum / this.")

    class Meta:
        ordering = ["season", "sort_key", "player_id"]
        constraints = [models.UniqueConstraint(fields=["season", "player"], name="one_standing_per_player")]

    def __str__(self) -> str:
        return f"{self.season}: {self.player}"

    @property
    def points_text(self) -> str:
        """The exact points as the page and the API both show them ("1725", "12.5", "66 2/3")."""
        return points_text(self.points)

    @property
    def opponents_points_text(self) -> str:
        return points_text(self.opponents_points)


# --- Stored tallies of each player's counted games (issue 18) ---


class PlayerTally(models.Model):
    """A player's counted games in one club (or none) at one table size, from tables anyone may watch (or none):
    the player page's record and win rate by number of players are sums of a few of these rows, whatever the
    player's history. Derived rows, rewritten per player by the tally job (leagues/standings/tally.py) from the
    results; the viewer's visible clubs are chosen when the page reads them, so a club going private needs no job.
    """

    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="tallies")
    club = models.ForeignKey("leagues.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(
        max_length=80,
        default="",
        help_text="The game's slug: scores are only summed within "
        "one game (treasure and victory points do not add up).",
    )
    players = models.PositiveSmallIntegerField(help_text="Players at the table.")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0, help_text="Games the player finished first in (ties included).")
    scored = models.PositiveIntegerField(default=0, help_text="Games with a score: the average is score_sum / this.")
    score_sum = models.FloatField(default=0)
    best = models.FloatField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.player_id} in club {self.club_id}, {self.game} at {self.players}: {self.wins}/{self.games}"


class RivalTally(models.Model):
    """A player's counted games against one opponent in one club (or none), from tables anyone may watch: the
    head-to-head list and the nemesis. Kept with PlayerTally, both ways round (each player's rows are his own)."""

    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="rival_tallies")
    opponent = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("leagues.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    won = models.PositiveIntegerField(default=0, help_text="Games the player finished ahead of the opponent.")
    lost = models.PositiveIntegerField(default=0, help_text="Games the opponent finished ahead of the player.")

    def __str__(self) -> str:
        return f"{self.player_id} v {self.opponent_id} in club {self.club_id}: won {self.won}, lost {self.lost}"


# --- Audit trail (issue 7) ---
