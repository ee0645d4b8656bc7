"""A tournament round's site tables and where a pod's places come from (issue 51): the organiser opens one table per
pod, its players seated in the pod's order, as a league night opens its tables; a pod's table counted by its players
records the pod's places; places entered by hand stand; a judge settles a finished table at once, without the
sign-offs; a stranger cannot judge and nothing is recorded; round 1 may be seeded by the club's ratings."""

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import signals
from games.models import TableSession
from leagues.club import seasons
from leagues.models import Player, Rating, Result, Tournament, TournamentPod
from leagues.people.players import player_for_user
from leagues.result import results
from leagues.tournaments import services, tables
from shitenno_site.problems import PROBLEM_CONTENT_TYPE

from .league_helpers import members_joined

DAY = datetime.date(2026, 12, 5)


@pytest.fixture
def users(club, bob):
    """alice (the owner), carol, bob and five more members: eight players, two pods of four."""
    return members_joined(club, bob, [f"p{n}" for n in range(5)])


@pytest.fixture
def tournament(club, alice, carol, users):
    tournament = services.tournament_create(
        club=club, user=alice, name="Winter cup", date=DAY, games=["shitenno"], swiss_rounds=2
    )
    for user in [alice, carol, *users]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    return tournament


@pytest.fixture
def opened(tournament, alice):
    """Round 1 paired and its tables open."""
    first = services.round_pair(tournament=tournament, user=alice)
    tables.round_tables_open(tournament_round=first, user=alice)
    return first


def pods_of(round_) -> list[TournamentPod]:
    return list(round_.pods.order_by("position"))


def finish_on_the_phones(session: TableSession, finish: list[int]) -> TableSession:
    """The table's last move, as games' move writer ends a game: finished with its outcome (`finish`: the player
    ids, first place first), then `table_finished` in the same transaction (leagues writes the pending result)."""
    seats = {seat.player_id: seat.position for seat in session.seats.all()}
    with transaction.atomic():
        session.status, session.finished_at = TableSession.Status.FINISHED, timezone.now()
        session.outcome = {
            "termination": "end",
            "details": {},
            "placings": [
                {"seat": seats[player], "rank": rank, "score": 40 - rank, "tiebreak": None}
                for rank, player in enumerate(finish, start=1)
            ],
        }
        session.save()
        signals.table_finished.send(sender=TableSession, session=session)
    return session


def sign_off_by_all(session: TableSession) -> Result:
    result = Result.objects.get(session=session)
    for player in Player.objects.filter(pk__in=result.entries.values("player")).select_related("user"):
        result = results.result_sign_off(result=result, user=player.user)
    return result


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def pod_url(tournament, pod, tail):
    return f"/api/tournaments/{tournament.pk}/rounds/{pod.round.number}/pods/{pod.position}/{tail}/"


# --- tables open with the pods' seats ---


def test_the_organiser_opens_one_table_per_pod_seated_in_the_pods_order(tournament, opened, club):
    for pod in pods_of(opened):
        session = pod.session
        assert session is not None and session.game == "shitenno" and session.club_id == club.pk
        assert list(session.seats.order_by("position").values_list("player_id", flat=True)) == pod.players
        assert session.status == TableSession.Status.PLAYING


def test_a_member_cannot_open_the_tables_and_nothing_is_opened(tournament, alice, carol):
    first = services.round_pair(tournament=tournament, user=alice)
    with pytest.raises(PermissionDenied):
        tables.round_tables_open(tournament_round=first, user=carol)
    assert not TableSession.objects.exists() and not first.pods.filter(session__isnull=False).exists()


def test_a_game_the_site_has_no_tables_for_is_refused_and_nothing_is_opened(tournament, alice):
    tournament.games = ["shitenno", "Go"]
    tournament.save(update_fields=["games"])
    first = services.round_pair(tournament=tournament, user=alice)
    with pytest.raises(ValidationError, match="no tables for Go"):
        tables.round_tables_open(tournament_round=first, user=alice)
    assert not TableSession.objects.exists()  # all or nothing: not even the Shitennō pod's table


