from django.contrib import admin


class AppendOnlyAdmin(admin.ModelAdmin):
    """For records that are only ever appended (the move log, the audit trail): staff read, nobody edits."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
