"""The path of a move through the table page (docs/architecture.md): the page's read of the table and the write's
lock are the only reads of its row; the answer is rendered from the row as the write left it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import TableSession
from leagues.people.players import player_for_user
from tests.games.tables import two_player_setup

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
DRAW = {"type": "draw", "n_samurai": 2, "n_bushi": 2, "k_1": 2}  # the first move of two_player_setup's table


def _reads_of_the_table(queries) -> list[str]:
    table = connection.ops.quote_name(TableSession._meta.db_table)
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT") and f"FROM {table}" in q["sql"]]


@pytest.mark.parametrize("write", ["move", "undo"])
def test_a_write_through_the_page_reads_the_table_twice_and_answers_the_new_state(client, alice, bob, write):
    session = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        players=[player_for_user(alice), player_for_user(bob)],
    )
    client.force_login(alice)
    if write == "undo":
        assert client.post(reverse("table_move", args=[session.code]), {"seq": 0, **DRAW}, **HTMX).status_code == 200
    url, data = (
        (reverse("table_move", args=[session.code]), {"seq": 0, **DRAW})
        if write == "move"
        else (reverse("table_undo", args=[session.code]), {"seq": 1})
    )
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    reads = _reads_of_the_table(queries.captured_queries)
    assert len(reads) == 2, reads  # the page's read (who may see it), then the write's lock
    assert "FOR UPDATE" in reads[1]
    head = TableSession.objects.get(pk=session.pk).head_seq
    assert head == (1 if write == "move" else 2)
    assert f'name="seq" value="{head}"' in response.content.decode()  # the answer shows the table as written


def test_a_refused_write_reads_the_table_again_for_its_answer(client, alice, bob):
    """A stale phone (409) is shown the table as it is now: that answer reads it once more, as it must."""
    session = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        players=[player_for_user(alice), player_for_user(bob)],
    )
    client.force_login(alice)
    client.post(reverse("table_move", args=[session.code]), {"seq": 0, **DRAW}, **HTMX)
    response = client.post(reverse("table_move", args=[session.code]), {"seq": 0, **DRAW}, **HTMX)
    assert response.status_code == 409 and 'name="seq" value="1"' in response.content.decode()
    assert TableSession.objects.get(pk=session.pk).head_seq == 1


def test_a_waiting_move_entered_under_another_account_is_refused_and_never_logged(client, alice, bob):
    """A shared phone: a page of alice's, still open, sends her waiting move after bob signed in on the phone. The
    phone names the account the move was entered under (X-Shitenno-Account); the site refuses it with 409 before
    any view runs, names bob's session in its answer (so the phone keeps the move waiting for alice), and logs
    nothing. The same move under the account it was entered by goes through."""
    from shitenno_site.offline import ACCOUNT_HEADER, account_tag

    session = services.session_create(
        game="shitenno",
        created_by=alice,
        setup=two_player_setup(),
        players=[player_for_user(alice), player_for_user(bob)],
    )
    url = reverse("table_move", args=[session.code])
    client.force_login(bob)
    refused = client.post(url, {"seq": 0, **DRAW}, headers={ACCOUNT_HEADER: account_tag(alice)}, **HTMX)
    assert refused.status_code == 409 and refused[ACCOUNT_HEADER] == account_tag(bob)
    assert "another account" in refused.content.decode()
    session.refresh_from_db()
    assert session.head_seq == 0 and not session.events.exists()
    taken = client.post(url, {"seq": 0, **DRAW}, headers={ACCOUNT_HEADER: account_tag(bob)}, **HTMX)
    assert taken.status_code == 200
    session.refresh_from_db()
    assert session.head_seq == 1
