from django.urls import path

from . import views

urlpatterns = [
    path("tables/new/", views.table_new, name="table_new"),
    path("tables/final-count/", views.final_count, name="final_count"),
    path("tables/<str:code>/", views.table_detail, name="table_detail"),
]