def test_a_game_listed_by_its_name_opens_its_tables(tournament, alice):
    tournament.games = ["Shitennō"]
    tournament.save(update_fields=["games"])
    tables.round_tables_open(tournament_round=services.round_pair(tournament=tournament, user=alice), user=alice)
    assert set(TableSession.objects.values_list("game", flat=True)) == {"shitenno"}


def test_tables_open_once_and_opening_again_is_refused(tournament, opened, alice):
    with pytest.raises(ValidationError, match="has its table or its places already"):
        tables.round_tables_open(tournament_round=opened, user=alice)
    assert TableSession.objects.count() == 2


def test_the_players_day_page_line_links_to_his_table(client, tournament, opened, carol):
    client.force_login(carol)
    pod = next(p for p in pods_of(opened) if player_for_user(carol).pk in p.players)
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert f'href="{pod.session.get_absolute_url()}"' in page
    assert f"Round 1: table {pod.position + 1}, Shitennō, seat" in page


def test_the_api_opens_the_tables_and_names_each_pods_table(tournament, alice, carol):
    services.round_pair(tournament=tournament, user=alice)
    refused = client_for(carol).post(f"/api/tournaments/{tournament.pk}/rounds/1/tables/", {}, format="json")
    assert refused.status_code == 403 and refused["Content-Type"].startswith(PROBLEM_CONTENT_TYPE)
    assert not TableSession.objects.exists()
    answer = client_for(alice).post(f"/api/tournaments/{tournament.pk}/rounds/1/tables/", {}, format="json")
    assert answer.status_code == 201, answer.content
    codes = [pod["table"] for pod in answer.json()["rounds"][0]["pods"]]
    assert sorted(codes) == sorted(TableSession.objects.values_list("code", flat=True))


# --- results come from the tables ---


def test_a_pods_table_counted_by_its_players_records_the_pods_places(tournament, opened):
    pod = pods_of(opened)[0]
    finish = list(reversed(pod.players))
    finish_on_the_phones(pod.session, finish)
    pod.refresh_from_db()
    assert pod.places == {}  # finished, but not signed off yet: the places wait for the players
    assert sign_off_by_all(pod.session).status == Result.Status.COUNTED
    pod.refresh_from_db()
    assert pod.places == {str(p): n for n, p in enumerate(finish, start=1)} and pod.places_from == "table"
    rows, _lots = services.tournament_standings(tournament)
    assert {r.player: r.points for r in rows}[finish[0]] == 4  # the standings follow at once


def test_places_entered_by_hand_stand_when_the_table_counts_later(tournament, opened, alice):
    pod = pods_of(opened)[0]
    by_hand = {p: n for n, p in enumerate(pod.players, start=1)}
    services.pod_places(pod=pod, user=alice, places=by_hand)
    finish_on_the_phones(pod.session, list(reversed(pod.players)))
    sign_off_by_all(pod.session)
    pod.refresh_from_db()
    assert pod.places == {str(p): n for p, n in by_hand.items()} and pod.places_from == "hand"


def test_two_tables_counted_let_the_next_round_be_paired(tournament, opened, alice):
    for pod in pods_of(opened):
        finish_on_the_phones(pod.session, pod.players)
        sign_off_by_all(pod.session)
    second = services.round_pair(tournament=tournament, user=alice)
    assert second.number == 2


# --- the judge ---


def test_a_judge_settles_a_finished_tables_places_without_the_sign_offs(tournament, opened, alice, bob):
    services.tournament_judges_set(tournament=tournament, user=alice, judges=[player_for_user(bob)])
    pod = pods_of(opened)[1]
    finish = [pod.players[2], pod.players[0], pod.players[3], pod.players[1]]
    finish_on_the_phones(pod.session, finish)
    answer = client_for(bob).post(pod_url(tournament, pod, "settle"), {}, format="json")
    assert answer.status_code == 200, answer.content
    pod.refresh_from_db()
    assert pod.places == {str(p): n for n, p in enumerate(finish, start=1)} and pod.places_from == "judge"
    assert Result.objects.get(session=pod.session).status == Result.Status.PENDING  # the sign-offs still to come
    data = answer.json()
    assert data["judges"] == [player_for_user(bob).pk] and data["may_judge"] is True
    assert data["rounds"][0]["pods"][1]["places_from"] == "judge"


