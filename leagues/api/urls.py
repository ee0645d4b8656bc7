from django.urls import path

from leagues.nights import api as nights
from leagues.tournaments import api as tournaments
from shitenno_site.tokens import api as tokens

from . import chance_views, league_views, result_views, views

urlpatterns = [
    path("me/", views.MeView.as_view(), name="api-me"),
    path("me/data/", views.MyDataView.as_view(), name="api-me-data"),
    path("me/delete/", views.MeDelete.as_view(), name="api-me-delete"),
    path("tokens/", tokens.AccessTokenList.as_view(), name="api-tokens"),
    path("tokens/<int:pk>/", tokens.AccessTokenDetail.as_view(), name="api-token"),
    path("players/", views.PlayerList.as_view(), name="api-players"),
    path("players/claim/", views.PlayerClaim.as_view(), name="api-player-claim"),
    path("players/<int:pk>/", views.PlayerDetail.as_view(), name="api-player"),
    path("players/<int:pk>/invite/", views.PlayerInvite.as_view(), name="api-player-invite"),
    path("clubs/", views.ClubList.as_view(), name="api-clubs"),
    path("clubs/join/", views.ClubJoin.as_view(), name="api-club-join"),
    path("invites/", views.InviteList.as_view(), name="api-invites"),
    path("invites/<int:pk>/", views.InviteAnswer.as_view(), name="api-invite-answer"),
    path("clubs/<slug:slug>/", views.ClubDetail.as_view(), name="api-club"),
    path("clubs/<slug:slug>/members/", views.ClubMembers.as_view(), name="api-club-members"),
    path("clubs/<slug:slug>/members/<int:pk>/", views.MembershipDetail.as_view(), name="api-membership"),
]

# Leagues, results, ratings and standings (issue 5)

urlpatterns += [
    path("leagues/", league_views.LeagueList.as_view(), name="api-leagues"),
    path("clubs/<slug:slug>/leagues/", league_views.ClubLeagues.as_view(), name="api-club-leagues"),
    path("leagues/<int:pk>/", league_views.LeagueDetail.as_view(), name="api-league"),
    path("leagues/<int:pk>/seasons/", league_views.LeagueSeasons.as_view(), name="api-league-seasons"),
    path("seasons/<int:pk>/", league_views.SeasonDetail.as_view(), name="api-season"),
    path("seasons/<int:pk>/standings/", league_views.SeasonStandings.as_view(), name="api-season-standings"),
    path("ratings/", league_views.RatingList.as_view(), name="api-ratings"),
    path("games/<str:slug>/chances/", chance_views.GameChances.as_view(), name="api-game-chances"),
    path("players/<int:pk>/ratings/history/", league_views.PlayerRatingHistory.as_view(), name="api-rating-history"),
    path("players/<int:pk>/stats/", league_views.PlayerStats.as_view(), name="api-player-stats"),
    path("results/", result_views.ResultList.as_view(), name="api-results"),
    path("results/<int:pk>/", result_views.ResultDetail.as_view(), name="api-result"),
    path("results/<int:pk>/sign-off/", result_views.ResultSignOff.as_view(), name="api-result-sign-off"),
    path("tables/<str:code>/result/", result_views.TableResult.as_view(), name="api-table-result"),
    path("tables/<str:code>/sign-off/", result_views.TableSignOff.as_view(), name="api-table-sign-off"),
    path("seasons/<int:pk>/nights/", nights.SeasonNights.as_view(), name="api-season-nights"),
    path("nights/<int:pk>/", nights.NightDetail.as_view(), name="api-night"),
    path("tournaments/<int:pk>/", tournaments.TournamentDetail.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/rounds/", tournaments.TournamentRounds.as_view(), name="api-tournament-rounds"),
    path("clubs/<slug:slug>/tournaments/", tournaments.ClubTournaments.as_view(), name="api-club-tournaments"),
    path("tournaments/<int:pk>/entries/", tournaments.TournamentEntries.as_view(), name="api-tournament-entries"),
    path("tournaments/<int:pk>/check-in/", tournaments.TournamentCheckIn.as_view(), name="api-tournament-check-in"),
    path("tournaments/<int:pk>/drop/", tournaments.TournamentDrop.as_view(), name="api-tournament-drop"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/pods/<int:position>/places/",
        tournaments.PodPlaces.as_view(),
        name="api-tournament-places",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/pods/<int:position>/settle/",
        tournaments.PodSettle.as_view(),
        name="api-tournament-settle",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/tables/",
        tournaments.RoundTables.as_view(),
        name="api-tournament-tables",
    ),
    path("tournaments/<int:pk>/judges/", tournaments.TournamentJudges.as_view(), name="api-tournament-judges"),
    path("nights/<int:pk>/check-in/", nights.NightCheckInView.as_view(), name="api-night-check-in"),
    path("nights/<int:pk>/leave/", nights.NightLeave.as_view(), name="api-night-leave"),
    path("nights/<int:pk>/rounds/", nights.NightRounds.as_view(), name="api-night-rounds"),
    path("nights/<int:pk>/proposal/", nights.NightProposalView.as_view(), name="api-night-proposal"),
    path("nights/<int:pk>/rounds/<int:number>/swap/", nights.RoundSwap.as_view(), name="api-night-swap"),
    path("nights/<int:pk>/rounds/<int:number>/open/", nights.RoundOpen.as_view(), name="api-night-open"),
    path(
        "nights/<int:pk>/rounds/<int:number>/tables/<int:position>/lock/",
        nights.TableLock.as_view(),
        name="api-night-lock",
    ),
    path(
        "nights/<int:pk>/rounds/<int:number>/tables/<int:position>/game/",
        nights.TableGame.as_view(),
        name="api-night-table-game",
    ),
]
