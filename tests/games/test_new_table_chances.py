"""The new-table page's win chances (issue 29): once the players are chosen, each seat's chance and expected place
from the game's ratings, a guest counting as new; bad input is a 400 naming it, and changes nothing."""

import re

import pytest

from games.models import TableSession
from leagues.models import Rating
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db
URL = "/tables/new/chances/"


def percents(page: str) -> dict[str, int]:
    return {name: int(p) for name, p in re.findall(r"<li>(\S+) has a (\d+)% chance", page)}


def test_the_new_table_page_asks_for_the_chances_as_the_seats_are_chosen(client, alice):
    client.force_login(alice)
    page = client.get("/tables/new/?game=shitenno").content.decode()
    assert 'id="new-chances"' in page and 'data-hx-get="/tables/new/chances/"' in page
    assert 'data-hx-include="closest form"' in page


def test_each_seat_gets_its_chance_from_the_games_ratings_and_a_guest_the_prior(client, club, alice, carol):
    me, her = player_for_user(alice), player_for_user(carol)  # carol shares alice's club: alice may seat her
    Rating.objects.create(kind="game", key="shitenno", player=me, mu=30, sigma=3, games=40)
    Rating.objects.create(kind="game", key="shitenno", player=her, mu=20, sigma=3, games=40)
    client.force_login(alice)
    answer = client.get(
        URL,
        {"game": "shitenno", "players_count": 3, "seat0_player": her.pk, "seat1_player": me.pk, "seat2_guest": "Kenji"},
    )
    assert answer.status_code == 200
    page = answer.content.decode()
    found = percents(page)
    assert set(found) == {"alice", "carol", "Kenji"} and found["alice"] > found["Kenji"] > found["carol"]
    assert 98 <= sum(found.values()) <= 102  # rounded percentages of chances adding to 1
    assert page.index("carol") < page.index("alice") < page.index("Kenji")  # seat order
    assert f"rating {round(1500 + 24 * (30 - 25))}<" in page and "rating 1500<abbr" in page  # Kenji: new, provisional
    assert "a guest or an empty seat counts as a new player" in page
    dutch = client.get(
        URL,
        {"game": "shitenno", "players_count": 2, "seat0_player": her.pk, "seat1_player": me.pk},
        HTTP_ACCEPT_LANGUAGE="nl",
    ).content.decode()
    assert "alice heeft" in dutch and "has a" not in dutch


def test_fewer_than_two_named_seats_or_a_solo_game_answer_nothing(client, alice):
    client.force_login(alice)
    me = player_for_user(alice)
    alone = client.get(URL, {"game": "shitenno", "players_count": 2, "seat0_player": me.pk})
    assert alone.status_code == 200 and "chance" not in alone.content.decode()
    solo = client.get(URL, {"game": "samurai_empires", "players_count": 1, "seat0_player": me.pk})
    assert solo.status_code == 200 and "chance" not in solo.content.decode()


@pytest.mark.parametrize(
    ("params", "says"),
    [
        ({"game": "chess"}, "No such game."),
        ({"game": "shitenno", "players_count": "9"}, "The number of players is a whole number from 1 to 4."),
        ({"game": "shitenno", "players_count": "x"}, "The number of players is a whole number"),
        ({"game": "shitenno", "players_count": "2", "seat0_player": "999999"}, "Seat 1: no such player"),
        ({"game": "shitenno", "players_count": "2", "seat1_player": "BOB"}, "Seat 2: no such player"),
    ],
)
def test_bad_input_is_a_400_naming_it_and_changes_nothing(client, alice, bob, params, says):
    client.force_login(alice)
    answer = client.get(URL, params)
    assert answer.status_code == 400 and says in answer.content.decode()
    assert not TableSession.objects.exists() and not Rating.objects.exists()


def test_a_player_the_reader_may_not_seat_or_seated_twice_is_refused(client, alice, bob):
    client.force_login(alice)
    me, stranger = player_for_user(alice), player_for_user(bob)  # bob shares no club or table with alice
    answer = client.get(
        URL, {"game": "shitenno", "players_count": 2, "seat0_player": me.pk, "seat1_player": stranger.pk}
    )
    assert answer.status_code == 400 and "Seat 2: no such player" in answer.content.decode()
    twice = client.get(URL, {"game": "shitenno", "players_count": 2, "seat0_player": me.pk, "seat1_player": me.pk})
    assert twice.status_code == 400 and "alice already has a seat." in twice.content.decode()


def test_a_visitor_is_sent_to_sign_in(client):
    assert client.get(URL, {"game": "shitenno"}).status_code == 302