def test_a_judge_enters_a_physical_tables_places_by_hand(tournament, alice, bob):
    services.tournament_judges_set(tournament=tournament, user=alice, judges=[player_for_user(bob)])
    pod = pods_of(services.round_pair(tournament=tournament, user=alice))[0]
    places = [{"player": p, "place": n} for n, p in enumerate(pod.players, start=1)]
    answer = client_for(bob).post(pod_url(tournament, pod, "places"), {"places": places}, format="json")
    assert answer.status_code == 200, answer.content
    pod.refresh_from_db()
    assert pod.places_from == "hand" and len(pod.places) == 4


def test_a_stranger_cannot_judge_403_404_and_nothing_recorded(tournament, opened, carol, dave):
    pod = pods_of(opened)[0]
    finish_on_the_phones(pod.session, pod.players)
    places = [{"player": p, "place": n} for n, p in enumerate(pod.players, start=1)]
    for user, code in ((carol, 403), (dave, 404), (None, 404)):  # a member who is no judge; strangers to the club
        for tail, body in (("settle", {}), ("places", {"places": places})):
            answer = client_for(user).post(pod_url(tournament, pod, tail), body, format="json")
            assert answer.status_code in ((401, 403, 404) if user is None else (code,)), (user, tail)
            assert answer["Content-Type"].startswith(PROBLEM_CONTENT_TYPE)
    pod.refresh_from_db()
    assert pod.places == {} and pod.places_from == ""
    assert client_for(carol).get(f"/api/tournaments/{tournament.pk}/").json()["may_judge"] is False
    with pytest.raises(PermissionDenied):
        tables.pod_settle(pod=pod, user=carol)


def test_settling_a_table_still_playing_is_a_400_and_nothing_recorded(tournament, opened, alice):
    pod = pods_of(opened)[0]
    answer = client_for(alice).post(pod_url(tournament, pod, "settle"), {}, format="json")
    assert answer.status_code == 400 and "still being played" in answer.json()["detail"]
    pod.refresh_from_db()
    assert pod.places == {}


def test_only_members_judge_and_only_managers_name_them(tournament, alice, carol, dave):
    stranger = player_for_user(dave)
    answer = client_for(alice).put(
        f"/api/tournaments/{tournament.pk}/judges/", {"judges": [stranger.pk]}, format="json"
    )
    assert answer.status_code == 400 and answer["Content-Type"].startswith(PROBLEM_CONTENT_TYPE)
    answer = client_for(carol).put(
        f"/api/tournaments/{tournament.pk}/judges/", {"judges": [player_for_user(carol).pk]}, format="json"
    )
    assert answer.status_code == 403
    assert not tournament.judges.exists()
    answer = client_for(alice).put(
        f"/api/tournaments/{tournament.pk}/judges/", {"judges": [player_for_user(carol).pk]}, format="json"
    )
    assert answer.status_code == 200 and answer.json()["judges"] == [player_for_user(carol).pk]


# --- round 1 seeded by the club's ratings ---


def test_round_one_seeded_by_the_clubs_ratings_seats_the_best_rated_together(club, alice, carol, users):
    tournament = services.tournament_create(
        club=club, user=alice, name="Seeded cup", date=DAY, games=["shitenno"], first_round="ratings"
    )
    players = [player_for_user(u) for u in [alice, carol, *users]]
    for player in players:
        services.tournament_enter(tournament=tournament, user=alice, player=player, checked_in=True)
    rated = players[:6]  # six rated, the best last; two unrated
    for n, player in enumerate(rated):
        Rating.objects.create(kind="game", key="shitenno", player=player, mu=20 + n, sigma=1, games=10)
    first = services.round_pair(tournament=tournament, user=alice)
    leaders, rest = pods_of(first)
    assert sorted(leaders.players) == sorted(p.pk for p in rated[2:])  # the four best rated
    assert leaders.players[-1] == rated[-1].pk  # the best rated is the leader: seated last
    assert set(rest.players) == {rated[0].pk, rated[1].pk, players[6].pk, players[7].pk}
    assert set(first.pairing["ratings"]) == {str(p.pk) for p in rated}


