from django.urls import path

from . import views

urlpatterns = [
    path("games/", views.Games.as_view(), name="api-games"),
    path("tables/", views.TableList.as_view(), name="api-tables"),
    path("tables/<str:code>/", views.TableDetail.as_view(), name="api-table"),
    path("tables/<str:code>/moves/", views.MoveList.as_view(), name="api-moves"),
    path("tables/<str:code>/undo/", views.Undo.as_view(), name="api-undo"),
    path("tables/<str:code>/score/", views.TableScore.as_view(), name="api-score"),
    path("final-count/", views.FinalCount.as_view(), name="api-final-count"),
]
