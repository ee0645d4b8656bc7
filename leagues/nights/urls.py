"""League night pages (issue 25), included by leagues.urls."""

from django.urls import path

from . import views

urlpatterns = [
    path("seasons/<int:pk>/nights/", views.season_nights, name="season_nights"),
    path("nights/<int:pk>/", views.night_detail, name="night_detail"),
    path("nights/<int:pk>/check-in/", views.night_check_in, name="night_check_in"),
    path("nights/<int:pk>/standings/", views.night_standings, name="night_standings"),
    path("nights/<int:pk>/tick/", views.night_tick, name="night_tick"),
    path("nights/<int:pk>/propose/", views.night_propose, name="night_propose"),
    path("nights/<int:pk>/rounds/<int:number>/swap/", views.round_swap, name="night_swap"),
    path("nights/<int:pk>/rounds/<int:number>/open/", views.round_open, name="night_open_tables"),
    path("nights/<int:pk>/rounds/<int:number>/tables/<int:position>/lock/", views.table_lock, name="night_table_lock"),
    path("nights/<int:pk>/rounds/<int:number>/tables/<int:position>/game/", views.table_game, name="night_table_game"),
]
