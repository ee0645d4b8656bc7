from django.contrib import admin
from django.db.models import F

from leagues.jobs import outbox
from leagues.result import admin_changes
from shitenno_site.admin import AppendOnlyAdmin

from . import models


class MembershipInline(admin.TabularInline):
    model = models.Membership
    extra = 0
    raw_id_fields = ["player"]


@admin.register(models.Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username"]
    raw_id_fields = ["user", "created_by", "merged_into", "created_in"]


@admin.register(models.Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "members_public", "created_at"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if change and "members_public" in form.changed_data:
            from leagues.club.clubs import club_privacy_changed

            club_privacy_changed(club=obj)


@admin.register(models.Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "player", "role", "joined_at"]
    list_filter = ["role", "club"]
    raw_id_fields = ["player"]


# --- Leagues, results, ratings and standings (issue 5) ---


STANDINGS_RULES = {"points_scheme", "custom_points", "min_games", "tie_breakers"}


def _recompute_if_rules_changed(season: models.Season, form) -> None:
    """New rules, new table: asked for at once, so the page shows it without waiting for the next result (the
    store would recompute anyway: it keeps the rules each table was made with)."""
    if season.pk and STANDINGS_RULES & set(form.changed_data):
        outbox.ask_compute_standings(season.pk)


class SeasonInline(admin.TabularInline):
    model = models.Season
    extra = 0
    readonly_fields = ["standings_results"]


@admin.register(models.League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "slug", "created_at"]
    list_filter = ["club"]
    inlines = [SeasonInline]

    def save_formset(self, request, form, formset, change) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is models.Season:
            for season_form in formset.forms:
                if season_form.instance.pk and season_form.initial:  # an existing season, not deleted
                    _recompute_if_rules_changed(season_form.instance, season_form)


@admin.register(models.Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on", "points_scheme", "min_games"]
    list_filter = ["league"]
    readonly_fields = ["standings_results"]

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        if change:
            _recompute_if_rules_changed(obj, form)


class ResultEntryInline(admin.TabularInline):
    model = models.ResultEntry
    extra = 0
    raw_id_fields = ["player"]


class SignOffInline(admin.TabularInline):
    model = models.SignOff
    extra = 0
    raw_id_fields = ["player", "by"]


@admin.register(models.Result)
class ResultAdmin(admin.ModelAdmin):
    """A result saved or deleted here (with its entries) asks for the same jobs as a correction on the site:
    ratings, standings and the players' tallies before and after, plus an audit line (`result_changed_in_admin`).
    The site's and the API's forms stay the way to correct a result: they check the season's rules."""

    list_display = ["id", "game", "played_on", "season", "status", "version"]
    list_filter = ["status", "game"]
    raw_id_fields = ["session", "created_by", "club", "season"]
    # The status follows the sign-offs (admin_changes.result_changed_in_admin): nobody counts a result by hand.
    readonly_fields = ["status", "ranked_publicly", "in_standings", "version"]
    inlines = [ResultEntryInline, SignOffInline]

    def save_model(self, request, obj, form, change) -> None:
        # Read before anything is saved: the inlines (who played, how they placed) are saved after this.
        request.result_before = admin_changes.result_footprint(obj.pk) if change else None
        if change:  # a correction here is a new version too: a form opened on the site before it is refused
            obj.version = F("version") + 1
        super().save_model(request, obj, form, change)
        if change:
            obj.refresh_from_db(fields=["version"])

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)
        admin_changes.result_changed_in_admin(
            before=request.result_before, result_id=form.instance.pk, user=request.user
        )

    def delete_model(self, request, obj) -> None:
        before, pk = admin_changes.result_footprint(obj.pk), obj.pk
        super().delete_model(request, obj)
        admin_changes.result_changed_in_admin(before=before, result_id=pk, user=request.user)

    def delete_queryset(self, request, queryset) -> None:
        for result in queryset:
            self.delete_model(request, result)


class DerivedRowsAdmin(admin.ModelAdmin):
    """Rows the jobs derive from the results (ratings, their history, standings): staff read them; an edit here
    would be overwritten by the next job, so there is none. Deleting stays possible (deleting a player or a result
    deletes its rows), and a deletion made here asks for the job that writes the rows again."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def delete_model(self, request, obj) -> None:
        super().delete_model(request, obj)
        self.rebuild([obj])

    def delete_queryset(self, request, queryset) -> None:
        rows = list(queryset)
        super().delete_queryset(request, queryset)
        self.rebuild(rows)

    def rebuild(self, rows) -> None:
        raise NotImplementedError


class ScopeRowsAdmin(DerivedRowsAdmin):
    def rebuild(self, rows) -> None:
        for kind, key in sorted({(row.kind, row.key) for row in rows}):
            outbox.ask_rate_scope(kind, key)


@admin.register(models.Rating)
class RatingAdmin(ScopeRowsAdmin):
    list_display = ["player", "kind", "key", "mu", "sigma", "games"]
    list_filter = ["kind", "key"]
    raw_id_fields = ["player"]


@admin.register(models.RatingEvent)
class RatingEventAdmin(ScopeRowsAdmin):
    list_display = ["player", "kind", "key", "result", "played_on", "mu_before", "mu_after"]
    list_filter = ["kind", "key"]
    raw_id_fields = ["player", "result"]


@admin.register(models.Standing)
class StandingAdmin(DerivedRowsAdmin):
    list_display = ["season", "player", "ranked", "points", "games", "wins"]
    list_filter = ["season"]
    raw_id_fields = ["player"]

    def rebuild(self, rows) -> None:
        for season_id in sorted({row.season_id for row in rows}):
            outbox.ask_compute_standings(season_id)


# --- Audit trail (issue 7): read-only, rows are only appended by the services ---


@admin.register(models.AuditEntry)
class AuditEntryAdmin(AppendOnlyAdmin):
    list_display = ["created_at", "action", "club", "user", "object_type", "object_id"]
    list_filter = ["action", "club"]
    search_fields = ["action", "user__username", "details"]
    date_hierarchy = "created_at"
    readonly_fields = ["club", "user", "created_at", "action", "object_type", "object_id", "details"]
