"""Shitennō's table page as the rulebook describes the board: each province shows its own troop ("These Troops
match those drawn on this Province and on the top Bonus Tile") and its gate (the troop on the top tile, and
how many tiles are left there); the placement form asks, in its own words, for the tile taken at the gate."""

import re
from html import unescape

import pytest
from django.conf import settings
from django.http import QueryDict
from django.urls import reverse

from games import services
from games.engines.shitenno import ShitennoEngine
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent
from games.plugins import get_game
from leagues.people.players import player_for_user
from tests.games.test_pages import _form_of_any

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ENGINE = ShitennoEngine()
# random_legal_game(1, 3) before its move 36: Kantō empty, its gate Shinobi; Hokkaidō holds two kamons (one tile
# left, Samurai); Kyūshū three (no tile left: its gate shows its own Bushi); Sakakibara (seat 1, bob) to place.
SEED, PLAYERS, PLACING = 1, 3, 36


@pytest.fixture
def table(alice, bob, carol):
    setup, moves = random_legal_game(SEED, PLAYERS)
    session = services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(u) for u in (alice, bob, carol)]
    )
    for seq, move in enumerate(moves[:PLACING]):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    session.refresh_from_db()
    session.next_move = moves[PLACING]
    return session


def province_link(html: str, slug: str) -> str:
    return re.search(rf'<a href="\?province={slug}#move".*?</a>', html, re.S).group(0)


def visible_words(svg_part: str) -> str:
    return " ".join(unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg_part))


def test_a_province_shows_its_own_troop_and_its_gate_apart(client, table, bob):
    client.force_login(bob)
    html = client.get(table.get_absolute_url()).content.decode()
    assert table.state["gates"]["kanto"] == {"top": "shinobi", "tiles": 3}
    assert visible_words(province_link(html, "kanto")) == "Kantō Own troop: 3 Samurai Gate: Shinobi 3 tiles left"
    assert visible_words(province_link(html, "hokkaido")) == "Hokkaidō Own troop: 2 Sōhei Gate: Samurai 1 tile left"
    # No tile left: the gate shows the province's own figure, so a 4th kamon asks one more of its own troop.
    assert visible_words(province_link(html, "kyushu")) == "Kyūshū Own troop: 2 Bushi Gate: Bushi no tile left"
    assert "×" not in html.split('<figure class="board">')[1].split("</figure>")[0]


def test_the_board_labels_speak_dutch(client, table, bob):
    client.force_login(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    html = client.get(table.get_absolute_url()).content.decode()
    assert 'lang="nl"' in html
    assert visible_words(province_link(html, "kanto")) == "Kantō Eigen troep: 3 Samurai Poort: Shinobi nog 3 tegels"


def test_each_province_link_is_named_by_its_visible_words_and_the_board_holds_links_as_a_group(client, table, bob):
    client.force_login(bob)
    html = client.get(table.get_absolute_url()).content.decode()
    svg = re.search(r"<svg[^>]*>", html).group(0)
    assert 'role="group"' in svg and 'role="img"' not in svg  # an image may not hold links
    for slug in ENGINE.hint(table.state)["provinces"]:
        link = province_link(html, slug)
        name = unescape(re.search(r'aria-label="([^"]*)"', link).group(1))
        words = re.sub(r"[^\w\s]", "", visible_words(link)).split()
        assert re.sub(r"[^\w\s]", "", name).split()[: len(words)] == words, (slug, name)
        assert "<circle" not in link  # the kamons are drawn over the link, hidden from screen readers
    assert table.state["board"]["kyushu"] == [[1, "simple"], [2, "simple"], [2, "golden"]]  # Sakakibara, Honda
    assert "3 favour: Sakakibara; 4 favour: Honda; 6 favour: Honda, golden; 9 favour: free." in unescape(
        province_link(html, "kyushu")
    )


def _place(client, session, **fields):
    session.refresh_from_db()
    return client.post(
        reverse("table_move", args=[session.code]), {"seq": session.head_seq, "type": "place", **fields}, **HTMX
    )


@pytest.mark.parametrize(
    "fields,where,said",
    [
        (
            {"province": "kanto", "pay": ["k:1:0"]},
            "place-bonus-error",
            "A kamon on Kantō's position 1 takes the top tile of its gate: choose the bonus face taken.",
        ),
        (
            {"province": "kanto", "pay": ["k:1:0"], "bonus": "exchange"},
            "place-next-troop-error",
            "Taking the tile from Kantō's gate uncovers the next one: choose the troop face revealed beneath.",
        ),
        (
            {"province": "hokkaido", "bonus": "exchange", "next_troop": "bushi"},
            "place-next-troop-error",
            "No tile is left beneath on Hokkaidō's gate: leave the troop face revealed beneath empty.",
        ),
        (
            {"province": "kyushu", "bonus": "exchange"},
            "place-bonus-error",
            "Kyūshū's last position takes no tile from the gate: leave the bonus face empty.",
        ),
        ({"bonus": "exchange"}, "place-province-error", "Tap the province to place the kamon on."),
    ],
)
def test_a_placement_missing_a_gate_field_is_refused_next_to_that_field(client, table, bob, fields, where, said):
    client.force_login(bob)
    before = (table.head_seq, table.state)
    response = _place(client, table, **fields)
    html = unescape(response.content.decode())
    assert response.status_code == 400
    assert f'<p class="error field-error" id="{where}" role="alert">{said}</p>' in html
    assert re.findall(r'role="alert">([^<]*)<', html) == [said]  # said once, by its field, in the form's words
    table.refresh_from_db()
    assert (table.head_seq, table.state) == before and MoveEvent.objects.count() == PLACING


def test_a_missing_bonus_is_asked_for_in_dutch(client, table, bob):
    client.force_login(bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nl"
    response = _place(client, table, province="kanto")
    assert response.status_code == 400
    assert (
        "Een kamon op positie 1 van Kantō neemt de bovenste tegel van de poort: kies de genomen bonuskant."
        in unescape(response.content.decode())
    )


def test_the_placement_with_its_gate_fields_is_recorded(client, table, bob):
    client.force_login(bob)
    move, before = table.next_move, table.state
    assert move["type"] == "place" and "bonus" in move
    response = _place(client, table, **_form_of_any(move, before))
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.head_seq == PLACING + 1 and table.state == ENGINE.apply(before, move)


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4)])
def test_the_form_check_lets_every_legal_placement_through(seed, players):
    game = get_game("shitenno")
    setup, moves = random_legal_game(seed, players)
    state = ENGINE.initial_state(setup)
    for move in moves:
        data = QueryDict(mutable=True)
        for key, value in _form_of_any(move, state).items():
            data.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
        assert ENGINE.apply(state, game.move_from_post(state, data)) == ENGINE.apply(state, move)
        state = ENGINE.apply(state, move)
