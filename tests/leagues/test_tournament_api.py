"""The tournament's API (issue 51): anyone who may see the club reads its rounds, pods and standings; only its
managers pair a round; a private club's tournament is a 404 to a stranger."""

import datetime
import random

import pytest
from rest_framework.test import APIClient

from leagues.models import Tournament, TournamentPod, TournamentRound
from leagues.people.players import player_for_user
from leagues.tournaments import services

from .league_helpers import members_joined


@pytest.fixture
def tournament(club, alice, bob, carol):
    users = members_joined(club, bob, [f"p{n}" for n in range(7)])
    tournament = services.tournament_create(club=club, user=alice, name="Winter cup", date=datetime.date(2026, 12, 5))
    for user in [alice, carol, *users]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    return tournament


def client_for(user=None):
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_a_manager_pairs_round_one_and_a_member_reads_it(tournament, alice, carol):
    answer = client_for(alice).post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 201, answer.content
    read = client_for(carol).get(f"/api/tournaments/{tournament.pk}/").json()
    assert read["seed"] == tournament.seed and [r["number"] for r in read["rounds"]] == [1]
    pods = read["rounds"][0]["pods"]
    assert sorted(len(p["players"]) for p in pods) == [3, 3, 4] and read["rounds"][0]["repeats"] == 0
    assert [s["place"] for s in read["standings"]] == list(range(1, 11)) and read["standings"][0]["points"] == 0


def test_a_member_cannot_pair_and_nothing_is_written(tournament, carol):
    answer = client_for(carol).post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 403 and tournament.rounds.count() == 0


def test_a_round_before_the_places_is_a_400(tournament, alice):
    client = client_for(alice)
    client.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    answer = client.post(f"/api/tournaments/{tournament.pk}/rounds/", {}, format="json")
    assert answer.status_code == 400 and "needs its places first" in answer.content.decode()
    assert tournament.rounds.count() == 1


def test_a_private_clubs_tournament_is_a_404_to_a_stranger(tournament, dave):
    assert client_for(dave).get(f"/api/tournaments/{tournament.pk}/").status_code == 404
    assert client_for().get(f"/api/tournaments/{tournament.pk}/").status_code == 404


# --- the day's API (issue 51): set up, enter, check in, drop, pair, places; every refusal writes nothing -------


def url(tournament, tail=""):
    return f"/api/tournaments/{tournament.pk}/{tail}"


def state(tournament):
    """What a refused request must leave as it was."""
    return (
        list(Tournament.objects.order_by("pk").values()),
        list(tournament.entries.order_by("pk").values()),
        list(TournamentRound.objects.order_by("pk").values()),
        list(TournamentPod.objects.order_by("pk").values()),
    )


def play_round(client, tournament, rng):
    read = client.get(url(tournament)).json()
    latest = read["rounds"][-1]
    for pod in latest["pods"]:
        finish = list(pod["players"])
        rng.shuffle(finish)
        answer = client.post(
            url(tournament, f"rounds/{latest['number']}/pods/{pod['position']}/places/"),
            {"places": [{"player": p, "place": n + 1} for n, p in enumerate(finish)]},
            format="json",
        )
        assert answer.status_code == 200, answer.content
    return latest


def test_a_manager_sets_up_a_tournament_a_member_lists_it_and_may_not_set_one_up(club, alice, carol):
    answer = client_for(alice).post(
        f"/api/clubs/{club.slug}/tournaments/",
        {
            "name": "Spring cup",
            "date": "2026-04-04",
            "games": ["teikoku"],
            "swiss_rounds": 3,
            "cut": "final",
            "cut_size": 4,
            "round_minutes": 45,
        },
        format="json",
    )
    assert answer.status_code == 201, answer.content
    assert answer.json()["round_minutes"] == 45 and answer.json()["entries"] == []
    before = list(Tournament.objects.values())
    refused = client_for(carol).post(
        f"/api/clubs/{club.slug}/tournaments/", {"name": "Rogue cup", "date": "2026-04-04"}, format="json"
    )
    assert refused.status_code == 403 and list(Tournament.objects.values()) == before
    listed = client_for(carol).get(f"/api/clubs/{club.slug}/tournaments/")
    assert listed.status_code == 200 and [t["name"] for t in listed.json()["results"]] == ["Spring cup"]


def test_a_bad_set_up_is_a_400_naming_the_field_and_writes_nothing(club, alice, dave):
    answer = client_for(alice).post(
        f"/api/clubs/{club.slug}/tournaments/", {"name": "Cup", "date": "2026-04-04", "table_sizes": [9]}, format="json"
    )
    assert answer.status_code == 400 and b"table_sizes" in answer.content
    assert client_for(dave).get(f"/api/clubs/{club.slug}/tournaments/").status_code == 403
    assert not Tournament.objects.exists()


