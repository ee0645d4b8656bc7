"""The table pages as phones use them: open a table, play through the forms, see errors inline, undo,
watch live, read the history and the final count."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent, TableSession
from leagues.models import Player
from leagues.people.players import player_for_user
from tests.games.engines.shitenno.tables import EVEN_YEAR_EXAMPLE, GATES
from tests.games.tables import four_player_setup, two_player_setup

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
SESSION = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1  # the session's query, if it is not cached


def _new_table_post(**overrides) -> dict:
    data = {"game": "shitenno", "is_public": "on", "deal_titles": "on"}
    for i, general in enumerate(("honda", "ii", "sakakibara", "sakai")):
        data |= {f"seat{i}_general": general, f"seat{i}_colour": ("red", "blue", "yellow", "green")[i]}
    data |= {f"gate_{slug}": troop for slug, troop in GATES.items()}
    return data | overrides


def _table(alice, bob, setup=None) -> TableSession:
    setup = setup or two_player_setup()
    players = [player_for_user(alice), player_for_user(bob)]
    if len(setup["players"]) == 4:
        players += [Player.objects.create(name=n, created_by=alice) for n in ("Carl", "Dora")]
    return services.session_create(
        game="shitenno",
        created_by=alice,
        players=players,
        setup=setup,
        colours=["red", "blue", "yellow", "green"][: len(players)],
    )


def _values(cards: dict, troops: list[str], kokus: list[int], used: set | None = None) -> list[str]:
    """The tap values of these cards among the cards on the table (as the offer form names them)."""
    values, used = [], set() if used is None else used
    for card in troops:
        i = next(i for i, c in enumerate(cards["troops"]) if c == card and ("t", i) not in used)
        used.add(("t", i))
        values.append(f"t:{card}:{i}")
    for v in kokus:
        i = next(i for i, k in enumerate(cards["kokus"]) if k == v and ("k", i) not in used)
        used.add(("k", i))
        values.append(f"k:{v}:{i}")
    return values


def _form_of(move: dict, state: dict) -> dict:
    """The form fields a phone posts for one of the rulebook's sharing moves."""
    kind = move["type"]
    data: dict = {"type": kind}
    if kind == "draw":
        for card in set(move["troops"]):
            data[f"n_{card}"] = move["troops"].count(card)
        for v in set(move["kokus"]):
            data[f"k_{v}"] = move["kokus"].count(v)
    elif kind == "offer":
        data["pick"] = _values(state["sharing"]["table"], move.get("troops", []), move.get("kokus", []))
        data["hierarchy"] = move["hierarchy"]
    elif kind == "split":
        a, b = move["lots"]
        used: set = set()
        for value in _values(state["sharing"]["table"], a["troops"], a["kokus"], used):
            data[f"lot_{value}"] = "0"
        for value in _values(state["sharing"]["table"], b["troops"], b["kokus"], used):
            data[f"lot_{value}"] = "1"
        data |= {"hierarchy_a": a["hierarchy"], "hierarchy_b": b["hierarchy"]}
    elif kind == "choose":
        data["lot"] = str(move["lot"])
    return data


def _post_move(client, session, data, **extra):
    session.refresh_from_db()
    return client.post(reverse("table_move", args=[session.code]), {"seq": session.head_seq, **data}, **extra)


def test_it_opens_a_table_with_a_club_member_and_a_new_guest(client, alice, bob):
    client.force_login(alice)
    assert client.get(reverse("table_new")).status_code == 200
    data = _new_table_post(seat0_player=player_for_user(alice).pk, seat1_guest="Eve")
    response = client.post(reverse("table_new"), data)
    session = TableSession.objects.get()
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    assert [s.player.name for s in session.seats.all()] == ["alice", "Eve"]
    assert [s.colour for s in session.seats.all()] == ["red", "blue"]
    assert sorted(session.setup["titles"]) == ["honda", "ii"]  # dealt by the site


def test_it_refuses_a_bad_set_up_and_creates_no_guest(client, alice):
    client.force_login(alice)
    data = _new_table_post(seat0_player=player_for_user(alice).pk, seat1_guest="Eve", seat1_general="honda")
    response = client.post(reverse("table_new"), data)
    assert response.status_code == 400
    assert "Honda is played by one player only." in response.content.decode()
    assert not TableSession.objects.exists() and not Player.objects.filter(name="Eve").exists()


def test_it_needs_the_titles_when_the_site_does_not_deal(client, alice):
    client.force_login(alice)
    data = _new_table_post(seat0_player=player_for_user(alice).pk, seat1_guest="Eve")
    del data["deal_titles"]
    assert client.post(reverse("table_new"), data).status_code == 400
    data |= {"seat0_title": "shomyo", "seat1_title": "daimyo"}
    assert client.post(reverse("table_new"), data).status_code == 302
    assert TableSession.objects.get().setup["titles"] == {"honda": "shomyo", "ii": "daimyo"}


