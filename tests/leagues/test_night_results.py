# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""A night table whose result is entered by hand on the league page (the players finished it on paper, or a phone
died) is as finished as one played to its end on the phones: it is no longer "playing" on the organiser's screen,
it counts in the night's standings once signed off, and a deleted result puts it back in play. When its players
then finish it on the phones too, the game still counts once: the hand entry is the table's result."""

import threading

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games import signals
from games.models import TableSession
from leagues.models import Player, Result
from leagues.nights import selectors, services
from leagues.result import results
from tests.leagues.league_helpers import TONIGHT, thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_night_pages import as_user, six, tables_of  # noqa: F401 (fixtures)
from tests.leagues.test_night_races import _in_thread, _waiting_on_a_lock, on_postgresql
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)


@pytest.fixture
def opened(six, alice):
    """Round 1 of six players opened: two tables of three, both playing on the phones."""
    services.round_propose(night=six, user=alice)
    services.tables_open(night_round=six.rounds.get(), user=alice)
    return six


def _enter_on_the_league_page(client, alice, night, players):
    """alice, the organiser, records the table's game on the league page (first place first)."""
    data = {"game": "shitenno", "played_on": TONIGHT.isoformat()}
    for i, player in enumerate(players, start=1):
        data |= {f"player_{i}": player, f"rank_{i}": i}
    answer = as_user(client, alice).post(reverse("result_create", args=[night.season.league_id]), data)
    assert answer.status_code == 302, answer.content.decode()
    return Result.objects.filter(session__isnull=True).order_by("-pk").first()


def _round_part(client, alice, night):
    return (
        as_user(client, alice)
        .get(reverse("night_detail", args=[night.pk]), {"part": "round"}, headers={"HX-Request": "true"})
        .content.decode()
    )


def test_a_result_entered_on_the_league_page_finishes_its_night_table(client, opened, alice):
    first, second = tables_of(opened)
    _enter_on_the_league_page(client, alice, opened, first["players"])
    by_position = {t["position"]: t for t in tables_of(opened)}
    assert by_position[first["position"]]["finished"] and not by_position[second["position"]]["finished"]
    page = _round_part(client, alice, opened)
    assert page.count('<small class="tag">playing</small>') == 1 and '<small class="tag">finished</small>' in page
    assert "One table of this round is still playing" in page  # the other table only: its players stay seated
    # the session itself is the phones' business: nothing was written to it
    assert TableSession.objects.get(code=first["session"]).status == TableSession.Status.PLAYING


def test_the_entered_result_counts_in_the_night_s_standings_once_signed_off(client, opened, alice, carol, regulars):
    first = tables_of(opened)[0]
    result = _enter_on_the_league_page(client, alice, opened, first["players"])
    standings = selectors.night_standings(opened)
    assert standings["counted"] + standings["waiting"] == 1  # tonight's game, waiting or counted
    users = {u.player.pk: u for u in [alice, carol, *regulars]}
    for player in first["players"]:
        results.result_sign_off(result=Result.objects.get(pk=result.pk), user=users[player])
    assert Result.objects.get(pk=result.pk).status == Result.Status.COUNTED
    standings = selectors.night_standings(opened)
    assert [row["player"] for row in standings["rows"]] == first["players"] and standings["counted"] == 1


def test_a_deleted_result_puts_the_table_back_in_play(client, opened, alice):
    first = tables_of(opened)[0]
    result = _enter_on_the_league_page(client, alice, opened, first["players"])
    results.result_delete(result=result, version=result.version, user=alice)
    assert not any(t["finished"] for t in tables_of(opened))
    assert "2 tables of this round are still playing" in _round_part(client, alice, opened)


def test_a_result_for_other_players_finishes_nothing(client, opened, alice, carol):
    first, second = tables_of(opened)
    # two players of one table and one of the other: not a table of tonight
    _enter_on_the_league_page(client, alice, opened, [*first["players"][:2], second["players"][0]])
    assert not any(t["finished"] for t in tables_of(opened))


