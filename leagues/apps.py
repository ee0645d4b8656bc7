from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Players, clubs and leagues"

    def ready(self) -> None:
        from leagues.result import for_games

        for_games.connect()  # results follow tables, and games learn who plays (games never import leagues)
