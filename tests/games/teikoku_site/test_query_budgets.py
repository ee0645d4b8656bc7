"""Query budgets for a Teikoku table, as for Shitennō's (tests/site/test_query_budgets.py): the table page,
the live fragment and a move post cost the same with 10 and with 150 moves in the log.

The log is made with bulk_create (these tests count queries, they do not play): every tenth entry undoes the
one before; the cached state is left at the start so the next legal move can still be posted.
"""

import pytest
from django.conf import settings

from games import services as game_services
from games.models import MoveEvent, TableSession
from leagues.people.players import player_for_user, player_guest_create

pytestmark = pytest.mark.django_db
SESSION = 0 if settings.SESSION_ENGINE.endswith("cached_db") else 1  # the session's query, if it is not cached
BADGE = 1  # the nav's "to sign" count for a signed-in member (issue 39): one query
SIZES = [10, 150]
SETUP = {
    "clans": ["fujiwara", "minamoto", "tokugawa"],
    "units_deck": 27,
    "chosen_specials": ["ninja", "market", "yakuza"],
}
FIRST = {"type": "end_turn", "seat": 0}  # always legal at the start


def _table(alice, bob, moves: int) -> TableSession:
    carl = player_guest_create(name="Carl", created_by=alice)
    session = game_services.session_create(
        game="teikoku",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob), carl],
        setup=SETUP,
        colours=["red", "blue", "green"],
    )
    MoveEvent.objects.bulk_create(
        MoveEvent(
            session=session,
            seq=seq,
            kind=MoveEvent.Kind.UNDO if seq % 10 == 0 else MoveEvent.Kind.MOVE,
            payload={"undoes": seq - 1} if seq % 10 == 0 else FIRST,
            description=f"move {seq}",
            entered_by=alice,
        )
        for seq in range(1, moves + 1)
    )
    TableSession.objects.filter(pk=session.pk).update(head_seq=moves)
    session.refresh_from_db()
    return session


@pytest.mark.parametrize("rows", SIZES)
def test_the_teikoku_table_page_costs_the_same_with_a_long_log(client, alice, bob, rows, django_assert_num_queries):
    session = _table(alice, bob, rows)
    client.force_login(bob)
    with django_assert_num_queries(4 + SESSION + BADGE):
        response = client.get(f"/tables/{session.code}/")
    page = response.content.decode()
    assert response.status_code == 200 and f"move {rows - 1}" in page and "treasure-figure" in page


@pytest.mark.parametrize("rows", SIZES)
def test_the_teikoku_live_fragment_costs_the_same_with_a_long_log(client, alice, bob, rows, django_assert_num_queries):
    session = _table(alice, bob, rows)
    client.force_login(bob)
    with django_assert_num_queries(5 + SESSION):
        response = client.get(f"/tables/{session.code}/live/?seq={rows - 1}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "<html" not in response.content.decode()
    assert "treasure-figure" in response.content.decode()
    with django_assert_num_queries(1):
        assert client.get(f"/tables/{session.code}/live/?seq={rows}", HTTP_HX_REQUEST="true").status_code == 204


@pytest.mark.parametrize("rows", SIZES)
def test_a_teikoku_move_post_costs_the_same_with_a_long_log(api, client, alice, bob, rows, django_assert_num_queries):
    session = _table(alice, bob, rows)
    api.login(bob)
    # the user, BEGIN, the table locked, is bob seated, the entry and the state in one statement, COMMIT
    with django_assert_num_queries(6 + SESSION):
        response = api.post(f"/api/tables/{session.code}/moves/", {"seq": rows, "move": FIRST})
    assert response.status_code == 201, response.content
    assert response.json()["event"]["seq"] == rows + 1


@pytest.mark.parametrize("rows", SIZES)
def test_a_teikoku_page_form_post_costs_the_same_with_a_long_log(client, alice, bob, rows, django_assert_num_queries):
    """The phone's form (a redirect after the post): one query more than the API's, as the page reads the
    table with its seats for the viewer; the same with a long log."""
    session = _table(alice, bob, rows)
    client.force_login(alice)
    # a new key is not looked up (its unique index would meet an earlier one), the entry and state in one statement
    with django_assert_num_queries(7 + SESSION):
        response = client.post(f"/tables/{session.code}/move/", {"seq": rows, "key": "k", "type": "end_turn"})
    assert response.status_code == 302
    assert MoveEvent.objects.filter(session=session).count() == rows + 1
