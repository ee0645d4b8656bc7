"""One club's whole season on a 360 px phone, in order (issue 34's "Done means"): the pieces the other browser tests
check one by one, chained on one club so that the seams between them are tested too.

Edo Gamers has two leagues, Maandag (Shitennō, Small Samurai Empires) and Dinsdagcompetitie (the same two games and
Teikoku), each with a season over the same dates. Alice imports last year's BG Stats plays: the preview offers to make
the season "2024" of Maandag for its Shitennō plays, she vouches, and the standings and Carol's page show them at
once. Dinsdagcompetitie's season "2024", made afterwards, adopts the Teikoku plays no season took. A Tuesday night
offering Shitennō and Small Samurai Empires to eight members who accept both gives one table of each; the Small
Samurai Empires table's score sheet is filled in to its final count on its own page, its four players sign it off,
and it counts in the night's season of Dinsdagcompetitie, not in Maandag's season of the same dates. Last, the
league is renamed on its page, and the night's table says the new name."""

import datetime
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import BoardSetup
from leagues.club import clubs
from leagues.jobs import outbox
from leagues.models import League, Player, Result, Season
from leagues.nights import selectors
from leagues.nights import services as night_services
from leagues.people import players
from tests.games.engines.samurai_empires.tables import BOARD

from .test_table import LIVE, no_horizontal_scroll, see_seq

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()
STARTS, ENDS = TODAY - datetime.timedelta(days=9), TODAY + datetime.timedelta(days=30)
BGSTATS = Path(__file__).parent.parent / "leagues" / "fixtures" / "imports" / "bgstats.json"
ERAS = [
    {"p0_place0": 2, "p1_place0": 1, "p2_place1": 1, "p3_place2": 1},  # the score sheet's three eras
    {"p0_place1": 1, "p1_place2": 1, "p3_place3": 3},
    {"p0_place3": 1, "p1_place1": 2, "p2_shrines": 4},
]


def _fill(form, fields: dict) -> None:
    for name, value in fields.items():
        form.locator(f'input[name="{name}"]').fill(str(value))


def _new_league(page, club, name: str, games: list[str]) -> League:
    page.goto(club.get_absolute_url())
    page.get_by_role("link", name="New league").click()
    page.get_by_label("Name", exact=True).fill(name)
    for game in games:
        page.get_by_label(game, exact=True).check()
    page.get_by_role("button", name="Create the league").click()
    expect(page.locator("h1")).to_have_text(name)
    return League.objects.get(club=club, name=name)


def _new_season(page, league: League, name: str, starts_on: datetime.date, ends_on: datetime.date) -> Season:
    page.goto(league.get_absolute_url())
    page.get_by_role("link", name="New season").click()
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Starts on").fill(starts_on.isoformat())
    page.get_by_label("Ends on").fill(ends_on.isoformat())
    page.get_by_role("button", name="Create the season").click()
    expect(page.locator("h1")).to_have_text(league.name)
    return Season.objects.get(league=league, name=name)


def _standings(page, season: Season):
    """The season's table on its league's page, once the jobs the worker would run have run."""
    outbox.sweep(older_than=0)  # what the Celery worker does with the standings jobs asked for
    page.goto(f"{season.league.get_absolute_url()}?season={season.pk}")
    return page.locator("#standings")


