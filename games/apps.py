from django.apps import AppConfig
from django.db.models.signals import pre_delete


def _table_deleted(sender, instance, **kwargs) -> None:
    """A deleted table's part leaves its game's stored statistics (admin, shell or a cascade alike)."""
    from games import stats_store

    stats_store.table_deleted(instance)


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games at the table"

    def ready(self) -> None:
        pre_delete.connect(_table_deleted, sender="games.TableSession", dispatch_uid="games-stats-table-deleted")
        from . import heads  # noqa: F401  (its signals drop a table's cached version when the row changes)
