from django.urls import include, path

from games.plugins import GameAdapter, all_games

from . import views


def game_patterns(games: list[GameAdapter]) -> list:
    """Each game's own pages (its adapter's `urls`, a URLconf module), under /games/<slug>/: a game adds pages
    without editing this file."""
    return [path(f"games/{game.slug}/", include(game.urls)) for game in games if game.urls]


urlpatterns = [
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/final-count/", views.final_count, name="final_count"),
    path("tables/final-count/<slug:game>/", views.final_count, name="final_count"),
    path("tables/<str:code>/", views.table_detail, name="table_detail"),
    path("tables/<str:code>/live/", views.table_live, name="table_live"),
    path("tables/<str:code>/move/", views.table_move, name="table_move"),
    path("tables/<str:code>/undo/", views.table_undo, name="table_undo"),
    path("tables/<str:code>/history/", views.table_history, name="table_history"),
    path("games/<slug:game>/", views.game_stats, name="game_stats"),
    *game_patterns(all_games()),
]