def _import_last_year(page, club, maandag: League) -> Season:
    """Step 2: the preview offers the season 2024 of the league Alice picks; she vouches and imports."""
    page.goto(club.get_absolute_url())
    page.get_by_role("link", name="Import plays").click()
    page.locator("select[name=kind]").select_option("bgstats")
    page.locator("input[type=file]").set_input_files(str(BGSTATS))
    page.locator("form button.primary").click()
    seasons_part = page.locator(".import-seasons")
    expect(seasons_part).to_contain_text("34 plays of 2024 go to no season")  # two leagues: she chooses
    page.locator("#season-league").select_option(str(maandag.pk))
    page.locator("#import-update").click()
    expect(seasons_part).to_contain_text("17 plays go to a new season 2024 of Maandag (1 Jan 2024 to 31 Dec 2024)")
    expect(seasons_part).to_contain_text("17 plays of 2024 go to no season")  # Maandag counts no Teikoku
    expect(page.locator("#vouch")).not_to_be_checked()  # vouching is her act, never a default
    page.locator("#vouch").check()
    no_horizontal_scroll(page)
    page.locator("#import-commit").click()
    expect(page.locator("#import-progress [role=status]")).to_contain_text("34")
    last_year = Season.objects.get(league=maandag, name="2024")
    assert (last_year.starts_on, last_year.ends_on) == (datetime.date(2024, 1, 1), datetime.date(2024, 12, 31))
    assert Result.objects.filter(club=club, status=Result.Status.COUNTED).count() == 34
    assert Result.objects.filter(season=last_year, game="shitenno").count() == 17
    assert Result.objects.filter(season__isnull=True, game="teikoku").count() == 17
    return last_year


def _two_game_night(page, club, season: Season, members: list) -> tuple:
    """Step 4: the night offers Shitennō and Small Samurai Empires; eight members accept both."""
    page.goto(f"/seasons/{season.pk}/nights/")
    page.get_by_label("Date").fill(TODAY.isoformat())
    page.get_by_label("Shitennō", exact=True).check()
    page.get_by_label("Small Samurai Empires", exact=True).check()
    page.get_by_label("Teikoku", exact=True).uncheck()
    page.get_by_label("3", exact=True).uncheck()
    page.get_by_role("button", name="Open the night").tap()
    expect(page.get_by_role("heading", name="Check in")).to_be_visible()
    night = season.nights.get()
    assert sorted(night.games) == ["samurai_empires", "shitenno"] and night.table_sizes == [4]
    for user in members:  # eight check-ins by QR are tests/browser/test_league_night.py's: here the service
        night_services.night_check_in(night=night, user=user)
    page.reload()
    page.get_by_role("button", name="Propose tables").tap()
    expect(page.locator(".night-table")).to_have_count(2)
    expect(page.locator(".night-table h3", has_text=": Shitennō")).to_have_count(1)
    expect(page.locator(".night-table h3", has_text=": Small Samurai Empires")).to_have_count(1)
    no_horizontal_scroll(page)
    # the club's board, which the new-table page's editor saves in some 40 taps (its own browser test's)
    BoardSetup.objects.create(club=club, game="samurai_empires", name="Our board", board=BOARD)
    page.get_by_role("button", name="Open tables").tap()
    expect(page.locator(".night-table .qr svg")).to_have_count(2)
    return night, next(t for t in selectors.round_tables(night.rounds.get()) if t["game"] == "samurai_empires")


def _play_to_the_end_and_sign_off(organiser, phone, table: dict, by_player: dict) -> Result:
    """Step 5: seat 1's phone fills the score sheet in to its final count; the four players sign it off."""
    link = organiser.locator(f"#table-{table['position']}-title ~ .invite-body a").get_attribute("href")
    seated = [by_player[pk] for pk in table["players"]]
    first = phone(seated[0])
    first.goto(link)
    expect(first.locator("h1")).to_have_text("Small Samurai Empires table")
    for seq, era in enumerate(ERAS, start=1):
        form = first.locator('form[data-move="era_score"]')
        _fill(form, era)
        form.locator("button.primary").click()
        see_seq(first, seq)
    form = first.locator('form[data-move="final_score"]')
    _fill(form, {"p0_resource_points": 1})
    form.get_by_role("button", name="Enter the final count").click()
    see_seq(first, 4)
    expect(first.locator(".final-count .winner")).to_contain_text(f"{seated[0].player.name} wins")
    result_part = first.locator(".table-result")
    expect(result_part).to_contain_text("Counts in Winter of Dinsdagcompetitie.", timeout=LIVE)
    no_horizontal_scroll(first)
    for n, user in enumerate(seated):
        page = first if n == 0 else phone(user)
        if n:
            page.goto(link)
        page.locator(".table-result").get_by_role("button", name="Sign off").tap()
        expect(page.locator(".table-result li", has_text=user.player.name)).to_contain_text("signed off")
    expect(page.locator(".table-result .tag")).to_have_text("counted")
    return Result.objects.get(session__code=table["session"])


