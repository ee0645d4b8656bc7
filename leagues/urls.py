from django.urls import include, path

from leagues.club import views as club_views
from leagues.people import views as people_views
from leagues.result import new_table_chances, table_result, views

urlpatterns = [
    path("tables/new/chances/", new_table_chances.table_new_chances, name="table_new_chances"),
    path("players/", people_views.player_list, name="player_list"),
    path("players/new-guest/", people_views.guest_create, name="guest_create"),
    path("players/<int:pk>/", people_views.player_detail, name="player_detail"),
    path("players/<int:pk>/invite/", people_views.player_invite, name="player_invite"),
    path("players/claim/<str:token>/", people_views.player_claim, name="player_claim"),
    path("clubs/", club_views.club_list, name="club_list"),
    path("clubs/new/", club_views.club_create, name="club_create"),
    path("clubs/join/<str:token>/", club_views.club_join, name="club_join"),
    path("clubs/invites/<int:pk>/answer/", club_views.club_invite_answer, name="club_invite_answer"),
    path("clubs/<slug:slug>/", club_views.club_detail, name="club_detail"),
    path("clubs/<slug:slug>/invite/rotate/", club_views.club_invite_rotate, name="club_invite_rotate"),
    path("clubs/<slug:slug>/members/<int:pk>/role/", club_views.membership_role, name="membership_role"),
    path("clubs/<slug:slug>/members/<int:pk>/remove/", club_views.membership_remove, name="membership_remove"),
]

urlpatterns += [
    path("leagues/", views.league_index, name="league_index"),
    path("leagues/rules/", views.league_rules, name="league_rules"),
    path("leagues/<int:pk>/", views.league_detail, name="league_detail"),
    path("rankings/", views.rankings, name="rankings"),
    path("results/<int:pk>/sign-off/", views.result_sign_off, name="result_sign_off"),
    path("results/<int:pk>/edit/", views.result_edit, name="result_edit"),
    path("results/<int:pk>/delete/", views.result_delete, name="result_delete"),
    path("results/waiting/", views.results_waiting, name="results_waiting"),
    path("results/waiting/sign-imported/", views.results_sign_imported, name="results_sign_imported"),
    path("tables/<str:code>/result/", table_result.table_result, name="table_result"),
]

urlpatterns += [
    path("clubs/<slug:slug>/audit/", club_views.club_audit, name="club_audit"),
]

urlpatterns += [
    path("clubs/<slug:slug>/leagues/new/", views.league_create, name="league_create"),
    path("leagues/<int:pk>/seasons/new/", views.season_create, name="season_create"),
    path("leagues/<int:pk>/results/new/", views.result_create, name="result_create"),
]

from leagues.club import league_edit_views  # noqa: E402
from leagues.imports import export_views  # noqa: E402
from leagues.imports import views as import_views  # noqa: E402

urlpatterns += [  # editing and deleting leagues and seasons (issue 34)
    path("leagues/<int:pk>/edit/", league_edit_views.league_edit, name="league_edit"),
    path("leagues/<int:pk>/delete/", league_edit_views.league_delete, name="league_delete"),
    path("seasons/<int:pk>/edit/", league_edit_views.season_edit, name="season_edit"),
    path("seasons/<int:pk>/delete/", league_edit_views.season_delete, name="season_delete"),
]

urlpatterns += [
    path("clubs/<slug:slug>/import/", import_views.import_start, name="import_start"),
    path("clubs/<slug:slug>/import/<str:token>/", import_views.import_preview, name="import_preview"),
    path("clubs/<slug:slug>/import/<str:token>/commit/", import_views.import_commit_view, name="import_commit"),
    path("clubs/<slug:slug>/import/<str:token>/progress/", import_views.import_progress, name="import_progress"),
    path("clubs/<slug:slug>/export/<str:kind>/", export_views.club_export, name="club_export"),
    path("clubs/<slug:slug>/exports/<str:token>/", export_views.export_progress, name="export_progress"),
    path("clubs/<slug:slug>/exports/<str:token>/download/", export_views.export_download, name="export_download"),
]

urlpatterns += [path("", include("leagues.nights.urls"))]  # league nights (issue 25)
urlpatterns += [path("", include("leagues.tournaments.urls"))]  # tournament days (issue 51)
