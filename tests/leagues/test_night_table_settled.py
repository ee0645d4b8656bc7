# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""A night table whose game the organiser entered by hand is settled: its phones are told so and can no longer
enter moves there (found by walking the site as a club: the table page still offered its move form, moves were
taken and then silently counted for nothing). Its page says so, names who placed first and links to the result;
a move posted anyway (the form, htmx, the API, a move that waited on a phone) is refused with 409 naming the
reason, and nothing is logged. Deleting the hand result puts the table back in play."""

import datetime
import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import heads, selectors
from games.engines import get_engine
from games.models import MoveEvent, TableSession
from leagues.models import Player
from leagues.nights import services as night_services
from leagues.result import results
from tests.leagues.league_helpers import thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_night_pages import as_user, six, tables_of  # noqa: F401 (fixtures)
from tests.leagues.test_night_results import _enter_on_the_league_page, opened  # noqa: F401 (fixtures)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)

HTMX = {"HX-Request": "true"}
DRAW = {"type": "draw", "n_samurai": 3, "n_bushi": 3, "k_1": 3}  # the first draw at three, on the move form
SAYS = {
    "en": "The organiser entered this table's result by hand",
    "nl": "De organisator heeft de uitslag van deze tafel met de hand ingevoerd",
}
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
    page = html.unescape(
        as_user(client, alice)
        .get(reverse("table_detail", args=[session.code]), headers={"Accept-Language": language})
        .content.decode()
    )
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
    refused = api.post(
        f"/api/tables/{session.code}/moves/", {"seq": 0, "move": draw}, headers={"Idempotency-Key": "waited-on-a-phone"}
    )
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
    live = client.get(
        reverse("table_live", args=[session.code]), {"seq": 0, "v": session.rebuilds - 1}, headers=HTMX
    )  # the version the phones held while the hand result stood
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
    page = html.unescape(
        as_user(client, alice)
        .get(reverse("table_detail", args=[session.code]), headers={"Accept-Language": language})
        .content.decode()
    )
    assert SAYS[language] in page  # the notice stays
    assert STATUS_LINE[language] not in page and 'class="expected"' not in page
    assert INVITE[language] not in page and "invite" not in page.split('id="table-body"')[0].split("<h1>")[1]
    assert 'id="chances-h"' not in page
    assert 'id="board"' in page  # the board as the phones left it stays a tap away
    # the same table in play shows all three (the fixture's other table): the test reads what it means to
    other = TableSession.objects.get(code=tables_of(settled_night(session))[1]["session"])
    playing = html.unescape(
        client.get(reverse("table_detail", args=[other.code]), headers={"Accept-Language": language}).content.decode()
    )
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
        refused = client.post(
            reverse("table_move", args=[session.code]),
            {"seq": 0, **DRAW},
            headers={"Accept-Language": language, **headers},
        )
        assert refused.status_code == 409
        body = html.unescape(refused.content.decode())
        assert body.count(REFUSED[language]) == 1 and body.count(SAYS[language]) == 1
        notice = body.split('id="table-settled"')[1].split("</p>")[0]
        assert 'role="alert"' in notice and SAYS[language] in notice
        assert reverse("table_result", args=[session.code]) in notice
    assert _log(session) == before


def _listed(page: str, session: TableSession) -> str:
    """The row of the table's list that links to `session`: its names and "status · day"."""
    return page.split(f'href="{reverse("table_detail", args=[session.code])}"')[1].split("</li>")[0]


@pytest.mark.parametrize("language,finished,playing", [("en", "finished", "playing"), ("nl", "afgelopen", "bezig")])
def test_the_club_and_player_pages_list_the_settled_table_as_finished(
    client, settled, opened, alice, language, finished, playing
):
    """The club's recent games and a player's tables listed the settled table as "playing" (the night's page
    already said "finished"), and so did alice's own tables on the home page; the other table still plays."""
    session, result = settled
    other = TableSession.objects.get(code=tables_of(opened)[1]["session"])
    player = Player.objects.get(pk=result.entries.get(rank=1).player_id)
    as_user(client, alice)
    for url in (reverse("club_detail", args=[opened.season.league.club.slug]), player.get_absolute_url(), "/"):
        page = client.get(url, headers={"Accept-Language": language}).content.decode()
        assert f"<small>{finished} · " in _listed(page, session), url
        if f'href="{reverse("table_detail", args=[other.code])}"' in page:
            assert f"<small>{playing} · " in _listed(page, other), url
    session.refresh_from_db()
    assert session.status == TableSession.Status.PLAYING  # the list reads it so: nothing written to the table


def _another_settled_night(alice, season, date, users):
    """A night of the season on `date` with the same six players, its round opened and its first table's game
    entered by hand: that table's session."""
    night = night_services.night_open(season=season, user=alice, date=date, games=["shitenno"])
    for user in users:
        night_services.night_check_in(night=night, user=user)
    night_services.round_propose(night=night, user=alice)
    night_services.tables_open(night_round=night.rounds.get(), user=alice)
    first = tables_of(night)[0]
    results.result_enter(
        game="shitenno",
        played_on=date,
        season=season,
        user=alice,
        entries=[
            {"player": Player.objects.get(pk=p), "rank": rank} for rank, p in enumerate(first["players"], start=1)
        ],
    )
    return TableSession.objects.get(code=first["session"])


def test_the_lists_find_the_settled_tables_of_many_nights_in_the_same_queries(
    client, settled, opened, alice, carol, regulars, django_assert_num_queries
):
    """A list of tables asks which are settled in one go: the club's page costs the same with one night's tables
    as with three nights' (not a few queries more a night, or a table)."""
    session, _result = settled
    club_page = reverse("club_detail", args=[opened.season.league.club.slug])
    as_user(client, alice)

    def club_page_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(club_page).status_code == 200
        return len(queries)

    one_night = club_page_queries()
    users = [alice, carol, *regulars[:4]]
    more = [
        _another_settled_night(alice, opened.season, opened.date - datetime.timedelta(days=7 * n), users)
        for n in (1, 2)
    ]
    assert club_page_queries() == one_night
    tables = list(TableSession.objects.filter(club__isnull=False))
    assert len(tables) == 6
    with django_assert_num_queries(4):  # the nights' tables, their own results, the hand results, their entries
        found = selectors.sessions_settled(tables)
    assert found == {session.pk, *(s.pk for s in more)}
    page = client.get(club_page).content.decode()
    assert all("<small>finished · " in _listed(page, s) for s in (session, *more))