def test_a_member_enters_himself_once_and_a_manager_enters_a_guest_of_the_club(club, alice, carol, bob):
    from leagues.people.players import player_guest_create

    tournament = services.tournament_create(club=club, user=alice, name="Cup", date=datetime.date(2026, 12, 5))
    assert client_for(carol).post(url(tournament, "entries/"), {}, format="json").status_code == 201
    before = state(tournament)
    again = client_for(carol).post(url(tournament, "entries/"), {}, format="json")
    assert again.status_code == 400 and b"already entered" in again.content and state(tournament) == before
    guest = player_guest_create(name="Goro", created_by=alice, club=club)
    answer = client_for(alice).post(
        url(tournament, "entries/"), {"player": guest.pk, "checked_in": True}, format="json"
    )
    assert answer.status_code == 201, answer.content
    assert {e["name"]: e["checked_in"] for e in answer.json()["entries"]} == {"carol": False, "Goro": True}
    before = state(tournament)
    stranger = client_for(alice).post(url(tournament, "entries/"), {"player": player_for_user(bob).pk}, format="json")
    assert stranger.status_code == 400 and b"player" in stranger.content and state(tournament) == before
    for_another = client_for(carol).post(url(tournament, "entries/"), {"player": guest.pk}, format="json")
    assert for_another.status_code == 403 and state(tournament) == before
    nobody = client_for(alice).post(url(tournament, "entries/"), {"player": 10**9}, format="json")
    assert nobody.status_code == 400 and b"player" in nobody.content and state(tournament) == before


def test_check_in_needs_an_entry_and_a_drop_is_once(tournament, alice, carol, club):
    newcomer = members_joined(club, carol, ["newcomer"])[1]
    before = state(tournament)
    not_entered = client_for(newcomer).post(url(tournament, "check-in/"), {}, format="json")
    assert not_entered.status_code == 400 and b"not entered" in not_entered.content and state(tournament) == before
    assert client_for(carol).post(url(tournament, "check-in/"), {}, format="json").status_code == 200
    dropped = client_for(carol).post(url(tournament, "drop/"), {}, format="json")
    assert dropped.status_code == 200
    assert {e["name"]: e["dropped_after"] for e in dropped.json()["entries"]}["carol"] == 0
    before = state(tournament)
    twice = client_for(carol).post(url(tournament, "drop/"), {}, format="json")
    assert twice.status_code == 400 and b"already dropped" in twice.content and state(tournament) == before
    back = client_for(carol).post(url(tournament, "check-in/"), {}, format="json")
    assert back.status_code == 400 and b"dropped" in back.content and state(tournament) == before
    unknown = client_for(alice).post(url(tournament, "drop/"), {"colour": "red"}, format="json")
    assert unknown.status_code == 400 and b"colour" in unknown.content and state(tournament) == before


def test_places_only_from_a_manager_for_the_latest_round_with_every_player(tournament, alice, carol):
    client = client_for(alice)
    client.post(url(tournament, "rounds/"), {}, format="json")
    pod = client.get(url(tournament)).json()["rounds"][0]["pods"][0]
    body = {"places": [{"player": p, "place": n + 1} for n, p in enumerate(pod["players"])]}
    before = state(tournament)
    member = client_for(carol).post(url(tournament, f"rounds/1/pods/{pod['position']}/places/"), body, format="json")
    assert member.status_code == 403 and state(tournament) == before
    short = client.post(
        url(tournament, f"rounds/1/pods/{pod['position']}/places/"), {"places": body["places"][:-1]}, format="json"
    )
    assert short.status_code == 400 and b"places" in short.content and state(tournament) == before
    twice = client.post(
        url(tournament, f"rounds/1/pods/{pod['position']}/places/"),
        {"places": body["places"] + body["places"][:1]},
        format="json",
    )
    assert twice.status_code == 400 and b"places" in twice.content and state(tournament) == before
    assert client.post(url(tournament, "rounds/2/pods/0/places/"), body, format="json").status_code == 404
    play_round(client, tournament, random.Random(1))
    assert client.post(url(tournament, "rounds/"), {}, format="json").status_code == 201
    before = state(tournament)
    old = client.post(url(tournament, f"rounds/1/pods/{pod['position']}/places/"), body, format="json")
    assert old.status_code == 400 and b"latest round" in old.content and state(tournament) == before


