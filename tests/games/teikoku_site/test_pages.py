"""Teikoku at the table, through the pages a phone uses: the set-up form, the treasure board with the season
banner and deck counters, every movement's form (dice entered or rolled by the site), errors inline, undo,
and the victory screen, in English and in Dutch."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.engines.teikoku import TeikokuEngine
from games.engines.teikoku.random_game import random_legal_game
from games.models import MoveEvent, TableSession
from games.plugins import get_game
from leagues.models import Player
from leagues.people.players import player_for_user

from .forms import as_post, form_of
from .worked import worked_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ENGINE = TeikokuEngine()
SHORT = {
    "clans": ["fujiwara", "minamoto"],
    "units_deck": 20,
    "chosen_specials": ["ninja", "market"],
    "aggression_target": 35,
}


def teikoku_table(alice, bob, setup=None, **kwargs) -> TableSession:
    setup = setup or SHORT
    players = [player_for_user(alice), player_for_user(bob)]
    players += [Player.objects.create(name=n, created_by=alice) for n in ("Carl", "Dora")][: len(setup["clans"]) - 2]
    return services.session_create(
        game="teikoku",
        created_by=alice,
        players=players,
        setup=setup,
        colours=["red", "blue", "green", "purple"][: len(players)],
        **kwargs,
    )


def post_move(client, session: TableSession, data: dict, **headers):
    session.refresh_from_db()
    return client.post(
        reverse("table_move", args=[session.code]),
        {**data, "seq": session.head_seq, "key": f"k{session.head_seq}-{data['type']}"},
        **headers,
    )


def test_it_offers_the_teikoku_set_up_with_the_player_count_first_and_the_clans_in_rulebook_order(client, alice):
    client.force_login(alice)
    page = client.get(reverse("table_new") + "?game=teikoku").content.decode()
    order = [page.index(word) for word in ('name="players_count"', "Fujiwara", "Minamoto", "Tokugawa", "Taira")]
    assert order == sorted(order)
    for field in (
        "units_deck",
        "starting_treasure",
        "aggression_target",
        "special_deck_size",
        "fourth_year",
        "seat0_special",
        "seat3_target",
    ):
        assert f'name="{field}"' in page
    assert "gate_kanto" not in page


def test_it_opens_a_table_from_the_set_up_form_with_the_variants(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        reverse("table_new"),
        {
            "game": "teikoku",
            "is_public": "on",
            "players_count": "3",
            "units_deck": "27",
            "seat0_player": str(player_for_user(alice).pk),
            "seat0_colour": "red",
            "seat0_special": "ninja",
            "seat1_guest": "Bo",
            "seat1_colour": "blue",
            "seat1_special": "market",
            "seat1_target": "40",
            "seat2_guest": "Cy",
            "seat2_colour": "green",
            "seat2_special": "ninja",
            "seat3_guest": "ignored: only 3 players",
            "seat3_colour": "purple",
            "seat3_special": "yakuza",
            "starting_treasure": "20",
            "aggression_target": "45",
            "special_deck_size": "10",
            "fourth_year": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    session = TableSession.objects.get(game="teikoku")
    assert session.setup == {
        "clans": ["fujiwara", "minamoto", "tokugawa"],
        "units_deck": 27,
        "chosen_specials": ["ninja", "market", "ninja"],
        "starting_treasure": 20,
        "aggression_target": [45, 40, 45],
        "special_deck_size": 10,
        "years": 4,
    }
    assert [s.colour for s in session.seats.order_by("position")] == ["red", "blue", "green"]
    assert session.state["port"]["treasure"] == 20 and session.state["decks"]["ninja"] == 8


def test_it_refuses_a_set_up_without_the_units_deck_or_a_seat_and_one_the_engine_refuses(client, alice):
    client.force_login(alice)
    base = {
        "game": "teikoku",
        "players_count": "2",
        "units_deck": "20",
        "seat0_player": str(player_for_user(alice).pk),
        "seat0_special": "ninja",
        "seat0_colour": "red",
        "seat1_guest": "Bo",
        "seat1_special": "ninja",
        "seat1_colour": "blue",
    }
    assert client.post(reverse("table_new"), {**base, "units_deck": ""}).status_code == 400
    response = client.post(reverse("table_new"), {**base, "seat1_guest": ""})
    assert response.status_code == 400 and "Minamoto" in response.content.decode()
    response = client.post(reverse("table_new"), {**base, "aggression_target": "25"})  # not above the start
    assert response.status_code == 400 and "aggression target" in response.content.decode()
    response = client.post(reverse("table_new"), {**base, "special_deck_size": "1"})  # both chose the Ninja deck
    assert response.status_code == 400 and "Ninja" in response.content.decode()
    assert not TableSession.objects.exists()


def test_the_table_page_shows_treasure_the_port_the_season_and_the_decks(client, alice, bob):
    session = teikoku_table(alice, bob)
    client.force_login(bob)
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Teikoku table" in page
    assert "Winter, year 1 of 3" in page and "Players cannot attack any other players." in page
    assert "First player: Fujiwara (alice)" in page
    assert page.count('class="treasure-figure"') == 3  # two clans and the Port
    # The clan colour marks its row (the figure itself is in the text colour: red on dark brown failed contrast).
    assert ">25</span>" in page and ">50</span>" in page and "solid #c62828" in page
    for deck in ("Yakuza", "Ninja", "Elements", "Market", "Units"):
        assert deck in page
    assert 'data-move="turn"' in page and "End the Troop Movement turn" in page
    body = client.get(session.get_absolute_url(), **HTMX).content.decode()  # the game's part: the table body
    assert 'id="table-body"' in body and "<script" not in body and not re.search(r"\son[a-z]+=", body)


def test_the_dutch_page_speaks_dutch(client, alice, bob):
    session = teikoku_table(alice, bob)
    client.force_login(bob)
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Teikoku-tafel" in page and "Winter, jaar 1 van 3" in page
    assert "Spelers mogen geen andere spelers aanvallen." in page and "Schatkist" in page


def test_every_movement_posts_through_its_form_and_the_limits_show_before(client, alice, bob):
    """The worked game of docs/api.md, entered through the forms: bounty with the Port's limit, commerce with
    its cost, pit fee, trade, a correction, a raid with its loot limit, to Minamoto's victory by aggression."""
    setup, rows, outcome = worked_game()
    session = teikoku_table(alice, bob, setup)
    client.force_login(alice)
    for seq, _words, move in rows:
        page = client.get(session.get_absolute_url()).content.decode()
        if move["type"] == "bounty":
            assert "and the Port's bounty now: " in page
        if move["type"] == "commerce":
            assert "A special card costs 5 treasure" in page
        if move["type"] == "raid":
            assert "Fujiwara holds 22: at most 16 can be taken." in page
        response = post_move(client, session, form_of(move), **HTMX)
        assert response.status_code == 200, (seq, response.content.decode()[:2000])
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED and session.outcome == outcome
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Victory by aggression" in page and "Minamoto (bob)" in page and "reached their aggression target" in page
    assert "Spring of year 1" in page
    descriptions = list(session.events.order_by("seq").values_list("description", flat=True))
    assert descriptions == [words for _seq, words, _move in rows]


