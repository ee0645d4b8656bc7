"""The board editor's pages, under /games/samurai_empires/boards/ (games/urls.py includes them)."""

from django.urls import path

from . import views

urlpatterns = [
    path("new/", views.board_new, name="sse_board_new"),
    path("new/region/<int:n>/", views.board_region, name="sse_board_region"),
    path("new/save/", views.board_finish, name="sse_board_finish"),
]
