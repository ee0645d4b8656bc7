from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games at the table"

    def ready(self) -> None:
        from . import heads  # noqa: F401  (its signals drop a table's cached version when the row changes)
