"""Issue 48 finding 5, lists and polls that scale: the move log in pages by seq (`since`, `limit`, a Link to the
next page), and an ETag on every read with 304 to a client that already has it."""

import pytest

from games.models import MoveEvent, TableSession

from .test_query_budgets import _table

pytestmark = pytest.mark.django_db


def test_the_move_log_answers_what_follows_a_seq_in_pages_linked_to_the_next(api, alice, bob):
    session, _legal = _table(alice, bob, 12)
    url = f"/api/tables/{session.code}/moves/"
    whole = api.get(url)
    assert [e["seq"] for e in whole.json()] == list(range(1, 13)) and "Link" not in whole
    first = api.get(f"{url}?since=3&limit=5")
    assert [e["seq"] for e in first.json()] == [4, 5, 6, 7, 8]
    link = first["Link"]
    assert link == f'<http://testserver{url}?since=8&limit=5>; rel="next"'
    second = api.get(link[1 : link.index(">")])
    assert [e["seq"] for e in second.json()] == [9, 10, 11, 12] and "Link" not in second
    assert api.get(f"{url}?since=12").json() == []  # a poll with nothing new


@pytest.mark.parametrize("query", [{"since": "-1"}, {"since": "x"}, {"limit": "0"}, {"limit": "501"}])
def test_an_unreadable_page_of_the_log_is_a_400_naming_the_parameter_and_changes_nothing(api, alice, bob, query):
    session, _legal = _table(alice, bob, 3)
    ((name, value),) = query.items()
    response = api.get(f"/api/tables/{session.code}/moves/?{name}={value}")
    assert response.status_code == 400 and name in response.content.decode()
    assert MoveEvent.objects.filter(session=session).count() == 3
    assert TableSession.objects.get(pk=session.pk).head_seq == 3


def test_a_read_the_client_already_has_is_a_304_without_a_body_until_the_table_moves(api, alice, bob):
    session, legal = _table(alice, bob, 4)
    TableSession.objects.filter(pk=session.pk).update(head_seq=0)  # the log is the fixture's: start it afresh
    MoveEvent.objects.filter(session=session).delete()
    api.login(alice)
    url = f"/api/tables/{session.code}/"
    first = api.get(url)
    tag = first["ETag"]
    assert first.status_code == 200 and tag
    again = api.get(url, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    moves = api.get(f"/api/tables/{session.code}/moves/")
    assert api.get(f"/api/tables/{session.code}/moves/", HTTP_IF_NONE_MATCH=moves["ETag"]).status_code == 304
    posted = api.post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": legal[0]})
    assert posted.status_code == 201, posted.content
    moved = api.get(url, HTTP_IF_NONE_MATCH=tag)
    assert moved.status_code == 200 and moved["ETag"] != tag and moved.json()["head_seq"] == 1


def test_a_compressed_answer_s_etag_still_matches_on_the_next_poll(api, alice, bob):
    """Gzip turns the ETag weak (W/"..."): the next poll sends that one back, and it is still a 304."""
    session, _legal = _table(alice, bob, 30)
    url = f"/api/tables/{session.code}/moves/"
    first = api.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["Content-Encoding"] == "gzip" and first["ETag"].startswith('W/"')
    again = api.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == first["ETag"]  # the 304 names the validator the 200 gave (it said "..." unweakened)
    plain = api.get(url)  # not compressed: the same weak validator, so either answer's tag works for the other
    assert plain["ETag"] == first["ETag"] and "Content-Encoding" not in plain
