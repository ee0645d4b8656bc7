from django.contrib import admin

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

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if change and "members_public" in form.changed_data:
            from .clubs import club_privacy_changed

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
        from . import outbox

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

    def save_formset(self, request, form, formset, change):
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

    def save_model(self, request, obj, form, change):
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
    """Edit results through the site or API: they re-rate; admin edits here do not enqueue the jobs."""

    list_display = ["id", "game", "played_on", "season", "status", "version"]
    list_filter = ["status", "game"]
    raw_id_fields = ["session", "created_by", "club", "season"]
    readonly_fields = ["in_standings"]
    inlines = [ResultEntryInline, SignOffInline]


@admin.register(models.ResultEntry)
class ResultEntryAdmin(admin.ModelAdmin):
    list_display = ["result", "player", "rank", "score"]
    raw_id_fields = ["result", "player"]


@admin.register(models.SignOff)
class SignOffAdmin(admin.ModelAdmin):
    list_display = ["result", "player", "agreed", "by", "created_at"]
    list_filter = ["agreed"]
    raw_id_fields = ["result", "player", "by"]


@admin.register(models.Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "kind", "key", "mu", "sigma", "games"]
    list_filter = ["kind", "key"]
    raw_id_fields = ["player"]


@admin.register(models.RatingEvent)
class RatingEventAdmin(admin.ModelAdmin):
    list_display = ["player", "kind", "key", "result", "played_on", "mu_before", "mu_after"]
    list_filter = ["kind", "key"]
    raw_id_fields = ["player", "result"]


@admin.register(models.Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["season", "player", "ranked", "points", "games", "wins"]
    list_filter = ["season"]
    raw_id_fields = ["player"]


# --- Audit trail (issue 7): read-only, rows are only appended by the services ---


@admin.register(models.AuditEntry)
class AuditEntryAdmin(AppendOnlyAdmin):
    list_display = ["created_at", "action", "club", "user", "object_type", "object_id"]
    list_filter = ["action", "club"]
    search_fields = ["action", "user__username", "details"]
    date_hierarchy = "created_at"
    readonly_fields = ["club", "user", "created_at", "action", "object_type", "object_id", "details"]
