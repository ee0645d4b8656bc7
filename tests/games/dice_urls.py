"""A game's own URLconf, for tests/games/test_registry.py (the adapter's `urls` hook)."""

from django.http import HttpResponse
from django.urls import path


def board_new(request):
    return HttpResponse("a board")


urlpatterns = [path("boards/new/", board_new)]
