from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "leagues.notifications"
    label = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out

        from . import services

        # signing out of a device stops its pushes: that device's subscription goes with its session
        user_logged_out.connect(services.forget_device_at_logout, dispatch_uid="notifications-logout")
