"""The registered games, for the pages that let the reader pick one (home, rankings, leagues)."""

from django.http import HttpRequest


def registered_games(request: HttpRequest) -> dict:
    from games.plugins import all_games

    return {"registered_games": all_games()}
