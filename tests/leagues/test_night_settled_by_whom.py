# ruff: noqa: F811  (the fixtures imported from test_nights are parameters here, by name)
"""Who may settle a league night's table by hand (issue 47 finding 6). A member not at the table posted a result
with its players to /api/results/: pending, signed by nobody, it shut the table ("The organiser entered this
table's result by hand"), the players' moves got 409, and a dispute did not reopen it. The rule now: an entry
by hand settles a night table when the night's organisers (the club's owners and admins) entered it, or when
every player signed it; anyone else's pending entry is only his word, and a dispute before it counts puts the
table back in play."""

import pytest

from games.engines import get_engine
from games.models import TableSession
from leagues.models import Player, Result
from leagues.nights import selectors
from leagues.result import results
from tests.leagues.league_helpers import TONIGHT, thursday_season  # noqa: F401 (the `season` fixture)
from tests.leagues.test_night_pages import six, tables_of  # noqa: F401 (fixtures)
from tests.leagues.test_night_results import opened  # noqa: F401 (fixtures)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)


def _post_result(api, user, night, players) -> dict:
    """`user` records the table's game through the API, first place first."""
    api.login(user)
    answer = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": TONIGHT.isoformat(),
            "season": night.season_id,
            "entries": [{"player": p, "rank": rank} for rank, p in enumerate(players, start=1)],
        },
    )
    assert answer.status_code == 201, answer.content
    return answer.json()


def _move(api, user, session: TableSession):
    """The first draw at the table, through the API, as a seated phone sends it."""
    session.refresh_from_db()
    seat = get_engine("shitenno").hint(session.state)["to_move"]
    draw = {"type": "draw", "seat": seat, "troops": ["samurai"] * 3 + ["bushi"] * 3, "kokus": [1, 1, 1]}
    return api.login(user).post(
        f"/api/tables/{session.code}/moves/",
        {"seq": session.head_seq, "move": draw},
        headers={"Idempotency-Key": f"move-{session.code}-{session.head_seq}"},
    )


def _users(alice, carol, regulars) -> dict:
    return {u.player.pk: u for u in [alice, carol, *regulars]}


def _finished(night, position: int) -> bool:
    return next(t for t in tables_of(night) if t["position"] == position)["finished"]


def test_a_members_pending_entry_leaves_the_table_in_play(api, opened, alice, carol, regulars):
    first = tables_of(opened)[0]
    users = _users(alice, carol, regulars)
    stranger = regulars[-1]  # hiro: a member who did not check in, at no table
    assert stranger.player.pk not in {p for t in tables_of(opened) for p in t["players"]}
    session = TableSession.objects.get(code=first["session"])
    entered = _post_result(api, stranger, opened, first["players"])
    assert entered["status"] == "pending"
    assert not _finished(opened, first["position"])
    assert selectors.night_results(opened) == {} and selectors.hand_result_of_session(session.pk) is None
    assert selectors.sessions_settled_by_hand([session.pk]) == set()
    assert selectors.night_standings(opened)["waiting"] == 0  # his entry is not tonight's game
    moved = _move(api, users[first["players"][0]], session)
    assert moved.status_code == 201, moved.content
    session.refresh_from_db()
    assert session.head_seq == 1 and session.status == TableSession.Status.PLAYING
    assert Result.objects.get(pk=entered["id"]).status == Result.Status.PENDING  # his entry is as he left it


def test_the_organisers_entry_settles_the_table_and_its_moves_are_refused(api, opened, alice):
    first = tables_of(opened)[0]
    session = TableSession.objects.get(code=first["session"])
    _post_result(api, alice, opened, first["players"])
    assert _finished(opened, first["position"])
    assert selectors.sessions_settled_by_hand([session.pk]) == {session.pk}
    refused = _move(api, alice, session)
    assert refused.status_code == 409 and "entered this table's result by hand" in refused.json()["detail"]
    session.refresh_from_db()
    assert session.head_seq == 0


def test_a_dispute_of_the_organisers_entry_puts_the_table_back_in_play(api, opened, alice, carol, regulars):
    """Before it counts, a player saying the hand entry is wrong holds it back (disputed, docs/security.md); the
    table it shut is open again, its phones told at once (a new version), so the players can finish it there."""
    first = tables_of(opened)[0]
    users = _users(alice, carol, regulars)
    session = TableSession.objects.get(code=first["session"])
    entered = _post_result(api, alice, opened, first["players"])
    session.refresh_from_db()
    version = session.rebuilds
    disputer = users[next(p for p in first["players"] if p != alice.player.pk)]
    results.result_sign_off(
        result=Result.objects.get(pk=entered["id"]), user=disputer, agreed=False, note="I won that game"
    )
    assert Result.objects.get(pk=entered["id"]).status == Result.Status.DISPUTED
    assert not _finished(opened, first["position"])
    session.refresh_from_db()
    assert session.rebuilds > version  # the phones' next poll shows the table in play
    moved = _move(api, disputer, session)
    assert moved.status_code == 201, moved.content


def test_a_members_entry_settles_the_table_once_every_player_signed_it(api, opened, alice, carol, regulars):
    first = tables_of(opened)[0]
    users = _users(alice, carol, regulars)
    session = TableSession.objects.get(code=first["session"])
    entered = _post_result(api, regulars[-1], opened, first["players"])
    for player in first["players"]:
        assert not _finished(opened, first["position"])
        results.result_sign_off(result=Result.objects.get(pk=entered["id"]), user=users[player])
    assert Result.objects.get(pk=entered["id"]).status == Result.Status.COUNTED
    assert _finished(opened, first["position"])
    assert _move(api, users[first["players"][0]], session).status_code == 409


@pytest.mark.parametrize("role", ["admin"])
def test_an_admin_of_the_club_settles_it_too(api, opened, alice, carol, regulars, role):
    from leagues.models import Membership

    Membership.objects.filter(player=Player.objects.get(user=carol)).update(role=role)
    first = tables_of(opened)[0]
    _post_result(api, carol, opened, first["players"])
    assert _finished(opened, first["position"])