# --- the day page ---


def test_the_organiser_opens_the_tables_from_the_day_page(client, tournament, alice):
    services.round_pair(tournament=tournament, user=alice)
    client.force_login(alice)
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert "Open the tables" in page
    answer = client.post(reverse("tournament_tables", args=[tournament.pk, 1]))
    assert answer.status_code == 302 and TableSession.objects.count() == 2
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert "Open the tables" not in page and page.count(">The table</a>") == 2


def test_a_judge_settles_a_finished_table_from_the_day_page_in_english_and_dutch(
    client, tournament, opened, alice, bob
):
    client.force_login(alice)
    answer = client.post(reverse("tournament_judges", args=[tournament.pk]), {"judges": [player_for_user(bob).pk]})
    assert answer.status_code == 302 and list(tournament.judges.all()) == [player_for_user(bob)]
    pod = pods_of(opened)[0]
    finish_on_the_phones(pod.session, pod.players)
    client.force_login(bob)
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert "Settle table 1 from its result" in page and "Judge: bob" in page
    assert "Pair the next round" not in page  # a judge settles places; he does not run the day
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert "Tafel 1 vastleggen volgens de uitslag" in page and "Jurylid: bob" in page
    answer = client.post(reverse("tournament_settle", args=[tournament.pk, 1, 0]))
    assert answer.status_code == 302
    pod.refresh_from_db()
    assert pod.places_from == "judge" and pod.places == {str(p): n for n, p in enumerate(pod.players, start=1)}


def test_a_member_who_is_no_judge_is_refused_on_the_page_and_nothing_is_recorded(client, tournament, opened, carol):
    pod = pods_of(opened)[0]
    finish_on_the_phones(pod.session, pod.players)
    client.force_login(carol)
    page = client.get(reverse("tournament_day", args=[tournament.pk])).content.decode()
    assert "Settle table" not in page and "Save the places" not in page
    assert client.post(reverse("tournament_settle", args=[tournament.pk, 1, 0])).status_code == 403
    assert (
        client.post(
            reverse("tournament_places", args=[tournament.pk, 1, 0]),
            {f"place_{p}": str(n) for n, p in enumerate(pod.players, start=1)},
        ).status_code
        == 403
    )
    assert client.post(reverse("tournament_tables", args=[tournament.pk, 1])).status_code == 403
    pod.refresh_from_db()
    assert pod.places == {} and not tournament.judges.exists()


def test_a_tournament_in_a_season_is_seeded_by_its_leagues_ratings_set_up_through_the_api(club, alice, carol, users):
    today = timezone.localdate()
    league = seasons.league_create(club=club, name="Cup league", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Winter",
        starts_on=today - datetime.timedelta(days=9),
        ends_on=today + datetime.timedelta(days=30),
        user=alice,
    )
    answer = client_for(alice).post(
        f"/api/clubs/{club.slug}/tournaments/",
        {"name": "Seeded cup", "date": today.isoformat(), "games": ["shitenno"], "first_round": "ratings"},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["first_round"] == "ratings", answer.content
    tournament = Tournament.objects.get(pk=answer.json()["id"])
    tournament.season = season
    tournament.save(update_fields=["season"])
    players = [player_for_user(u) for u in [alice, carol, *users]]
    for player in players:
        services.tournament_enter(tournament=tournament, user=alice, player=player, checked_in=True)
    best = players[4:]  # the league's best four; the game's ratings say the opposite and are not read
    for n, player in enumerate(players):
        Rating.objects.create(kind="league", key=str(league.pk), player=player, mu=20 + n, sigma=1, games=10)
        Rating.objects.create(kind="game", key="shitenno", player=player, mu=40 - n, sigma=1, games=10)
    answer = client_for(alice).post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 201
    first = answer.json()["rounds"][0]
    assert first["pods"][0]["players"] == [p.pk for p in best]  # the best rated last, the leader's seat
    assert first["ratings"][str(best[-1].pk)] > first["ratings"][str(best[0].pk)]
