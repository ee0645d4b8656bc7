"""A league night on phones at 360 px (issue 25): five members check in from the QR's link, the organiser proposes
the tables, swaps two players with two taps and opens the tables; the two-player table's game is played to its end
through the services (a whole Shitennō game by hand would take the test minutes), both players sign the result
off on their phones, and the projected standings of the night, refreshing themselves, show it."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services as game_services
from games.engines.shitenno.simulation import random_legal_game
from games.models import TableSession
from leagues.club import clubs, seasons
from leagues.models import Result
from leagues.nights import seating, selectors
from leagues.people import players

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()
SEED = 7
POLL = 25_000  # the organiser's list polls every 5 s, the standings every 10 s


def _deal_a_known_game(game, number, club, names, count=None):
    """The set-up of a game whose moves the test knows (random_legal_game), instead of the site's own deal."""
    return random_legal_game(SEED, len(names))[0], False


def test_five_phones_check_in_and_the_night_s_standings_follow_a_signed_off_table(
    phone, shoot, monkeypatch, alice, bob, carol, club
):
    club.members_public = True  # the projector needs no log-in
    club.save()
    members = [bob, carol]
    clubs.club_join(token=club.invite_token, user=bob)
    for name in ("erin", "frank", "gina"):
        user = players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        members.append(user)
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Spring",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )

    organiser = phone(alice)  # alice opens tonight's night from the season's page
    organiser.goto(f"/seasons/{season.pk}/nights/")
    organiser.get_by_label("Date").fill(TODAY.isoformat())
    organiser.get_by_label("2", exact=True).check()
    organiser.get_by_label("4", exact=True).uncheck()
    organiser.get_by_role("button", name="Open the night").tap()
    expect(organiser.get_by_role("heading", name="Check in")).to_be_visible()
    night = season.nights.get()
    assert night.table_sizes == [2, 3]
    check_in_url = organiser.locator("#check-in-link").input_value()
    assert check_in_url.endswith(f"/nights/{night.pk}/check-in/")
    expect(organiser.locator(".qr svg")).to_be_visible()
    no_horizontal_scroll(organiser)

    projector = phone(None)
    projector.goto(f"/nights/{night.pk}/standings/")
    expect(projector.locator("#night-standings")).to_contain_text("No game signed off tonight yet.")

    phones = {}
    for user in members:  # each member scans the QR: one tap
        page = phones[user.player.pk] = phone(user)
        page.goto(check_in_url)
        page.get_by_role("button", name="Check in").tap()
        expect(page.locator(".check-in-status")).to_have_text("You are checked in.")
        no_horizontal_scroll(page)
    expect(organiser.locator("#present-title")).to_have_text("Here: 5 players", timeout=POLL)  # its list polls

    organiser.get_by_role("button", name="Propose tables").tap()
    # a server round trip, not a poll: but on a loaded machine it outlasts expect's 5 s (CI: "Open tables" once)
    expect(organiser.locator(".night-table")).to_have_count(2, timeout=POLL)
    three, two = sorted(selectors.round_tables(night.rounds.get()), key=lambda t: -len(t["players"]))
    names = {user.player.pk: user.player.name for user in members}
    moving, staying = three["players"][1], two["players"][0]
    organiser.get_by_role("button", name=names[moving], exact=True).tap()  # the first tap picks him...
    expect(organiser.get_by_role("button", name=names[moving], exact=True)).to_have_attribute("aria-pressed", "true")
    organiser.get_by_role("button", name=names[staying], exact=True).tap()  # ...the second swaps
    small = organiser.locator(".night-table").nth(two["position"])
    expect(small).to_contain_text(names[moving])
    expect(small).not_to_contain_text(names[staying])
    two = next(t for t in selectors.round_tables(night.rounds.get()) if t["position"] == two["position"])
    assert moving in two["players"] and staying not in two["players"]
    no_horizontal_scroll(organiser)
    shoot(organiser, "league-night-organiser")

    monkeypatch.setattr(seating, "dealt_setup", _deal_a_known_game)
    organiser.get_by_role("button", name="Open tables").tap()
    expect(organiser.locator(".night-table .qr svg")).to_have_count(2, timeout=POLL)
    expect(organiser.get_by_role("button", name="Propose the next round")).to_be_visible()
    two = next(t for t in selectors.round_tables(night.rounds.get()) if t["position"] == two["position"])
    session = TableSession.objects.get(code=two["session"])
    assert [s.player_id for s in session.seats.order_by("position")] == two["players"]

    for seq, move in enumerate(random_legal_game(SEED, 2)[1]):  # the table plays its game to the end
        game_services.move_record(session=session, seq=seq, move=move, user=alice)
    result = Result.objects.get(session=session)
    assert result.season_id == season.pk and result.status == "pending"
    for player_id in two["players"]:  # each player signs it off on his phone, from the table's link
        page = phones[player_id]
        page.goto(organiser.locator(f"#table-{two['position']}-title ~ .invite-body a").get_attribute("href"))
        page.locator(".table-result").get_by_role("button", name="Sign off").tap()
        expect(page.locator(".table-result li", has_text=names[player_id])).to_contain_text("signed off")
    result.refresh_from_db()
    assert result.status == "counted"

    rows = projector.locator("table.night-standings tbody tr")  # the projector refreshes by itself
    expect(rows).to_have_count(2, timeout=POLL)
    expect(projector.locator("#night-standings")).to_contain_text("1 game signed off")
    winner = next(e.player for e in result.entries.all() if e.rank == 1)
    expect(rows.first).to_contain_text(winner.name)
    expect(rows.first).to_contain_text("3")
    no_horizontal_scroll(projector)
    shoot(projector, "league-night-standings")
