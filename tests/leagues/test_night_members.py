# ruff: noqa: F811  (the fixtures imported from test_night_games are parameters here, by name)
"""A member removed from the club (issue 36): he leaves tonight's check-ins and the tables not opened yet, and the
private table he sat at tonight, still being played, no longer lets him read or move. The other players and the
club's admins go on as before."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import selectors as game_selectors
from games.models import TableSession
from leagues.club import clubs
from leagues.models import Membership, NightCheckIn
from leagues.nights import selectors, services

from .test_night_games import SHITENNO, members, open_night, season  # noqa: F401 (fixtures)

# The night is on TONIGHT and the removal clears check-ins from yesterday on: the clock stands on that night.
pytestmark = pytest.mark.usefixtures("on_the_night")


def remove(club, user, by):
    clubs.membership_remove(membership=Membership.objects.get(club=club, player=user.player), user=by)


def test_a_removed_member_leaves_tonight_s_check_ins_and_the_proposed_tables(club, season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    gone = members[3].player.pk
    night_round = services.round_propose(night=night, user=alice)
    his = next(t for t in night_round.tables.all() if gone in t.players)
    services.table_lock(table=his, user=alice)
    remove(club, members[3], alice)
    assert gone not in selectors.night_present(night)
    assert NightCheckIn.objects.get(night=night, player_id=gone).left_at is not None  # the night keeps its record
    his.refresh_from_db()
    assert gone not in his.players and len(his.players) == 3 and not his.locked  # proposed again, it is re-seated
    with pytest.raises(ValidationError, match="not a member"):
        services.night_check_in(night=night, user=alice, player=members[3].player)
    # a latecomer makes eight again: the next proposal seats everyone here, not him
    services.night_check_in(night=night, user=alice, player=members[8].player)
    again = services.round_propose(night=night, user=alice)
    assert gone not in [p for t in selectors.round_tables(again) for p in t["players"]]


def test_his_opened_private_table_no_longer_lets_him_read_or_move(client, club, season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    night_round = services.round_propose(night=night, user=alice)
    services.tables_open(night_round=night_round, user=alice)
    gone = members[3]
    table = next(t for t in selectors.round_tables(night_round) if gone.player.pk in t["players"])
    mate = next(u for u in members[:8] if u.player.pk in table["players"] and u != gone)
    session = TableSession.objects.get(code=table["session"])
    assert not session.is_public
    pages = [
        reverse("table_detail", args=[session.code]),
        f"/api/tables/{session.code}/",
        f"/api/tables/{session.code}/moves/",
    ]
    client.force_login(gone)
    assert [client.get(url).status_code for url in pages] == [200, 200, 200]  # seated: he reads it tonight
    assert game_selectors.session_can_write(session, gone)

    remove(club, gone, alice)
    assert [client.get(url).status_code for url in pages] == [404, 404, 404]
    move = client.post(
        f"/api/tables/{session.code}/moves/",
        {"seq": session.head_seq, "move": {"type": "pass"}},
        content_type="application/json",
    )
    assert move.status_code == 404
    session.refresh_from_db()
    assert session.head_seq == 0 and not session.events.exists()
    assert not game_selectors.session_can_write(TableSession.objects.get(pk=session.pk), gone)
    for user in (mate, alice):  # the other players and the organiser go on
        client.force_login(user)
        assert [client.get(url).status_code for url in pages] == [200, 200, 200]
        assert game_selectors.session_can_write(TableSession.objects.get(pk=session.pk), user)


def test_leaving_the_club_himself_does_the_same(client, club, season, alice, members):
    night = open_night(season, alice, members[:4], games=[SHITENNO], table_sizes=[4])
    services.tables_open(night_round=services.round_propose(night=night, user=alice), user=alice)
    [table] = selectors.round_tables(night.rounds.get())
    remove(club, members[2], members[2])
    client.force_login(members[2])
    assert client.get(f"/api/tables/{table['session']}/").status_code == 404
    assert members[2].player.pk not in selectors.night_present(night)
