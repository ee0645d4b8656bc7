"""A season's dates and points once results are in it (issue 50): until a result counts, its end may move later
and its points change, confirmed; its start and an earlier end stay; once one counts, nothing moves. And the race:
a result being entered while the dates change from another phone."""

import datetime

import pytest

from leagues.models import AuditEntry, Season

from ..league_helpers import START, TODAY, enter, league_with_season
from .edit_helpers import season_form, stored

pytestmark = pytest.mark.django_db
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}


LATER_END = (TODAY + datetime.timedelta(days=60)).isoformat()


def test_with_only_a_waiting_result_the_end_moves_later_and_the_points_change_once_confirmed(
    api, season, alice, played
):
    from leagues.models import LeagueJob

    api.login(alice)
    before = stored()
    body = {"ends_on": LATER_END, "points_scheme": "7-5-3-1"}
    answer = api.patch(f"/api/seasons/{season.pk}/", body)
    assert answer.status_code == 409  # first the confirmation: the waiting result will count under them
    assert answer.json()["detail"] == (
        "1 result waits for sign-off in this season and will count under the new dates and points: confirm the change."
    )
    assert stored() == before
    answer = api.patch(f"/api/seasons/{season.pk}/", {**body, "confirm": True})
    assert answer.status_code == 200, answer.content
    season.refresh_from_db()
    assert (season.ends_on.isoformat(), season.points_scheme) == (LATER_END, "7-5-3-1")
    assert LeagueJob.objects.filter(job=LeagueJob.Job.COMPUTE_STANDINGS, target=str(season.pk)).exists()
    assert AuditEntry.objects.filter(action="season.update", object_id=season.pk).exists()


@pytest.mark.parametrize(
    "body",
    [
        {"starts_on": (START - datetime.timedelta(days=1)).isoformat()},
        {"ends_on": TODAY.isoformat()},
    ],
)
def test_with_a_waiting_result_the_start_and_an_earlier_end_stay_even_confirmed(api, season, alice, played, body):
    before = stored()
    answer = api.login(alice).patch(f"/api/seasons/{season.pk}/", {"confirm": True, **body})
    assert answer.status_code == 409
    assert answer.json()["detail"] == (
        "1 result waits for sign-off in this season: its start stays, and its end may only move later."
    )
    assert stored() == before


def test_once_the_result_counts_the_later_end_is_refused_even_confirmed(api, season, alice, counted):
    before = stored()
    answer = api.login(alice).patch(
        f"/api/seasons/{season.pk}/", {"ends_on": LATER_END, "points_scheme": "7-5-3-1", "confirm": True}
    )
    assert answer.status_code == 409
    assert answer.json()["detail"] == "1 result counts in this season already: its dates and points stay as they are."
    assert stored() == before


def test_the_season_page_asks_for_the_confirmation_and_saves_with_it(client, season, alice, played):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/edit/").content.decode()
    assert "1 result waits for sign-off in this season: until one counts, its end may move later" in page
    before = stored()
    data = season_form(season, ends_on=LATER_END, points_scheme="percent")
    answer = client.post(f"/seasons/{season.pk}/edit/", data)
    assert answer.status_code == 409 and "confirm the change" in answer.content.decode()
    assert stored() == before
    answer = client.post(f"/seasons/{season.pk}/edit/", {**data, "confirm": "on"})
    assert answer.status_code == 302
    season.refresh_from_db()
    assert (season.ends_on.isoformat(), season.points_scheme) == (LATER_END, "percent")
    dutch = client.get(f"/seasons/{season.pk}/edit/", **DUTCH).content.decode()
    assert "tot er een meetelt, mag het einde later worden" in dutch


# --- a race: a result written while the season's dates change -----------------------------------------------------