def test_one_result_finishes_one_table_and_the_phones_own_result_comes_first(client, opened, alice):
    first = tables_of(opened)[0]
    session = TableSession.objects.get(code=first["session"])
    own = Result.objects.create(game="shitenno", played_on=TONIGHT, season=opened.season, session=session)
    for rank, player in enumerate(first["players"], start=1):
        own.entries.create(player_id=player, rank=rank)
    by_hand = _enter_on_the_league_page(client, alice, opened, first["players"])
    assert selectors.night_results(opened) == {
        selectors.NightTable.objects.get(session=session).pk: own
    }  # the copy by hand covers no other table
    assert by_hand.pk not in {r.pk for r in selectors.night_results(opened).values()}


def test_a_result_entered_before_the_round_opened_is_not_its_table_s(client, six, alice):
    services.round_propose(night=six, user=alice)
    first = tables_of(six)[0]
    _enter_on_the_league_page(client, alice, six, first["players"])  # an earlier game of the same three
    services.tables_open(night_round=six.rounds.get(), user=alice)
    assert not any(t["finished"] for t in tables_of(six))


def test_the_night_s_standings_go_out_when_its_last_table_is_counted_by_hand(client, opened, alice, carol, regulars):
    from leagues.notifications.models import Channel, Kind, Notification, Preference

    Preference.objects.create(user=alice, standings=Channel.EMAIL)
    users = {u.player.pk: u for u in [alice, carol, *regulars]}
    for table in tables_of(opened):
        assert not Notification.objects.filter(kind=Kind.STANDINGS).exists()  # a table still plays or waits
        result = _enter_on_the_league_page(client, alice, opened, table["players"])
        for player in table["players"]:
            results.result_sign_off(result=Result.objects.get(pk=result.pk), user=users[player])
    assert Notification.objects.filter(kind=Kind.STANDINGS, recipient=alice).exists()


def _finish_on_the_phones(code: str) -> TableSession:
    """The table's last move on the phones, as games' move writer ends a game (games.services._appended): the
    session finished with its outcome (seat 0 first), then `table_finished` in the same transaction."""
    session = TableSession.objects.get(code=code)
    seats = list(session.seats.order_by("position"))
    with transaction.atomic():
        session.status, session.finished_at = TableSession.Status.FINISHED, timezone.now()
        session.outcome = {
            "termination": "end",
            "details": {},
            "placings": [
                {"seat": seat.position, "rank": rank, "score": 40 - rank, "tiebreak": None}
                for rank, seat in enumerate(seats, start=1)
            ],
        }
        session.save()
        signals.table_finished.send(sender=TableSession, session=session)
    return session


def _results_of(season, players) -> list[Result]:
    return [
        r
        for r in Result.objects.filter(season=season).prefetch_related("entries")
        if {e.player_id for e in r.entries.all()} == set(players)
    ]


def test_a_table_entered_by_hand_and_then_finished_on_the_phones_counts_once(client, opened, alice, carol, regulars):
    first = tables_of(opened)[0]
    by_hand = _enter_on_the_league_page(client, alice, opened, list(reversed(first["players"])))
    session = _finish_on_the_phones(first["session"])
    assert _results_of(opened.season, first["players"]) == [by_hand]  # no second result from the phones
    assert not Result.objects.filter(session=session).exists()
    table = selectors.NightTable.objects.get(session=session)
    assert selectors.night_results(opened) == {table.pk: by_hand}
    users = {u.player.pk: u for u in [alice, carol, *regulars]}
    for player in first["players"]:
        results.result_sign_off(result=Result.objects.get(pk=by_hand.pk), user=users[player])
    standings = selectors.night_standings(opened)
    assert standings["counted"] == 1 and [row["games"] for row in standings["rows"]] == [1, 1, 1]
    # the hand entry's order, not the phones': the first one recorded is the game
    assert [row["player"] for row in standings["rows"]] == list(reversed(first["players"]))
    # counted, it is still no result of the session's: the table's undo stays open, and the page does not say it is shut
    fragment = (
        as_user(client, alice)
        .get(reverse("table_result", args=[session.code]), headers={"HX-Request": "true"})
        .content.decode()
    )
    assert "The result counts" not in fragment and 'id="table-undo"' not in fragment


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", "This table's game was entered by hand before the phones finished it"),
        ("nl", "Het spel van deze tafel is met de hand ingevoerd voordat de telefoons het uitspeelden"),
    ],
)
def test_the_table_page_shows_the_hand_entry_as_the_table_s_result(client, opened, alice, language, says):
    first = tables_of(opened)[0]
    by_hand = _enter_on_the_league_page(client, alice, opened, first["players"])
    session = _finish_on_the_phones(first["session"])
    fragment = (
        as_user(client, alice)
        .get(reverse("table_result", args=[session.code]), headers={"HX-Request": "true", "Accept-Language": language})
        .content.decode()
    )
    assert says in fragment and f"{opened.season.name}" in fragment
    assert fragment.count("<li>") == len(first["players"])  # the hand entry's rows: one per player
    assert Result.objects.get(pk=by_hand.pk).session_id is None


