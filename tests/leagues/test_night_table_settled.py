# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""A night table whose game the organiser entered by hand is settled: its phones are told so and can no longer
enter moves there (found by walking the site as a club: the table page still offered its move form, moves were
taken and then silently counted for nothing). Its page says so, names who placed first and links to the result;
a move posted anyway (the form, htmx, the API, a move that waited on a phone) is refused with 409 naming the
reason, and nothing is logged. Deleting the hand result puts the table back in play."""

import html

import pytest
from django.urls import reverse

from games import heads
from games.engines import get_engine
from games.models import MoveEvent, TableSession
from leagues.models import Player
from leagues.result import results
from tests.leagues.league_helpers import thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_night_pages import as_user, six, tables_of  # noqa: F401 (fixtures)
from tests.leagues.test_night_results import _enter_on_the_league_page, opened  # noqa: F401 (fixtures)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)

HTMX = {"HX-Request": "true"}
DRAW = {"type": "draw", "n_samurai": 3, "n_bushi": 3, "k_1": 3}  # the first draw at three, on the move form
SAYS = {"en": "The organiser entered this table's result by hand",
        "nl": "De organisator heeft de uitslag van deze tafel met de hand ingevoerd"}
REFUSED = {"en": "Moves entered here no longer count", "nl": "Zetten die hier worden ingevoerd tellen niet meer mee"}


@pytest.fixture
def settled(client, opened, alice):
    """The first table of the opened round, its game entered by hand by alice, the organiser: (table, result)."""
    first = tables_of(opened)[0]
    result = _enter_on_the_league_page(client, alice, opened, first["players"])
    return TableSession.objects.get(code=first["session"]), result


def _log(session: TableSession) -> tuple:
    session.refresh_from_db()
    return session.head_seq, session.status, list(session.events.values_list("pk", flat=True))


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_table_page_says_the_result_was_entered_by_hand_and_offers_no_move(client, settled, alice, language):
    session, result = settled
    page = html.unescape(as_user(client, alice).get(reverse("table_detail", args=[session.code]),
                                                    headers={"Accept-Language": language}).content.decode())
    assert SAYS[language] in page and REFUSED[language] in page
    first = Player.objects.get(pk=result.entries.get(rank=1).player_id).name
    assert first in page.split('id="table-settled"')[1].split("</p>")[0]  # who placed first, in the notice
    assert reverse("table_result", args=[session.code]) in page  # and the link to the whole result
    move_url = reverse("table_move", args=[session.code])
    assert f'action="{move_url}"' not in page and 'id="table-undo"' not in page  # no move form, no undo
    assert "data-playing" not in page and "data-finished" in page  # a phone's waiting moves are not sent


def test_a_form_move_on_the_settled_table_is_refused_and_nothing_is_logged(client, settled, alice):
    session, _result = settled
    before = _log(session)
    url = reverse("table_move", args=[session.code])
    as_user(client, alice)
    refused = client.post(url, {"seq": 0, **DRAW}, headers=HTMX)
    assert refused.status_code == 409
    body = html.unescape(refused.content.decode())
    assert "entered this table's result by hand" in body.split('class="notice settled stale"')[1].split("</p>")[0]
    plain = client.post(url, {"seq": 0, **DRAW})  # a phone without script: the same refusal, no redirect
    assert plain.status_code == 409
    undo = client.post(reverse("table_undo", args=[session.code]), {"seq": 0}, headers=HTMX)
    assert undo.status_code == 409
    assert _log(session) == before


def test_an_api_move_on_the_settled_table_is_refused_and_nothing_is_logged(api, settled, alice):
    session, _result = settled
    before = _log(session)
    api.login(alice)
    seat = get_engine("shitenno").hint(session.state)["to_move"]
    draw = {"type": "draw", "seat": seat, "troops": ["samurai"] * 3 + ["bushi"] * 3, "kokus": [1, 1, 1]}
    refused = api.post(f"/api/tables/{session.code}/moves/", {"seq": 0, "move": draw},
                       headers={"Idempotency-Key": "waited-on-a-phone"})
    assert refused.status_code == 409, refused.content
    assert "entered this table's result by hand" in refused.json()["detail"]
    assert refused.json()["settled"] == reverse("table_result", args=[session.code])
    assert _log(session) == before


def test_the_phones_poll_shows_the_hand_result_at_once(client, opened, alice):
    """The phones hold the table's version; the hand entry moves it on, so their next poll renders the notice
    instead of answering 204 (a public table's poll is answered from the shared cache alone)."""
    first = tables_of(opened)[0]
    session = TableSession.objects.get(code=first["session"])
    as_user(client, alice)
    live = reverse("table_live", args=[session.code])
    version = {"seq": session.head_seq, "v": session.rebuilds}
    assert client.get(live, version, headers=HTMX).status_code == 204
    _enter_on_the_league_page(client, alice, opened, first["players"])
    assert not heads.public_unchanged(session.code, str(version["seq"]), str(version["v"]))
    answer = client.get(live, version, headers=HTMX)
    assert answer.status_code == 200 and 'id="table-settled"' in answer.content.decode()


def test_deleting_the_hand_result_puts_the_table_back_in_play(client, settled, alice):
    session, result = settled
    results.result_delete(result=result, version=result.version, user=alice)
    session.refresh_from_db()
    as_user(client, alice)
    live = client.get(reverse("table_live", args=[session.code]), {"seq": 0, "v": session.rebuilds - 1},
                      headers=HTMX)  # the version the phones held while the hand result stood
    assert live.status_code == 200 and 'id="table-settled"' not in live.content.decode()
    page = client.get(reverse("table_detail", args=[session.code])).content.decode()
    assert 'id="table-settled"' not in page and "data-playing" in page
    moved = client.post(reverse("table_move", args=[session.code]), {"seq": 0, **DRAW}, headers=HTMX)
    assert moved.status_code == 200, moved.content.decode()
    session.refresh_from_db()
    assert session.head_seq == 1 and session.events.filter(kind=MoveEvent.Kind.MOVE).count() == 1


def test_the_other_table_of_the_round_still_plays(client, settled, opened, alice):
    """Only the table the hand result covers is settled."""
    other = TableSession.objects.get(code=tables_of(opened)[1]["session"])
    as_user(client, alice)
    moved = client.post(reverse("table_move", args=[other.code]), {"seq": 0, **DRAW}, headers=HTMX)
    assert moved.status_code == 200, moved.content.decode()
    assert 'id="table-settled"' not in moved.content.decode()


STATUS_LINE = {"en": " to play", "nl": " is aan de beurt"}
INVITE = {"en": "Invite the other phones", "nl": "Nodig de andere telefoons uit"}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_settled_table_page_reads_as_finished_below_its_notice(client, settled, alice, language):
    """Below the notice the page read as a game in play (the walk at 360 px): "Ii (ren) to play: enter the draw",
    the card inviting the other phones and the chances before the game. A settled table says who placed first
    and nothing more about a game going on."""
    session, _result = settled
    page = html.unescape(as_user(client, alice).get(reverse("table_detail", args=[session.code]),
                                                    headers={"Accept-Language": language}).content.decode())
    assert SAYS[language] in page  # the notice stays
    assert STATUS_LINE[language] not in page and 'class="expected"' not in page
    assert INVITE[language] not in page and "invite" not in page.split('id="table-body"')[0].split("<h1>")[1]
    assert 'id="chances-h"' not in page
    assert 'id="board"' in page  # the board as the phones left it stays a tap away
    # the same table in play shows all three (the fixture's other table): the test reads what it means to
    other = TableSession.objects.get(code=tables_of(settled_night(session))[1]["session"])
    playing = html.unescape(client.get(reverse("table_detail", args=[other.code]),
                                       headers={"Accept-Language": language}).content.decode())
    assert STATUS_LINE[language] in playing and INVITE[language] in playing and 'id="chances-h"' in playing


def settled_night(session):
    from leagues.models import NightTable

    return NightTable.objects.select_related("round__night").get(session=session).round.night


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_refused_move_on_the_settled_table_says_why_once(client, settled, alice, language):
    """A stale move posted from the page (htmx, or a phone without script) said the same sentence twice: once as
    the refusal, once in the notice. It is said once, as the refusal, with the link to the result."""
    session, _result = settled
    before = _log(session)
    as_user(client, alice)
    for headers in (HTMX, {}):
        refused = client.post(reverse("table_move", args=[session.code]), {"seq": 0, **DRAW},
                              headers={"Accept-Language": language, **headers})
        assert refused.status_code == 409
        body = html.unescape(refused.content.decode())
        assert body.count(REFUSED[language]) == 1 and body.count(SAYS[language]) == 1
        notice = body.split('id="table-settled"')[1].split("</p>")[0]
        assert 'role="alert"' in notice and SAYS[language] in notice
        assert reverse("table_result", args=[session.code]) in notice
    assert _log(session) == before

