from django.contrib import admin

from .models import ClubHours, Notification, PushSubscription


@admin.register(ClubHours)
class ClubHoursAdmin(admin.ModelAdmin):
    """A club's digest hour and quiet hours (docs/notifications.md)."""

    list_display = ["club", "digest_hour", "quiet_from", "quiet_until"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """What was told to whom, to look into a complaint: read only, the events write these."""

    list_display = ["recipient", "kind", "state", "attempts", "created_at", "sent_at"]
    list_filter = ["kind", "state"]
    readonly_fields = [
        "recipient",
        "kind",
        "club",
        "payload",
        "dedupe_key",
        "state",
        "created_at",
        "sent_at",
        "claimed_at",
        "attempts",
    ]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    list_display = ["user", "user_agent", "created_at"]
    readonly_fields = ["user", "endpoint", "p256dh", "auth", "session_key", "user_agent", "created_at"]
