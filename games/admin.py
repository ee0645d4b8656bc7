from django.contrib import admin

from shitenno_site.admin import AppendOnlyAdmin

from . import models, stats_store


class SeatInline(admin.TabularInline):
    model = models.Seat
    extra = 0
    raw_id_fields = ["player"]


class MoveEventInline(admin.TabularInline):
    """Read-only: the log is append-only, even for staff."""

    model = models.MoveEvent
    extra = 0
    can_delete = False
    fields = ["seq", "kind", "description", "entered_by", "created_at"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(models.TableSession)
class TableSessionAdmin(admin.ModelAdmin):
    list_display = ["code", "game", "status", "club", "created_by", "head_seq", "created_at"]
    list_filter = ["game", "status", "entry"]
    search_fields = ["code"]
    raw_id_fields = ["created_by", "club"]
    readonly_fields = ["code", "head_seq", "state", "outcome"]
    inlines = [SeatInline, MoveEventInline]

    def save_model(self, request, obj, form, change) -> None:
        """Staff may change a table's status or visibility here: the game's stored statistics follow."""
        super().save_model(request, obj, form, change)
        stats_store.table_changed(obj)


@admin.register(models.MoveEvent)
class MoveEventAdmin(AppendOnlyAdmin):
    list_display = ["session", "seq", "kind", "description", "entered_by", "created_at"]
    list_filter = ["kind"]
    readonly_fields = ["session", "seq", "kind", "payload", "description", "entered_by", "idempotency_key"]
