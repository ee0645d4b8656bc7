"""A two-game night on a phone at 360 px (issue 34): the organiser opens it with one box of Teikoku, eight members
who play either game check in, the proposal gives one table of each game, and a tap sets a table's game, which
proposing again keeps."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.club import clubs, seasons
from leagues.nights import selectors
from leagues.nights import services as night_services
from leagues.people import players

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()


def test_a_two_game_night_gives_one_table_of_each_and_a_tap_sets_a_table_s_game(phone, shoot, alice, carol, club):
    members = [alice, carol]
    for n in range(6):
        user = players.user_sign_up(username=f"p{n}", email=f"p{n}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        members.append(user)
    league = seasons.league_create(club=club, name="Dinsdagcompetitie", games=["shitenno", "teikoku"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Winter",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )

    organiser = phone(alice)
    organiser.goto(f"/seasons/{season.pk}/nights/")
    organiser.get_by_label("Date").fill(TODAY.isoformat())
    organiser.get_by_label("Teikoku", exact=True).check()
    organiser.get_by_label("3", exact=True).uncheck()
    organiser.get_by_label("Boxes of Teikoku tonight").fill("1")
    no_horizontal_scroll(organiser)
    organiser.get_by_role("button", name="Open the night").tap()
    expect(organiser.get_by_role("heading", name="Check in")).to_be_visible()
    night = season.nights.get()
    assert (night.games, night.table_sizes, night.boxes) == (["shitenno", "teikoku"], [4], {"teikoku": 1})
    for user in members:  # the check-ins themselves are the other browser test's
        night_services.night_check_in(night=night, user=user)
    organiser.reload()

    organiser.get_by_role("button", name="Propose tables").tap()
    tables = organiser.locator(".night-table")
    expect(tables).to_have_count(2)
    expect(organiser.locator(".night-table h3", has_text=": Shitennō")).to_have_count(1)
    expect(organiser.locator(".night-table h3", has_text=": Teikoku")).to_have_count(1)
    teikoku = next(t for t in selectors.round_tables(night.rounds.get()) if t["game"] == "teikoku")
    n = teikoku["position"] + 1
    no_horizontal_scroll(organiser)
    shoot(organiser, "league-night-two-games")

    organiser.get_by_role("button", name=f"Play Shitennō at table {n}").tap()  # the Teikoku box stays shut
    expect(organiser.locator(f"#table-{teikoku['position']}-title")).to_have_text(f"Table {n}: Shitennō · locked")
    other = 1 - teikoku["position"]
    expect(organiser.locator(f"#table-{other}-title")).to_have_text(f"Table {other + 1}: Shitennō")
    organiser.get_by_role("button", name="Propose again").tap()  # the tables are still shared out: the other
    expect(organiser.locator(f"#table-{other}-title")).to_have_text(f"Table {other + 1}: Teikoku")  # takes the box
    expect(organiser.locator(f"#table-{teikoku['position']}-title")).to_have_text(f"Table {n}: Shitennō · locked")
    kept = next(t for t in selectors.round_tables(night.rounds.get()) if t["position"] == teikoku["position"])
    assert (kept["game"], kept["players"], kept["locked"]) == ("shitenno", teikoku["players"], True)
    no_horizontal_scroll(organiser)
