from django.urls import include, path

from . import views

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
    path("games/samurai_empires/boards/", include("games.plugins.samurai_empires.urls")),
]
