# ruff: noqa: F811  (the fixtures imported from test_night_games are parameters here, by name)
"""The organiser's check-in list polls every few seconds (issue 34): it builds the names it shows and nothing of the
round (no tables, no win chances, no QR codes), whatever the round holds."""

from unittest import mock

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.nights import services, views

from .test_night_games import SHITENNO, members, open_night, season  # noqa: F401 (fixtures)


def poll(client, night):
    """(queries, QR codes made, chances asked, page) of one check-in poll."""
    with CaptureQueriesContext(connection) as read, \
            mock.patch.object(views, "_qr", wraps=views._qr) as qr, \
            mock.patch.object(views, "tables_chances", wraps=views.tables_chances) as chances:
        page = client.get(reverse("night_detail", args=[night.pk]), {"part": "present"}, HTTP_HX_REQUEST="true")
    assert page.status_code == 200
    return [q["sql"] for q in read.captured_queries], qr.call_count, chances.call_count, page.content.decode()


def test_the_check_in_poll_builds_the_names_not_the_round(client, season, alice, members):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    client.force_login(alice)
    before, _qr, _chances, _page = poll(client, night)
    services.tables_open(night_round=services.round_propose(night=night, user=alice), user=alice)
    with mock.patch.object(views, "_qr", wraps=views._qr) as qr:  # the whole page: check-in's and two tables' QR
        assert 'id="night-round"' in client.get(reverse("night_detail", args=[night.pk])).content.decode()
    assert qr.call_count == 3
    opened, qr_codes, _chances, page = poll(client, night)
    assert qr_codes == 0 and "<svg" not in page and 'id="night-round"' not in page and "Here: 8 players" in page
    services.round_propose(night=night, user=alice)  # round 2 proposed: the round's part would ask win chances
    proposed, _qr, chances, _page = poll(client, night)
    assert chances == 0
    assert len(before) == len(opened) == len(proposed)  # the same reads with no round, an opened one, a proposed one
    assert not [sql for sql in before + opened + proposed if "leagues_nightround" in sql or "leagues_nighttable" in sql]