def test_an_undo_on_the_phones_leaves_the_hand_entry(client, opened, alice):
    from leagues.result import for_games

    first = tables_of(opened)[0]
    by_hand = _enter_on_the_league_page(client, alice, opened, first["players"])
    session = _finish_on_the_phones(first["session"])
    with transaction.atomic():
        for_games._table_reopening(TableSession, session=session)  # what the undo of the last move sends
    assert _results_of(opened.season, first["players"]) == [by_hand]


def test_a_table_finished_on_the_phones_and_then_entered_by_hand_keeps_the_phones_result(client, opened, alice):
    """The phones recorded first: the table is theirs. The later entry of the same players is a game of its own
    (they may have played again), not the table's: it waits for their sign-offs like any entry by hand, where a
    copy is disputed, and it is not in the night's standings."""
    first = tables_of(opened)[0]
    session = _finish_on_the_phones(first["session"])
    own = Result.objects.get(session=session)
    by_hand = _enter_on_the_league_page(client, alice, opened, first["players"])
    assert set(_results_of(opened.season, first["players"])) == {own, by_hand}
    table = selectors.NightTable.objects.get(session=session)
    assert selectors.night_results(opened) == {table.pk: own}
    assert selectors.hand_result_of_session(session.pk) is None
    assert Result.objects.get(pk=by_hand.pk).status == Result.Status.PENDING


@on_postgresql
def test_a_hand_entry_and_the_last_move_at_once_make_one_result(opened, alice):
    """The hand entry is written and not yet committed when the phones end the game: the last move waits for it
    (the night's season row, which the hand entry holds) and then makes no second result."""
    from unittest import mock

    from leagues.notifications import services as notifications

    first = tables_of(opened)[0]
    players = list(Player.objects.filter(pk__in=first["players"]))
    real_recorded, writing, go = notifications.result_recorded, threading.Event(), threading.Event()

    def recorded_held(result):
        """The hand entry's result is written: hold its transaction open here."""
        if not writing.is_set():
            writing.set()
            assert go.wait(30), "the test never let the hand entry go on"
        return real_recorded(result)

    outcome: dict = {}
    with mock.patch.object(notifications, "result_recorded", recorded_held):
        hand = _in_thread(
            lambda: results.result_enter(
                game="shitenno",
                played_on=TONIGHT,
                season=opened.season,
                user=alice,
                entries=[{"player": p, "rank": rank} for rank, p in enumerate(players, start=1)],
            ),
            outcome,
            "hand",
        )
        assert writing.wait(30), "the hand entry never reached its result"
        phones = _in_thread(lambda: _finish_on_the_phones(first["session"]), outcome, "phones")
        for _ in range(600):  # the phones either wait for the hand entry's lock or (the defect) write at once
            if not phones.is_alive() or _waiting_on_a_lock():
                break
            phones.join(0.05)
        go.set()
        hand.join(30)
        phones.join(30)
    assert isinstance(outcome["hand"], Result) and isinstance(outcome["phones"], TableSession), outcome
    assert _results_of(opened.season, first["players"]) == [outcome["hand"]]