def test_one_club_s_whole_season_on_a_phone(phone, alice, carol, club):
    club.members_public = True
    club.save()
    members = [alice, carol]
    for n in range(6):
        user = players.user_sign_up(
            username=f"member{n}", email=f"member{n}@example.org", password="a long passphrase 42"
        )
        clubs.club_join(token=club.invite_token, user=user)
        members.append(user)
    by_player = {Player.objects.get(user=user).pk: user for user in members}
    organiser = phone(alice)

    # 1. two leagues that count the same games, each with a season over the same dates
    maandag = _new_league(organiser, club, "Maandag", ["Shitennō", "Small Samurai Empires"])
    dinsdag = _new_league(organiser, club, "Dinsdagcompetitie", ["Shitennō", "Small Samurai Empires", "Teikoku"])
    autumn = _new_season(organiser, maandag, "Autumn", STARTS, ENDS)
    winter = _new_season(organiser, dinsdag, "Winter", STARTS, ENDS)
    no_horizontal_scroll(organiser)

    # 2. last year's plays, into the season the preview makes; the standings and a player's page show them at once
    last_year = _import_last_year(organiser, club, maandag)
    standings = _standings(organiser, last_year)
    expect(standings).to_contain_text("Hanzo")
    expect(standings).to_contain_text("carol")
    no_horizontal_scroll(organiser)
    organiser.goto(Player.objects.get(user=carol).get_absolute_url())
    record = organiser.locator(".player-stats")
    expect(record).not_to_contain_text("No counted games yet")
    expect(record).to_contain_text(str(Result.objects.filter(club=club, entries__player__user=carol).count()))

    # 3. a season made afterwards, in the other league, adopts the plays of its dates that no season took
    dinsdag_last_year = _new_season(organiser, dinsdag, "2024", datetime.date(2024, 1, 1), datetime.date(2024, 12, 31))
    assert Result.objects.filter(season=dinsdag_last_year).count() == 17
    assert set(Result.objects.filter(season=dinsdag_last_year).values_list("game", flat=True)) == {"teikoku"}
    assert Result.objects.filter(season=last_year).count() == 17  # Maandag's 2024 keeps its own
    expect(_standings(organiser, dinsdag_last_year)).to_contain_text("Hanzo")

    # 4. a two-game night in the second league: one table of each game
    night, table = _two_game_night(organiser, club, winter, members)
    tables = selectors.round_tables(night.rounds.get())
    assert sorted(t["game"] for t in tables) == ["samurai_empires", "shitenno"]
    assert sorted(p for t in tables for p in t["players"]) == sorted(by_player)  # all eight are seated

    # 5. the table's result counts in the night's season of the second league, not in the first's of the same dates
    result = _play_to_the_end_and_sign_off(organiser, phone, table, by_player)
    assert (result.season_id, result.status) == (winter.pk, Result.Status.COUNTED)
    winner = by_player[table["players"][0]].player.name
    expect(_standings(organiser, winter).locator("table.standings")).to_contain_text(winner)
    expect(_standings(organiser, autumn)).not_to_contain_text(winner)
    assert not Result.objects.filter(season=autumn).exists()

    # 6. the league is renamed on its page
    organiser.goto(dinsdag.get_absolute_url())
    organiser.get_by_role("link", name="Edit the league").click()
    organiser.get_by_label("Name", exact=True).fill("Dinsdagavond")
    organiser.get_by_role("button", name="Save the league").click()
    expect(organiser.locator("h1")).to_have_text("Dinsdagavond")
    no_horizontal_scroll(organiser)
    assert League.objects.get(pk=dinsdag.pk).name == "Dinsdagavond"
    organiser.goto(result.session.get_absolute_url())  # the night's table says the league's new name
    expect(organiser.locator(".table-result")).to_contain_text("Counts in Winter of Dinsdagavond.", timeout=LIVE)
