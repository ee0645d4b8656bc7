"""Two phones (360 px) at a Teikoku table in the club's league: the game ends while both follow the table, each
phone finds the result under the victory, signs it off with one tap there, and the standings change."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from leagues.club import clubs, seasons
from leagues.models import Result, Standing
from leagues.people.players import player_for_user
from leagues.standings import store as standings_store

from .test_table import LIVE, no_horizontal_scroll, see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()
TWO_CLANS = {"clans": ["fujiwara", "minamoto"], "units_deck": 0, "chosen_specials": ["ninja", "market"]}
DEBT = {"type": "correction", "seat": 1, "from": 1, "to": "supply", "amount": 1, "note": "paid a debt"}
LAST_CARDS = {"type": "cards_leave", "seat": 0, "deck": "yakuza", "count": 4, "note": "card effect"}


def test_each_phone_signs_the_finished_game_off_from_the_table_and_the_standings_change(phone, shoot, alice, bob, club):
    clubs.club_join(token=club.invite_token, user=bob)
    league = seasons.league_create(club=club, name="Teikoku league", games=["teikoku"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Spring",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    session = services.session_create(
        game="teikoku",
        created_by=alice,
        setup=TWO_CLANS,
        club=club,
        players=[player_for_user(alice), player_for_user(bob)],
    )
    services.move_record(session=session, seq=0, move=DEBT, user=alice)
    alice_phone, bob_phone = phone(alice), phone(bob, dark=True)
    for p in (alice_phone, bob_phone):
        p.goto(session.get_absolute_url())
        see_seq(p, 1)

    session.refresh_from_db()
    services.move_record(session=session, seq=1, move=LAST_CARDS, user=alice)  # the Yakuza deck runs out
    for p in (alice_phone, bob_phone):  # the poll brings the victory, and the result below it
        see_seq(p, 2)
        expect(p.locator(".teikoku-victory")).to_be_visible(timeout=LIVE)
        expect(p.locator(".table-result")).to_contain_text("Counts in Spring of Teikoku league.")
        expect(p.locator(".table-result li")).to_have_count(2)
        expect(p.locator(".table-result")).not_to_contain_text("signed off")
        no_horizontal_scroll(p)
    shoot(alice_phone, "table-result-before")
    standings_store.standings_compute(season=season)
    assert not Standing.objects.filter(season=season).exists()  # nothing counts before the sign-offs

    alice_phone.locator(".table-result").get_by_role("button", name="Sign off").tap()
    expect(alice_phone.locator(".table-result li", has_text="alice")).to_contain_text("signed off")
    expect(alice_phone.locator(".table-result").get_by_role("button", name="Sign off")).to_have_count(0)
    result = Result.objects.get(session=session)
    assert result.status == "pending"

    bob_phone.reload()  # bob sees alice's sign-off, then adds his own
    expect(bob_phone.locator(".table-result li", has_text="alice")).to_contain_text("signed off")
    bob_phone.locator(".table-result").get_by_role("button", name="Sign off").tap()
    expect(bob_phone.locator(".table-result .tag")).to_have_text("counted")
    # the undo would now be refused (409): its box says so instead of offering the button
    expect(bob_phone.locator("#table-undo")).to_contain_text("The result counts")
    expect(bob_phone.get_by_role("button", name="Yes, undo it")).to_have_count(0)
    result.refresh_from_db()
    assert result.status == "counted"

    standings_store.standings_compute(season=season)  # the standings job, run here rather than on a worker
    assert Standing.objects.filter(season=season).count() == 2
    bob_phone.locator(".table-result").get_by_role("link", name="The standings").tap()
    rows = bob_phone.locator("table.standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("alice")
    expect(bob_phone.locator("table.standings")).not_to_contain_text("No counted games")
    no_horizontal_scroll(bob_phone)
    shoot(bob_phone, "table-result-standings")
