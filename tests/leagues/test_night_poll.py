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
    with (
        CaptureQueriesContext(connection) as read,
        mock.patch.object(views, "_qr", wraps=views._qr) as qr,
        mock.patch.object(views, "tables_chances", wraps=views.tables_chances) as chances,
    ):
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


def test_the_check_in_poll_is_a_304_while_nobody_comes_or_goes_and_a_200_when_someone_does(season, alice, members):
    """The list's forms in an htmx answer carry no CSRF token of their own (htmx sends the page's): the same names
    are the same bytes, so the phone's poll revalidates to a 304 instead of the whole list every few seconds."""
    from django.test import Client

    night = open_night(season, alice, members[:4], games=[SHITENNO], table_sizes=[4])
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.get(reverse("night_detail", args=[night.pk]))  # the organiser's page: its forms keep a token
    assert "csrfmiddlewaretoken" in page.content.decode()
    token = page.cookies["csrftoken"].value if "csrftoken" in page.cookies else client.cookies["csrftoken"].value
    address = reverse("night_detail", args=[night.pk])
    first = client.get(address, {"part": "present"}, HTTP_HX_REQUEST="true")
    again = client.get(address, {"part": "present"}, HTTP_HX_REQUEST="true")
    assert first.status_code == again.status_code == 200 and "csrfmiddlewaretoken" not in first.content.decode()
    assert first["ETag"] == again["ETag"]
    assert (
        client.get(address, {"part": "present"}, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]).status_code
        == 304
    )

    # A tick from that list, sent as htmx sends it (the page's token in the header), is taken; the list changed.
    newcomer = members[5].player
    ticked = client.post(
        reverse("night_tick", args=[night.pk]),
        {"player": newcomer.pk, "present": "1"},
        HTTP_HX_REQUEST="true",
        HTTP_X_CSRFTOKEN=token,
    )
    assert ticked.status_code == 200 and "Here: 5 players" in ticked.content.decode()
    after = client.get(address, {"part": "present"}, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"] and "Here: 5 players" in after.content.decode()

    # Without the token the tick is refused and nobody more is here.
    refused = client.post(
        reverse("night_tick", args=[night.pk]), {"player": members[6].player.pk, "present": "1"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 403
    assert "Here: 5 players" in client.get(address, {"part": "present"}, HTTP_HX_REQUEST="true").content.decode()
