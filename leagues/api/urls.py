from django.urls import path

from . import views

urlpatterns = [
    path("me/", views.MeView.as_view(), name="api-me"),
    path("players/", views.PlayerList.as_view(), name="api-players"),
    path("players/claim/", views.PlayerClaim.as_view(), name="api-player-claim"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:pk>/invite/", views.PlayerInvite.as_view(), name="api-player-invite"),
    path("clubs/", views.ClubList.as_view(), name="api-clubs"),
    path("clubs/join/", views.ClubJoin.as_view(), name="api-club-join"),
    path("clubs/<slug:slug>/", views.ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/members/", views.ClubMembers.as_view(), name="api-club-members"),
    path("clubs/<slug:slug>/members/<int:pk>/", views.MembershipDetail.as_view(), name="api-membership"),
]
