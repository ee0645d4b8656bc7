"""The tournament day's pages (issue 51): a player's own line (EN and NL), the round's pods and the tables still
playing, the standings with their tie-breakers; the organiser's QR, places forms and "pair the next round"; every
refused post a 400 or 403 that changes nothing; the wall (a public club's for everyone, a private one's for its
members) and the standings as CSV."""

import csv
import datetime
import io
import random

import pytest
from django.conf import settings

from leagues.models import Tournament, TournamentEntry, TournamentPod, TournamentRound
from leagues.people.players import player_for_user
from leagues.tournaments import services

from .league_helpers import members_joined


@pytest.fixture
def field(club, bob):
    return members_joined(club, bob, [f"p{n}" for n in range(5)])  # bob and five more: with alice and carol, 8


@pytest.fixture
def tournament(club, alice, carol, field):
    tournament = services.tournament_create(
        club=club,
        user=alice,
        name="Winter cup",
        date=datetime.date(2026, 12, 5),
        games=["teikoku"],
        swiss_rounds=2,
        cut_size=4,
        table_sizes=[4],
    )
    for user in [alice, carol, *field]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    return tournament


def state():
    return (
        list(Tournament.objects.order_by("pk").values()),
        list(TournamentEntry.objects.order_by("pk").values()),
        list(TournamentRound.objects.order_by("pk").values()),
        list(TournamentPod.objects.order_by("pk").values()),
    )


def places_of(pod, rng):
    finish = list(pod.players)
    rng.shuffle(finish)
    return {f"place_{p}": str(n + 1) for n, p in enumerate(finish)}