def test_sixteen_players_four_swiss_rounds_and_a_final_table_through_the_api(club, alice, bob):
    users = members_joined(club, bob, [f"q{n}" for n in range(14)])
    client = client_for(alice)
    made = client.post(
        f"/api/clubs/{club.slug}/tournaments/",
        {"name": "Big day", "date": "2026-12-05", "swiss_rounds": 4, "cut": "final", "cut_size": 4, "table_sizes": [4]},
        format="json",
    ).json()
    tournament = Tournament.objects.get(pk=made["id"])
    for user in [alice, *users]:
        answer = client.post(
            url(tournament, "entries/"), {"player": player_for_user(user).pk, "checked_in": True}, format="json"
        )
        assert answer.status_code == 201, answer.content
    rng = random.Random(51)
    for number in range(1, 6):
        paired = client.post(url(tournament, "rounds/"), {}, format="json")
        assert paired.status_code == 201, paired.content
        latest = paired.json()["rounds"][-1]
        assert latest["number"] == number and latest["repeats"] == latest["bound"]
        assert latest["kind"] == ("swiss" if number <= 4 else "cut")
        assert paired.json()["clock_ends_at"] is not None
        if number == 5:
            top4 = [s["player"] for s in client.get(url(tournament)).json()["standings"][:4]]
            assert latest["pods"][0]["players"] == top4  # the top seed in the first seat
        play_round(client, tournament, rng)
    read = client.get(url(tournament)).json()
    assert read["over"] is True
    final = read["rounds"][-1]["pods"][0]
    assert read["winner"] == next(int(p) for p, place in final["places"].items() if place == 1)
    before = state(tournament)
    after = client.post(url(tournament, "rounds/"), {}, format="json")
    assert after.status_code == 400 and b"over" in after.content and state(tournament) == before
    late = client.post(url(tournament, "entries/"), {}, format="json")
    assert late.status_code == 400 and state(tournament) == before


def test_a_late_entry_joins_the_next_round_with_no_points(tournament, alice, club):
    from leagues.people.players import player_guest_create

    client = client_for(alice)
    client.post(url(tournament, "rounds/"), {}, format="json")
    guest = player_guest_create(name="Late Goro", created_by=alice, club=club)
    answer = client.post(url(tournament, "entries/"), {"player": guest.pk, "checked_in": True}, format="json")
    entry = next(e for e in answer.json()["entries"] if e["player"] == guest.pk)
    assert entry["entered_round"] == 2 and entry["checked_in"]
    play_round(client, tournament, random.Random(2))
    second = client.post(url(tournament, "rounds/"), {}, format="json").json()
    assert guest.pk in [p for pod in second["rounds"][-1]["pods"] for p in pod["players"]]
    assert next(s for s in second["standings"] if s["player"] == guest.pk)["points"] == 0


def test_sixteen_players_four_swiss_rounds_semi_final_pods_and_a_final_through_the_api(club, alice, bob):
    users = members_joined(club, bob, [f"q{n}" for n in range(14)])
    client = client_for(alice)
    made = client.post(
        f"/api/clubs/{club.slug}/tournaments/",
        {"name": "Big day", "date": "2026-12-05", "swiss_rounds": 4, "cut": "semi", "cut_size": 16, "table_sizes": [4]},
        format="json",
    ).json()
    tournament = Tournament.objects.get(pk=made["id"])
    for user in [alice, *users]:
        assert (
            client.post(
                url(tournament, "entries/"), {"player": player_for_user(user).pk, "checked_in": True}, format="json"
            ).status_code
            == 201
        )
    rng = random.Random(61)
    for number in range(1, 7):
        if number >= 5:
            swiss = [s["player"] for s in client.get(url(tournament)).json()["standings"]]
        paired = client.post(url(tournament, "rounds/"), {}, format="json")
        assert paired.status_code == 201, paired.content
        read = paired.json()
        latest = read["rounds"][-1]
        assert latest["kind"] == {5: "semi", 6: "cut"}.get(number, "swiss") and read["over"] is False
        if number == 6:
            semis = read["rounds"][4]["pods"]
            winners = [next(int(p) for p, place in pod["places"].items() if place == 1) for pod in semis]
            assert [pod["players"] for pod in latest["pods"]] == [sorted(winners, key=swiss.index)]
        play_round(client, tournament, rng)
        assert client.get(url(tournament)).json()["over"] is (number == 6)
    read = client.get(url(tournament)).json()
    final = read["rounds"][-1]["pods"][0]
    by_place = sorted(final["players"], key=lambda p: final["places"][str(p)])
    assert read["winner"] == by_place[0]
    assert [s["player"] for s in read["standings"][:4]] == by_place
    assert [s["place"] for s in read["standings"]] == list(range(1, 17))
    before = state(tournament)
    after = client.post(url(tournament, "rounds/"), {}, format="json")
    assert after.status_code == 400 and b"over" in after.content and state(tournament) == before


def test_a_final_the_semi_finals_cannot_seat_is_a_400_and_nothing_is_written(tournament, alice):
    Tournament.objects.filter(pk=tournament.pk).update(swiss_rounds=1, cut="semi", cut_size=6, table_sizes=[3])
    client = client_for(alice)
    rng = random.Random(3)
    for kind in ("swiss", "semi"):  # ten at tables of 3: a bye in round 1; the top 6 in two semi-final pods
        paired = client.post(url(tournament, "rounds/"), {}, format="json")
        assert paired.status_code == 201 and paired.json()["rounds"][-1]["kind"] == kind
        play_round(client, tournament, rng)
    before = state(tournament)
    refused = client.post(url(tournament, "rounds/"), {}, format="json")  # one from each pod: 2 at tables of 3
    assert refused.status_code == 400 and b"send 2 players to the final" in refused.content
    assert state(tournament) == before and client.get(url(tournament)).json()["over"] is False
