"""A tournament day's pages (issue 51), included by leagues.urls."""

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:slug>/tournaments/new/", views.tournament_create, name="tournament_create"),
    path("tournaments/<int:pk>/", views.tournament_day, name="tournament_day"),
    path("tournaments/<int:pk>/check-in/", views.tournament_check_in, name="tournament_check_in"),
    path("tournaments/<int:pk>/drop/", views.tournament_drop, name="tournament_drop"),
    path("tournaments/<int:pk>/pair/", views.tournament_pair, name="tournament_pair"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/pods/<int:position>/places/",
        views.pod_places,
        name="tournament_places",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/pods/<int:position>/settle/",
        views.pod_settle,
        name="tournament_settle",
    ),
    path("tournaments/<int:pk>/rounds/<int:number>/tables/", views.round_tables_open, name="tournament_tables"),
    path("tournaments/<int:pk>/judges/", views.tournament_judges, name="tournament_judges"),
    path("tournaments/<int:pk>/wall/", views.tournament_wall, name="tournament_wall"),
    path("tournaments/<int:pk>/standings.csv", views.standings_csv, name="tournament_standings_csv"),
]