def test_it_shows_the_board_favour_turn_and_join_code(client, alice, bob):
    session = _table(alice, bob)
    client.force_login(bob)
    html = client.get(session.get_absolute_url()).content.decode()
    assert "<svg" in html and "Kantō" in html and "Favour track" in html
    assert "enter the draw" in html and 'data-move="draw"' in html
    assert session.get_absolute_url() in html  # the join link, also encoded in the QR code
    assert f'data-hx-get="/tables/{session.code}/live/?seq=0&amp;v=0"' in html


def test_a_watcher_sees_the_table_but_no_move_panel(client, alice, bob, dave):
    session = _table(alice, bob)
    client.force_login(dave)
    html = client.get(session.get_absolute_url()).content.decode()
    assert "Favour track" in html and 'data-move="draw"' not in html
    assert _post_move(client, session, {"type": "draw", "n_samurai": 4, "k_1": 2}, **HTMX).status_code == 403
    assert not MoveEvent.objects.exists()


def test_it_plays_the_rulebooks_even_year_through_the_forms(client, alice, bob):
    session = _table(alice, bob, four_player_setup())
    client.force_login(alice)
    for move in EVEN_YEAR_EXAMPLE:
        session.refresh_from_db()
        response = _post_move(client, session, _form_of(move, session.state), **HTMX)
        assert response.status_code == 200, response.content.decode()[:2000]
    session.refresh_from_db()
    assert session.state["titles"] == ["hatamoto", "daimyo", "sensei", "shomyo"]
    html = response.content.decode()
    assert "control of provinces" in html and 'data-move="place"' in html
    assert "Sakakibara (Daimyō) → Ii (Shōmyō) → Sakai (Sensei) → Honda (Hatamoto)" in html


def test_a_plain_post_without_htmx_redirects_to_the_table(client, alice, bob):
    session = _table(alice, bob)
    client.force_login(alice)
    response = _post_move(client, session, {"type": "draw", "n_samurai": 2, "n_bushi": 2, "k_1": 2})
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    session.refresh_from_db()
    assert session.head_seq == 1