def test_the_victory_screen_speaks_dutch(client, alice, bob):
    setup, rows, _outcome = worked_game()
    session = teikoku_table(alice, bob, setup)
    client.force_login(alice)
    for _seq, _words, move in rows:
        post_move(client, session, form_of(move))
    page = client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Overwinning door agressie" in page


def test_the_site_rolls_the_raid_dice_when_asked_and_logs_them_as_its_own(client, alice, bob):
    setup, rows, _outcome = worked_game()
    session = teikoku_table(alice, bob, setup)
    client.force_login(alice)
    for _seq, _words, move in rows[:-1]:
        post_move(client, session, form_of(move))
    response = post_move(client, session, {"type": "raid", "defender": "0", "cubes": "0", "roll": "site"})
    assert response.status_code == 302
    raid = MoveEvent.objects.get(session=session, seq=len(rows))
    assert raid.payload["rolled_by"] == "site" and len(raid.payload["dice"]) == 2
    assert all(1 <= d <= 6 for d in raid.payload["dice"]) and "rolled by the site" in raid.description


def test_an_illegal_movement_shows_the_reason_inline_and_writes_nothing(client, alice, bob):
    setup, rows, _outcome = worked_game()
    session = teikoku_table(alice, bob, setup)
    client.force_login(alice)
    for _seq, _words, move in rows[:2]:
        post_move(client, session, form_of(move))
    response = post_move(client, session, {"type": "bounty", "blood": "3", "amount": "9"}, **HTMX)
    assert response.status_code == 400 and 'class="error move-error"' in response.content.decode()
    assert 'value="9"' in response.content.decode()  # what was entered is kept
    response = post_move(client, session, {"type": "raid", "defender": "1", "die0": "x", "die1": "3"})
    assert response.status_code == 400 and "whole number" in response.content.decode()
    response = post_move(client, session, {"type": "no_such_move"})
    assert response.status_code == 400
    session.refresh_from_db()
    assert session.head_seq == 2


def test_undo_takes_back_a_teikoku_movement(client, alice, bob):
    session = teikoku_table(alice, bob)
    client.force_login(alice)
    post_move(client, session, {"type": "end_turn"})
    page = client.get(session.get_absolute_url()).content.decode()
    assert "Take back: “Year 1, Winter, Troop Movement: Fujiwara ends their Troop Movement turn.”?" in page
    session.refresh_from_db()
    response = client.post(reverse("table_undo", args=[session.code]), {"seq": session.head_seq, "key": "u1"})
    assert response.status_code == 302
    session.refresh_from_db()
    assert session.state["turn"]["seat"] == 0 and session.head_seq == 2


@pytest.mark.parametrize("seed", range(6))
def test_every_move_of_random_legal_games_can_be_entered_through_the_forms(seed):
    """The forms reach every move the engine knows (anytime moves included), to the same state."""
    game = get_game("teikoku")
    setup, moves = random_legal_game(random.Random(seed), [2, 3, 4][seed % 3])
    state = ENGINE.initial_state(setup)
    kinds = set()
    for move in moves:
        entered = game.move_from_post(state, as_post(form_of(move)))
        expected = ENGINE.apply(state, move)
        assert ENGINE.apply(state, entered) == expected, (move, entered)
        state, kinds = expected, kinds | {move["type"]}
    assert state["end"] is not None and {"end_turn", "bounty"} <= kinds


def test_the_statistics_page_counts_clans_seats_victories_and_seasons(client, alice, bob):
    setup, rows, _outcome = worked_game()
    session = teikoku_table(alice, bob, setup)
    client.force_login(alice)
    for _seq, _words, move in rows:
        post_move(client, session, form_of(move))
    page = client.get(reverse("game_stats", args=["teikoku"])).content.decode()
    assert "Win rate by clan" in page and "Win rate by seat" in page and "Victory by aggression" in page
    assert "Game length in seasons" in page and "2 seasons: 1" in page
    with translation.override("nl"):
        found = get_game("teikoku").stats_context(get_game("teikoku").stats([]))
    assert found["stats"]["tables"] == 0
