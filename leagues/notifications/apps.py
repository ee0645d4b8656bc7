from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "leagues.notifications"
    label = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from . import devices

        # a push device goes with the session that turned push on, however that session ends (issue 47)
        devices.connect()