def test_an_illegal_move_shows_its_reason_inline_and_keeps_the_input(client, alice, bob):
    session = _table(alice, bob)
    client.force_login(alice)
    response = _post_move(client, session, {"type": "draw", "n_samurai": 7, "k_1": 2}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 400
    assert 'class="error move-error" role="alert"' in html and "draw" in html
    assert 'name="n_samurai" value="7"' in html  # what the user entered is kept
    assert not MoveEvent.objects.exists()


def test_a_stale_phone_is_told_someone_moved_and_sees_the_new_state(client, alice, bob):
    session = _table(alice, bob)
    services.move_record(
        session=session, seq=0, move={"type": "draw", "seat": 0, "troops": ["samurai"] * 4, "kokus": [1, 1]}, user=bob
    )
    client.force_login(alice)
    response = client.post(
        reverse("table_move", args=[session.code]), {"seq": 0, "type": "draw", "n_bushi": 4, "k_1": 2}, **HTMX
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone else moved" in html and 'data-move="split"' in html and "?seq=1" in html


def test_the_live_poll_is_204_until_the_table_moves(client, alice, bob, django_assert_max_num_queries):
    session = _table(alice, bob)
    client.force_login(bob)
    url = reverse("table_live", args=[session.code])
    with django_assert_max_num_queries(1):  # head_seq: a public table does not read the viewer
        assert client.get(url, {"seq": 0}, **HTMX).status_code == 204
    services.move_record(
        session=session, seq=0, move={"type": "draw", "seat": 0, "troops": ["samurai"] * 4, "kokus": [1, 1]}, user=alice
    )
    response = client.get(url, {"seq": 0}, **HTMX)
    assert response.status_code == 200 and 'id="table-body"' in response.content.decode()
    assert "<html" not in response.content.decode()  # the fragment, not the page


def test_a_phone_using_the_api_follows_a_private_table_through_the_live_poll_with_its_token(client, alice, bob, dave):
    from rest_framework.authtoken.models import Token

    session = _table(alice, bob)
    TableSession.objects.filter(pk=session.pk).update(is_public=False)
    url = reverse("table_live", args=[session.code])
    seated, outsider = Token.objects.create(user=bob).key, Token.objects.create(user=dave).key
    assert client.get(url, {"seq": 0}).status_code == 404  # no token: a guest may not see it
    assert client.get(url, {"seq": 0}, HTTP_AUTHORIZATION=f"Token {outsider}").status_code == 404
    assert client.get(url, {"seq": 0}, HTTP_AUTHORIZATION="Token not-a-token").status_code == 404
    assert client.get(url, {"seq": 0}, HTTP_AUTHORIZATION=f"Token {seated}").status_code == 204
    services.move_record(
        session=session, seq=0, move={"type": "draw", "seat": 0, "troops": ["samurai"] * 4, "kokus": [1, 1]}, user=alice
    )
    response = client.get(url, {"seq": 0}, HTTP_AUTHORIZATION=f"Token {seated}", **HTMX)
    assert response.status_code == 200 and "live/?seq=1" in response.content.decode()
    assert 'name="key"' in response.content.decode()  # bob is seated: the body has the move forms


def test_a_rebuilt_table_is_a_new_version_for_the_phones(client, alice, bob):
    """A rebuild from the log (after a rules fix) does not move head_seq, but the phones must not keep the body
    rendered from the old state: the rebuild is a new version for the poll and the shared render."""
    session = _table(alice, bob)
    services.move_record(
        session=session, seq=0, move={"type": "draw", "seat": 0, "troops": ["samurai"] * 4, "kokus": [1, 1]}, user=alice
    )
    session.refresh_from_db()
    year = session.state["year"]
    TableSession.objects.filter(pk=session.pk).update(state={**session.state, "year": 7})  # a projection gone wrong
    client.force_login(bob)
    url = reverse("table_live", args=[session.code])
    assert "Year 7" in client.get(url, {"seq": 0}, **HTMX).content.decode()  # rendered, and shared from the cache
    assert client.get(url, {"seq": 1, "v": 0}, **HTMX).status_code == 204

    services.session_rebuild(session=session)

    response = client.get(url, {"seq": 1, "v": 0}, **HTMX)
    body = response.content.decode()
    assert response.status_code == 200 and f"Year {year}" in body and "Year 7" not in body
    assert "seq=1&amp;v=1" in body  # the next poll asks for the rebuilt version
    assert client.get(url, {"seq": 1, "v": 1}, **HTMX).status_code == 204
    assert TableSession.objects.get(pk=session.pk).head_seq == 1  # the log did not move


def test_phones_at_one_table_share_one_render_of_each_version(alice, bob, django_assert_num_queries):
    """The second phone's poll reuses the first one's render, with its own CSRF token and idempotency key."""
    session = _table(alice, bob)
    services.move_record(
        session=session, seq=0, move={"type": "draw", "seat": 0, "troops": ["samurai"] * 4, "kokus": [1, 1]}, user=alice
    )
    url = reverse("table_live", args=[session.code])
    phones = {user.username: Client(enforce_csrf_checks=True) for user in (alice, bob)}
    phones["alice"].force_login(alice)
    phones["bob"].force_login(bob)
    with django_assert_num_queries(5 + SESSION):
        first = phones["alice"].get(url, {"seq": 0}, **HTMX).content.decode()
    with django_assert_num_queries(3 + SESSION):  # the head, the user, may he write: no table row, log or template
        second = phones["bob"].get(url, {"seq": 0}, **HTMX).content.decode()
    slots = re.compile(r'name="(csrfmiddlewaretoken|key)" value="([^"]+)"')
    assert slots.sub("", first) == slots.sub("", second)
    mine, theirs = dict(slots.findall(second)), dict(slots.findall(first))
    assert mine["key"] != theirs["key"] and mine["csrfmiddlewaretoken"] != theirs["csrfmiddlewaretoken"]
    assert "slot-" not in second
    form = {"csrfmiddlewaretoken": mine["csrfmiddlewaretoken"], "key": mine["key"], "seq": "1", "type": "undo"}
    assert phones["bob"].post(reverse("table_undo", args=[session.code]), form, **HTMX).status_code == 200
    assert session.events.filter(kind=MoveEvent.Kind.UNDO, idempotency_key=mine["key"]).exists()


def test_undo_takes_back_the_last_move_and_the_history_strikes_it(client, alice, bob):
    session = _table(alice, bob)
    client.force_login(alice)
    _post_move(client, session, {"type": "draw", "n_samurai": 2, "n_bushi": 2, "k_1": 2}, **HTMX)
    html = client.get(session.get_absolute_url()).content.decode()
    assert "Undo the last move" in html and "Take back" in html
    session.refresh_from_db()
    response = client.post(reverse("table_undo", args=[session.code]), {"seq": session.head_seq}, **HTMX)
    assert response.status_code == 200
    session.refresh_from_db()
    assert session.head_seq == 2 and session.state["sharing"]["table"] is None
    history = client.get(reverse("table_history", args=[session.code])).content.decode()
    assert "<del>Year 2 — Honda, Tairō, draws" in history and "Undo: Year 2" in history
    assert "entered by alice" in history


def test_a_finished_game_shows_the_final_count(client, alice, bob):
    setup, moves = random_legal_game(3, 2)
    session = services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
    )
    for seq, move in enumerate(moves):
        services.move_record(session=session, seq=seq, move=move, user=alice)
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED
    client.force_login(bob)
    html = client.get(session.get_absolute_url()).content.decode()
    assert "Final count" in html and "Majorities per province" in html and " wins with " in html
    assert 'hx-trigger="every' not in html  # a finished table stops polling (its result slot loads once)
    assert 'data-hx-trigger="load"' in html and "/result/" in html


def test_the_final_count_calculator_counts_a_phone_form(client):
    assert client.get(reverse("final_count")).status_code == 200
    data = {
        "players_count": 2,
        "s0_general": "honda",
        "s0_title": "daimyo",
        "s0_favour": 20,
        "s0_koku2": 1,
        "s1_general": "ii",
        "s1_title": "shomyo",
        "s1_favour": 20,
        "s1_koku2": 1,
        "kanto": "1 2",
    }
    html = client.post(reverse("final_count"), data).content.decode()
    assert "Honda (Seat 1) wins with 28 favour" in html
    assert "tied on weight 1; the kamon furthest left" in html
    data["kanto"] = "1 4*"
    response = client.post(reverse("final_count"), data)
    assert response.status_code == 400 and "Seat 4 is not at this table of 2 players." in response.content.decode()


def test_a_private_table_is_hidden_from_outsiders(client, alice, bob, dave):
    session = _table(alice, bob)
    TableSession.objects.filter(pk=session.pk).update(is_public=False)
    client.force_login(dave)
    assert client.get(session.get_absolute_url()).status_code == 404
    assert client.get(reverse("table_live", args=[session.code]), {"seq": 0}).status_code == 404


def _form_of_any(move: dict, state: dict) -> dict:
    """The form fields for any move of a game, as a phone's move panel names them."""
    kind = move["type"]
    if kind in ("draw", "offer", "split", "choose", "accept", "refuse"):
        return _form_of(move, state)
    data: dict = {"type": kind}
    if kind == "place":
        payment = move["payment"]
        known = dict(state["hands"][move["seat"]]["troops"])
        data["pay"], reveal = [], []
        for i, card in enumerate(payment.get("troops", [])):
            if known.get(card, 0):
                known[card] -= 1
                data["pay"].append(f"t:{card}:{i}")
            else:
                reveal.append(card)
        data["pay"] += [f"k:{v}:{i}" for i, v in enumerate(payment.get("kokus", []))]
        data |= {f"reveal_{i}": card for i, card in enumerate(reveal)}
        data |= {"province": move["province"], "hatamoto": payment.get("hatamoto") or ""}
        for bonus in payment.get("bonuses", []):
            if bonus["tile"] == "exchange":
                data |= {"exchange_from": str(bonus["from"]), "exchange_to": bonus["to"]}
            else:
                data["plus_one_on"] = bonus["on"]
        data |= {key: move[key] for key in ("bonus", "next_troop") if key in move}
    elif kind == "take_card":
        data["card"] = move.get("card") or ""
    elif kind == "end_turn" and move.get("golden"):
        data["golden"] = f"{move['golden']['province']}:{move['golden']['position']}"
    return data


@pytest.mark.parametrize("seed,players", [(1, 2), (2, 3), (3, 4), (4, 4)])
def test_every_move_of_a_legal_game_can_be_entered_through_the_forms(seed, players):
    from django.http import QueryDict

    from games.engines.shitenno import ShitennoEngine
    from games.plugins.shitenno.forms import move_from_post

    engine = ShitennoEngine()
    setup, moves = random_legal_game(seed, players)
    state = engine.initial_state(setup)
    for move in moves:
        data = QueryDict(mutable=True)
        for key, value in _form_of_any(move, state).items():
            data.setlist(key, [str(v) for v in value] if isinstance(value, list) else [str(value)])
        entered = move_from_post(move["type"], move["seat"], data)
        expected = engine.apply(state, move)
        assert engine.apply(state, entered) == expected, (move, entered)
        state = expected
    assert state["phase"] == "over"


def test_a_whole_game_is_played_through_the_pages_to_its_final_count(client, alice, bob):
    setup, moves = random_legal_game(2, 3)
    carl = Player.objects.create(name="Carl", created_by=alice)
    session = services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob), carl]
    )
    client.force_login(bob)
    for move in moves:
        session.refresh_from_db()
        response = _post_move(client, session, _form_of_any(move, session.state), **HTMX)
        assert response.status_code == 200, (move, response.content.decode()[:3000])
    session.refresh_from_db()
    assert session.status == TableSession.Status.FINISHED and session.head_seq == len(moves)
    assert "Final count" in response.content.decode()
