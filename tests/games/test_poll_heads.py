"""The poll of a public table that has not moved is answered from the table's version in the shared cache
(games.heads), without the database; it must never answer 204 where the database would answer otherwise."""

import pytest

from games import heads
from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from games.models import TableSession
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def moved(api, alice, bob):
    """A public table of alice's and bob's, one move in (made through the API, as phones do)."""
    setup, moves = random_legal_game(3, 2)
    session = game_services.session_create(
        game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
    )
    assert api.login(alice).post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": moves[0]}).status_code == 201
    return session, moves


def live(client, code: str, seq, v: int = 0):
    return client.get(f"/tables/{code}/live/?seq={seq}&v={v}", HTTP_HX_REQUEST="true")


def test_an_unchanged_public_table_is_answered_without_the_database(client, moved, django_assert_num_queries):
    session, _moves = moved
    with django_assert_num_queries(0):
        assert live(client, session.code, 1).status_code == 204
    assert live(client, session.code, 0).status_code == 200  # behind: the table's body, from the database


def test_the_next_move_changes_the_version_at_once(api, client, moved):
    session, moves = moved
    assert api.post(f"/api/tables/{session.code}/moves/", {"seq": 1, "move": moves[1]}).status_code == 201
    assert live(client, session.code, 1).status_code == 200
    assert live(client, session.code, 2).status_code == 204


def test_a_refused_move_leaves_the_version(api, client, moved):
    session, moves = moved
    assert api.post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": moves[1]}).status_code == 409
    assert live(client, session.code, 1).status_code == 204


def test_a_table_made_private_is_not_answered_from_the_cache(client, dave, moved, django_capture_on_commit_callbacks):
    session, _moves = moved
    assert live(client, session.code, 1).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        session.refresh_from_db()
        session.is_public = False
        session.save()  # as the admin does
    client.force_login(dave)
    assert live(client, session.code, 1).status_code == 404
    client.logout()
    assert live(client, session.code, 1).status_code == 404


def test_a_deleted_table_is_not_answered_from_the_cache(client, moved, django_capture_on_commit_callbacks):
    session, _moves = moved
    assert live(client, session.code, 1).status_code == 204
    with django_capture_on_commit_callbacks(execute=True):
        TableSession.objects.filter(pk=session.pk).delete()
    assert live(client, session.code, 1).status_code == 404


def test_a_rebuild_is_a_new_version(client, moved, django_capture_on_commit_callbacks):
    session, _moves = moved
    with django_capture_on_commit_callbacks(execute=True):
        game_services.session_rebuild(session=session)
    assert live(client, session.code, 1, v=0).status_code == 200
    assert live(client, session.code, 1, v=1).status_code == 204


def test_a_private_table_never_has_a_cached_version(api, client, alice, bob, dave):
    setup, moves = random_legal_game(3, 2)
    session = game_services.session_create(
        game="shitenno",
        created_by=alice,
        setup=setup,
        is_public=False,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    assert api.login(alice).post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": moves[0]}).status_code == 201
    assert not heads.public_unchanged(session.code, "1", "0")
    client.force_login(dave)
    assert live(client, session.code, 1).status_code == 404
    client.force_login(bob)
    assert live(client, session.code, 1).status_code == 204


@pytest.mark.parametrize("query", ["seq=1&v=0.0", "seq=01", "seq=1.0", "seq=", "v=0", "seq=1&v="])
def test_a_poll_naming_no_exact_version_asks_the_database(client, moved, query):
    session, _moves = moved
    assert live(client, session.code, 1).status_code == 204
    answer = client.get(f"/tables/{session.code}/live/?{query}", HTTP_HX_REQUEST="true")
    assert answer.status_code == 200


def test_a_new_public_table_has_its_first_version_once_committed(
    api, client, alice, bob, django_capture_on_commit_callbacks, django_assert_num_queries
):
    setup, moves = random_legal_game(3, 2)
    with django_capture_on_commit_callbacks() as created:
        session = game_services.session_create(
            game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
        )
    assert not heads.public_unchanged(session.code, "0", "0")  # not before the commit
    for callback in created:
        callback()
    with django_assert_num_queries(0):
        assert live(client, session.code, 0).status_code == 204


def test_a_move_made_before_the_creation_s_callback_is_not_overwritten(
    api, client, alice, bob, django_capture_on_commit_callbacks
):
    setup, moves = random_legal_game(3, 2)
    with django_capture_on_commit_callbacks() as created:
        session = game_services.session_create(
            game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
        )
    assert api.login(alice).post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": moves[0]}).status_code == 201
    for callback in created:  # late: the move's version is in the cache already
        callback()
    assert live(client, session.code, 0).status_code == 200
    assert live(client, session.code, 1).status_code == 204
