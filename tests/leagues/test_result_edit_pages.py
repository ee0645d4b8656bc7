# ruff: noqa: F811  (the fixtures imported from the night tests are parameters here, by name)
"""A club's organiser corrects or deletes a result on the site, not only through the API (found by walking the
site as a new organiser: a result typed wrong, or for the wrong night table, could not be undone on any page).

The result's Edit opens the entry form filled with it, its version hidden in it; Delete opens a confirmation that
works without script. Both go through the API's services (results.result_update and result_delete), so the same
rules hold: only the club's owners and admins (403 for any other member, nothing changed), a form read before
someone else's change is refused with 409 and nothing written, and every change is in the club's audit trail."""

import datetime
import html

import pytest
from django.urls import reverse

from games.models import TableSession
from leagues.models import AuditEntry, Result, SignOff
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results
from tests.leagues.league_helpers import (
    TODAY,
    enter,
    league_with_season,
    thursday_season,  # noqa: F401 (the `season` fixture)
)
from tests.leagues.test_night_pages import as_user, six, tables_of  # noqa: F401 (fixtures)
from tests.leagues.test_night_results import _enter_on_the_league_page, opened  # noqa: F401 (fixtures)
from tests.leagues.test_nights import night, regulars  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture
def entered(club, alice, carol):
    """alice (the club's owner) typed a game of hers, carol's and Gus's (a guest she added) into the season."""
    _league, season = league_with_season(club, alice)
    gus = player_guest_create(name="Gus", created_by=alice, club=club)
    return enter(season, alice, [(alice, 1, 30), (carol, 2, 20), (gus, 3, 10)])


def _state(result):
    """What an edit or a delete would change: the result's row, its placings, its sign-offs and the audit trail."""
    row = Result.objects.filter(pk=result.pk).values("version", "played_on", "status").first()
    return (
        row,
        sorted(result.entries.values_list("player__name", "rank", "score")) if row else [],
        sorted(SignOff.objects.filter(result_id=result.pk).values_list("player_id", "by_id", "agreed")),
        AuditEntry.objects.count(),
    )


def _edit_data(result, **changes):
    data = {"played_on": result.played_on.isoformat(), "version": result.version}
    for i, entry in enumerate(result.entries.order_by("rank"), start=1):
        score = "" if entry.score is None else entry.score
        data |= {f"player_{i}": entry.player_id, f"rank_{i}": entry.rank, f"score_{i}": score}
    return data | changes


