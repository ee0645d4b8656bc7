"""The board editor's pages, under /games/samurai_empires/boards/ (the adapter's `urls`, mounted by games/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("boards/new/", views.board_new, name="sse_board_new"),
    path("boards/new/region/<int:n>/", views.board_region, name="sse_board_region"),
    path("boards/new/save/", views.board_finish, name="sse_board_finish"),
]
