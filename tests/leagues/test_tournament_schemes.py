"""A tournament's points per place (issue 51, docs/tournaments.md): the organiser sets it up with the default
(4-2-1-0, a pod of three 4-2-0), a named preset (the league seasons' 3-2-1-0 and 7-5-3-1 where they give whole
points) or his own points for each table size it uses; the standings, the pairing by points, the day page, the wall
and the API all count the chosen scheme; a scheme that does not fit is refused with its reason and nothing is
made."""

import datetime

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from leagues.models import Tournament
from leagues.people.players import player_for_user
from leagues.tournaments import schemes, services
from shitenno_site.problems import PROBLEM_CONTENT_TYPE

from .league_helpers import members_joined

DEFAULT = {"4": [4, 2, 1, 0], "3": [4, 2, 0]}


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def set_up(club, user, **body):
    return client_for(user).post(
        f"/api/clubs/{club.slug}/tournaments/", {"name": "Spring cup", "date": "2026-04-04", **body}, format="json"
    )


def in_dutch(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"


# --- the default, the presets, one's own -------------------------------------------------------------------------


def test_a_tournament_that_names_no_scheme_scores_the_default_as_before(club, alice):
    answer = set_up(club, alice)
    assert answer.status_code == 201, answer.content
    assert answer.json()["scheme"] == DEFAULT and Tournament.objects.get().scheme == DEFAULT
    only_fours = services.tournament_create(
        club=club, user=alice, name="Cup", date=datetime.date(2026, 4, 4), table_sizes=[4]
    )
    assert only_fours.scheme == DEFAULT  # stored as always, whatever the sizes
    assert schemes.tournament_scheme_words(only_fours) == "4, 2, 1, 0 (pods of 4)"  # said for the sizes it uses


def test_the_league_seasons_presets_where_they_give_whole_points(club, alice):
    answer = set_up(club, alice, scheme_preset="7-5-3-1")
    assert answer.status_code == 201, answer.content
    assert answer.json()["scheme"] == {"4": [7, 5, 3, 1], "3": [7, 4, 1]}  # as a season: 7-4-1 at three players
    answer = set_up(club, alice, scheme_preset="3-2-1-0", table_sizes=[2, 4])
    assert answer.status_code == 201, answer.content
    assert answer.json()["scheme"] == {"4": [3, 2, 1, 0], "2": [3, 0]}


def test_a_preset_without_whole_points_for_a_table_size_is_refused(club, alice):
    """A season's 3-2-1-0 gives 3, 1.5, 0 at three players: a tournament scores whole points."""
    answer = set_up(club, alice, scheme_preset="3-2-1-0")  # table sizes 3 and 4
    assert answer.status_code == 400 and answer["Content-Type"] == PROBLEM_CONTENT_TYPE
    assert "pod of 3" in answer.json()["errors"]["scheme_preset"][0]
    no_fives = set_up(club, alice, table_sizes=[4, 5])  # the default has no points for a pod of five
    assert no_fives.status_code == 400 and no_fives.json()["errors"] == {
        "scheme": ["The default points, 4-2-1-0, have none for a pod of 5: give the points per place."]
    }
    named = set_up(club, alice, table_sizes=[4, 5], scheme_preset="4-2-1-0")
    assert named.status_code == 400 and "pod of 5" in named.json()["errors"]["scheme_preset"][0]
    assert not Tournament.objects.exists()


# --- the chosen scheme is what is counted ----------------------------------------------------------------------


@pytest.fixture
def eight(club, alice, bob, carol):
    users = members_joined(club, bob, [f"p{n}" for n in range(5)])
    return [alice, carol, *users]


def test_a_custom_scheme_played_through_two_rounds_gives_the_standings_it_implies(club, alice, eight):
    """Eight players in two pods of four, scoring 5, 3, 1, 0.

    Round 1, each pod in seat order: pod A a1 a2 a3 a4, pod B b1 b2 b3 b4; a1, b1 5; a2, b2 3; a3, b3 1; a4, b4 0.
    Round 2 by points, the fewest rematches first (two a pod whatever the split): the leaders a1 b1 a2 b2, then
    a3 b3 a4 b4. Its places: a2 b2 a1 b1, and a4 b3 a3 b4. So a2 3+5 = 8, a1 5+1 = 6, b2 3+3 = 6, b1 5+0 = 5,
    a4 0+5 = 5, b3 1+3 = 4, a3 1+1 = 2, b4 0+0 = 0.
    The ties by the opponents' average points: a1 met a2 a3 a4 b1 a2 b2 (8+2+5+5+8+6)/6 = 17/3, b2 met b1 b3 b4 a1
    b1 a2 (5+4+0+6+5+8)/6 = 14/3: a1 first; b1 met b2 b3 b4 a1 a2 b2 (6+4+0+6+8+6)/6 = 5, a4 met a1 a2 a3 b3 a3 b4
    (6+8+2+4+2+0)/6 = 11/3: b1 first. (The default 4, 2, 1, 0 would give a2 6, a1 5 and b1, b2, a4 4 each.)"""
    answer = set_up(club, alice, table_sizes=[4], swiss_rounds=2, cut="none", scheme={"4": [5, 3, 1, 0]})
    assert answer.status_code == 201, answer.content
    tournament = Tournament.objects.get(pk=answer.json()["id"])
    for user in eight:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    api = client_for(alice)

    def places(number, position, finish):
        answer = api.post(
            f"/api/tournaments/{tournament.pk}/rounds/{number}/pods/{position}/places/",
            {"places": [{"player": p, "place": n + 1} for n, p in enumerate(finish)]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
        return answer.json()

    first = api.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json").json()["rounds"][0]["pods"]
    (a1, a2, a3, a4), (b1, b2, b3, b4) = first[0]["players"], first[1]["players"]
    places(1, 0, [a1, a2, a3, a4])
    read = places(1, 1, [b1, b2, b3, b4])
    assert [(s["player"], s["points"]) for s in read["standings"][:2]] in ([(a1, 5), (b1, 5)], [(b1, 5), (a1, 5)])
    second = api.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json").json()["rounds"][1]["pods"]
    assert [set(pod["players"]) for pod in second] == [{a1, b1, a2, b2}, {a3, b3, a4, b4}]
    places(2, 0, [a2, b2, a1, b1])
    read = places(2, 1, [a4, b3, a3, b4])
    assert [(s["player"], s["points"]) for s in read["standings"]] == [
        (a2, 8),
        (a1, 6),
        (b2, 6),
        (b1, 5),
        (a4, 5),
        (b3, 4),
        (a3, 2),
        (b4, 0),
    ]
    by = {s["player"]: s for s in read["standings"]}
    assert [by[p]["opponents_average"] for p in (a1, b2, b1, a4)] == [5.67, 4.67, 5, 3.67]  # 17/3, 14/3, 5, 11/3
    assert read["over"] and read["winner"] == a2 and read["scheme"] == {"4": [5, 3, 1, 0]}


def test_a_bye_scores_the_tournaments_bye_points_beside_its_scheme(client, club, alice, eight):
    """Seven players at pods of four only: one bye, scored 2, while the pods score 6, 3, 1, 0."""
    tournament = services.tournament_create(
        club=club,
        user=alice,
        name="Cup",
        date=datetime.date(2026, 4, 4),
        table_sizes=[4],
        scheme={"4": [6, 3, 1, 0]},
        bye_points=2,
    )
    for user in eight[:7]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    first = services.round_pair(tournament=tournament, user=alice)
    pod = first.pods.get()
    services.pod_places(pod=pod, user=alice, places={p: n + 1 for n, p in enumerate(pod.players)})
    points = {row.player: row.points for row in services.tournament_standings(tournament)[0]}
    assert sorted(points.values(), reverse=True) == [6, 3, 2, 2, 2, 1, 0]
    client.force_login(alice)
    words = "Points per place: 6, 3, 1, 0 (pods of 4); a bye scores 2 points"
    assert words in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    in_dutch(client)
    words = "Punten per plaats: 6, 3, 1, 0 (pods van 4); een vrije ronde levert 2 punten op"
    assert words in client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()


# --- refusals: a 400 naming the field, nothing made ------------------------------------------------------------


@pytest.mark.parametrize(
    "body, field, reason",
    [
        ({"scheme": {"4": [5, 3, 1], "3": [5, 2, 0]}}, "scheme", "needs 4 numbers"),  # wrong length
        ({"scheme": {"4": [5, 3, 4, 0], "3": [5, 2, 0]}}, "scheme", "never increase"),  # increasing
        ({"scheme": {"4": [5, 3, 1, -1], "3": [5, 2, 0]}}, "scheme", "greater than or equal to 0"),  # negative
        ({"scheme": {"4": [101, 3, 1, 0], "3": [5, 2, 0]}}, "scheme", "less than or equal to 100"),
        ({"scheme": {"4": [5, 3, 1, 0]}}, "scheme", "pod of 3"),  # a table size missing
        ({"scheme": {"4": [5, 3, 1, 0], "3": [5, 2, 0], "5": [5, 4, 3, 2, 1]}}, "scheme", "no pods of 5"),
        ({"scheme": {"4": [5, "3", 1, 0], "3": [5, 2, 0]}}, "scheme", "whole number"),  # not a number
        ({"scheme": {"4": [5, 3.5, 1, 0], "3": [5, 2, 0]}}, "scheme", "whole number"),
        ({"scheme": {"4": [2, 2, 2, 2], "3": [5, 2, 0]}}, "scheme", "first place must score more"),
        ({"scheme": [5, 3, 1, 0]}, "scheme", "dictionary"),
        ({"scheme": DEFAULT, "scheme_preset": "4-2-1-0"}, "scheme_preset", "not both"),
        ({"scheme_preset": "10-5-0"}, "scheme_preset", "not a valid choice"),
    ],
)
def test_a_bad_scheme_is_a_400_naming_its_field_and_nothing_is_made(club, alice, body, field, reason):
    before = Tournament.objects.count()
    answer = set_up(club, alice, **body)
    assert answer.status_code == 400 and answer["Content-Type"] == PROBLEM_CONTENT_TYPE
    problem = answer.json()
    assert list(problem["errors"]) == [field] and reason in problem["detail"], problem
    assert problem["detail"].startswith(field)
    assert Tournament.objects.count() == before == 0


# --- the set-up page, the day page and the wall, in English and Dutch --------------------------------------------

SET_UP = {
    "name": "Spring cup",
    "date": "2027-03-06",
    "engines": ["teikoku"],
    "games": "",
    "table_sizes": ["3", "4"],
    "swiss_rounds": "3",
    "cut": "final",
    "cut_size": "4",
    "first_round": "random",
    "round_minutes": "60",
    "bye_points": "0",
    "scheme_preset": "4-2-1-0",
    "scheme": "",
}


def test_the_organiser_chooses_his_own_points_on_the_page_and_the_day_page_and_wall_say_them(client, club, alice):
    client.force_login(alice)
    page = client.get(f"/clubs/{club.slug}/tournaments/new/").content.decode()
    assert "Points per place" in page and 'value="7-5-3-1"' in page and 'value="custom"' in page
    answer = client.post(
        f"/clubs/{club.slug}/tournaments/new/",
        {**SET_UP, "scheme_preset": "custom", "scheme": "4: 5, 3, 1, 0; 3: 5,2,0"},
    )
    tournament = Tournament.objects.get()
    assert answer.status_code == 302 and tournament.scheme == {"4": [5, 3, 1, 0], "3": [5, 2, 0]}
    words = "Points per place: 5, 3, 1, 0 (pods of 4); 5, 2, 0 (pods of 3)"
    assert words in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert words in client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()
    in_dutch(client)
    dutch = "Punten per plaats: 5, 3, 1, 0 (pods van 4); 5, 2, 0 (pods van 3)"
    assert dutch in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert dutch in client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()


def test_a_preset_on_the_page_and_the_default_as_before(client, club, alice):
    client.force_login(alice)
    assert client.post(f"/clubs/{club.slug}/tournaments/new/", SET_UP).status_code == 302
    assert (
        client.post(f"/clubs/{club.slug}/tournaments/new/", {**SET_UP, "scheme_preset": "7-5-3-1"}).status_code == 302
    )
    assert [t.scheme for t in Tournament.objects.order_by("pk")] == [DEFAULT, {"4": [7, 5, 3, 1], "3": [7, 4, 1]}]


@pytest.mark.parametrize(
    "change, english, dutch",
    [
        (
            {"scheme": "4: 5, 3, 1; 3: 5, 2, 0"},
            "A pod of 4 needs 4 numbers, one per place: 3 given.",
            "Een pod van 4 heeft 4 getallen nodig, één per plaats: 3 gegeven.",
        ),
        (
            {"scheme": "4: 5, 3, 4, 0; 3: 5, 2, 0"},
            "The points for a pod of 4 must never increase from first place to last.",
            "De punten voor een pod van 4 mogen van de eerste plaats tot de laatste nooit stijgen.",
        ),
        (
            {"scheme": "4: 5, 3, 1, -1; 3: 5, 2, 0"},
            "The points for a pod of 4 must be whole numbers from 0 to 100.",
            "De punten voor een pod van 4 moeten hele getallen van 0 tot 100 zijn.",
        ),
        ({"scheme": "4: 5, 3, 1, 0"}, "Give the points for a pod of 3.", "Geef de punten voor een pod van 3."),
        (
            {"scheme": "4: five, 3, 1, 0; 3: 5, 2, 0"},
            "The points for a pod of 4 must be whole numbers from 0 to 100.",
            "De punten voor een pod van 4 moeten hele getallen van 0 tot 100 zijn.",
        ),
        (
            {"scheme": ""},
            "Give the points per place for each table size, e.g. 4: 5, 3, 1, 0.",
            "Geef de punten per plaats voor elke tafelgrootte, bijvoorbeeld 4: 5, 3, 1, 0.",
        ),
        (
            {"scheme": "5 3 1 0"},
            "Write each table size, a colon and its points",
            "Schrijf elke tafelgrootte, een dubbele punt en de punten",
        ),
        (
            {"scheme_preset": "7-5-3-1", "scheme": "4: 5, 3, 1, 0; 3: 5, 2, 0"},
            "Choose “my own points” to count these points, or leave them out.",
            "Kies „mijn eigen punten” om deze punten te tellen, of laat ze weg.",
        ),
        (
            {"scheme_preset": "3-2-1-0", "scheme": ""},
            "The 3-2-1-0 points give no whole points for a pod of 3: choose custom points for it.",
            "De punten 3-2-1-0 geven geen hele punten voor een pod van 3: kies er eigen punten voor.",
        ),
    ],
)
def test_a_bad_scheme_on_the_page_is_shown_again_with_its_reason_in_english_and_dutch(
    client, club, alice, change, english, dutch
):
    client.force_login(alice)
    body = {**SET_UP, "scheme_preset": "custom", **change}
    answer = client.post(f"/clubs/{club.slug}/tournaments/new/", body)
    assert answer.status_code == 400 and english in answer.content.decode()
    assert 'value="Spring cup"' in answer.content.decode()  # the form again, as it was filled in
    in_dutch(client)
    answer = client.post(f"/clubs/{club.slug}/tournaments/new/", body)
    assert answer.status_code == 400 and dutch in answer.content.decode()
    assert Tournament.objects.count() == 0