def test_the_organiser_corrects_a_result_on_its_edit_page(client, entered, alice):
    client.force_login(alice)
    url = reverse("result_edit", args=[entered.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["form"]
    assert form["player_1"].value() == str(player_for_user(alice).pk) and form["rank_3"].value() == 3
    assert form["version"].value() == entered.version
    version = entered.version
    carol_row = entered.entries.get(rank=2).player_id
    swapped = _edit_data(
        entered, player_1=carol_row, player_2=player_for_user(alice).pk, next=reverse("results_waiting")
    )
    answer = client.post(url, swapped)
    assert answer.status_code == 302 and answer["Location"] == reverse("results_waiting")
    entered.refresh_from_db()
    assert entered.version == version + 1
    assert entered.entries.get(rank=1).player_id == carol_row
    assert AuditEntry.objects.filter(action="result.edit", object_id=entered.pk, user=alice).exists()
    assert "The result is corrected" in client.get(reverse("results_waiting")).content.decode()


def test_the_organiser_deletes_a_result_after_a_confirmation_without_script(client, entered, alice):
    client.force_login(alice)
    url = reverse("result_delete", args=[entered.pk])
    page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200 and Result.objects.filter(pk=entered.pk).exists()  # a GET deletes nothing
    assert f'name="version" value="{entered.version}"' in body
    answer = client.post(url, {"version": entered.version})
    assert answer.status_code == 302
    assert answer["Location"] == f"{entered.season.league.get_absolute_url()}?season={entered.season_id}"
    assert not Result.objects.filter(pk=entered.pk).exists()
    assert AuditEntry.objects.filter(action="result.delete", object_id=entered.pk, user=alice).exists()
    assert "is deleted" in client.get(answer["Location"]).content.decode()


def test_a_member_who_is_no_organiser_gets_403_and_nothing_changes(client, entered, carol):
    before = _state(entered)
    client.force_login(carol)  # she played in it, but she is a plain member
    edit, delete = reverse("result_edit", args=[entered.pk]), reverse("result_delete", args=[entered.pk])
    assert client.get(edit).status_code == 403
    assert client.post(edit, _edit_data(entered, rank_1=3, rank_3=1)).status_code == 403
    assert client.get(delete).status_code == 403
    assert client.post(delete, {"version": entered.version}).status_code == 403
    assert _state(entered) == before
    league = client.get(entered.season.league.get_absolute_url()).content.decode()
    assert edit not in league and delete not in league  # and no page offers her the links


def test_a_stranger_gets_nothing_either(client, entered, bob):
    before = _state(entered)
    client.force_login(bob)
    for url in (reverse("result_edit", args=[entered.pk]), reverse("result_delete", args=[entered.pk])):
        assert client.post(url, {"version": entered.version}).status_code in (403, 404)
    assert _state(entered) == before


def test_a_form_read_before_someone_else_s_change_is_refused_with_409_and_nothing_written(client, entered, alice):
    client.force_login(alice)
    stale_edit = _edit_data(entered, rank_1=3, rank_3=1)
    stale_delete = {"version": entered.version}
    answer = client.post(reverse("result_edit", args=[entered.pk]), _edit_data(entered, score_1=31))
    assert answer.status_code == 302  # someone (here: alice in another tab) saved a change meanwhile
    before = _state(entered)
    edit = client.post(reverse("result_edit", args=[entered.pk]), stale_edit)
    assert edit.status_code == 409
    assert "Someone changed this result meanwhile" in html.unescape(edit.content.decode())
    delete = client.post(reverse("result_delete", args=[entered.pk]), stale_delete)
    assert delete.status_code == 409
    assert "Someone changed this result meanwhile" in html.unescape(delete.content.decode())
    assert _state(entered) == before


@pytest.mark.parametrize("data", [{}, {"version": "x"}, {"version": "-1"}])
def test_a_delete_without_a_sound_version_is_a_400(client, entered, alice, data):
    before = _state(entered)
    assert as_user(client, alice).post(reverse("result_delete", args=[entered.pk]), data).status_code == 400
    assert _state(entered) == before


def test_the_league_page_offers_the_organiser_edit_and_delete_waiting_or_counted(client, entered, alice, carol):
    links = [reverse("result_edit", args=[entered.pk]), reverse("result_delete", args=[entered.pk])]
    league = entered.season.league.get_absolute_url()
    waiting = as_user(client, alice).get(league).content.decode().split("Waiting for sign-off")[1]
    assert all(link in waiting.split("Recent games")[0] for link in links)
    results.result_sign_off(result=entered, user=carol)
    assert Result.objects.get(pk=entered.pk).status == Result.Status.COUNTED
    recent = client.get(league).content.decode().split("Recent games")[1]
    assert all(link in recent for link in links)


def test_deleting_the_hand_result_on_its_page_puts_the_night_table_back_in_play(client, opened, alice):
    first = tables_of(opened)[0]
    result = _enter_on_the_league_page(client, alice, opened, first["players"])
    session = TableSession.objects.get(code=first["session"])
    assert 'id="table-settled"' in client.get(reverse("table_detail", args=[session.code])).content.decode()
    shown = client.get(reverse("table_result", args=[session.code])).content.decode()
    delete = reverse("result_delete", args=[result.pk])
    assert delete in shown and reverse("result_edit", args=[result.pk]) in shown  # offered on the table's result
    answer = client.post(delete, {"version": result.version, "next": reverse("table_detail", args=[session.code])})
    assert answer.status_code == 302 and answer["Location"] == reverse("table_detail", args=[session.code])
    assert not Result.objects.filter(pk=result.pk).exists()
    page = client.get(answer["Location"]).content.decode()
    assert 'id="table-settled"' not in page and "data-playing" in page


def test_the_edit_form_keeps_every_player_of_a_big_result(client, club, alice):
    """A result with more players than the entry form's six rows (a phones' game, an import) keeps them all."""
    _league, season = league_with_season(club, alice)
    guests = [player_guest_create(name=f"G{i}", created_by=alice, club=club) for i in range(7)]
    # a game the site does not know (Go): Shitennō seats at most four (issue 50)
    result = enter(season, alice, [(alice, 1, None), *((g, i + 2, None) for i, g in enumerate(guests))], game="Go")
    as_user(client, alice)
    form = client.get(reverse("result_edit", args=[result.pk])).context["form"]
    assert len(form.rows()) == 9
    answer = client.post(
        reverse("result_edit", args=[result.pk]),
        _edit_data(result, played_on=(TODAY - datetime.timedelta(days=2)).isoformat()),
    )
    assert answer.status_code == 302
    result.refresh_from_db()
    assert result.entries.count() == 8 and result.played_on == TODAY - datetime.timedelta(days=2)


def test_a_correction_asks_every_player_to_sign_again_as_it_says_not_only_those_whose_places_changed(
    client, club, alice, bob, carol
):
    """Issue 50: the text said "the players whose places changed sign it again" while every sign-off but the
    editor's was dropped. The rule kept is the behaviour (a changed result is another result, so each player agrees
    to it again); the form and the message now say so, in English and Dutch."""
    from tests.leagues.league_helpers import join, sign_all

    join(club, bob)
    _league, season = league_with_season(club, alice)
    gus = player_guest_create(name="Gus", created_by=alice, club=club)
    result = sign_all(enter(season, alice, [(alice, 1, 30), (carol, 2, 20), (gus, 3, 10), (bob, 4, 5)]), carol, bob)
    assert result.status == "counted"
    client.force_login(alice)
    url = reverse("result_edit", args=[result.pk])
    assert "every player signs the result again before it counts, not only those whose places changed" in html.unescape(
        client.get(url).content.decode()
    )
    her, his = player_for_user(carol).pk, gus.pk
    answer = client.post(url, _edit_data(result, player_2=his, player_3=her, next=reverse("results_waiting")))
    assert answer.status_code == 302
    result.refresh_from_db()
    assert result.entries.get(rank=4).player == player_for_user(bob)  # bob's place did not change ...
    assert set(SignOff.objects.filter(result=result).values_list("by_id", flat=True)) == {alice.pk}
    assert result.status == "pending"  # ... and he signs again, as carol does
    page = html.unescape(client.get(reverse("results_waiting")).content.decode())
    assert "every player signs it again; only the sign-offs you gave stay." in page
    result.refresh_from_db()
    client.post(url, _edit_data(result, player_2=her, player_3=his), HTTP_ACCEPT_LANGUAGE="nl")
    page = html.unescape(client.get(reverse("results_waiting"), HTTP_ACCEPT_LANGUAGE="nl").content.decode())
    assert "dan bevestigt elke speler hem opnieuw; alleen de bevestigingen die u gaf blijven." in page