def _waiting_on_a_lock() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def _change_while_held(hold, change, what: str) -> list[str]:
    """Run `hold(held, release)` in one thread (it sets `held` once its transaction holds what it holds, then waits
    for `release`) and `change()` in another once it does; check the change waits on a lock, let the holder commit,
    and give what the change answered: "changed" or its refusal's sentence."""
    import threading
    import time

    from django.db import connection

    from shitenno_site.errors import Conflict

    held, release = threading.Event(), threading.Event()
    answers: list[str] = []

    def holding() -> None:
        try:
            hold(held, release)
        finally:
            held.set()
            connection.close()

    def changing() -> None:
        try:
            change()
            answers.append("changed")
        except Conflict as refusal:
            answers.append(refusal.message)
        finally:
            connection.close()

    holder, changer = threading.Thread(target=holding), threading.Thread(target=changing)
    try:
        holder.start()
        assert held.wait(30)
        changer.start()
        deadline = time.monotonic() + 30  # bounds a hang only: the test waits on the condition
        while not _waiting_on_a_lock() and changer.is_alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _waiting_on_a_lock(), (f"the change never waited for {what}", answers)
        assert answers == []  # still waiting
    finally:
        release.set()
        holder.join(30)
        changer.join(30)
    return answers


@pytest.mark.django_db(transaction=True)
def test_a_date_change_waits_for_a_result_being_entered_into_the_season_and_then_refuses(club, alice, carol):
    """alice's result is being entered into the season (its transaction not yet committed) while she changes the
    season's dates from another phone. The change waits on the season's row, which the entry holds, then sees the
    result and refuses: without that lock it would read the season as empty (the result is not committed; its
    foreign key is checked only at commit) and move the dates away from the result."""
    from django.db import connection, transaction

    from leagues.club import league_edits

    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: PostgreSQL's")
    _league, season = league_with_season(club, alice)

    def enter_a_result(entered, release) -> None:
        with transaction.atomic():
            enter(season, alice, [(alice, 1, 10), (carol, 2, 5)], game="Go", days_ago=0)
            entered.set()
            release.wait(30)

    answers = _change_while_held(
        enter_a_result,
        lambda: league_edits.season_update(season=season, user=alice, starts_on=TODAY + datetime.timedelta(days=1)),
        "the result being entered",
    )
    assert answers == ["1 result waits for sign-off in this season: its start stays, and its end may only move later."]
    assert Season.objects.get(pk=season.pk).starts_on == START


@pytest.mark.django_db(transaction=True)
def test_a_later_end_waits_for_the_last_sign_off_being_made_and_then_refuses_as_the_result_counts(club, alice, carol):
    """carol's sign-off is counting the season's one result (its transaction not yet committed) while alice moves
    the season's end later, confirmed. The change waits on the waiting result's row, which the sign-off holds,
    then sees it count and refuses: without that lock it read the result as still waiting and moved the dates and
    points of a season whose table had just been worked out with the old ones."""
    from unittest import mock

    from django.db import connection, transaction

    from leagues.club import league_edits
    from leagues.result import results

    if connection.vendor != "postgresql":
        pytest.skip("two connections at once: PostgreSQL's")
    _league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 1, 10), (carol, 2, 5)], game="Go", days_ago=0)
    settled = results.notifications.result_settled

    def sign_off(counting, release) -> None:
        def held(settling) -> None:
            """The sign-off has counted the result, inside its transaction: hold it here."""
            settled(settling)
            counting.set()
            release.wait(30)

        with mock.patch.object(results.notifications, "result_settled", held), transaction.atomic():
            results.result_sign_off(result=result, user=carol)

    answers = _change_while_held(
        sign_off,
        lambda: league_edits.season_update(
            season=season,
            user=alice,
            ends_on=season.ends_on + datetime.timedelta(days=30),
            points_scheme="7-5-3-1",
            confirm=True,
        ),
        "the sign-off being made",
    )
    assert answers == ["1 result counts in this season already: its dates and points stay as they are."]
    stored_season = Season.objects.get(pk=season.pk)
    assert (stored_season.ends_on, stored_season.points_scheme) == (season.ends_on, season.points_scheme)
    result.refresh_from_db()
    assert result.status == result.Status.COUNTED
