from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.preferences, name="settings"),
    path("devices/", views.devices, name="devices"),
    path("to-sign/", views.to_sign, name="to_sign"),
    path("clubs/<slug:slug>/", views.club_hours, name="club_hours"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