def in_dutch(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"


def test_a_player_sees_his_table_seat_and_mates_in_english_and_dutch(client, tournament, alice, carol):
    services.round_pair(tournament=tournament, user=alice)
    pod = next(
        p for p in TournamentPod.objects.filter(round__tournament=tournament) if player_for_user(carol).pk in p.players
    )
    seat = pod.players.index(player_for_user(carol).pk) + 1
    client.force_login(carol)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"Round 1: table {pod.position + 1}, Teikoku, seat {seat}, with " in page
    assert "2 tables still playing" in page and "average points" in page, page
    assert "Pair the next round" not in page  # not the organiser
    in_dutch(client)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f"Ronde 1: tafel {pod.position + 1}, Teikoku, plaats {seat}, met " in page and " en " in page
    assert "2 tafels spelen nog" in page


def test_the_organiser_pairs_enters_places_and_the_round_moves_on(client, tournament, alice):
    client.force_login(alice)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Pair round 1" in page and "<svg" in page and f"/tournaments/{tournament.pk}/" in page
    answer = client.post(f"/tournaments/{tournament.pk}/pair/")
    assert answer.status_code == 302 and tournament.rounds.count() == 1
    assert tournament.rounds.get().clock_started_at is not None
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "data-round-clock" in page and "Save the places" in page
    before = state()
    refused = client.post(f"/tournaments/{tournament.pk}/pair/")
    assert refused.status_code == 400 and "needs its places first" in refused.content.decode() and state() == before
    rng = random.Random(4)
    first = list(TournamentPod.objects.filter(round__number=1))
    missing = client.post(f"/tournaments/{tournament.pk}/rounds/1/pods/0/places/", {})
    assert missing.status_code == 400 and "a place from 1" in missing.content.decode() and state() == before
    for pod in first:
        assert (
            client.post(
                f"/tournaments/{tournament.pk}/rounds/1/pods/{pod.position}/places/", places_of(pod, rng)
            ).status_code
            == 302
        )
    assert "Every table has its places." in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 302
    before = state()
    old = client.post(f"/tournaments/{tournament.pk}/rounds/1/pods/0/places/", places_of(first[0], rng))
    assert old.status_code == 400 and "latest round" in old.content.decode() and state() == before


def test_a_member_may_not_pair_or_enter_places_and_nothing_changes(client, tournament, alice, carol):
    services.round_pair(tournament=tournament, user=alice)
    pod = TournamentPod.objects.filter(round__tournament=tournament).first()
    client.force_login(carol)
    before = state()
    assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 403
    assert (
        client.post(
            f"/tournaments/{tournament.pk}/rounds/1/pods/0/places/", places_of(pod, random.Random(1))
        ).status_code
        == 403
    )
    assert state() == before


def test_a_member_enters_and_checks_in_with_one_tap_and_drops_out(client, club, alice, carol):
    tournament = services.tournament_create(club=club, user=alice, name="Cup", date=datetime.date(2026, 12, 5))
    client.force_login(carol)
    assert "Enter and check in" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert client.post(f"/tournaments/{tournament.pk}/check-in/").status_code == 302
    entry = tournament.entries.get()
    assert (
        entry.checked_in_at is not None
        and "You are checked in." in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    assert client.post(f"/tournaments/{tournament.pk}/drop/").status_code == 302
    before = state()
    again = client.post(f"/tournaments/{tournament.pk}/drop/")
    assert again.status_code == 400 and "already dropped" in again.content.decode() and state() == before


def test_the_wall_is_for_everyone_in_a_public_club_and_members_in_a_private_one(client, tournament, alice, dave):
    services.round_pair(tournament=tournament, user=alice)
    assert client.get(f"/tournaments/{tournament.pk}/wall/").status_code == 404
    client.force_login(dave)
    assert client.get(f"/tournaments/{tournament.pk}/wall/").status_code == 404
    tournament.club.members_public = True
    tournament.club.save()
    client.logout()
    wall = client.get(f"/tournaments/{tournament.pk}/wall/")
    assert wall.status_code == 200 and 'data-hx-trigger="every 10s"' in wall.content.decode()
    assert "Table 2" in wall.content.decode() and "Pair the next round" not in wall.content.decode()
    assert "Save the places" not in wall.content.decode()
    poll = client.get(f"/tournaments/{tournament.pk}/wall/", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and "<html" not in poll.content.decode()
    unchanged = client.get(
        f"/tournaments/{tournament.pk}/wall/", headers={"HX-Request": "true", "If-None-Match": poll["ETag"]}
    )
    assert unchanged.status_code == 304


def test_a_whole_day_ends_with_the_winner_on_the_wall_and_the_final_standings_as_csv(client, tournament, alice):
    client.force_login(alice)
    rng = random.Random(9)
    for number in range(1, 4):
        assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 302
        for pod in TournamentPod.objects.filter(round__tournament=tournament, round__number=number):
            client.post(
                f"/tournaments/{tournament.pk}/rounds/{number}/pods/{pod.position}/places/", places_of(pod, rng)
            )
    final = TournamentPod.objects.get(round__tournament=tournament, round__number=3)
    winner = next(int(p) for p, place in final.places.items() if place == 1)
    name = TournamentEntry.objects.get(tournament=tournament, player_id=winner).player.name
    wall = client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()
    assert f"Winner: {name}" in wall and "Final standings" in wall and "Final table" in wall
    before = state()
    assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 400 and state() == before
    answer = client.get(f"/tournaments/{tournament.pk}/standings.csv")
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert [r["place"] for r in rows] == [str(n) for n in range(1, 9)] and rows[0]["final"] == "yes"
    assert set(rows[0]) >= {"points", "opponents_average", "average_place", "head_to_head", "lot"}


def test_a_round_with_nobody_checked_in_is_refused_and_a_bye_is_told(client, club, alice, carol, tournament):
    empty = services.tournament_create(club=club, user=alice, name="Empty cup", date=datetime.date(2026, 12, 6))
    client.force_login(alice)
    before = state()
    refused = client.post(f"/tournaments/{empty.pk}/pair/")
    assert refused.status_code == 400 and "Nobody is checked in" in refused.content.decode() and state() == before
    late = members_joined(club, carol, ["late"])[1]  # nine players at pods of four: one bye
    services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(late), checked_in=True)
    paired = services.round_pair(tournament=tournament, user=alice)
    bye = paired.pairing["byes"][0]
    user = TournamentEntry.objects.get(tournament=tournament, player_id=bye).player.user
    client.force_login(user)
    assert "You have a bye in round 1." in client.get(f"/tournaments/{tournament.pk}/").content.decode()


def test_the_club_page_links_its_tournaments_for_whoever_sees_inside(client, tournament, carol, dave):
    client.force_login(carol)
    assert f'href="/tournaments/{tournament.pk}/"' in client.get(f"/clubs/{tournament.club.slug}/").content.decode()
    client.force_login(dave)
    assert f"/tournaments/{tournament.pk}/" not in client.get(f"/clubs/{tournament.club.slug}/").content.decode()


SET_UP = {
    "name": "Spring cup",
    "date": "2027-03-06",
    "engines": ["teikoku"],
    "games": "",
    "table_sizes": ["3", "4"],
    "swiss_rounds": "3",
    "cut": "semi",
    "cut_size": "8",
    "first_round": "ratings",
    "round_minutes": "75",
    "bye_points": "1",
}


def test_the_organiser_sets_a_tournament_up_on_its_page(client, club, alice):
    client.force_login(alice)
    assert "/tournaments/new/" in client.get(f"/clubs/{club.slug}/").content.decode()  # the club page links it
    page = client.get(f"/clubs/{club.slug}/tournaments/new/")
    assert page.status_code == 200 and 'name="swiss_rounds"' in page.content.decode()
    answer = client.post(f"/clubs/{club.slug}/tournaments/new/", {**SET_UP, "games": "Go, Chess"})
    tournament = Tournament.objects.get(club=club)
    assert answer.status_code == 302 and answer["Location"] == f"/tournaments/{tournament.pk}/"
    assert (
        tournament.name,
        tournament.date,
        tournament.games,
        tournament.table_sizes,
        tournament.swiss_rounds,
        tournament.cut,
        tournament.cut_size,
        tournament.first_round,
        tournament.round_minutes,
        tournament.bye_points,
        tournament.created_by,
    ) == (
        "Spring cup",
        datetime.date(2027, 3, 6),
        ["teikoku", "Go", "Chess"],
        [3, 4],
        3,
        "semi",
        8,
        "ratings",
        75,
        1,
        alice,
    )
    assert "Spring cup" in client.get(answer["Location"]).content.decode()


@pytest.mark.parametrize(
    "change, field",
    [
        ({"engines": [], "games": ""}, "Name at least one game."),
        ({"table_sizes": []}, "This field is required."),
        ({"table_sizes": ["7"]}, "Select a valid choice."),
        ({"swiss_rounds": "0"}, "greater than or equal to 1"),
        ({"cut": "quarter"}, "Select a valid choice."),
        ({"round_minutes": "601"}, "less than or equal to 600"),
        ({"date": "1850-01-01"}, "Give a date from"),
        ({"name": "\u202ecup"}, "direction"),
        ({"games": "Go, \u202eChess"}, "direction"),
    ],
)
def test_a_bad_set_up_is_refused_with_its_reason_and_nothing_made(client, club, alice, change, field):
    client.force_login(alice)
    answer = client.post(f"/clubs/{club.slug}/tournaments/new/", {**SET_UP, **change})
    assert answer.status_code == 400 and field in answer.content.decode()
    assert not Tournament.objects.exists()


def test_a_member_who_does_not_manage_the_club_and_an_outsider_may_not_set_one_up(client, club, carol, dave):
    client.force_login(carol)
    assert "/tournaments/new/" not in client.get(f"/clubs/{club.slug}/").content.decode()
    assert client.post(f"/clubs/{club.slug}/tournaments/new/", SET_UP).status_code == 403
    client.force_login(dave)
    assert client.post(f"/clubs/{club.slug}/tournaments/new/", SET_UP).status_code == 404
    client.logout()
    assert client.post(f"/clubs/{club.slug}/tournaments/new/", SET_UP).status_code == 302  # to the log-in page
    assert not Tournament.objects.exists()


def test_semi_finals_then_a_final_on_the_day_page_the_wall_and_the_csv_in_english_and_dutch(
    client, club, alice, carol, field
):
    """Eight players, two Swiss rounds, the top 8 in two semi-final pods, each pod's first two at the final."""
    tournament = services.tournament_create(
        club=club,
        user=alice,
        name="Spring cup",
        date=datetime.date(2026, 12, 5),
        games=["teikoku"],
        swiss_rounds=2,
        cut="semi",
        cut_size=8,
        table_sizes=[4],
    )
    for user in [alice, carol, *field]:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    client.force_login(alice)
    assert (
        "then semi-final pods of the top 8 and a final table"
        in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    )
    rng = random.Random(12)

    def play(number):
        for pod in TournamentPod.objects.filter(round__tournament=tournament, round__number=number):
            assert (
                client.post(
                    f"/tournaments/{tournament.pk}/rounds/{number}/pods/{pod.position}/places/", places_of(pod, rng)
                ).status_code
                == 302
            )

    for number in (1, 2, 3):
        assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 302
        if number == 3:
            page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
            assert "Semi-finals" in page and "Final table" not in page
            semi = TournamentPod.objects.get(round__tournament=tournament, round__number=3, position=1)
            first_seat = TournamentEntry.objects.get(tournament=tournament, player_id=semi.players[0]).player
            client.force_login(first_seat.user)
            own = client.get(f"/tournaments/{tournament.pk}/").content.decode()
            assert "Semi-final: table 2, Teikoku, seat 1, with " in own and "Round 3" not in own
            in_dutch(client)
            assert (
                "Halve finale: tafel 2, Teikoku, plaats 1, met "
                in client.get(f"/tournaments/{tournament.pk}/").content.decode()
            )
            client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
            client.force_login(alice)
        play(number)
    csv_rows = list(
        csv.DictReader(io.StringIO(client.get(f"/tournaments/{tournament.pk}/standings.csv").content.decode()))
    )
    assert {r["final"] for r in csv_rows} == {"no"}  # the semi-finals are played, the final is not
    in_dutch(client)
    assert "Halve finales" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 302
    final = TournamentPod.objects.get(round__tournament=tournament, round__number=4)
    seated = TournamentEntry.objects.get(tournament=tournament, player_id=final.players[1]).player
    client.force_login(seated.user)
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert "Final table" in page and "Final: table 1, Teikoku, seat 2, with " in page and " and " in page
    in_dutch(client)
    assert "Finale: tafel 1, Teikoku, plaats 2, met " in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    client.cookies.pop(settings.LANGUAGE_COOKIE_NAME)
    client.force_login(alice)
    play(4)
    final.refresh_from_db()
    winner = next(int(p) for p, place in final.places.items() if place == 1)
    name = TournamentEntry.objects.get(tournament=tournament, player_id=winner).player.name
    wall = client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()
    assert f"Winner: {name}" in wall and "Final standings" in wall and "Final table" in wall
    in_dutch(client)
    wall = client.get(f"/tournaments/{tournament.pk}/wall/").content.decode()
    assert f"Winnaar: {name}" in wall and "Eindstand" in wall and "Finaletafel" in wall
    assert f"Winnaar: {name}" in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    before = state()
    assert client.post(f"/tournaments/{tournament.pk}/pair/").status_code == 400 and state() == before
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{tournament.pk}/standings.csv").content.decode())))
    by_place = sorted(final.places, key=lambda p: final.places[p])
    names = {e.player_id: e.player.name for e in TournamentEntry.objects.filter(tournament=tournament)}
    assert [r["player"] for r in rows[:4]] == [names[int(p)] for p in by_place]  # the final's order first
    assert [r["place"] for r in rows] == [str(n) for n in range(1, 9)] and {r["final"] for r in rows} == {"yes"}
